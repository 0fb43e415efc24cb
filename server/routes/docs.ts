/**
 * OpenAPI 3.1 document of the public surface, built from the routes' own JSON schemas
 * (@fastify/swagger), with Swagger UI at /docs and the document at /docs/json, both sent
 * compressed when the request accepts it (http/compression.ts).
 *
 * Registered before every other surface so that it sees their routes. A route appears when it
 * has a schema and is not internal (the sandbox phone, pages, assets, health, the docs
 * themselves). Routes describe their own errors with `errorResponses(...)` so that the document
 * lists catalogue codes, and signed routes name `SIGNED_ROUTE_SECURITY`. The errors every route
 * of a kind shares (the HTTP edge's, partner authentication's) are added to each documented
 * route by `documentedErrors`, so that no write route can leave them out.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { createHash } from 'node:crypto';
import { ERRORS, TOO_MANY_REQUESTS, type ErrorCode } from '../../src/protocol/errors.ts';
import type { AppDeps } from '../deps.ts';
import { registerCompression } from '../http/compression.ts';
import { allowCachingInScope } from '../http/route-policy.ts';

/** The HMAC headers as OpenAPI security schemes; a signed route requires all four together. */
export const SIGNED_ROUTE_SECURITY: Array<Record<string, string[]>> = [
  { partnerId: [], partnerTimestamp: [], partnerNonce: [], partnerSignature: [] },
];

/**
 * Not part of the public document: the sandbox's persona picker, pages, static assets, health,
 * the docs. The phone routes production serves (open, a provider's start, its callback) are in.
 */
const INTERNAL_PATHS = [
  /^\/api\/m\/personas/,
  /^\/api\/m\/requests\/[^/]+\/(complete|wallet)$/,
  /^\/m\/v\//,
  /^\/m\/assets/,
  /^\/demo/,
  /^\/docs/,
  /^\/(healthz|readyz)$/,
  /^\/v4\//,
  /^\/$/,
];

const WIRE_CODES = (Object.keys(ERRORS) as ErrorCode[]).filter((code) => ERRORS[code].status > 0);

type DocumentedCode = ErrorCode | typeof TOO_MANY_REQUESTS;

/**
 * Any route may fail unexpectedly, or find the store unreachable or the instance shutting down
 * (http/error-handler.ts, app.ts: 503 with Retry-After).
 */
const EVERY_ROUTE_ERRORS: readonly DocumentedCode[] = ['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
/**
 * A route that reads a body: Fastify's body limit, and a framework-level refusal such as a bad
 * Content-Length or an aborted body (http/error-handler.ts answers both with catalogue codes).
 */
const WRITE_ROUTE_ERRORS: readonly DocumentedCode[] = ['INVALID_REQUEST', 'PAYLOAD_TOO_LARGE'];
/** auth/partner-auth.ts's checks, in order, on every route that names SIGNED_ROUTE_SECURITY. */
export const SIGNED_ROUTE_ERRORS: readonly DocumentedCode[] = [
  'MISSING_HEADERS',
  'INVALID_PARTNER',
  'TIMESTAMP_SKEW',
  'INVALID_SIGNATURE',
  'REPLAY_DETECTED',
];
/** A signed route that reads a body accepts JSON only (http/body.ts, requireJsonContentType). */
const SIGNED_WRITE_ROUTE_ERRORS: readonly DocumentedCode[] = ['UNSUPPORTED_MEDIA_TYPE'];
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** JSON schema of the error body `{error, message}` (and `origin` on the widget's ORIGIN_NOT_ALLOWED). */
export const errorBodySchema = {
  type: 'object',
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', enum: [...WIRE_CODES, TOO_MANY_REQUESTS], description: 'catalogue code' },
    message: { type: 'string', description: 'human-readable; do not parse' },
    origin: {
      type: 'string',
      description: '`ORIGIN_NOT_ALLOWED` from POST /api/w/verify-request only: the `Origin` header the service saw',
    },
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description:
        'POST /api/w/verify-request only, for a body with `attributes`: what the service found in the loader’s ' +
        'attributes, one console line each (docs/embedding.md#warnings)',
    },
  },
} as const;

/** The statuses whose answers carry Retry-After (http/error-handler.ts, limits/rate-limits.ts). */
const RETRY_AFTER_HEADERS: Readonly<Record<number, object>> = {
  429: {
    'Retry-After': {
      type: 'integer',
      minimum: 1,
      description: 'seconds to wait before the next call (the end of the rate-limit window; 60 for `RATE_LIMITED`)',
    },
  },
  503: {
    'Retry-After': { type: 'integer', minimum: 1, description: 'seconds to wait before retrying (1)' },
  },
};

/**
 * Response schemas for the given catalogue codes, grouped by HTTP status, each described by
 * the codes it may carry; a 429 or a 503 also documents its Retry-After header. Pass
 * `'Too many requests'` for the rate-limit body (docs/partner-api.md#every-error-code).
 *
 * @example schema: { response: { 200: okSchema, ...errorResponses(['INVALID_REQUEST', 'INTERNAL_ERROR']) } }
 */
