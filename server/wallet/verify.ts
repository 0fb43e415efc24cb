/**
 * Checks a wallet's answer (design.md §11, §13), each failure named by the check that refused it:
 *
 *   request_expired, request_not_waiting → state → (error → cancelled) → vp_token (one
 *   presentation, keyed by the id of a credential the request asked for) → device_response →
 *   doctype (the document's and the MSO's: the one of that id) → trust_chain,
 *   certificate_validity (the path and the DS profile, trust-chain.ts) → device_auth (ours: a
 *   detached device signature, device-auth.ts) → issuer_signature, mso_validity, digests,
 *   device_auth (by @owf/mdoc) → mso_validity (ours: the window's order and the signing date,
 *   mso-validity.ts) → device_auth (ours: over this request's transcript) → elements (each
 *   requested element once and of its type; isAdult from age_over_18, else from birth_date at
 *   `now`, the two agreeing when both are disclosed: credentials.ts, full-date.ts) → status (the
 *   MSO's `status.status_list`, status-list.ts)
 *
 * The SD-JWT VC PID (`pid_sd`, design.md §15) goes from vp_token to sd-jwt.ts's verifyPidSdJwt:
 * sd_jwt (the compact form), issuer_signature, trust_chain, certificate_validity, doctype (`typ`,
 * `vct`), mso_validity (iat/nbf/exp), digests, key_binding (the KB-JWT's `nonce`; its `aud` the
 * client id over the link, `origin:<page origin>` over the DC API; `iat`; `sd_hash`), elements →
 * status (its `status.status_list`).
 *
 * The verdict carries the facts the requested elements prove (rules/facts.ts); an element the
 * wallet did not disclose leaves its fact out, for the caller to fail the request (claims_missing).
 * Elements not requested are never read. The DC API answer skips state and starts with
 * dc_response: org-iso-mdoc opens with HPKE (dc-api.ts), openid4vp-v1-unsigned with jose's JWE
 * decryption (oid4vp-dc-api.ts), whose vp_token is then read as the direct_post's.
 * Nothing here logs or returns credential contents: `detail` is a phrase of ours from a closed set
 * (`RefusalDetail`), never a value and never a library's text, which can quote the credential's
 * namespace and element names (docs/wallets.md#what-leaves-the-verifier).
 * Single use is the store's: the route completes the request with a compare-and-set, so a second
 * post finds it no longer waiting.
 */
import {
  type Openid4vpAuthorizationRequest,
  parseDcqlVpToken,
  parseOpenid4vpAuthorizationResponse,
} from '@openid4vc/openid4vp';
import { type Document, type SessionTranscript, type VerificationAssessment, Verifier } from '@owf/mdoc';
import { createHash, timingSafeEqual } from 'node:crypto';
import { factsFromClaims, pickFacts, type ProvenFacts } from '../rules/facts.ts';
import {
  type CredentialKind,
  credentialOfDocType,
  credentialOfQueryId,
  CREDENTIALS,
  type ElementName,
  type ElementProblem,
  type KnownNamespace,
  PID_SD_QUERY_ID,
  type PresentedCredential,
  readFacts,
  type WalletScope,
} from './formats/credentials.ts';
import { openDcResponse, readDcResponse } from './answer/hpke.ts';
import { checkDeviceAuthShape, type DeviceAuthProblem, verifyDeviceSignature } from './formats/device-auth.ts';
import { decodeBase64Url } from './keys.ts';
import {
  type CertificateDateProblem,
  checkDocTypes,
  createDcapiSessionTranscript,
  decodeDeviceResponse,
  type DocTypeProblem,
  readMsoStatus,
} from './formats/device-response.ts';
import { mdocContext } from './formats/mdoc-context.ts';
import { checkMsoValidity, type MsoValidityProblem } from './formats/mso-validity.ts';
import { createOid4vpDcApiSessionTranscript, jwkThumbprintBytes, openOid4vpDcResponse } from './request/oid4vp-dc-request.ts';
import { DC_API_PROTOCOL, MSO_SKEW_SECONDS, OID4VP_DC_API_SIGNED_PROTOCOL } from './profile.ts';
import {
  authorizationRequestOf,
  clientIdOf,
  createOid4VpSessionTranscript,
  dcApiAskedOf,
  dcApiCredentials,
  linkAskedOf,
  scopesOf,
  type WalletRequestMaterial,
} from './request/wallet-request.ts';
import { type SdJwtCheck, type SdJwtProblem, type StatusReference, verifyPidSdJwt } from './formats/sd-jwt.ts';
import type { StatusChecker, StatusDecision, StatusTokenProblem, UnreachableReason } from './trust/status-list.ts';
import { openSignedAnswer, type SignedAnswerProblem } from './answer/jwe.ts';
import { ANSWER_JWE_ENCS } from './request/request-object.ts';
import { type ChainProblem, evaluateIssuerChain } from './trust/chain.ts';
import type { WalletTrust } from './trust/anchors.ts';

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

