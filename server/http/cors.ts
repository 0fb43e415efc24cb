/**
 * CORS for what a partner page's script calls (the loader's /api/w/*, design.md §3): any origin and
 * no credentials, so no cookie or header of the visitor's ever rides along; the preflight is
 * answered; only the named response headers are exposed. A route asks for it in its options
 * (`config: { cors: LOADER_CORS }`) and http/route-policy.ts applies it, as `@fastify/cors` is one
 * plugin, never repeated per route. And the Origin header as the use cases read it (a partner's
 * registered domain, the DC API's origin binding): requestOrigin, the one place it is read.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How long a browser may keep a preflight's answer. */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** A route open to any origin: what its path's preflight allows and what the page's script may read. */
export interface CorsPolicy {
  /** what the preflight of the route's path allows, OPTIONS included */
  readonly methods: readonly string[];
  /** the response headers the page's script may read */
  readonly exposeHeaders: readonly string[];
}

/** The loader's create and status (/api/w/verify-request, /api/w/verify-status/:id). */
export const LOADER_CORS: CorsPolicy = {
  methods: ['GET', 'POST', 'OPTIONS'],
  exposeHeaders: ['X-SVC-CID', 'Retry-After'],
};

/** What else the partner page's script posts: the Digital Credentials API's answer, a private attestation's request. */
export const PAGE_POST_CORS: CorsPolicy = { methods: ['POST', 'OPTIONS'], exposeHeaders: ['X-SVC-CID'] };

/** Public files and keys any page may read (the loader, the UI bundle, the attestation key set). */
export const PUBLIC_READ_CORS: CorsPolicy = { methods: ['GET', 'HEAD', 'OPTIONS'], exposeHeaders: [] };

/**
 * The headers every answer of an open route carries, errors included.
 *
 * @example reply.headers(corsHeaders({ methods: ['POST', 'OPTIONS'], exposeHeaders: ['X-SVC-CID'] }))
 */
export function corsHeaders(policy: CorsPolicy): Record<string, string> {
  return policy.exposeHeaders.length > 0
    ? { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': policy.exposeHeaders.join(', ') }
    : { 'Access-Control-Allow-Origin': '*' };
}

/**
 * The handler of an open route's preflight (OPTIONS on its path): 204, the methods, Content-Type
 * and a max age, no credentials.
 */
export function answerPreflight(policy: CorsPolicy) {
  const headers = {
    'Access-Control-Allow-Methods': policy.methods.join(', '),
    'Access-Control-Allow-Headers': 'Content-Type',
    'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
  };
  return async (_request: FastifyRequest, reply: FastifyReply) => reply.code(204).headers(headers).send();
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
