/**
 * The one presentation an answer carries, checked by its format (design.md §11, §15), whichever
 * path brought it: an mdoc DeviceResponse against the path's SessionTranscript (device_response →
 * doctype → trust_chain, certificate_validity → device_auth (ours, before the library) →
 * issuer_signature, mso_validity, digests, device_auth (@owf/mdoc) → mso_validity (ours) →
 * device_auth (ours, over the transcript) → elements → status), or an SD-JWT VC PID with its
 * KB-JWT bound to the path's nonce and audience (formats/sd-jwt.ts, then status).
 *
 * Where the libraries stop (docs/wallets.md#where-the-libraries-stop), the gaps this file covers:
 *
 * 10. The `check` texts of the verification assessments quote the credential's namespace and
 *    element names verbatim (`The calculated digest for <ns>/<element> attribute …`, `Issuer Auth
 *    must include digests for namespace: <ns>`): logged, an attacker's 6 KB element name is a 6 KB
 *    log line → this file never passes library text on; it maps each failure to a fixed phrase,
 *    naming only the element it asked for (docs/wallets.md#what-leaves-the-verifier).
 * 11. @openid4vc/openid4vp's `parseOpenid4vpAuthorizationResponse` returns the DCQL presentations
 *    keyed by whatever ids the wallet sent, asked for or not, and nothing ties a presentation to
 *    the `doctype_value` of its credential query (with the PID and the mDL, design.md §13, a wallet
 *    could key a PID as `mdl`) → onePresentation takes exactly one id, of a credential the request asked
 *    for, and the docType check (gap 2) compares the document's and the MSO's docType with that
 *    credential's.
 */
import { type Document, type SessionTranscript, type VerificationAssessment, Verifier } from '@owf/mdoc';
import { factsFromClaims, pickFacts } from '../../rules/facts.ts';
import {
  type CredentialKind,
  credentialOfDocType,
  credentialOfQueryId,
  CREDENTIALS,
  type ElementName,
  type KnownNamespace,
  PID_SD_QUERY_ID,
  type PresentedCredential,
  readFacts,
  type WalletScope,
} from '../formats/credentials.ts';
import { checkDeviceAuthShape, verifyDeviceSignature } from '../formats/device-auth.ts';
import { checkDocTypes, decodeDeviceResponse, readMsoStatus } from '../formats/device-response.ts';
import { mdocContext } from '../formats/mdoc-context.ts';
import { checkMsoValidity } from '../formats/mso-validity.ts';
import { type SdJwtCheck, verifyPidSdJwt } from '../formats/sd-jwt.ts';
import { decodeBase64Url } from '../keys.ts';
import { MSO_SKEW_SECONDS } from '../profile.ts';
import type { WalletTrust } from '../trust/anchors.ts';
import { evaluateIssuerChain } from '../trust/chain.ts';
import type { StatusChecker } from '../trust/status-list.ts';
import type { WalletRequestMaterial } from '../request/wallet-request.ts';
import { checkStatus, type LibraryProblem, refuse, type WalletCheck, type WalletVerdict } from './verdict.ts';

/** What every answer path is checked with. */
export interface AnswerInput {
  material: WalletRequestMaterial;
  trust: WalletTrust;
  /** the credentials' status lists under SVC_WALLET_STATUS (design.md §15); absent: not checked (unit tests) */
  status?: StatusChecker;
  /** ms since the epoch */
  now: number;
}

/** A presentation and the credential its query id stands for. */
export interface KeyedPresentation {
  credential: PresentedCredential;
  presentation: string;
}

/**
 * The one presentation of parsed DCQL presentations: exactly one query id, of a credential in
 * `asked` (the SD-JWT VC PID wherever the mdoc PID is, credentials.ts dcqlQueryFor), with exactly
 * one string.
 */
export function onePresentation(
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
 * Exported for the interop tests; the answer paths call verifyPresentation.
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
 * The presentation an answer path read, checked by its format: an SD-JWT VC PID with its KB-JWT
 * bound to `nonce` and `audience`, an mdoc against the path's `transcript` (made only then).
 *
 * @example return verifyPresentation(keyed, { ...input, scopes, nonce, audience, transcript: () => createOid4VpSessionTranscript(…) })
 */
export async function verifyPresentation(
  keyed: KeyedPresentation,
  input: Omit<AnswerInput, 'material'> & {
    scopes: readonly WalletScope[];
    nonce: string;
    audience: string;
    transcript: () => Promise<SessionTranscript>;
  },
): Promise<WalletVerdict> {
  const { trust, now, scopes, status } = input;
  if (keyed.credential === PID_SD_QUERY_ID)
    return verifySdJwtPidPresentation(keyed.presentation, {
      trust,
      now,
      nonce: input.nonce,
      audience: input.audience,
      scopes,
      status,
    });
  const bytes = decodeBase64Url(keyed.presentation);
  if (!bytes) return refuse('device_response', 'the presentation is not base64url');
  const transcript = await input.transcript();
  return verifyDeviceResponseBytes(bytes, transcript, trust, now, { credentials: [keyed.credential], scopes }, status);
}
