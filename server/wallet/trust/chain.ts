/**
 * Does the DS certificate in an `issuerAuth` chain to a trusted IACA, and is it a document signer
 * certificate as ISO/IEC 18013-5 Annex B profiles it (design.md §11)? Our own path building,
 * so that the failure says which check failed: `trust_chain` (no path to a trusted root, a broken
 * signature, a certificate of the wrong profile) or `certificate_validity` (a date).
 *
 * Enforced, in this order (each failure a fixed phrase, `ChainProblem`):
 * - the path: x5chain[0] is the DS certificate and not itself a trust anchor; each certificate is
 *   issued by the next (names, key identifiers, the issuer's keyCertSign when it has a keyUsage,
 *   the signature: OpenSSL's X509_check_issued and verify), ending at a trusted IACA, no more
 *   than MAX_PATH_LENGTH certificates in all;
 * - every CA above the DS (intermediates and the IACA itself): basicConstraints CA:TRUE, and its
 *   pathLenConstraint honoured: no more intermediate CAs between it and the DS than it allows
 *   (RFC 5280 §4.2.1.9; an IACA with pathlen:0, as Annex B's and the EU's are, signs DS
 *   certificates directly);
 * - the DS certificate (Annex B, table B.3): a keyUsage with digitalSignature and without a CA's
 *   keyCertSign or cRLSign; not a CA (no basicConstraints CA:TRUE); an extendedKeyUsage of exactly
 *   one OID, mdlDS (1.0.18013.5.1.2) or the EU reference issuer's mis-encoding of it
 *   (EU_REFERENCE_DS_EKU); one subject country (C), the same as the IACA's;
 * - no certificate of the path carries a key of `refusedKeys` (in production, the keys whose
 *   private half is public: anchors.ts, PUBLIC_KEYS), whatever the chain it comes with;
 * - dates: every certificate of the path, the IACA included, valid at `now` (certificate_validity).
 *
 * The `jwt` signer profile (an SD-JWT VC issuer or a Status List Token signer, design.md §15) keeps
 * the path, the CA rules, the dates and the keyUsage and not-a-CA rules, and drops the mdlDS EKU
 * and the country rule.
 *
 * Not enforced: which extensions are critical, the other fields of Annex B (issuer alternative
 * name, CRL distribution points, key identifiers, serial number length), revocation (no CRL is
 * fetched: an operator removes a withdrawn IACA from SVC_WALLET_TRUST, docs/operations.md).
 */
import {
  KeyUsageFlags,
  nameField,
  readCertificate,
  readProfileExtensions,
  spkiSha256,
  type ProfileExtensions,
  type X509Certificate,
} from './certificates.ts';
import { type CertificateDateProblem, checkCertificateDates, type PathCertificate } from './certificate-dates.ts';

/** ISO/IEC 18013-5 Annex B: the extended key usage of a document signer certificate (id-mdl-kp-mdlDS). */
export const MDL_DS_EKU = '1.0.18013.5.1.2';

/**
 * The EU age-verification reference issuer's DS certificates carry 1.3.130.2.0.0.1.2, a
 * mis-encoding of MDL_DS_EKU (the arc 1.0 written as 1.3.130), e.g. "Age Verification DS - 001"
 * under av_issuer_ca01.pem. Accepted by name so that the reference app's credentials verify; any
 * other OID is refused.
 */
export const EU_REFERENCE_DS_EKU = '1.3.130.2.0.0.1.2';

const DS_EKUS: readonly string[] = [MDL_DS_EKU, EU_REFERENCE_DS_EKU];

/** What a refusal by evaluateIssuerChain says: fixed phrases, never certificate text. */
export type ChainProblem =
  | 'x5chain is empty or unreadable'
  | 'the signing certificate is itself a trust anchor, not a DS certificate'
  | 'the certificate path is too long'
  | 'the DS certificate does not chain to a trusted IACA'
  | 'a certificate on the path has unreadable or repeated extensions'
  | 'a certificate on the path carries a key whose private half is public'
  | `the ${CaRole} certificate is not a CA`
  | `the ${CaRole} certificate allows fewer intermediate CAs below it (pathLenConstraint)`
  | 'the DS certificate has no keyUsage'
  | 'the DS certificate keyUsage lacks digitalSignature'
  | 'the DS certificate keyUsage has keyCertSign or cRLSign'
  | 'the DS certificate is a CA'
  | 'the DS certificate extendedKeyUsage is not exactly mdlDS'
  | 'the DS certificate country is not its IACA country';

type CaRole = Exclude<PathCertificate['role'], 'DS'>;

export type ChainResult =
  | { ok: true; path: PathCertificate[] }
  | { ok: false; check: 'trust_chain'; detail: ChainProblem }
  | { ok: false; check: 'certificate_validity'; detail: CertificateDateProblem };

/** DS → intermediates → IACA; ISO allows no more than one intermediate, this allows a little slack. */
const MAX_PATH_LENGTH = 4;

