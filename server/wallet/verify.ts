/**
 * Checks a wallet's answer (DESIGN §11), each failure named by the check that refused it:
 *
 *   request_expired, request_not_waiting → state → (error → cancelled) → vp_token →
 *   device_response → doctype → trust_chain, certificate_validity (the path and the DS profile,
 *   trust-chain.ts) → device_auth (ours: a detached device signature, device-auth.ts) →
 *   issuer_signature, mso_validity, digests, device_auth (by @owf/mdoc) → mso_validity (ours: the
 *   window's order and the signing date, mso-validity.ts) → device_auth (ours: over this request's
 *   transcript) → age_over_18
 *
 * The DC API answer skips state and vp_token and starts with dc_response (HPKE).
 * Nothing here logs or returns credential contents: `detail` is a phrase of ours from a closed set
 * (`RefusalDetail`), never a value and never a library's text, which can quote the credential's
 * namespace and element names (issue 16, finding 6).
 * Single use is the store's: the route completes the request with a compare-and-set, so a second
 * post finds it no longer waiting.
 */
import { type Openid4vpAuthorizationRequest, parseOpenid4vpAuthorizationResponse } from '@openid4vc/openid4vp';
import { type Document, type SessionTranscript, type VerificationAssessment, Verifier } from '@owf/mdoc';
import { createHash, timingSafeEqual } from 'node:crypto';
import { openDcResponse, readDcResponseField } from './dc-api.ts';
import { checkDeviceAuthShape, type DeviceAuthProblem, verifyDeviceSignature } from './device-auth.ts';
import { decodeBase64Url } from './keys.ts';
import {
  type CertificateDateProblem,
  checkDocTypes,
  createDcapiSessionTranscript,
  decodeDeviceResponse,
  type DocTypeProblem,
} from './library-gaps.ts';
import { mdocContext } from './mdoc-context.ts';
import { checkMsoValidity, type MsoValidityProblem } from './mso-validity.ts';
import { AV_CLAIM, AV_DOCTYPE, AV_NAMESPACE, CREDENTIAL_QUERY_ID, MSO_SKEW_SECONDS } from './profile.ts';
import { authorizationRequestOf, createOid4VpSessionTranscript, type WalletRequestMaterial } from './request.ts';
import { type ChainProblem, evaluateIssuerChain } from './trust-chain.ts';
import type { WalletTrust } from './trust.ts';

/** Wire-safe sentence per check: the `error_description` of the 400 answer. */
export const WALLET_CHECKS = {
  request_expired: 'the verification request has expired',
  request_not_waiting: 'the verification request is not waiting for a response',
  state: 'state does not match the request',
  vp_token: 'vp_token must hold exactly one proof_of_age presentation',
  dc_response: 'the Digital Credentials API response does not open for this request',
  device_response: 'the presentation is not a valid mdoc DeviceResponse',
  doctype: 'the credential is not an eu.europa.ec.av.1 proof of age',
  trust_chain: 'the credential issuer is not trusted',
  certificate_validity: 'an issuer certificate is outside its validity period',
  issuer_signature: 'the issuer signature does not verify',
  mso_validity: 'the credential is outside its validity period',
  digests: 'a disclosed value does not match its issuer digest',
  device_auth: 'the device signature does not cover this request',
  age_over_18: 'the credential does not disclose age_over_18',
} as const;

export type WalletCheck = keyof typeof WALLET_CHECKS;

/** A failed @owf/mdoc check in our words (describeLibraryFailure). */
type LibraryProblem =
  | 'the DS certificate has no country name'
  | 'the issuer signature does not verify'
  | 'the MSO was signed outside the DS certificate validity'
  | 'the MSO is not valid now'
  | 'the MSO has no supported digestAlgorithm'
  | `the MSO has no digests for ${typeof AV_NAMESPACE | 'unexpected_namespace'}`
  | `a disclosed value does not match its digest: ${`${typeof AV_NAMESPACE}/${typeof AV_CLAIM}` | 'unexpected_element'}`
  | 'the device signature does not verify'
  | `the library's ${WalletCheck} check failed`;

/**
 * What a refusal's `detail` may say, for the log: a closed set of our own phrases, each at most a
 * line long, so no credential or library text can reach a log line through it.
 */
