/**
 * The dates of every certificate on an issuer's path, its trust anchor included (RFC 5280 §6.1.3
 * (a)(2)): chain.ts checks them after the path is built.
 *
 * Where the libraries stop (docs/wallets.md#where-the-libraries-stop), the gaps this file covers:
 *
 * 3. The chain check is the `MdocContext` callback we supply; the one in mdoc-ts's tests checks no
 *    certificate dates when the trusted anchor is the root (it slices the anchor and everything
 *    below it away) → `checkCertificateDates` checks the DS's and the IACA's validity at `now`.
 */
import { validityOf, type X509Certificate } from './certificates.ts';

/** A certificate on the path from the DS certificate to its trust anchor. */
export interface PathCertificate {
  role: 'DS' | 'intermediate' | 'IACA';
  certificate: X509Certificate;
}

/** What checkCertificateDates can say. */
export type CertificateDateProblem = `the ${PathCertificate['role']} certificate ${'is not valid yet' | 'has expired'}`;

/**
 * Gap 3: every certificate on the path, the IACA included, must be valid at `now` (RFC 5280
 * §6.1.3 (a)(2)). Returns which one is not, or null.
 *
 * @example checkCertificateDates(path, new Date(clock.now()))
 */
export function checkCertificateDates(path: readonly PathCertificate[], now: Date): CertificateDateProblem | null {
  const t = now.getTime();
  for (const { role, certificate } of path) {
    const { notBefore, notAfter } = validityOf(certificate);
    if (t < notBefore.getTime()) return `the ${role} certificate is not valid yet`;
    if (t > notAfter.getTime()) return `the ${role} certificate has expired`;
  }
  return null;
}
