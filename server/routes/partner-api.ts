/**
 * The partner API (docs/partner-api.md: POST /v1/exchange, POST /v1/introspect; design.md §5–6).
 *
 * Order on both routes: body size (Fastify) → partner authentication (preValidation hook) →
 * Content-Type → (exchange: Idempotency-Key →) body → the use case (domain/exchange.ts). Bodies
 * are read by http/body.ts rather than by Fastify's Ajv (off for every route, http/route-policy.ts);
 * the JSON schemas below document the routes and shape the responses, which also drops any field
 * a schema does not name. Both answers carry a pass token or its state: no-store, as every API
 * answer (http/route-policy.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HEADERS } from '../../src/protocol/wire.ts';
import { ATTRIBUTE_TYPE, SCOPES, type AttributeField } from '../../src/protocol/scopes.ts';
import { partnerAuthHook } from '../auth/partner-auth.ts';
import type { AppDeps } from '../deps.ts';
import { exchangeGrant, grantReadWithNonce, introspectPassToken, passTokenReadWithNonce } from '../domain/index.ts';
import { ServiceError } from '../errors.ts';
import { readSoleStringField, requireJsonContentType } from '../http/body.ts';
import { errorResponses, SIGNED_ROUTE_SECURITY } from './docs.ts';

/** design.md §6: 1–128 characters of [A-Za-z0-9_.:-]. */
const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;

const AUTH_ERRORS = [
  'MISSING_HEADERS',
  'INVALID_PARTNER',
  'TIMESTAMP_SKEW',
  'INVALID_SIGNATURE',
  'REPLAY_DETECTED',
] as const;

/** What the schema says of an attribute beyond its type. */
const ATTRIBUTE_DETAILS: Partial<Record<AttributeField, { pattern?: string; description: string }>> = {
  nationality: { description: 'ISO 3166-1 alpha-3' },
  nullifier: { pattern: '^0x[0-9a-f]+$', description: 'unique per user and application' },
};

/** Every field a scope fills, as src/protocol/scopes.ts types it. */
const attributesSchema = {
  type: 'object',
  description: 'only the fields of the scopes requested',
  additionalProperties: false,
  properties: Object.fromEntries(
    Object.entries(ATTRIBUTE_TYPE).map(([field, type]) => [
      field,
      { type, ...ATTRIBUTE_DETAILS[field as AttributeField] },
    ]),
  ),
} as const;

const introspectionAttributesSchema = {
  ...attributesSchema,
  description: 'the fields of the scopes requested, plus how and when they were verified',
  properties: {
    ...attributesSchema.properties,
    verification_method: {
      type: 'string',
      description: "`face_check`, `eudi_wallet`, or an identity provider's label ([a-z0-9_]{1,40})",
    },
    verified_at: { type: 'number', description: 'ms since the Unix epoch' },
  },
} as const;

const scopeListSchema = { type: 'array', items: { type: 'string', enum: [...SCOPES] } } as const;

const idempotencyHeaderSchema = {
  type: 'object',
  properties: {
    'idempotency-key': {
      type: 'string',
      pattern: IDEMPOTENCY_KEY_PATTERN.source,
      description: "optional; a retry with the same key within the grant's lifetime gets the first answer again",
    },
  },
} as const;

const exchangeSchema = {
  tags: ['partner'],
  summary: 'Exchange a grant code for a pass token',
  description:
    'Called from the partner server. A grant code is single use and lives 5 minutes; it belongs to the partner whose widget issued it.',
  security: SIGNED_ROUTE_SECURITY,
  headers: idempotencyHeaderSchema,
  body: {
    type: 'object',
    required: ['grant_code'],
    additionalProperties: false,
    properties: {
      grant_code: { type: 'string', pattern: '^g_', description: 'from #grant_code= in the success redirect' },
    },
  },
  response: {
    200: {
      description: 'the pass token and the verified attributes',
      type: 'object',
      required: ['pass_token', 'expires_in', 'token_type', 'scopes', 'attributes'],
      properties: {
        pass_token: { type: 'string', pattern: '^p_' },
        expires_in: { type: 'integer', description: 'seconds' },
        token_type: { type: 'string', enum: ['Bearer'] },
        age_over_18: { type: 'boolean', description: 'present when isAdult was requested' },
        scopes: scopeListSchema,
        attributes: attributesSchema,
      },
    },
    ...errorResponses([
      ...AUTH_ERRORS,
      'INVALID_REQUEST',
      'INVALID_GRANT',
      'GRANT_INVALID',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'INTERNAL_ERROR',
    ]),
  },
};

