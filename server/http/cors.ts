/**
 * CORS for what a partner page's script calls (the loader's /api/w/*, design.md §3): any origin and
 * no credentials, so no cookie or header of the visitor's ever rides along; the preflight is
 * answered; only the named response headers are exposed. One function for every such surface, as
 * `@fastify/cors` is one plugin, never repeated per route. And the Origin header as the use cases
 * read it (a partner's registered domain, the DC API's origin binding).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** How long a browser may keep a preflight's answer. */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

export interface OpenCorsOptions {
  /** the paths whose preflight (OPTIONS) is answered */
  paths: readonly string[];
  /** what the preflight allows, OPTIONS included */
  methods: readonly string[];
  /** the response headers the page's script may read */
  exposeHeaders: readonly string[];
}

/**
 * Opens every route of `scope` to any origin, without credentials, and answers the preflight of
 * `paths` with 204. Call it inside the plugin that registers the routes, so it covers those only.
 *
 * @example openCors(widget, { paths: [WIDGET_CREATE_PATH], methods: ['POST', 'OPTIONS'], exposeHeaders: ['X-SVC-CID'] })
 */
export function openCors(scope: FastifyInstance, options: OpenCorsOptions): void {
  const exposed = options.exposeHeaders.join(', ');
  scope.addHook('onRequest', (_request, reply, done) => {
    reply.headers({ 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': exposed });
    done();
  });
  const preflight = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(204)
      .headers({
        'Access-Control-Allow-Methods': options.methods.join(', '),
        'Access-Control-Allow-Headers': 'Content-Type',
        'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
      })
      .send();
  for (const path of options.paths) scope.options(path, preflight);
}

/**
 * The request's Origin header, or null when it is missing or empty.
 *
 * @example requestOrigin(request) // 'https://shop.example'
 */
export function requestOrigin(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  return typeof origin === 'string' && origin !== '' ? origin : null;
}
