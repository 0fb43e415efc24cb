/**
 * What a check of a wallet's answer concludes (design.md §11, §13): `verified` (the credential and
 * the facts its requested elements prove), `refused` (the check that failed, a wire-safe
 * description, a log-safe detail from a closed set of our phrases) or `cancelled` (the wallet's
 * `error`). Nothing here carries credential contents: `detail` is a phrase of ours
 * (`RefusalDetail`), never a value and never a library's text
 * (docs/wallets.md#what-leaves-the-verifier).
 */
import type { ProvenFacts } from '../../rules/facts.ts';
import type { ElementName, ElementProblem, KnownNamespace, PresentedCredential } from '../formats/credentials.ts';
import type { DeviceAuthProblem } from '../formats/device-auth.ts';
import type { DocTypeProblem } from '../formats/device-response.ts';
import type { MsoValidityProblem } from '../formats/mso-validity.ts';
import type { SdJwtProblem } from '../formats/sd-jwt.ts';
import type { CertificateDateProblem } from '../trust/certificate-dates.ts';
import type { ChainProblem } from '../trust/chain.ts';
import type {
  StatusChecker,
  StatusDecision,
  StatusReference,
  StatusTokenProblem,
  UnreachableReason,
} from '../trust/status-list.ts';
import type { SignedAnswerProblem } from './jwe.ts';

/** Wire-safe sentence per check: the `error_description` of the 400 answer. */
export const WALLET_CHECKS = {
  request_expired: 'the verification request has expired',
  request_not_waiting: 'the verification request is not waiting for a response',
  state: 'state does not match the request',
  vp_token: 'vp_token must hold exactly one presentation of a requested credential',
  dc_response: 'the Digital Credentials API response does not open for this request',
  device_response: 'the presentation is not a valid mdoc DeviceResponse',
  doctype: 'the credential is not of the document type requested',
  trust_chain: 'the credential issuer is not trusted',
  certificate_validity: 'an issuer certificate is outside its validity period',
  issuer_signature: 'the issuer signature does not verify',
  mso_validity: 'the credential is outside its validity period',
  digests: 'a disclosed value does not match its issuer digest',
  device_auth: 'the device signature does not cover this request',
  elements: 'a requested element is repeated or not of its type',
  sd_jwt: 'the presentation is not a valid SD-JWT VC',
  key_binding: 'the key binding JWT does not cover this request',
  // Its description is the status list's answer instead (statusRefusal): "credential revoked", …
  status: 'credential status is not valid',
  response: 'a signed request is answered by one JWE, in response, that opens with its key',
} as const;

export type WalletCheck = keyof typeof WALLET_CHECKS;

/**
 * What a refusal's `detail` may say, for the log: a closed set of our own phrases, each at most a
 * line long, so no credential or library text can reach a log line through it.
 */
export type RefusalDetail =
  | 'now is past the request expiry'
  | 'the request was already answered or ended'
  | 'state is missing, repeated or different'
  | 'an error response must carry no vp_token'
  | 'vp_token is missing, mixed, or not one presentation of a requested credential'
  | 'the presentation is not base64url'
  | 'not a Digital Credentials API response of a protocol this request offered'
  | 'no signed request was made for this page’s origin'
  | 'the HPKE envelope does not open for this request and origin'
  | 'the JWE does not open with this request’s key as ECDH-ES and A128GCM, or is not JSON'
  | SignedAnswerProblem
  | 'expected status 0 and exactly one document'
  | 'the DeviceResponse does not decode'
  | 'the library could not evaluate the DeviceResponse'
  | 'the docType is not one the request asked for'
  | DocTypeProblem
  | ElementProblem
  | ChainProblem
  | CertificateDateProblem
  | DeviceAuthProblem
  | MsoValidityProblem
  | LibraryProblem
  | SdJwtProblem
  | 'the MSO status is malformed'
  | Extract<StatusDecision, { ok: false }>['detail']
  | StatusTokenProblem
  | UnreachableReason;

export type WalletVerdict =
  /** `facts`: those of the requested scopes the disclosed elements prove (a missing one: not disclosed) */
  | { status: 'verified'; credential: PresentedCredential; facts: ProvenFacts }
  | { status: 'refused'; check: WalletCheck; description: string; detail: RefusalDetail }
  | { status: 'cancelled'; error: string };

/** A failed @owf/mdoc check in our words (presentation.ts describeLibraryFailure). */
export type LibraryProblem =
  | 'the DS certificate has no country name'
  | 'the issuer signature does not verify'
  | 'the MSO was signed outside the DS certificate validity'
  | 'the MSO is not valid now'
  | 'the MSO has no supported digestAlgorithm'
  | `the MSO has no digests for ${KnownNamespace | 'unexpected_namespace'}`
  | `a disclosed value does not match its digest: ${`${KnownNamespace}/${ElementName}` | 'unexpected_element'}`
  | 'the device signature does not verify'
  | `the library's ${WalletCheck} check failed`;

export function refuse(check: WalletCheck, detail: RefusalDetail): WalletVerdict {
  return { status: 'refused', check, description: WALLET_CHECKS[check], detail };
}

/** A status list's refusal: its own words ("credential revoked", …) are the description (design.md §15). */
function statusRefusal(decision: Extract<StatusDecision, { ok: false }>): WalletVerdict {
  return {
    status: 'refused',
    check: 'status',
    description: decision.detail,
    detail: decision.cause ?? decision.detail,
  };
}

/** The status of a verified credential: null when it may be used (valid, no reference, or not checked). */
export async function checkStatus(
  reference: StatusReference | null,
  status: StatusChecker | undefined,
): Promise<WalletVerdict | null> {
  if (reference === null || status === undefined) return null;
  const decision = await status.check(reference);
  return decision.ok ? null : statusRefusal(decision);
}
