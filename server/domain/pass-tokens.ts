/**
 * Grants become pass tokens (docs/partner-api.md: POST /v1/exchange, POST /v1/introspect;
 * design.md §5): the pass token a grant is worth and the two answers' shapes. Pure functions: the
 * use cases in exchange.ts do the store calls.
 */
import type { Attributes, ExchangeResponse, IntrospectActive, PassScope } from '../../src/protocol/wire.ts';
import { LIMITS } from '../../src/protocol/wire.ts';
import { SCOPE_FIELD, type Scope } from '../../src/protocol/scopes.ts';
import type { GrantRecord, PassTokenRecord } from '../store/store.ts';
import { digestToken, newToken } from '../crypto/tokens.ts';

/**
 * Only the attributes a requested scope names (minimal disclosure), whatever else the record
 * may hold.
 *
 * @example disclosedAttributes(['isAdult'], { age_over_18: true, is_french: true }) // { age_over_18: true }
 */
export function disclosedAttributes(scopes: readonly Scope[], attributes: Attributes): Attributes {
  const disclosed: Record<string, unknown> = {};
  for (const scope of scopes) {
    const field = SCOPE_FIELD[scope];
    if (attributes[field] !== undefined) disclosed[field] = attributes[field];
  }
  return disclosed as Attributes;
}

/**
 * The introspection `scope` (design.md §5): age_verification for exactly [isAdult],
 * identity_verification for exactly one other scope, multi_scope_verification otherwise.
 *
 * @example passScopeOf(['isFrench']) // 'identity_verification'
 */
export function passScopeOf(scopes: readonly Scope[]): PassScope {
  if (scopes.length === 1) return scopes[0] === 'isAdult' ? 'age_verification' : 'identity_verification';
  return 'multi_scope_verification';
}

/**
 * Issues the pass token a consumed grant is worth. The record holds the token's digest only,
 * the disclosed attributes and how they were verified.
 *
 * @example const { passToken, record } = issuePassToken(grant, clock.now()); await store.putPassToken(record);
 */
export function issuePassToken(grant: GrantRecord, now: number): { passToken: string; record: PassTokenRecord } {
  const passToken = newToken('pass');
  return { passToken, record: passTokenRecordOf(grant, passToken, now) };
}

/**
 * The record of pass token `passToken` issued for `grant` at `now`: its digest only, the disclosed
 * attributes and how they were verified. Pure, so the store can run it inside the step that takes
 * the grant (design.md §23); Redis's script builds the same record from `NonceRead.issueAs`
 * (store/redis/nonces-replay.ts), and the store tests compare the two.
 *
 * @example const record = passTokenRecordOf(grant, newToken('pass'), clock.now())
 */
export function passTokenRecordOf(
  grant: GrantRecord,
  passToken: string,
  now: number,
  digest = digestToken(passToken),
): PassTokenRecord {
  return {
    digest,
    partnerId: grant.partnerId,
    requestId: grant.requestId,
    scopes: [...grant.scopes],
    attributes: {
      ...disclosedAttributes(grant.scopes, grant.attributes),
      verification_method: grant.method,
      verified_at: grant.verifiedAt,
    },
    method: grant.method,
    issuedAt: now,
    expiresAt: passTokenExpiryOf(now),
    generationTimeMs: grant.generationTimeMs,
  };
}

/** When a pass token issued at `now` expires (docs/partner-api.md: 4 hours). */
export function passTokenExpiryOf(now: number): number {
  return now + LIMITS.passTokenTtlSeconds * 1000;
}

/**
 * The exchange answer (docs/partner-api.md, the exchange's 200): `age_over_18` at the top level only when
 * isAdult was requested; attributes without the introspection-only fields.
 *
 * @example exchangeResponseOf(passToken, record) // { pass_token, expires_in: 14400, token_type: 'Bearer', … }
 */
export function exchangeResponseOf(passToken: string, record: PassTokenRecord): ExchangeResponse {
  const attributes = disclosedAttributes(record.scopes, record.attributes);
  const response: ExchangeResponse = {
    pass_token: passToken,
    expires_in: Math.round((record.expiresAt - record.issuedAt) / 1000),
    token_type: 'Bearer',
    scopes: [...record.scopes],
    attributes,
  };
  if (record.scopes.includes('isAdult') && attributes.age_over_18 !== undefined) {
    return { ...response, age_over_18: attributes.age_over_18 };
  }
  return response;
}

/**
 * The active introspection answer (docs/partner-api.md, the introspection's 200 for an active token); times in ms.
 *
 * @example introspectionOf(record) // { active: true, scope: 'age_verification', exp, iat, sub: 'vr_…', … }
 */
export function introspectionOf(record: PassTokenRecord): IntrospectActive {
  // Built in place rather than by spreads: this runs on every signed introspection.
  const attributes = disclosedAttributes(record.scopes, record.attributes) as IntrospectActive['attributes'];
  attributes.verification_method = record.attributes.verification_method ?? record.method;
  if (record.attributes.verified_at !== undefined) attributes.verified_at = record.attributes.verified_at;
  return {
    active: true,
    scope: passScopeOf(record.scopes),
    exp: record.expiresAt,
    iat: record.issuedAt,
    sub: record.requestId,
    attributes,
    scopes_verified: [...record.scopes],
    proof_metadata: { proof_count: record.scopes.length, total_generation_time_ms: record.generationTimeMs },
  };
}

/** The inactive answer: the same bytes for unknown, expired, malformed and foreign tokens. */
export const INACTIVE = Object.freeze({ active: false as const });
