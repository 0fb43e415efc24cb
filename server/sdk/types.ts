/**
 * The wire contract as a partner backend meets it: the JSON shapes of the partner API and the
 * billing session, and the few header names and prefixes its own endpoints see.
 *
 * Copied from the service's protocol (`src/protocol/`) on purpose, so that this directory can be
 * published alone; `types.test.ts` fails when a copy drifts from the original.
 */

export type Scope =
  'isAdult' | 'isFrench' | 'isEU' | 'isMale' | 'isFemale' | 'isUnique' | 'revealNationality' | 'revealBirthYear';
export type Method = 'face_check' | 'eudi_wallet';
/** `verification_method`: `face_check`, `eudi_wallet`, or an identity provider's label (`[a-z0-9_]{1,40}`). */
export type VerificationMethod = Method | (string & {});

export interface Attributes {
  age_over_18?: boolean;
  is_male?: boolean;
  is_female?: boolean;
  is_french?: boolean;
  is_eu?: boolean;
  nationality?: string;
  birth_year?: number;
  nullifier?: string;
  verification_method?: VerificationMethod;
  verified_at?: number;
}

/** POST /v1/exchange */
export interface ExchangeResponse {
  pass_token: string;
  expires_in: number;
  token_type: 'Bearer';
  age_over_18?: boolean;
  scopes: Scope[];
  attributes: Attributes;
}

export type PassScope = 'age_verification' | 'identity_verification' | 'multi_scope_verification';

export interface IntrospectActive {
  active: true;
  scope: PassScope;
  exp: number;
  iat: number;
  sub: string;
  attributes: Attributes;
  scopes_verified: Scope[];
  proof_metadata: { proof_count: number; total_generation_time_ms: number };
}

/** POST /v1/introspect */
export type IntrospectResponse = IntrospectActive | { active: false };

/** POST /api/partner/verify-request */
export interface PartnerVerifyRequestCreated {
  request_id: string;
  deep_link: string;
  expires_at: number;
}

/** GET /api/partner/verify-status/:requestId */
export interface VerifyStatus {
  status: 'pending' | 'in_progress' | 'completed' | 'failed' | 'expired';
  expires_at: number;
  result?: { grant_code: string } | { attestation: string };
  /** `claims_missing` and `provider_error`: the identity provider's login did not prove the facts */
  reason?: 'failed' | 'cancelled' | 'claims_missing' | 'provider_error';
}

/** The scopes the billing-session endpoint accepts, in scope_mask bit order (bits 0–3). */
export const BILLING_SCOPES = ['isAdult', 'isFrench', 'isEU', 'isUnique'] as const;
export type BillingScope = (typeof BILLING_SCOPES)[number];

/** POST /api/billing/session */
export interface BillingSessionCreated {
  token: string;
  expires_in: 300;
}

/**
 * Header names as Node presents them (lower case). `grantCode` and `attestation` are what the
 * loader's server-verify mode sends to the partner's own confirm endpoint.
 */
export const SVC_HEADERS = {
  correlationId: 'x-svc-cid',
  idempotencyKey: 'idempotency-key',
  grantCode: 'x-svc-grant-code',
  attestation: 'x-svc-attestation',
} as const;

/** Every grant code starts with this: a confirm endpoint can refuse anything else without a call. */
export const GRANT_CODE_PREFIX = 'g_';
