/**
 * Answers are not cached, by default (docs/design.md §1, Caching): every answer, error answers
 * included, carries `Cache-Control: no-store` and `Pragma: no-cache` (for HTTP/1.0 caches), since
 * most carry a token, a grant, an attestation or a request's status (RFC 6749 §5.1 asks it of
 * token answers). A route whose answer may be cached says so in its options and sets its own
 * Cache-Control:
 *
 *   app.get('/v4/loader.min.js', { config: { noStore: false } }, handler)
 *
 * A route registered by a plugin (Swagger UI) is opted out by an onRoute hook in its scope; see
 * allowCachingInScope. The headers are set in onSend, after the handler, so no route can drop them
 * by accident.
 */
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: this route's answers may be cached, and it sets its own Cache-Control (default: no-store) */
    noStore?: boolean;
  }
}

/** The headers every answer gets unless its route opts out. */
export const NO_STORE_HEADERS = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

/** @example registerNoStore(app) // in createApp, before any route */
export function registerNoStore(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.routeOptions.config.noStore !== false) reply.headers(NO_STORE_HEADERS);
    done(null, payload);
  });
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
