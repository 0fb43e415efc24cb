/**
 * The face of domain/, the one way into it: every caller outside domain/ (routes/, http/, auth/,
 * sandbox/, cli/, boot.ts) imports from here, never a file beside it (server/layers.test.ts holds
 * all of them to that; docs/development.md, "The house"). Everything else in domain/ is the inside —
 * the request lifecycle (verify-requests.ts), the proving methods (proving-methods.ts), the wallet
 * offer, pass tokens — which the use cases share.
 *
 * Use cases, by who calls them:
 * - the loader: createWithPartnerId, createWithSessionToken (create), pollWidgetStatus (status),
 *   answerDcApiResponse (a wallet on the partner page);
 * - the phone page: openFromPhone, startProviderLogin / finishProviderLogin, answerPhoneDcApiResponse;
 * - a wallet: answerDirectPost, signedRequestObject; its return to the phone page: redeemResponseCode;
 * - the partner backend: createForSignedPartner, pollPartnerStatus, exchangeGrant,
 *   introspectPassToken, createBillingSession; the private attestation's widget:
 *   issuePrivateAttestation, createPrivateAttestationKeys (the key set it blinds for);
 * - the sandbox's phone (sandbox/, never in production): findActionableForPhone, and
 *   settlePhoneVerdict for the persona picker's verdict;
 * - operators: checkHealth, checkReadiness; the boot and the CLI: the partners' and identity
 *   providers' fixtures and the rules a registration is checked by.
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
export { loadPartnerFixtures, PARTNER_ID_PATTERN, refuseInsecurePartners } from './partners.ts';
export { findActionableForPhone, type PhoneHandoff } from './phone-handoff.ts';
export { type PhoneVerdict, settlePhoneVerdict } from './phone-verdict.ts';
export { openFromPhone } from './phone.ts';
export { createPrivateAttestationKeys, issuePrivateAttestation } from './private-attestation.ts';
export { CALLBACK_PATH, finishProviderLogin, startProviderLogin } from './provider-login.ts';
export {
  CLIENT_AUTH_METHODS,
  clientIdProblem,
  issuerProblem,
  loadProviderFixtures,
  methodProblem,
  nameProblem,
  newProviderId,
  privateKeyJwkFromPem,
  readClientSecret,
  readProves,
} from './provider-registry.ts';
export { type LongPoll, pollPartnerStatus, pollWidgetStatus } from './request-status.ts';
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
