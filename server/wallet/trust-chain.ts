/**
 * Does the DS certificate in an `issuerAuth` chain to a trusted IACA (ISO/IEC 18013-5 Annex B)?
 * Our own path building, so that the failure says which check failed: `trust_chain` (no path to
 * a trusted root, a broken signature, a non-CA issuer) or `certificate_validity` (a date).
 *
 * The DS certificate's extended key usage is deliberately not enforced: the EU reference issuer's
 * DS certificates carry 1.3.130.2.0.0.1.2 (a mis-encoding of ISO's 1.0.18013.5.1.2), and the
 * reference app's credentials must verify.
 */
import { readCertificate, type X509Certificate } from './certificates.ts';
import { checkCertificateDates, type PathCertificate } from './library-gaps.ts';

export type ChainResult =
  { ok: true; path: PathCertificate[] } | { ok: false; check: 'trust_chain' | 'certificate_validity'; detail: string };

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

/**
 * Builds and checks the path from `x5chain[0]` (the DS certificate) to one of `anchors`.
 *
 * @example const result = evaluateIssuerChain(issuerAuth.certificateChain, anchors, new Date(now))
 */
export function evaluateIssuerChain(
  x5chain: readonly Uint8Array[],
  anchors: readonly X509Certificate[],
  now: Date,
): ChainResult {
  const chain = x5chain.map((der) => readCertificate(der));
  const leaf = chain[0];
  if (!leaf || chain.some((c) => c === null))
    return { ok: false, check: 'trust_chain', detail: 'x5chain is empty or unreadable' };
  const supplied = chain as X509Certificate[];
  if (anchors.some((anchor) => anchor.fingerprint256 === leaf.fingerprint256)) {
    return {
      ok: false,
      check: 'trust_chain',
      detail: 'the signing certificate is itself a trust anchor, not a DS certificate',
    };
  }

  const path: PathCertificate[] = [{ role: 'DS', certificate: leaf }];
  let current = leaf;
  for (;;) {
    if (path.length > MAX_PATH_LENGTH)
      return { ok: false, check: 'trust_chain', detail: 'the certificate path is too long' };
    const anchor = anchors.find((candidate) => isSignedBy(current, candidate));
    if (anchor) {
      path.push({ role: 'IACA', certificate: anchor });
      break;
    }
    const next = supplied.find(
      (candidate) =>
        !path.some((p) => p.certificate.fingerprint256 === candidate.fingerprint256) && isSignedBy(current, candidate),
    );
    if (!next)
      return { ok: false, check: 'trust_chain', detail: 'the DS certificate does not chain to a trusted IACA' };
    path.push({ role: 'intermediate', certificate: next });
    current = next;
  }

  for (const { role, certificate } of path.slice(1)) {
    if (!certificate.ca) return { ok: false, check: 'trust_chain', detail: `the ${role} certificate is not a CA` };
  }
  const dates = checkCertificateDates(path, now);
  if (dates) return { ok: false, check: 'certificate_validity', detail: dates };
  return { ok: true, path };
}