const introspectSchema = {
  tags: ['partner'],
  summary: 'Check a pass token',
  description:
    'Answers 200 `{"active": false}` (and nothing else) for an expired, unknown or malformed token, ' +
    'or one issued to another partner (RFC 7662); a client checks `active`.',
  security: SIGNED_ROUTE_SECURITY,
  body: {
    type: 'object',
    required: ['pass_token'],
    additionalProperties: false,
    properties: { pass_token: { type: 'string', description: 'starts with p_' } },
  },
  response: {
    200: {
      description: 'the token\'s state: `{"active": false}` only, or the active shape',
      type: 'object',
      required: ['active'],
      properties: {
        active: { type: 'boolean' },
        scope: { type: 'string', enum: ['age_verification', 'identity_verification', 'multi_scope_verification'] },
        exp: { type: 'number', description: 'expiry, ms since the Unix epoch' },
        iat: { type: 'number', description: 'creation, ms since the Unix epoch' },
        sub: { type: 'string', description: 'verification request id' },
        attributes: introspectionAttributesSchema,
        scopes_verified: scopeListSchema,
        proof_metadata: {
          type: 'object',
          required: ['proof_count', 'total_generation_time_ms'],
          properties: { proof_count: { type: 'integer' }, total_generation_time_ms: { type: 'number' } },
        },
      },
    },
    ...errorResponses([
      ...AUTH_ERRORS,
      'INVALID_REQUEST',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'INTERNAL_ERROR',
    ]),
  },
};

/**
 * Registers POST /v1/exchange and POST /v1/introspect.
 *
 * @example registerPartnerApiRoutes(app, deps)
 */
export function registerPartnerApiRoutes(app: FastifyInstance, deps: AppDeps): void {
  // design.md §23: the nonce and the token the call reads (or the grant it takes) in one store step.
  const exchangeAuth = partnerAuthHook(deps, {
    requireContentType: true,
    readWithNonce: (request, partner) => {
      // Only for a call the route's own checks below will pass: a refused call takes no grant.
      try {
        requireJsonContentType(request);
        const idempotencyKey = readIdempotencyKey(request);
        const grantCode = readSoleStringField(request, 'grant_code');
        return grantReadWithNonce(partner.id, grantCode, idempotencyKey, deps.clock.now());
      } catch {
        return null;
      }
    },
  });
  const introspectAuth = partnerAuthHook(deps, {
    requireContentType: true,
    readWithNonce: (request) => passTokenReadWithNonce(request.body),
  });

  const signed = { auth: 'partner-signature' } as const;
  app.post('/v1/exchange', { schema: exchangeSchema, config: signed, preValidation: exchangeAuth }, async (request) => {
    requireJsonContentType(request);
    const idempotencyKey = readIdempotencyKey(request);
    const grantCode = readSoleStringField(request, 'grant_code');
    return exchangeGrant(deps, request.partner!, { grantCode, idempotencyKey }, request.readAhead);
  });

  app.post(
    '/v1/introspect',
    { schema: introspectSchema, config: signed, preValidation: introspectAuth },
    async (request) => {
      requireJsonContentType(request);
      const passToken = readSoleStringField(request, 'pass_token');
      return introspectPassToken(deps, request.partner!, passToken, request.readAhead);
    },
  );
}

function readIdempotencyKey(request: FastifyRequest): string | null {
  const value = request.headers[HEADERS.idempotencyKey];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new ServiceError('INVALID_REQUEST', {
      message: 'Idempotency-Key must be 1-128 characters of [A-Za-z0-9_.:-].',
      cause: 'idempotency key malformed',
    });
  }
  return value;
}