export type RefusalDetail =
  | 'now is past the request expiry'
  | 'the request was already answered or ended'
  | 'state is missing, repeated or different'
  | 'an error response must carry no vp_token'
  | 'vp_token is missing, mixed, or not one proof_of_age presentation'
  | 'the presentation is not base64url'
  | 'not an org-iso-mdoc response'
  | 'the HPKE envelope does not open for this request and origin'
  | 'expected status 0 and exactly one document'
  | 'the DeviceResponse does not decode'
  | 'the library could not evaluate the DeviceResponse'
  | 'no single boolean age_over_18 in the issuer-signed namespace'
  | DocTypeProblem
  | ChainProblem
  | CertificateDateProblem
  | DeviceAuthProblem
  | MsoValidityProblem
  | LibraryProblem;

export type WalletVerdict =
  | { status: 'verified'; ageOver18: boolean }
  | { status: 'refused'; check: WalletCheck; description: string; detail: RefusalDetail }
  | { status: 'cancelled'; error: string };

/** What the route knows about the verification request this answer is for. */
export interface RequestView {
  /** status is still waiting (not approved, failed, cancelled or already answered) */
  waiting: boolean;
  /** ms since the epoch */
  expiresAt: number;
}

interface CommonInput {
  material: WalletRequestMaterial;
  trust: WalletTrust;
  request: RequestView;
  /** ms since the epoch */
  now: number;
}

export type FormBody = string | URLSearchParams | Readonly<Record<string, string | readonly string[] | undefined>>;

function refuse(check: WalletCheck, detail: RefusalDetail): WalletVerdict {
  return { status: 'refused', check, description: WALLET_CHECKS[check], detail };
}

function checkRequest(request: RequestView, now: number): WalletVerdict | null {
  if (now >= request.expiresAt) return refuse('request_expired', 'now is past the request expiry');
  if (!request.waiting) return refuse('request_not_waiting', 'the request was already answered or ended');
  return null;
}

function formPairs(body: FormBody): [string, string][] {
  if (typeof body === 'string') return [...new URLSearchParams(body)];
  if (body instanceof URLSearchParams) return [...body];
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === 'string') pairs.push([key, value]);
    else if (Array.isArray(value)) for (const item of value) pairs.push([key, String(item)]);
  }
  return pairs;
}

function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

const BRACKET_KEY = /^vp_token\[([A-Za-z0-9_-]{1,64})\](?:\[(\d{0,3})\])?$/;
const PROTOTYPE_KEY = /^(?:__proto__|constructor|prototype)$/;

/**
 * `vp_token` as one JSON string, or as `vp_token[<id>]=…` keys; null when absent, mixed or
 * malformed, or when an id is `__proto__`, `constructor` or `prototype` (issue 16: the ids key an
 * own-property map, never an object's prototype).
 */
function readVpToken(pairs: readonly [string, string][]): unknown {
  const plain = pairs.filter(([key]) => key === 'vp_token');
  const bracketed = pairs.filter(([key]) => key.startsWith('vp_token['));
  if (plain.length > 0 && bracketed.length > 0) return null;
  if (plain.length === 1) return plain[0]![1];
  if (plain.length > 1 || bracketed.length === 0) return null;
  const token = new Map<string, string[]>();
  for (const [key, value] of bracketed) {
    const match = BRACKET_KEY.exec(key);
    const id = match?.[1];
    if (id === undefined || PROTOTYPE_KEY.test(id)) return null;
    token.set(id, [...(token.get(id) ?? []), value]);
  }
  return Object.fromEntries(token);
}

const NO_JWT_CALLBACKS = {
  decryptJwe: () => Promise.reject(new Error('direct_post responses are not encrypted')),
  verifyJwt: () => Promise.reject(new Error('direct_post responses are not signed')),
};

/** The one presentation of the `proof_of_age` query, parsed by @openid4vc/openid4vp. */
async function readPresentation(
  vpToken: unknown,
  state: string,
  material: WalletRequestMaterial,
): Promise<string | null> {
  try {
    const parsed = await parseOpenid4vpAuthorizationResponse({
      authorizationResponse: { vp_token: vpToken, state },
      authorizationRequestPayload: authorizationRequestOf(material) as Openid4vpAuthorizationRequest,
      callbacks: NO_JWT_CALLBACKS as never,
    });
    if (parsed.type !== 'dcql') return null;
    const entries = Object.entries(parsed.dcql.presentations);
    if (entries.length !== 1 || entries[0]![0] !== CREDENTIAL_QUERY_ID) return null;
    const presentations = entries[0]![1];
    return presentations.length === 1 && typeof presentations[0] === 'string' ? presentations[0] : null;
  } catch {
    return null;
  }
}

// Which of several failed library checks is reported: the most fundamental first.
const CHECK_ORDER: readonly WalletCheck[] = [
  'device_response',
  'trust_chain',
  'issuer_signature',
  'mso_validity',
  'digests',
  'device_auth',
];