/** Names, key identifiers and keyCertSign (OpenSSL's X509_check_issued), then the signature. */
function isSignedBy(certificate: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return certificate.checkIssued(issuer) && certificate.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

function refuse(detail: ChainProblem): ChainResult {
  return { ok: false, check: 'trust_chain', detail };
}

/** `path[index]` is a CA whose pathLenConstraint allows the `index - 1` intermediates below it. */
function checkCa(role: CaRole, extensions: ProfileExtensions, index: number): ChainProblem | null {
  const constraints = extensions.basicConstraints;
  if (!constraints?.ca) return `the ${role} certificate is not a CA`;
  if (constraints.pathLength !== null && index - 1 > constraints.pathLength)
    return `the ${role} certificate allows fewer intermediate CAs below it (pathLenConstraint)`;
  return null;
}

/**
 * What the signing certificate must be: `mdoc`, Annex B's DS profile (the default); `jwt`, the
 * signer of an SD-JWT VC or a Status List Token (design.md §15): a keyUsage with digitalSignature
 * and without keyCertSign or cRLSign, not a CA, any extendedKeyUsage and country.
 */
export type SignerProfile = 'mdoc' | 'jwt';

/** Annex B's DS profile (or the `jwt` one), `iaca` being the trust anchor the path ends at. */
function checkSignerProfile(
  ds: X509Certificate,
  extensions: ProfileExtensions,
  iaca: X509Certificate,
  profile: SignerProfile,
): ChainProblem | null {
  const { keyUsage, basicConstraints, extendedKeyUsage } = extensions;
  if (keyUsage === null) return 'the DS certificate has no keyUsage';
  if (!(keyUsage & KeyUsageFlags.digitalSignature)) return 'the DS certificate keyUsage lacks digitalSignature';
  if (keyUsage & (KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign))
    return 'the DS certificate keyUsage has keyCertSign or cRLSign';
  if (basicConstraints?.ca) return 'the DS certificate is a CA';
  if (profile === 'jwt') return null;
  if (extendedKeyUsage?.length !== 1 || !DS_EKUS.includes(extendedKeyUsage[0]!))
    return 'the DS certificate extendedKeyUsage is not exactly mdlDS';
  const country = nameField(ds.subject, 'C');
  const iacaCountry = nameField(iaca.subject, 'C');
  if (country.length !== 1 || iacaCountry.length !== 1 || country[0] !== iacaCountry[0])
    return 'the DS certificate country is not its IACA country';
  return null;
}

/**
 * Builds and checks the path from `x5chain[0]` (the DS certificate) to one of `anchors`, and the
 * DS certificate's profile (`jwt`: the lighter one of an SD-JWT VC or Status List Token signer).
 * `refusedKeys`: SPKI SHA-256 digests (lowercase hex) no certificate of the path may carry
 * (WalletTrust.refusedKeys).
 *
 * @example const result = evaluateIssuerChain(issuerAuth.certificateChain, anchors, new Date(now), trust.refusedKeys)
 * @example const result = evaluateIssuerChain(x5c, anchors, new Date(now), trust.refusedKeys, 'jwt')
 */
export function evaluateIssuerChain(
  x5chain: readonly Uint8Array[],
  anchors: readonly X509Certificate[],
  now: Date,
  refusedKeys: readonly string[] = [],
  profile: SignerProfile = 'mdoc',
): ChainResult {
  const chain = x5chain.map((der) => readCertificate(der));
  const leaf = chain[0];
  if (!leaf || chain.some((c) => c === null)) return refuse('x5chain is empty or unreadable');
  const supplied = chain as X509Certificate[];
  if (anchors.some((anchor) => anchor.fingerprint256 === leaf.fingerprint256))
    return refuse('the signing certificate is itself a trust anchor, not a DS certificate');

  const path: PathCertificate[] = [{ role: 'DS', certificate: leaf }];
  let current = leaf;
  for (;;) {
    if (path.length > MAX_PATH_LENGTH) return refuse('the certificate path is too long');
    const anchor = anchors.find((candidate) => isSignedBy(current, candidate));
    if (anchor) {
      path.push({ role: 'IACA', certificate: anchor });
      break;
    }
    const next = supplied.find(
      (candidate) =>
        !path.some((p) => p.certificate.fingerprint256 === candidate.fingerprint256) && isSignedBy(current, candidate),
    );
    if (!next) return refuse('the DS certificate does not chain to a trusted IACA');
    path.push({ role: 'intermediate', certificate: next });
    current = next;
  }

  if (path.some(({ certificate }) => refusedKeys.includes(spkiSha256(certificate))))
    return refuse('a certificate on the path carries a key whose private half is public');

  const extensions = path.map(({ certificate }) => readProfileExtensions(certificate));
  if (extensions.some((e) => e === null))
    return refuse('a certificate on the path has unreadable or repeated extensions');
  const read = extensions as ProfileExtensions[];
  for (let index = 1; index < path.length; index++) {
    const problem = checkCa(path[index]!.role as CaRole, read[index]!, index);
    if (problem) return refuse(problem);
  }
  const profileProblem = checkSignerProfile(leaf, read[0]!, path.at(-1)!.certificate, profile);
  if (profileProblem) return refuse(profileProblem);

  const dates = checkCertificateDates(path, now);
  if (dates) return { ok: false, check: 'certificate_validity', detail: dates };
  return { ok: true, path };
}
