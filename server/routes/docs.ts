/**
 * OpenAPI 3.1 document of the public surface, built from the routes' own JSON schemas
 * (@fastify/swagger), with Swagger UI at /docs and the document at /docs/json.
 *
 * Registered before every other surface so that it sees their routes. A route appears when it
 * has a schema and is not internal (the sandbox phone, pages, assets, health, the docs
 * themselves). Routes describe their errors with `errorResponses(...)` so that the document
 * lists catalogue codes, and signed routes name `SIGNED_ROUTE_SECURITY`.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ERRORS, TOO_MANY_REQUESTS, type ErrorCode } from '../../src/protocol/errors.ts';
import type { AppDeps } from '../deps.ts';

/** The HMAC headers as OpenAPI security schemes; a signed route requires all four together. */
export const SIGNED_ROUTE_SECURITY: Array<Record<string, string[]>> = [
  { partnerId: [], partnerTimestamp: [], partnerNonce: [], partnerSignature: [] },
];

/** Not part of the public document: sandbox phone, pages, static assets, health, the docs. */
const INTERNAL_PATHS = [/^\/api\/m\//, /^\/m\//, /^\/demo/, /^\/docs/, /^\/healthz/, /^\/v4\//, /^\/$/];

const WIRE_CODES = (Object.keys(ERRORS) as ErrorCode[]).filter((code) => ERRORS[code].status > 0);

/** JSON schema of the error body `{error, message}`. */
export const errorBodySchema = {
  type: 'object',
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', enum: [...WIRE_CODES, TOO_MANY_REQUESTS], description: 'catalogue code' },
    message: { type: 'string', description: 'human-readable; do not parse' },
  },
} as const;

/**
 * Response schemas for the given catalogue codes, grouped by HTTP status, each described by
 * the codes it may carry. Pass `'Too many requests'` for the spec's rate-limit body.
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
    const lines = list.map((code) => (code === TOO_MANY_REQUESTS ? `\`${code}\` (rate limit; honour Retry-After)` : `\`${code}\`: ${ERRORS[code].message}`));
    responses[status] = {
      ...errorBodySchema,
      description: lines.join('\n\n'),
      properties: { ...errorBodySchema.properties, error: { type: 'string', enum: list } },
    };
  }
  return responses;
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

Checks, in order: body size (16 KiB) → MISSING_HEADERS → INVALID_PARTNER → TIMESTAMP_SKEW (±5 minutes) →
INVALID_SIGNATURE → REPLAY_DETECTED (a nonce is single-use per partner across all routes) → body.

Every response carries \`X-SVC-CID\`, a correlation id to quote to support. Errors are \`{error, message}\`;
retry only 429 and 5xx, at most 3 attempts, honouring Retry-After (else 1 s, 2 s, 4 s with jitter).`;

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
        { name: 'partner', description: 'STANDARD rail: exchange a grant code, introspect a pass token (server to server, signed)' },
        { name: 'billing', description: 'ADULT_BLIND rail: session tokens and attestation keys' },
        { name: 'widget', description: 'called by the loader in the browser' },
        { name: 'wallet', description: 'EUDI wallet path (OpenID4VP, EU age-verification profile): called by the wallet' },
      ],
      components: {
        securitySchemes: {
          partnerId: { type: 'apiKey', in: 'header', name: 'X-Partner-ID', description: 'Partner ID, e.g. pk_live_…' },
          partnerTimestamp: { type: 'apiKey', in: 'header', name: 'X-Partner-Timestamp', description: 'Unix time in seconds, decimal' },
          partnerNonce: { type: 'apiKey', in: 'header', name: 'X-Partner-Nonce', description: 'unique per request: a UUID v4 ([A-Za-z0-9_-]{16,64})' },
          partnerSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Partner-Signature',
            description: 'base64url (no padding, 43 characters) of HMAC-SHA256(base64decode(secret), bodyHash.timestamp.partnerId.nonce)',
          },
        },
      },
    },
    transform: ({ schema, url }) => {
      const hide = !schema || INTERNAL_PATHS.some((pattern) => pattern.test(url));
      return { schema: hide ? { ...schema, hide: true } : schema, url };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true, uiConfig: { docExpansion: 'list', deepLinking: true } });
}