function classify(assessment: VerificationAssessment): WalletCheck {
  switch (assessment.category) {
    case 'DEVICE_AUTH':
      return 'device_auth';
    case 'DATA_INTEGRITY':
      return 'digests';
    case 'ISSUER_AUTH':
      if (assessment.check.startsWith('Issuer auth signature')) return 'issuer_signature';
      if (assessment.check.startsWith('The MSO')) return 'mso_validity';
      return 'trust_chain';
    default:
      return 'device_response';
  }
}

// The library's texts that name no credential value, in our words.
const LIBRARY_PHRASES: Readonly<Record<string, LibraryProblem>> = {
  "Country name (C) must be present in the issuer certificate's subject distinguished name":
    'the DS certificate has no country name',
  'Issuer auth signature is invalid': 'the issuer signature does not verify',
  'The MSO signed date must be within the validity period of the certificate':
    'the MSO was signed outside the DS certificate validity',
  'The MSO must be valid at the time of verification': 'the MSO is not valid now',
  'Issuer Auth must include a supported digestAlgorithm element': 'the MSO has no supported digestAlgorithm',
  'Device signature must be valid': 'the device signature does not verify',
};

const NAMESPACE_DIGESTS = 'Issuer Auth must include digests for namespace: ';
const ELEMENT_DIGEST = 'The calculated digest for ';
const OUR_ELEMENT_DIGEST = `${ELEMENT_DIGEST}${AV_NAMESPACE}/${AV_CLAIM} attribute must match the digest in the issuerAuth element`;

/**
 * A failed library check in our words. The library's texts quote the credential's namespace and
 * element names verbatim (a 6 KB element name would make a 6 KB log line), so none of its text is
 * passed on: a known text becomes a fixed phrase, a name is kept only when it is the one we asked
 * for, and anything else says which of our checks failed.
 */
function describeLibraryFailure(assessment: VerificationAssessment, check: WalletCheck): LibraryProblem {
  const text = assessment.check;
  const known = Object.hasOwn(LIBRARY_PHRASES, text) ? LIBRARY_PHRASES[text] : undefined;
  if (known) return known;
  if (text === `${NAMESPACE_DIGESTS}${AV_NAMESPACE}`) return `the MSO has no digests for ${AV_NAMESPACE}`;
  if (text.startsWith(NAMESPACE_DIGESTS)) return 'the MSO has no digests for unexpected_namespace';
  if (text === OUR_ELEMENT_DIGEST) return `a disclosed value does not match its digest: ${AV_NAMESPACE}/${AV_CLAIM}`;
  if (text.startsWith(ELEMENT_DIGEST)) return 'a disclosed value does not match its digest: unexpected_element';
  return `the library's ${check} check failed`;
}

function readAgeClaim(document: Document): boolean | null {
  const items = (document.issuerSigned.getIssuerNamespace(AV_NAMESPACE) ?? []).filter(
    (item) => item.elementIdentifier === AV_CLAIM,
  );
  const value: unknown = items.length === 1 ? items[0]!.elementValue : null;
  return typeof value === 'boolean' ? value : null;
}

/**
 * Verifies DeviceResponse bytes against a SessionTranscript: everything from device_response on.
 * Exported for the interop tests; the routes call verifyWalletResponse / verifyDcApiResponse.
 */
