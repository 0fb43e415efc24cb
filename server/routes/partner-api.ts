/**
 * The partner API (spec: Endpoints → POST /v1/exchange, POST /v1/introspect; DESIGN §5–6).
 *
 * Order on both routes: body size (Fastify) → partner authentication (preValidation hook) →
 * Content-Type → body. Bodies are checked here by hand rather than by Fastify's Ajv, whose
 * defaults coerce types (`{"grant_code": ["g_…"]}` would become a string); the JSON schemas
 * below document the routes and shape the responses, which also drops any field a schema does
 * not name.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HEADERS, PREFIX, type ExchangeResponse } from '../../src/protocol/api.ts';
import { SCOPES } from '../../src/protocol/scopes.ts';
import { partnerAuthHook } from '../auth/partner-auth.ts';
import { seal, unseal } from '../crypto/seal.ts';
import type { AppDeps } from '../deps.ts';
import { exchangeResponseOf, INACTIVE, introspectionOf, issuePassToken } from '../domain/pass-tokens.ts';
import { digestToken, isTokenShaped } from '../domain/tokens.ts';
import { ServiceError } from '../errors.ts';
import { readSoleStringField, requireJsonContentType } from '../http/body.ts';
import type { PartnerRecord } from '../store/store.ts';
import { errorResponses, SIGNED_ROUTE_SECURITY } from './docs.ts';

/** DESIGN §6: 1–128 characters of [A-Za-z0-9_.:-]. */
const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
const SEAL_PURPOSE = 'exchange-replay';

const AUTH_ERRORS = ['MISSING_HEADERS', 'INVALID_PARTNER', 'TIMESTAMP_SKEW', 'INVALID_SIGNATURE', 'REPLAY_DETECTED'] as const;

const attributesSchema = {
  type: 'object',
  description: 'only the fields of the scopes requested',
  additionalProperties: false,
  properties: {
    age_over_18: { type: 'boolean' },
    is_male: { type: 'boolean' },
    is_female: { type: 'boolean' },
    is_french: { type: 'boolean' },
    is_eu: { type: 'boolean' },
    nationality: { type: 'string', description: 'ISO 3166-1 alpha-3' },
    birth_year: { type: 'integer' },
    nullifier: { type: 'string', pattern: '^0x[0-9a-f]+$', description: 'unique per user and application' },
  },
} as const;

const introspectionAttributesSchema = {
  ...attributesSchema,
  description: 'the fields of the scopes requested, plus how and when they were verified',
  properties: {
    ...attributesSchema.properties,
    verification_method: { type: 'string', enum: ['face_check', 'eudi_wallet'] },
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
      description: 'optional; a retry with the same key within the grant\'s lifetime gets the first answer again',
    },
  },
} as const;

const exchangeSchema = {
  tags: ['partner'],
  summary: 'Exchange a grant code for a pass token',
  description: 'Called from the partner server. A grant code is single use and lives 5 minutes; it belongs to the partner whose widget issued it.',
  security: SIGNED_ROUTE_SECURITY,
  headers: idempotencyHeaderSchema,
  body: {
    type: 'object',
    required: ['grant_code'],
    additionalProperties: false,
    properties: { grant_code: { type: 'string', pattern: '^g_', description: 'from #grant_code= in the success redirect' } },
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
    ...errorResponses([...AUTH_ERRORS, 'INVALID_REQUEST', 'INVALID_GRANT', 'GRANT_INVALID', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'INTERNAL_ERROR']),
  },
};

