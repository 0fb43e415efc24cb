/** The partner SDK: what a partner backend imports. */
export { createPartnerClient } from './client.ts';
export type {
  Attributes,
  ExchangeResponse,
  IntrospectActive,
  IntrospectResponse,
  PartnerClient,
  PartnerClientOptions,
  PartnerVerifyRequestCreated,
  PassScope,
  ResponseInfo,
  Scope,
  VerifyStatus,
} from './client.ts';
export { SvcApiError, isRetryableStatus } from './errors.ts';
export type { SvcErrorCode } from './errors.ts';
export { DEFAULT_RETRY_POLICY, parseRetryAfterMs, retryDelayMs } from './retry.ts';
export type { RetryPolicy, Sleep } from './retry.ts';
export { canonicalString, computeSignature, hashBody, signRequest } from './signing.ts';
export type { SignedHeaders } from './signing.ts';
export { billingHeaders, createSession } from './billing.ts';
export type { BillingCredentials, BillingScope, CreateSessionInput, CreateSessionOptions, Session } from './billing.ts';
export { AttestationError, clearJwksCache, computeOriginHash, importEd25519Jwk, verifyAttestation, verifyCompactEd25519 } from './attestation.ts';
export type { AttestationErrorCode, AttestationJwk, AttestationJwks, VerifiedAttestation, VerifyAttestationOptions } from './attestation.ts';
