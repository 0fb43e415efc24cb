/**
 * The EUDI wallet path (design.md §11, §13) behind one small interface for the routes:
 *
 * - `isWalletProvable`: whether a wallet can prove the scopes (isAdult, isFrench, isEU);
 * - `createWalletRequest` → `wallet_link`, `dc_request`, `dc_requests`, and the material the store keeps;
 * - `verifyWalletResponse` for `POST /oid4vp/response/<request_id>` (direct_post);
 * - `verifyDcApiResponse` for what the Digital Credentials API gave the page;
 * - `loadWalletTrust` at boot (SVC_WALLET_TRUST, sandbox fixtures), `walletTrustNotices` for its log;
 * - `createStatusChecker` / `createStatusFetcher` at boot: the credentials' status lists (SVC_WALLET_STATUS).
 *
 * Verdicts are `verified` (the credential and the facts its requested elements prove), `refused` (the check that failed, a wire-safe
 * description, a log-safe detail from a closed set of our phrases) or `cancelled` (the wallet's
 * `error`, e.g. access_denied).
 * The sandbox wallet and issuer live in sandbox/wallet/, which nothing here imports: the sandbox
 * phone (sandbox/phone-wallet.ts) and `svc wallet present` use them.
 */
export {
  createWalletRequest,
  walletRequestOf,
  type DcApiRequest,
  type WalletRequest,
  type WalletRequestMaterial,
} from './request/wallet-request.ts';
export {
  allowedWalletFormats,
  isWalletProvable,
  WALLET_FORMATS,
  type CredentialKind,
  type WalletFormat,
  type WalletFormats,
  type WalletScope,
} from './formats/credentials.ts';
export { type DcRequest } from './answer/hpke.ts';
export { type Oid4vpDcRequest } from './request/oid4vp-dc-request.ts';
export {
  verifyDcApiResponse,
  verifyWalletResponse,
  WALLET_CHECKS,
  type FormBody,
  type RefusalDetail,
  type RequestView,
  type WalletCheck,
  type WalletVerdict,
} from './verify.ts';
export { loadWalletTrust, walletTrustNotices, type TrustAnchor, type WalletTrust } from './trust/anchors.ts';
export {
  createStatusChecker,
  createStatusFetcher,
  type StatusChecker,
  type StatusFetcher,
  type StatusPolicy,
} from './trust/status-list.ts';