export function errorResponses(codes: ReadonlyArray<ErrorCode | typeof TOO_MANY_REQUESTS>): Record<number, object> {
  const byStatus = new Map<number, Array<ErrorCode | typeof TOO_MANY_REQUESTS>>();
  for (const code of codes) {
    const status = code === TOO_MANY_REQUESTS ? 429 : ERRORS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, object> = {};
  for (const [status, list] of byStatus) {
    const lines = list.map((code) =>
      code === TOO_MANY_REQUESTS
        ? `\`${code}\` (rate limit; honour Retry-After)`
        : `\`${code}\`: ${ERRORS[code].message}`,
    );
    responses[status] = {
      ...errorBodySchema,
      description: lines.join('\n\n'),
      properties: { ...errorBodySchema.properties, error: { type: 'string', enum: list } },
      ...(RETRY_AFTER_HEADERS[status] ? { headers: RETRY_AFTER_HEADERS[status] } : {}),
    };
  }
  return responses;
}

const isDocumentedCode = (code: unknown): code is DocumentedCode =>
  code === TOO_MANY_REQUESTS || (WIRE_CODES as readonly unknown[]).includes(code);

/** A route's own error responses (statuses 400 and up), split by whether they carry catalogue codes. */
function ownErrorResponses(response: unknown): { codes: DocumentedCode[]; foreign: Array<[string, unknown]> } {
  const codes: DocumentedCode[] = [];
  const foreign: Array<[string, unknown]> = [];
  for (const [status, schema] of Object.entries((response ?? {}) as Record<string, unknown>)) {
    if (!(Number(status) >= 400)) continue;
    const error = (schema as { properties?: { error?: { enum?: unknown } } }).properties?.error;
    const listed = Array.isArray(error?.enum) ? (error.enum as unknown[]) : [];
    // Another protocol's error shape (OpenID4VP's `invalid_request` on the wallet routes), or an
    // answer that is no error body at all (a page), is kept as the route wrote it.
    if (error === undefined || (listed.length > 0 && !listed.every(isDocumentedCode))) foreign.push([status, schema]);
    else codes.push(...listed.filter(isDocumentedCode));
  }
  return { codes, foreign };
}

function declaredErrors(response: unknown): DocumentedCode[] {
  return ownErrorResponses(response).codes;
}

/**
 * Every error code a documented route may answer: the ones it declares, plus those every route
 * of its kind shares (any route; a write route; a signed route; a signed write route), in
 * catalogue order with the rate-limit body last.
 *
 * @example documentedErrors('POST', { security: SIGNED_ROUTE_SECURITY }) // MISSING_HEADERS, …, INTERNAL_ERROR
 */
export function documentedErrors(
  method: string | readonly string[],
  schema: { security?: unknown; response?: unknown },
): DocumentedCode[] {
  const write = (typeof method === 'string' ? [method] : method).some((m) => WRITE_METHODS.has(m.toUpperCase()));
  const signed = JSON.stringify(schema.security) === JSON.stringify(SIGNED_ROUTE_SECURITY);
  const codes = new Set<DocumentedCode>([
    ...declaredErrors(schema.response),
    ...EVERY_ROUTE_ERRORS,
    ...(write ? WRITE_ROUTE_ERRORS : []),
    ...(signed ? SIGNED_ROUTE_ERRORS : []),
    ...(signed && write ? SIGNED_WRITE_ROUTE_ERRORS : []),
  ]);
  const rank = (code: DocumentedCode) => (code === TOO_MANY_REQUESTS ? WIRE_CODES.length : WIRE_CODES.indexOf(code));
  return [...codes].sort((a, b) => rank(a) - rank(b));
}

/** The route's schema as the document shows it: its success responses, then every error it may answer. */
function withDocumentedErrors(method: string | readonly string[], schema: FastifySchema): FastifySchema {
  const responses = Object.entries((schema.response ?? {}) as Record<string, unknown>);
  const success = Object.fromEntries(responses.filter(([status]) => !(Number(status) >= 400)));
  const { foreign } = ownErrorResponses(schema.response);
  const taken = new Set(foreign.map(([status]) => Number(status)));
  const derived = Object.entries(errorResponses(documentedErrors(method, schema))).filter(
    ([status]) => !taken.has(Number(status)),
  );
  return { ...schema, response: { ...success, ...Object.fromEntries(derived), ...Object.fromEntries(foreign) } };
}

const DESCRIPTION = `Age verification: the partner API (STANDARD rail), the billing session (ADULT_BLIND rail)
and the widget's internal endpoints.

**Signing.** Exchange, introspection, billing session and the /api/partner/* variants are signed with
HMAC-SHA256:

1. \`bodyString\` = the exact JSON text sent (the empty string for a GET);
2. \`bodyHash\` = base64url (no padding) of SHA-256 over its UTF-8 bytes;
3. \`canonical\` = \`bodyHash.timestamp.partnerId.nonce\`;
4. \`key\` = the Partner Secret **base64-decoded** to bytes;
5. \`X-Partner-Signature\` = base64url (no padding) of HMAC-SHA256(key, canonical).

The four headers are the security schemes below, so a generated client's calls do not take them: add them
per request, over the exact body sent, in the client's middleware (openapi-fetch: \`client.use({ onRequest })\`).

Checks, in order: body size (16 KiB) → MISSING_HEADERS → INVALID_PARTNER → TIMESTAMP_SKEW (±5 minutes) →
INVALID_SIGNATURE → REPLAY_DETECTED (a nonce is single-use per partner across all routes) → body.

Every response carries \`X-SVC-CID\`, a correlation id to quote to support. Errors are \`{error, message}\`;
retry only 429 and 5xx, at most 3 attempts, honouring Retry-After (else 1 s, 2 s, 4 s with jitter).`;

/**
 * Marks every documented Retry-After header required: the service sends it with every 429 and
 * 503 (a generated client then types it as always there). @fastify/swagger copies a response
 * schema's `headers` as they are, where `required: true` would not be valid JSON Schema.
 */
function requireRetryAfter<T extends object>(document: T): T {
  type Responses = Record<string, { headers?: Record<string, { required?: boolean }> }>;
  const paths = (document as { paths?: Record<string, Record<string, { responses?: Responses }>> }).paths ?? {};
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      for (const response of Object.values(operation.responses ?? {})) {
        const header = response.headers?.['Retry-After'];
        if (header) header.required = true;
      }
    }
  }
  return document;
}

