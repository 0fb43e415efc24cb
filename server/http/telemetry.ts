/**
 * Wires the telemetry into the app (design.md §17): the store observed (telemetry/observed-store.ts), the
 * request histogram and the partner API's outcomes from hooks each route gets as it is added, and
 * with tracing on, @fastify/otel's request spans. Labels take the route's template
 * (`/api/w/verify-status/:requestId`), never the path it was called with; a path no route
 * matches is `unmatched`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { observeStore } from '../telemetry/observed-store.ts';

/** The signed partner API (docs/partner-api.md): each call counted by its outcome. */
export const PARTNER_API_ROUTES: ReadonlySet<string> = new Set([
  '/v1/exchange',
  '/v1/introspect',
  '/api/partner/verify-request',
  '/api/partner/verify-status/:requestId',
  '/api/billing/session',
]);

/** Where a partner API call's outcome waits, from its answer's onSend to its onResponse. */
const OUTCOME = Symbol('svc.partnerApiOutcome');
type WithOutcome = FastifyRequest & { [OUTCOME]: string | null };

/** Probes, called every few seconds: no span of their own. */
const PROBE_ROUTES = new Set(['/healthz', '/readyz']);

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** A catalogue code in an error body: upper case and underscores only (src/protocol/errors.ts). */
const ERROR_CODE = /^\{"error":"([A-Z][A-Z_]*)"/;

/**
 * What a partner API call came to: `OK`, the catalogue code its error body carries, `RATE_LIMITED`
 * for the spec's 429 body (which has no code), or `HTTP_<status>`.
 */
function outcomeOf(reply: FastifyReply, payload: unknown): string {
  if (reply.statusCode < 400) return 'OK';
  const code = typeof payload === 'string' ? ERROR_CODE.exec(payload)?.[1] : undefined;
  if (code) return code;
  return reply.statusCode === 429 ? 'RATE_LIMITED' : `HTTP_${reply.statusCode}`;
}

/**
 * Registers what `deps.telemetry` asks for; returns the deps the routes should be given (their
 * store observed). Without `deps.telemetry`, registers nothing and returns `deps` unchanged.
 *
 * @example deps = await registerTelemetry(app, deps) // in createApp, before any route
 */
export async function registerTelemetry(app: FastifyInstance, deps: AppDeps): Promise<AppDeps> {
  const telemetry = deps.telemetry;
  if (!telemetry) return deps;
  if (telemetry.tracer) {
    // One span per request, named `<method> <route template>`: no hook or handler spans, whose
    // names @fastify/otel takes from the plugin, i.e. an anonymous plugin's whole source text.
    const { FastifyOtelInstrumentation } = await import('@fastify/otel');
    const instrumentation = new FastifyOtelInstrumentation({
      recordExceptions: false,
      instrumentHooks: false,
      instrumentHandler: false,
      ignorePaths: (route) => PROBE_ROUTES.has(route.url),
      requestHook: (span, request) => span.updateName(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`),
    });
    await app.register(instrumentation.plugin());
  }
  const metrics = telemetry.metrics;
  if (metrics) {
    // On the request itself, not in a WeakMap: an entry per request there weighed on every GC.
    app.decorateRequest(OUTCOME, null);
    const observe = (route: string, request: FastifyRequest, reply: FastifyReply) => {
      const status = String(reply.statusCode);
      metrics.httpDuration.observe({ route, method: request.method, status }, reply.elapsedTime / 1000);
      const outcome = (request as WithOutcome)[OUTCOME];
      if (outcome !== null) metrics.partnerApi.inc({ route, outcome });
    };
    // Per route, with its template in the closure: reading request.routeOptions builds an object per call.
    app.addHook('onRoute', (route) => {
      const template = route.url;
      route.onResponse = [
        ...toArray(route.onResponse),
        (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
          observe(template, request, reply);
          done();
        },
      ];
      if (!PARTNER_API_ROUTES.has(template)) return;
      route.onSend = [
        ...toArray(route.onSend),
        (
          request: FastifyRequest,
          reply: FastifyReply,
          payload: unknown,
          done: (error: null, payload: unknown) => void,
        ) => {
          (request as WithOutcome)[OUTCOME] = outcomeOf(reply, payload);
          done(null, payload);
        },
      ];
    });
    // A path no route matches has no route hooks: its own hook, a no-op for every other request.
    app.addHook('onResponse', (request, reply, done) => {
      if (request.is404) observe('unmatched', request, reply);
      done();
    });
  }
  return { ...deps, store: observeStore(deps.store, telemetry) };
}