/** A failed @owf/mdoc check in our words (describeLibraryFailure). */
type LibraryProblem =
  | 'the DS certificate has no country name'
  | 'the issuer signature does not verify'
  | 'the MSO was signed outside the DS certificate validity'
  | 'the MSO is not valid now'
  | 'the MSO has no supported digestAlgorithm'
  | `the MSO has no digests for ${KnownNamespace | 'unexpected_namespace'}`
  | `a disclosed value does not match its digest: ${`${KnownNamespace}/${ElementName}` | 'unexpected_element'}`
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
  /** the credentials' status lists under SVC_WALLET_STATUS (design.md §15); absent: not checked (unit tests) */
  status?: StatusChecker;
  request: RequestView;
  /** ms since the epoch */
  now: number;
}

export type FormBody = string | URLSearchParams | Readonly<Record<string, string | readonly string[] | undefined>>;

function refuse(check: WalletCheck, detail: RefusalDetail): WalletVerdict {
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
async function checkStatus(
  reference: StatusReference | null,
  status: StatusChecker | undefined,
): Promise<WalletVerdict | null> {
  if (reference === null || status === undefined) return null;
  const decision = await status.check(reference);
  return decision.ok ? null : statusRefusal(decision);
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
 * malformed, or when an id is `__proto__`, `constructor` or `prototype` (design.md §11: the ids key an
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

/** A presentation and the credential its query id stands for. */
interface KeyedPresentation {
  credential: PresentedCredential;
  presentation: string;
}

/**
 * The one presentation of parsed DCQL presentations: exactly one query id, of a credential in
 * `asked` (the SD-JWT VC PID wherever the mdoc PID is, credentials.ts dcqlQueryFor), with exactly
 * one string.
 */
function onePresentation(
  presentations: Readonly<Record<string, readonly unknown[]>>,
  asked: readonly PresentedCredential[],
): KeyedPresentation | null {
  const entries = Object.entries(presentations);
  if (entries.length !== 1) return null;
  const [queryId, values] = entries[0]!;
  const credential: PresentedCredential | null =
    queryId === PID_SD_QUERY_ID ? PID_SD_QUERY_ID : credentialOfQueryId(queryId);
  // design.md §19: a query id of a format the request did not ask is no answer to it
  if (credential === null || !asked.includes(credential)) return null;
  return values.length === 1 && typeof values[0] === 'string' ? { credential, presentation: values[0] } : null;
}

/** The one presentation of the link's DCQL query, parsed by @openid4vc/openid4vp. */
async function readPresentation(
  vpToken: unknown,
  state: string,
  material: WalletRequestMaterial,
): Promise<KeyedPresentation | null> {
  try {
    const parsed = await parseOpenid4vpAuthorizationResponse({
      authorizationResponse: { vp_token: vpToken, state },
      authorizationRequestPayload: authorizationRequestOf(material) as Openid4vpAuthorizationRequest,
      callbacks: NO_JWT_CALLBACKS as never,
    });
    if (parsed.type !== 'dcql') return null;
    return onePresentation(parsed.dcql.presentations, linkAskedOf(material));
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
const ELEMENT_DIGEST_END = ' attribute must match the digest in the issuerAuth element';

// The names the credential table holds (credentials.ts): the only ones a phrase may repeat.
const KNOWN_NAMESPACES: ReadonlySet<string> = new Set(Object.values(CREDENTIALS).map((c) => c.namespace));
const KNOWN_ELEMENTS: ReadonlySet<string> = new Set(
  Object.values(CREDENTIALS).flatMap((c) => c.elements.map((element) => `${c.namespace}/${element}`)),
);

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
  if (text.startsWith(NAMESPACE_DIGESTS)) {
    const namespace = text.slice(NAMESPACE_DIGESTS.length);
    return KNOWN_NAMESPACES.has(namespace)
      ? `the MSO has no digests for ${namespace as KnownNamespace}`
      : 'the MSO has no digests for unexpected_namespace';
  }
  if (text.startsWith(ELEMENT_DIGEST)) {
    const name = text.endsWith(ELEMENT_DIGEST_END) ? text.slice(ELEMENT_DIGEST.length, -ELEMENT_DIGEST_END.length) : '';
    return KNOWN_ELEMENTS.has(name)
      ? `a disclosed value does not match its digest: ${name as `${KnownNamespace}/${ElementName}`}`
      : 'a disclosed value does not match its digest: unexpected_element';
  }
  return `the library's ${check} check failed`;
}

/** What a presentation must be: one of `credentials` (one: the credential its query id stands for), proving `scopes`. */
export interface Expectation {
  credentials: readonly CredentialKind[];
  scopes: readonly WalletScope[];
}

/**
 * Verifies DeviceResponse bytes against a SessionTranscript: everything from device_response on.
 * Exported for the interop tests; the routes call verifyWalletResponse / verifyDcApiResponse.
 *
 * @example await verifyDeviceResponseBytes(bytes, transcript, trust, now, { credentials: ['pid'], scopes: ['isFrench'] })
 */
export async function verifyDeviceResponseBytes(
  bytes: Uint8Array,
  sessionTranscript: SessionTranscript,
  trust: WalletTrust,
  now: number,
  expected: Expectation = { credentials: ['av'], scopes: ['isAdult'] },
  status?: StatusChecker,
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

  // Keyed by a query id: that credential's docType. Annex C (no id): any docType asked for.
  const [only] = expected.credentials;
  const credential = expected.credentials.length === 1 ? only! : credentialOfDocType(document.docType);
  if (credential === null || !expected.credentials.includes(credential))
    return refuse('doctype', 'the docType is not one the request asked for');
  const { docType, namespace } = CREDENTIALS[credential];
  const docTypeProblem = checkDocTypes(document, docType);
  if (docTypeProblem) return refuse('doctype', docTypeProblem);

  const anchors = trust.anchors.map((anchor) => anchor.certificate);
  const chain = evaluateIssuerChain(
    document.issuerSigned.issuerAuth.certificateChain,
    anchors,
    new Date(now),
    trust.refusedKeys,
  );
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
  const deviceSignatureProblem = await verifyDeviceSignature(document, sessionTranscript, docType);
  if (deviceSignatureProblem) return refuse('device_auth', deviceSignatureProblem);

  const read = readFacts(document.issuerSigned.getIssuerNamespace(namespace) ?? [], credential, expected.scopes, now);
  if ('problem' in read) return refuse('elements', read.problem);
  const reference = readMsoStatus(document.issuerSigned.issuerAuth.mobileSecurityObject);
  if (reference === 'malformed') return refuse('status', 'the MSO status is malformed');
  const statusProblem = await checkStatus(reference, status);
  if (statusProblem) return statusProblem;
  return { status: 'verified', credential, facts: read.facts };
}

// sd-jwt.ts's checks under the names of WALLET_CHECKS.
const SD_JWT_CHECKS: Readonly<Record<SdJwtCheck, WalletCheck>> = {
  presentation: 'sd_jwt',
  trust_chain: 'trust_chain',
  certificate_validity: 'certificate_validity',
  issuer_signature: 'issuer_signature',
  credential_type: 'doctype',
  credential_validity: 'mso_validity',
  digests: 'digests',
  key_binding: 'key_binding',
  elements: 'elements',
};

/**
 * Verifies an SD-JWT VC PID presentation (design.md §15) for `scopes`: verifyPidSdJwt's checks with
 * the KB-JWT bound to `nonce` and `audience`, then its status. Only the booleans of `scopes` leave:
 * the disclosed birth date is turned into isAdult inside sd-jwt.ts and never returned.
 *
 * @example await verifySdJwtPidPresentation(vp, { trust, now, nonce, audience: clientId, scopes, status })
 */
export async function verifySdJwtPidPresentation(
  presentation: string,
  input: {
    trust: WalletTrust;
    now: number;
    nonce: string;
    audience: string;
    scopes: readonly WalletScope[];
    status?: StatusChecker | undefined;
  },
): Promise<WalletVerdict> {
  const { scopes } = input;
  const verdict = await verifyPidSdJwt(presentation, {
    anchors: input.trust.anchors.map((anchor) => anchor.certificate),
    refusedKeys: input.trust.refusedKeys,
    nonce: input.nonce,
    audience: input.audience,
    now: input.now,
    asked: { age: scopes.includes('isAdult'), nationality: scopes.includes('isFrench') || scopes.includes('isEU') },
  });
  if (!verdict.ok) return refuse(SD_JWT_CHECKS[verdict.check], verdict.detail);
  const statusProblem = await checkStatus(verdict.status, input.status);
  if (statusProblem) return statusProblem;
  const { age_over_18: ageOver18, nationalities } = verdict.facts;
  const facts = factsFromClaims(
    { ...(ageOver18 === undefined ? {} : { age_over_18: ageOver18 }), ...(nationalities ? { nationalities } : {}) },
    input.now,
  );
  return { status: 'verified', credential: PID_SD_QUERY_ID, facts: pickFacts(facts, scopes) };
}

/**
 * Checks a wallet's `direct_post` to `POST /oid4vp/response/<request_id>`.
 *
 * @example
 * const verdict = await verifyWalletResponse({ body: rawFormBody, material, trust, request: { waiting, expiresAt }, now: clock.now() })
 * if (verdict.status === 'verified') completeRequest(verdict.facts)
 */
export async function verifyWalletResponse(input: CommonInput & { body: FormBody }): Promise<WalletVerdict> {
  const requestProblem = checkRequest(input.request, input.now);
  if (requestProblem) return requestProblem;

  let pairs = formPairs(input.body);
  const { signed } = input.material;
  if (signed) {
    // docs/design.md §16: a signed request's answer is a JWE (an error may come in the clear).
    const opened = await openSignedAnswer(signed, pairs);
    if ('problem' in opened) return refuse('response', opened.problem);
    pairs = opened.pairs;
  }
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
  const keyed = vpToken === null ? null : await readPresentation(vpToken, input.material.state, input.material);
  if (keyed === null)
    return refuse('vp_token', 'vp_token is missing, mixed, or not one presentation of a requested credential');
  if (keyed.credential === PID_SD_QUERY_ID)
    return verifySdJwtPidPresentation(keyed.presentation, {
      trust: input.trust,
      now: input.now,
      nonce: input.material.nonce,
      // the client id the wallet saw: x509_hash:… for a signed request (docs/design.md §16)
      audience: signed ? signed.clientId : clientIdOf(input.material.responseUri),
      scopes: scopesOf(input.material),
      status: input.status,
    });
  const bytes = decodeBase64Url(keyed.presentation);
  if (!bytes) return refuse('device_response', 'the presentation is not base64url');

  const transcript = await createOid4VpSessionTranscript({
    responseUri: input.material.responseUri,
    nonce: input.material.nonce,
    ...(signed ? { clientId: signed.clientId, jwkThumbprint: await jwkThumbprintBytes(signed.publicJwk) } : {}),
  });
  return verifyDeviceResponseBytes(
    bytes,
    transcript,
    input.trust,
    input.now,
    { credentials: [keyed.credential], scopes: scopesOf(input.material) },
    input.status,
  );
}

/**
 * Checks what `navigator.credentials.get` gave the page (posted to
 * `POST /api/w/wallet-response/<request_id>`), bound to the page's origin: an org-iso-mdoc answer
 * through its HPKE envelope and `dcapi` transcript, an openid4vp-v1-unsigned one through its
 * OpenID4VPDCAPIHandover transcript.
 *
 * @example const verdict = await verifyDcApiResponse({ credential: JSON.parse(body), origin, material, trust, request, now })
 */
export async function verifyDcApiResponse(
  input: CommonInput & { credential: unknown; origin: string },
): Promise<WalletVerdict> {
  const requestProblem = checkRequest(input.request, input.now);
  if (requestProblem) return requestProblem;
  const { material, origin } = input;
  const scopes = scopesOf(material);
  const read = readDcResponse(input.credential);
  if (read === null || (read.protocol !== DC_API_PROTOCOL && !material.oid4vpDc))
    return refuse('dc_response', 'not a Digital Credentials API response of a protocol this request offered');
  // docs/design.md §16: a signed request names its page in expected_origins; no other page's answer counts.
  const signedForOrigin = material.signedDc?.some((entry) => entry.origin === origin) ?? false;
  if (read.protocol === OID4VP_DC_API_SIGNED_PROTOCOL && !signedForOrigin)
    return refuse('dc_response', 'no signed request was made for this page’s origin');

  if (read.protocol === DC_API_PROTOCOL) {
    if (dcApiCredentials(material).length === 0)
      return refuse('dc_response', 'not a Digital Credentials API response of a protocol this request offered');
    const bytes = await openDcResponse(material.dc, origin, read.response);
    if (!bytes) return refuse('dc_response', 'the HPKE envelope does not open for this request and origin');
    const transcript = createDcapiSessionTranscript(material.dc.encryptionInfo, origin);
    return verifyDeviceResponseBytes(
      bytes,
      transcript,
      input.trust,
      input.now,
      { credentials: dcApiCredentials(material), scopes },
      input.status,
    );
  }

  const oid4vp = material.oid4vpDc!;
  const signed = read.protocol === OID4VP_DC_API_SIGNED_PROTOCOL;
  const payload = await openOid4vpDcResponse(oid4vp, read.response, signed ? ANSWER_JWE_ENCS : undefined);
  if (payload === null)
    return refuse(
      'dc_response',
      signed
        ? 'the JWE does not open with this request’s key as ECDH-ES and A128GCM or A256GCM, or is not JSON'
        : 'the JWE does not open with this request’s key as ECDH-ES and A128GCM, or is not JSON',
    );
  let keyed: KeyedPresentation | null;
  try {
    const own = Object.hasOwn(payload, 'vp_token') ? payload.vp_token : undefined;
    keyed = onePresentation(parseDcqlVpToken(own), dcApiAskedOf(material));
  } catch {
    keyed = null;
  }
  if (keyed === null)
    return refuse('vp_token', 'vp_token is missing, mixed, or not one presentation of a requested credential');
  if (keyed.credential === PID_SD_QUERY_ID)
    return verifySdJwtPidPresentation(keyed.presentation, {
      trust: input.trust,
      now: input.now,
      nonce: oid4vp.nonce,
      audience: `origin:${origin}`,
      scopes,
      status: input.status,
    });
  const bytes = decodeBase64Url(keyed.presentation);
  if (!bytes) return refuse('device_response', 'the presentation is not base64url');
  const transcript = await createOid4vpDcApiSessionTranscript({ origin, nonce: oid4vp.nonce, jwk: oid4vp.publicJwk });
  return verifyDeviceResponseBytes(
    bytes,
    transcript,
    input.trust,
    input.now,
    { credentials: [keyed.credential], scopes },
    input.status,
  );
}
