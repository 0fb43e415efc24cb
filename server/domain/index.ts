/**
 * The face of domain/: the use cases the HTTP edge (routes/, http/, auth/) calls, and the few
 * values it answers with. Everything else in domain/ is the inside — the request lifecycle
 * (verify-requests.ts), the proving methods (proving-methods.ts), the wallet offer, the result box,
 * pass tokens, nullifiers, token shapes — which the use cases share and the edge never reaches
 * (server/layers.test.ts holds it to that; docs/development.md, "The house").
 *
 * Use cases, by who calls them:
 * - the loader: createWithPartnerId, createWithSessionToken (create), pollWidgetStatus (status),
 *   answerDcApiResponse (a wallet on the partner page), loaderWarnings;
 * - the phone page: openFromPhone, startProviderLogin / finishProviderLogin, answerPhoneDcApiResponse;
 * - a wallet: answerDirectPost, signedRequestObject; its return to the phone page: redeemResponseCode;
 * - the partner backend: createForSignedPartner, pollPartnerStatus, exchangeGrant,
 *   introspectPassToken, createBillingSession; the private attestation's widget:
 *   issuePrivateAttestation, createPrivateAttestationKeys (the key set it blinds for);
 * - operators: checkHealth, checkReadiness, and observeStore (the store as the metrics and traces
 *   see it: verifications, expiries, limits hit).
 */
export { billingAppOf, createBillingSession } from './billing-session.ts';
export {
  createForSignedPartner,
  createWithPartnerId,
  createWithSessionToken,
  type RequestChoices,
  standardPartnerOf,
} from './create-request.ts';
export { exchangeGrant, grantReadWithNonce, introspectPassToken, passTokenReadWithNonce } from './exchange.ts';
export { checkHealth, checkReadiness, READY_TIMEOUT_MS } from './health.ts';
export { loaderWarnings } from './loader-warnings.ts';
export { observeStore } from './observed-store.ts';
export { PARTNER_ID_PATTERN } from './partners.ts';
export { type PhoneHandoff } from './phone-handoff.ts';
export { openFromPhone } from './phone.ts';
export { createPrivateAttestationKeys, issuePrivateAttestation } from './private-attestation.ts';
export { CALLBACK_PATH, finishProviderLogin, startProviderLogin } from './provider-login.ts';
export { encodeQr } from './qr.ts';
export { type LongPoll, pollPartnerStatus, pollWidgetStatus } from './request-status.ts';
export { digestToken } from './tokens.ts';
export { EXPIRED_GRACE_MS, POLL_AFTER_MS } from './verify-requests.ts';
export { redeemResponseCode, redirectUriOf } from './wallet-return.ts';
export {
  answerDcApiResponse,
  answerDirectPost,
  answerPhoneDcApiResponse,
  postedRequestObject,
  signedRequestObject,
  type WalletOutcome,
} from './wallet-response.ts';
