/**
 * HTTP policy as route data (docs/design.md §1, Caching and HTTP policy): a route states in its `config`
 * what the edge does around it, and this one plugin does it, as `@fastify/rate-limit` and
 * `@fastify/cors` read route options. No route writes these headers, counts or bodies itself.
 *
 *   app.post(path, { schema, config: { rateLimit: RATE_LIMITS.widgetCreate, cors: LOADER_CORS } }, handler)
 *
 * - `noStore` (default true): every answer, error answers included, carries `Cache-Control:
 *   no-store` and `Pragma: no-cache`, since most carry a token, a grant, an attestation or a
 *   request's status (RFC 6749 §5.1 asks it of token answers). Set in onSend, after the handler,
 *   so no route can drop them by accident. `noStore: false`: the route's answers may be cached and
 *   it sets its own Cache-Control (static files, public key sets, the API docs); a plugin's routes
 *   are opted out by allowCachingInScope.
 * - `rateLimit`: a RATE_LIMITS rule counted per client address (`addressKey`), before the route's
 *   own checks (its preValidation hooks, partner authentication included); over it → 429 with
 *   Retry-After. Limits keyed by something only the route knows (a partner, a request) stay there.
 * - `cors`: the route is open to any origin without credentials (http/cors.ts), errors included,
 *   and OPTIONS on its path answers the preflight.
 * - `auth`: how the route knows its caller, checked by its own hooks (the partner signature by
 *   auth/partner-auth.ts); the edge lists it with the rest in docs/routes.md.
 * - `errorShape: 'oauth'`: the wallet routes' refusals (400 INVALID_REQUEST) answer OpenID4VP's
 *   `{error: "invalid_request", error_description}` instead of the catalogue body; the one error
 *   handler (http/error-handler.ts) shapes it.
 *
 * And Ajv stays out of the way, for every route at once: request schemas document the API
 * (OpenAPI, /docs/json) and the handlers read and check bodies, queries and headers themselves
 * (http/body.ts, http/long-poll.ts), in the order their file comments list, since Ajv's defaults
 * coerce types (`{"grant_code": ["g_…"]}` would become a string). Response schemas still shape
 * the answers, dropping any field a schema does not name.
 */
import type { FastifyInstance, onRequestHookHandler, preValidationHookHandler, RouteOptions } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { addressKey } from '../limits/client-address.ts';
import { enforceRateLimit, type RateLimitRule } from '../limits/rate-limits.ts';
import { answerPreflight, corsHeaders, type CorsPolicy } from './cors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: this route's answers may be cached, and it sets its own Cache-Control (default: no-store) */
    noStore?: boolean;
    /** counted per client address before the route's own checks; over it → 429 with Retry-After */
    rateLimit?: RateLimitRule;
    /** open to any origin, without credentials; OPTIONS on the path answers the preflight */
    cors?: CorsPolicy;
    /** 'oauth': a 400 INVALID_REQUEST answers `{error: "invalid_request", error_description}` (OpenID4VP) */
    errorShape?: 'oauth';
    /**
     * 'partner-signature': only a partner's backend calls it, signed (design.md §6), which its
     * own preValidation hook checks (auth/partner-auth.ts); listed in docs/routes.md. Unset: the
     * route reads whatever credential it takes (a handoff or poll token) itself.
     */
    auth?: RouteAuth;
  }
}

/** How a route knows its caller at the edge (FastifyContextConfig.auth). */
export type RouteAuth = 'partner-signature';

/** The headers every answer gets unless its route opts out. */
export const NO_STORE_HEADERS = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

/** A route's policy as the edge applies it, defaults filled in. */
export interface RoutePolicy {
  readonly method: string;
  readonly url: string;
  readonly noStore: boolean;
  readonly rateLimit: string | null;
  readonly cors: boolean;
  /** the methods its path's preflight allows, when open to other origins */
  readonly corsMethods: readonly string[];
  readonly errorShape: 'catalogue' | 'oauth';
  readonly auth: RouteAuth | null;
}

/** Every route's options as registered; read when asked, after every onRoute hook (allowCachingInScope) ran. */
const registered = new WeakMap<FastifyInstance, RouteOptions[]>();

/**
 * Installs the plugin on the root instance, before any route.
 *
 * @example registerRoutePolicy(app, deps) // once, in createApp
 */
export function registerRoutePolicy(app: FastifyInstance, deps: Pick<AppDeps, 'store' | 'clock'>): void {
  app.setValidatorCompiler(() => () => true);
  const routes: RouteOptions[] = [];
  registered.set(app, routes);
  const preflights = new Set<string>();

  app.addHook('onRoute', function (route) {
    routes.push(route);
    const config = route.config ?? {};
    const rule = config.rateLimit;
    if (rule) {
      const limit: preValidationHookHandler = async (request) =>
        enforceRateLimit(deps.store, rule, addressKey(request.ip), deps.clock.now());
      route.preValidation = [limit, ...hooksOf(route.preValidation)];
    }
    const cors = config.cors;
    if (cors) {
      const headers = corsHeaders(cors);
      const open: onRequestHookHandler = (_request, reply, done) => {
        reply.headers(headers);
        done();
      };
      route.onRequest = [open, ...hooksOf(route.onRequest)];
      // The preflight is a route of its own, with the same policy; registered once per path.
      if (!preflights.has(route.url)) {
        preflights.add(route.url);
        this.options(route.routePath, { config: { cors } }, answerPreflight(cors));
      }
    }
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.routeOptions.config.noStore !== false) reply.headers(NO_STORE_HEADERS);
    done(null, payload);
  });
}

/**
 * Every route registered so far with its policy, one row per method (HEAD and the preflights
 * included), for the test that walks them and for docs/routes.md (scripts/routes-doc.ts).
 *
 * @example routePolicies(app).filter((route) => !route.noStore)
 */
export function routePolicies(app: FastifyInstance): RoutePolicy[] {
  return (registered.get(app) ?? []).flatMap((route) =>
    [route.method].flat().map((method) => ({
      method,
      url: route.url,
      noStore: route.config?.noStore !== false,
      rateLimit: route.config?.rateLimit?.name ?? null,
      cors: route.config?.cors !== undefined,
      corsMethods: route.config?.cors?.methods ?? [],
      errorShape: route.config?.errorShape ?? 'catalogue',
      auth: route.config?.auth ?? null,
    })),
  );
}

/**
 * Opts out every route registered after it in `scope` (e.g. a plugin's static files, whose
 * options we do not write).
 *
 * @example await app.register(async (docs) => { allowCachingInScope(docs); await docs.register(swaggerUi, …) })
 */
export function allowCachingInScope(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, noStore: false };
  });
}

function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : ([hooks].flat() as T[]);
}