const introspectSchema = {
  tags: ['partner'],
  summary: 'Check a pass token',
  description:
    'Answers 200 `{"active": false}` (and nothing else) for an expired, unknown or malformed token, or one issued to another partner (RFC 7662); a client checks `active`.',
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
    ...errorResponses([...AUTH_ERRORS, 'INVALID_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'INTERNAL_ERROR']),
  },
};

/** Ajv stays out of the way (see the file comment); the handlers validate. */
const documentOnly = () => () => true;

/**
 * Registers POST /v1/exchange and POST /v1/introspect.
 *
 * @example registerPartnerApiRoutes(app, deps)
 */
export function registerPartnerApiRoutes(app: FastifyInstance, deps: AppDeps): void {
  const auth = partnerAuthHook(deps, { requireContentType: true });

  app.post('/v1/exchange', { schema: exchangeSchema, validatorCompiler: documentOnly, preValidation: auth }, async (request) => {
    const partner = request.partner!;
    requireJsonContentType(request);
    const idempotencyKey = readIdempotencyKey(request);
    const grantCode = readSoleStringField(request, 'grant_code');
    if (!grantCode.startsWith(PREFIX.grant)) throw new ServiceError('INVALID_GRANT', { cause: 'grant_code lacks the g_ prefix' });
    return exchange(deps, partner, grantCode, idempotencyKey);
  });

  app.post('/v1/introspect', { schema: introspectSchema, validatorCompiler: documentOnly, preValidation: auth }, async (request) => {
    const partner = request.partner!;
    requireJsonContentType(request);
    const passToken = readSoleStringField(request, 'pass_token');
    if (!isTokenShaped(passToken, 'pass')) return INACTIVE;
    const record = await deps.store.getPassToken(digestToken(passToken), deps.clock.now());
    // Another partner's token answers exactly like an unknown one (DESIGN §5).
    if (!record || record.partnerId !== partner.id) return INACTIVE;
    return introspectionOf(record);
  });
}

async function exchange(deps: AppDeps, partner: PartnerRecord, grantCode: string, idempotencyKey: string | null): Promise<ExchangeResponse> {
  const grantDigest = digestToken(grantCode);
  if (idempotencyKey !== null) {
    const replayed = await findReplay(deps, partner, idempotencyKey, grantCode, grantDigest);
    if (replayed) return replayed;
  }

  const now = deps.clock.now();
  const grant = isTokenShaped(grantCode, 'grant') ? await deps.store.consumeGrant(grantDigest, now) : null;
  if (!grant) {
    // A retry racing its own first attempt: the first may have stored its answer meanwhile.
    const replayed = idempotencyKey === null ? null : await findReplay(deps, partner, idempotencyKey, grantCode, grantDigest);
    if (replayed) return replayed;
    throw new ServiceError('GRANT_INVALID', { cause: 'grant unknown, expired or already used' });
  }
  // Consumed even so: a grant code another partner holds has leaked and is worthless from now on.
  if (grant.partnerId !== partner.id) throw new ServiceError('GRANT_INVALID', { cause: 'grant belongs to another partner' });

  const { passToken, record } = issuePassToken(grant, now);
  await deps.store.putPassToken(record);
  const response = exchangeResponseOf(passToken, record);
  if (idempotencyKey !== null) {
    await deps.store.putExchangeReplay({
      partnerId: partner.id,
      idempotencyKey,
      grantDigest,
      sealedResponse: seal(grantCode, SEAL_PURPOSE, JSON.stringify(response)),
      expiresAt: grant.expiresAt,
    }, now);
  }
  return response;
}

/** The first answer for this key, if this same grant code produced it; GRANT_INVALID for another code. */
async function findReplay(deps: AppDeps, partner: PartnerRecord, key: string, grantCode: string, grantDigest: string): Promise<ExchangeResponse | null> {
  const replay = await deps.store.getExchangeReplay(partner.id, key, deps.clock.now());
  if (!replay) return null;
  if (replay.grantDigest !== grantDigest) throw new ServiceError('GRANT_INVALID', { cause: 'idempotency key was used with another grant code' });
  const plaintext = unseal(grantCode, SEAL_PURPOSE, replay.sealedResponse);
  if (plaintext === null) throw new ServiceError('GRANT_INVALID', { cause: 'stored replay does not open with this grant code' });
  return JSON.parse(plaintext) as ExchangeResponse;
}

function readIdempotencyKey(request: FastifyRequest): string | null {
  const value = request.headers[HEADERS.idempotencyKey];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new ServiceError('INVALID_REQUEST', { message: 'Idempotency-Key must be 1-128 characters of [A-Za-z0-9_.:-].', cause: 'idempotency key malformed' });
  }
  return value;
}
