/**
 * The MSO's validityInfo beyond what @owf/mdoc checks (design.md §11). The library checks
 * `validFrom - skew ≤ now ≤ validUntil + skew` and `signed` within the DS certificate's validity
 * widened by the skew; it does not check the window's own order or a signing date in the future.
 * ISO/IEC 18013-5 §9.3.1: `signed` within the validity period of the DS certificate, now within
 * `validFrom`..`validUntil`.
 *
 * Enforced here, after the library has verified the issuer signature (so these dates are the
 * issuer's):
 * - `validFrom ≤ validUntil`: an inverted window is refused even when both ends are within the
 *   skew of now (the library alone would accept it);
 * - `signed ≤ now + skew`: an issuer cannot have signed in the future;
 * - `signed` within the DS certificate's notBefore..notAfter, with no skew: both dates are the
 *   issuer's own. The window itself may outlast the DS certificate (ISO asks no more), but the
 *   DS certificate must be valid now (trust/chain.ts), so nothing is accepted after it ends.
 *
 * Where the libraries stop (docs/wallets.md#where-the-libraries-stop), the gaps this file covers:
 *
 * 9. The MSO's validityInfo is checked as `validFrom - skew ≤ now ≤ validUntil + skew` and `signed`
 *    within the DS certificate's validity widened by the skew: an inverted window (validFrom after
 *    validUntil) with both ends within the skew of now passes, and so does a `signed` in the
 *    future → mso-validity.ts checks the order, `signed ≤ now + skew`, and `signed` within the DS
 *    certificate's own dates (design.md §11).
 */
import type { ValidityInfo } from '@owf/mdoc';
import { validityOf, type X509Certificate } from '../trust/certificates.ts';

/** What a refusal by checkMsoValidity says (a fixed phrase). */
export type MsoValidityProblem =
  | 'the MSO validity dates are not dates'
  | 'the MSO validity window ends before it starts'
  | 'the MSO is signed in the future'
  | 'the MSO was signed outside the DS certificate validity';

/**
 * Checks the order of the MSO's dates and its signing time against `now` and the DS certificate.
 * Returns what is wrong, or null.
 *
 * @example checkMsoValidity(mso.validityInfo, chain.path[0].certificate, now, MSO_SKEW_SECONDS)
 */
export function checkMsoValidity(
  validityInfo: Pick<ValidityInfo, 'signed' | 'validFrom' | 'validUntil'>,
  signer: X509Certificate,
  now: number,
  skewSeconds: number,
): MsoValidityProblem | null {
  const [signed, validFrom, validUntil] = [validityInfo.signed, validityInfo.validFrom, validityInfo.validUntil].map(
    (date) => (date instanceof Date ? date.getTime() : NaN),
  ) as [number, number, number];
  if (![signed, validFrom, validUntil].every(Number.isFinite)) return 'the MSO validity dates are not dates';
  if (validFrom > validUntil) return 'the MSO validity window ends before it starts';
  if (signed > now + skewSeconds * 1000) return 'the MSO is signed in the future';
  const { notBefore, notAfter } = validityOf(signer);
  if (signed < notBefore.getTime() || signed > notAfter.getTime())
    return 'the MSO was signed outside the DS certificate validity';
  return null;
}
