/**
 * The partner SDK: what a partner backend imports, and the only file it should import from.
 * Everything here is `node:` modules and files of this directory, so it can be published alone.
 */
export { createPartnerClient } from './client.ts';
export type { PartnerClient, PartnerClientOptions } from './client.ts';
export type { ResponseInfo } from './request.ts';
export { BILLING_SCOPES, GRANT_CODE_PREFIX, SVC_HEADERS } from './types.ts';
export type {
  Attributes,
  BillingScope,
  BillingSessionCreated,
  ExchangeResponse,
  IntrospectActive,
  IntrospectResponse,
  Method,
  PartnerVerifyRequestCreated,
  PassScope,
  Scope,
  VerifyStatus,
} from './types.ts';
export { SCOPE_FIELD, SCOPES, WALLET_SCOPES, findScopeProblem, isScope } from './scopes.ts';
export type { ScopeProblem } from './scopes.ts';
export { SvcApiError, isRetryableStatus } from './errors.ts';
export type { SvcErrorCode } from './errors.ts';
export { DEFAULT_RETRY_POLICY, parseRetryAfterMs, retryDelayMs } from './retry.ts';
export type { RetryPolicy, Sleep } from './retry.ts';
export { canonicalString, computeSignature, hashBody, signRequest } from './signing.ts';
export type { SignedHeaders } from './signing.ts';
export { billingHeaders, createSession } from './billing.ts';
export type { BillingCredentials, CreateSessionInput, CreateSessionOptions, Session } from './billing.ts';
export {
  AttestationError,
  clearJwksCache,
  computeOriginHash,
  importEd25519Jwk,
  verifyAttestation,
  verifyCompactEd25519,
} from './attestation.ts';
export type {
  AttestationErrorCode,
  AttestationJwk,
  AttestationJwks,
  VerifiedAttestation,
  VerifyAttestationOptions,
} from './attestation.ts';
export { PrivateAttestationError, serializeTokenChallenge, verifyPrivateAttestation } from './private-attestation.ts';
export type {
  PrivateAttestationErrorCode,
  PrivateAttestationKey,
  PrivateAttestationKeySet,
  VerifiedPrivateAttestation,
  VerifyPrivateAttestationOptions,
} from './private-attestation.ts';