/**
 * The `<style>` elements Swagger UI's scripts create: one, inside the SVG logo of its top bar
 * (swagger-ui-standalone-preset.js). Its hash lets exactly that text in; docs.test.ts fails
 * when an upgrade of @fastify/swagger-ui changes the list.
 */
export const SWAGGER_UI_INLINE_STYLES: readonly string[] = [
  '.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}',
];

/**
 * Swagger UI's CSP, for /docs only (its plugin sets it on its own routes; PAGE_CSP and the API's
 * answers are untouched): the plugin's default without its `https:` sources for styles and fonts
 * and without the online validator (`validatorUrl` is null), plus the hash of each inline style
 * Swagger UI creates, and the API's origin for "Try it out" when it is not this one.
 *
 * @example docsCsp('https://api.example.com') // "default-src 'self'; … style-src 'self' 'sha256-…'; …"
 */
export function docsCsp(apiUrl: string): string {
  const styleHashes = SWAGGER_UI_INLINE_STYLES.map(
    (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`,
  );
  return [
    "default-src 'self'",
    "base-uri 'self'",
    `connect-src 'self' ${new URL(apiUrl).origin}`,
    "font-src 'self' data:",
    "frame-ancestors 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    `style-src 'self' ${styleHashes.join(' ')}`,
    'upgrade-insecure-requests',
  ].join('; ');
}

/**
 * Registers the OpenAPI generator and Swagger UI.
 *
 * @example await registerDocs(app, deps) // then GET /docs/json
 */
export async function registerDocs(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Age verification service', version: '1.0.0', description: DESCRIPTION },
      servers: [{ url: deps.config.apiUrl }],
      tags: [
        {
          name: 'partner',
          description: 'STANDARD rail: exchange a grant code, introspect a pass token (server to server, signed)',
        },
        { name: 'billing', description: 'ADULT_BLIND rail: session tokens and attestation keys' },
        { name: 'widget', description: 'called by the loader in the browser' },
        {
          name: 'phone',
          description: 'the phone page: open a request, sign in at an identity provider, and the providers’ callback',
        },
        {
          name: 'wallet',
          description: 'EUDI wallet path (OpenID4VP, EU age-verification profile): called by the wallet',
        },
      ],
      components: {
        securitySchemes: {
          partnerId: { type: 'apiKey', in: 'header', name: 'X-Partner-ID', description: 'Partner ID, e.g. pk_live_…' },
          partnerTimestamp: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Partner-Timestamp',
            description: 'Unix time in seconds, decimal',
          },
          partnerNonce: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Partner-Nonce',
            description: 'unique per request: a UUID v4 ([A-Za-z0-9_-]{16,64})',
          },
          partnerSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Partner-Signature',
            description:
              'base64url (no padding, 43 characters) of HMAC-SHA256(base64decode(secret), bodyHash.timestamp.partnerId.nonce)',
          },
        },
      },
    },
    transformObject: (document) =>
      'openapiObject' in document ? requireRetryAfter(document.openapiObject) : document.swaggerObject,
    transform: ({ schema, url, route }) => {
      const hide = !schema || INTERNAL_PATHS.some((pattern) => pattern.test(url));
      return { schema: hide ? { ...schema, hide: true } : withDocumentedErrors(route.method, schema), url };
    },
  });
  // Swagger UI in a scope of its own, compressed on the fly (its scripts weigh 2 MB as they are).
  await app.register(async (docs) => {
    // Its pages and scripts may be cached; the plugin sets their Cache-Control (http/route-policy.ts).
    allowCachingInScope(docs);
    await registerCompression(docs);
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: docsCsp(deps.config.apiUrl),
      uiConfig: { docExpansion: 'list', deepLinking: true },
    });
  });
}