export async function verifyDeviceResponseBytes(
  bytes: Uint8Array,
  sessionTranscript: SessionTranscript,
  trust: WalletTrust,
  now: number,
): Promise<WalletVerdict> {
  let document: Document;
  let response: ReturnType<typeof decodeDeviceResponse>;
  try {
    response = decodeDeviceResponse(bytes);
    const documents = response.documents ?? [];
    if (response.status !== 0 || documents.length !== 1)
      return refuse('device_response', 'expected status 0 and exactly one document');
    document = documents[0]!;
    // Reading the MSO here surfaces an undecodable payload as device_response.
    void document.issuerSigned.issuerAuth.mobileSecurityObject.validityInfo;
  } catch {
    return refuse('device_response', 'the DeviceResponse does not decode');
  }

  const docTypeProblem = checkDocTypes(document, AV_DOCTYPE);
  if (docTypeProblem) return refuse('doctype', docTypeProblem);

  const anchors = trust.anchors.map((anchor) => anchor.certificate);
  const chain = evaluateIssuerChain(document.issuerSigned.issuerAuth.certificateChain, anchors, new Date(now));
  if (!chain.ok) return refuse(chain.check, chain.detail);

  // Before the library: it would verify an embedded payload instead of this transcript.
  const deviceAuthShape = checkDeviceAuthShape(document);
  if (deviceAuthShape) return refuse('device_auth', deviceAuthShape);

  const failures: VerificationAssessment[] = [];
  try {
    await Verifier.verifyDeviceResponse(
      {
        deviceResponse: response,
        sessionTranscript,
        trustedCertificates: trust.anchors.map((anchor) => anchor.der),
        now: new Date(now),
        skewSeconds: MSO_SKEW_SECONDS,
        onCheck: (assessment) => {
          if (assessment.status === 'FAILED') failures.push(assessment);
        },
      },
      mdocContext,
    );
  } catch {
    if (failures.length === 0) return refuse('device_response', 'the library could not evaluate the DeviceResponse');
  }
  if (failures.length > 0) {
    const [first] = failures
      .map((assessment) => ({ assessment, check: classify(assessment) }))
      .sort((a, b) => CHECK_ORDER.indexOf(a.check) - CHECK_ORDER.indexOf(b.check));
    return refuse(first!.check, describeLibraryFailure(first!.assessment, first!.check));
  }
  const msoProblem = checkMsoValidity(
    document.issuerSigned.issuerAuth.mobileSecurityObject.validityInfo,
    chain.path[0]!.certificate,
    now,
    MSO_SKEW_SECONDS,
  );
  if (msoProblem) return refuse('mso_validity', msoProblem);
  // And whatever the library did: the signature must cover the bytes we compute.
  const deviceSignatureProblem = await verifyDeviceSignature(document, sessionTranscript, AV_DOCTYPE);
  if (deviceSignatureProblem) return refuse('device_auth', deviceSignatureProblem);

  const ageOver18 = readAgeClaim(document);
  if (ageOver18 === null) return refuse('age_over_18', 'no single boolean age_over_18 in the issuer-signed namespace');
  return { status: 'verified', ageOver18 };
}

/**
 * Checks a wallet's `direct_post` to `POST /oid4vp/response/<request_id>`.
 *
 * @example
 * const verdict = await verifyWalletResponse({ body: rawFormBody, material, trust, request: { waiting, expiresAt }, now: clock.now() })
 * if (verdict.status === 'verified') completeRequest(verdict.ageOver18)
 */
export async function verifyWalletResponse(input: CommonInput & { body: FormBody }): Promise<WalletVerdict> {
  const requestProblem = checkRequest(input.request, input.now);
  if (requestProblem) return requestProblem;

  const pairs = formPairs(input.body);
  const states = pairs.filter(([key]) => key === 'state');
  if (states.length !== 1 || !sameSecret(states[0]![1], input.material.state))
    return refuse('state', 'state is missing, repeated or different');

  const errors = pairs.filter(([key]) => key === 'error');
  if (errors.length > 0) {
    if (errors.length > 1 || pairs.some(([key]) => key.startsWith('vp_token')))
      return refuse('vp_token', 'an error response must carry no vp_token');
    const code = errors[0]![1];
    return { status: 'cancelled', error: /^[A-Za-z0-9_.-]{1,64}$/.test(code) ? code : 'invalid_error_code' };
  }

  const vpToken = readVpToken(pairs);
  const presentation = vpToken === null ? null : await readPresentation(vpToken, input.material.state, input.material);
  if (presentation === null)
    return refuse('vp_token', 'vp_token is missing, mixed, or not one proof_of_age presentation');
  const bytes = decodeBase64Url(presentation);
  if (!bytes) return refuse('device_response', 'the presentation is not base64url');

  const transcript = await createOid4VpSessionTranscript({
    responseUri: input.material.responseUri,
    nonce: input.material.nonce,
  });
  return verifyDeviceResponseBytes(bytes, transcript, input.trust, input.now);
}

/**
 * Checks what `navigator.credentials.get` gave the page (posted to
 * `POST /api/w/wallet-response/<request_id>`), bound to the partner page's origin.
 *
 * @example const verdict = await verifyDcApiResponse({ credential: JSON.parse(body), origin, material, trust, request, now })
 */
export async function verifyDcApiResponse(
  input: CommonInput & { credential: unknown; origin: string },
): Promise<WalletVerdict> {
  const requestProblem = checkRequest(input.request, input.now);
  if (requestProblem) return requestProblem;
  const response = readDcResponseField(input.credential);
  if (response === null) return refuse('dc_response', 'not an org-iso-mdoc response');
  const bytes = await openDcResponse(input.material.dc, input.origin, response);
  if (!bytes) return refuse('dc_response', 'the HPKE envelope does not open for this request and origin');
  const transcript = createDcapiSessionTranscript(input.material.dc.encryptionInfo, input.origin);
  return verifyDeviceResponseBytes(bytes, transcript, input.trust, input.now);
}
