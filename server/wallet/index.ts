/**
 * The EUDI wallet path (design.md §11, §13) behind one small interface for the routes:
 *
 * - `isWalletProvable`: whether a wallet can prove the scopes (isAdult, isFrench, isEU);
 * - `createWalletRequest` → `wallet_link`, `dc_request`, `dc_requests`, and the material the store keeps;
 * - `verifyWalletResponse` for `POST /oid4vp/response/<request_id>` (direct_post);
 * - `verifyDcApiResponse` for what the Digital Credentials API gave the page;
 * - `loadWalletTrust` at boot (SVC_WALLET_TRUST, sandbox fixtures), `walletTrustNotices` for its log;
 * - `createStatusChecker` / `createStatusFetcher` at boot: the credentials' status lists (SVC_WALLET_STATUS);
 * - `loadAccessCertificate` at boot, `readAccessCertificate` and its names for `svc access-cert`: the
 *   certificate that signs requests (docs/design.md §16); `resignRequestObject` and the request
 *   object's media type and nonce rule for `/oid4vp/request/<id>`;
 * - `parseWalletLink`, `walletLinkOf` and the link's constants for `svc wallet present` and the sandbox phone.
 *
 * Verdicts are `verified` (the credential and the facts its requested elements prove), `refused` (the check that failed, a wire-safe
 * description, a log-safe detail from a closed set of our phrases) or `cancelled` (the wallet's
 * `error`, e.g. access_denied).
 * Inside, a room per stage an answer goes through (docs/development.md, "The house"): request/
 * (link, request object, signing), answer/ (direct_post, JWE, DC API: one entry per path), formats/
 * (mdoc, SD-JWT), trust/ (anchors, chains, certificates, status lists); verify.ts holds the two
 * entries. Nothing outside wallet/ imports past this file but the sandbox wallet and issuer
 * (sandbox/wallet/), which play the other side of the protocol with the verifier's own encoders
 * (transcripts, HPKE and JWE sealing, keys); nothing here imports them.
 */
export {
  createWalletRequest,
  parseWalletLink,
  WalletLinkError,
  walletLinkOf,
  walletRequestOf,
  type DcApiRequest,
  type WalletRequest,
  type WalletRequestMaterial,
} from './request/wallet-request.ts';
export {
  allowedWalletFormats,
  isWalletProvable,
  PID_SD_QUERY_ID,
  WALLET_FORMATS,
  type CredentialKind,
  type WalletFormat,
  type WalletFormats,
  type WalletScope,
} from './formats/credentials.ts';
export { type DcRequest } from './request/dc-request.ts';
export { type Oid4vpDcRequest } from './request/oid4vp-dc-request.ts';
export { verifyDcApiResponse, verifyWalletResponse, type RequestView } from './verify.ts';
export { WALLET_CHECKS, type RefusalDetail, type WalletCheck, type WalletVerdict } from './answer/verdict.ts';
export { type FormBody } from './answer/direct-post.ts';
export {
  DEFAULT_WALLET_FIXTURES,
  loadWalletTrust,
  walletTrustNotices,
  type TrustAnchor,
  type WalletTrust,
} from './trust/anchors.ts';
export {
  createStatusChecker,
  createStatusFetcher,
  type StatusChecker,
  type StatusFetcher,
  type StatusPolicy,
} from './trust/status-list.ts';
export { RESPONSE_PATH } from './profile.ts';
export { createEcJwk, toPublicEcJwk } from './keys.ts';
export { validityOf } from './trust/certificates.ts';
export { STATUS_MEDIA_TYPE } from './trust/status-list.ts';
export {
  ACCESS_SECRETS,
  IMPORTED_NAMES,
  loadAccessCertificate,
  pkcs8PemOf,
  readAccessCertificate,
  type AccessCertificate,
} from './request/access-certificate.ts';
export { REQUEST_OBJECT_CONTENT_TYPE, resignRequestObject, WALLET_NONCE } from './request/request-object.ts';
