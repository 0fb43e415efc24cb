/**
 * The references between an SD-JWT's issuer payload and its disclosures (RFC 9901 §7.1 steps 3–5),
 * checked before sd-jwt.ts trusts what @sd-jwt/core made of them.
 *
 * Where the libraries stop (docs/wallets.md#where-the-libraries-stop), the gaps this file covers:
 *
 * 17. Disclosures whose digest the issuer JWT does not list are silently dropped (RFC 9901 §7.1
 *    step 5 rejects them): a changed disclosure verifies, minus the changed claim → every
 *    disclosure must be referenced (`checkDisclosureReferences`).
 * 18. A digest listed twice in `_sd` (or in two `...` entries) is accepted, the claim appearing
 *    once (RFC 9901 §7.1 step 4 rejects it) → `checkDisclosureReferences`.
 * 19. A disclosed claim whose name already exists at its level overwrites the issuer's plain
 *    claim (`Object.assign`), and the names `_sd` and `...` are accepted; a two-element disclosure
 *    may be referenced from `_sd` and a three-element one from `...` → `checkDisclosureReferences`.
 */

/** A disclosure as `checkDisclosureReferences` needs it (sd-jwt.ts reads it). */
export interface DisclosureView {
  /** base64url digest of the encoded disclosure under `_sd_alg` */
  digest: string;
  /** the claim name; null for an array element (a two-element disclosure) */
  name: string | null;
  value: unknown;
}

/** What checkDisclosureReferences can say (fixed phrases, no credential text). */
export type DisclosureProblem =
  | 'a disclosure is not referenced by the issuer JWT'
  | 'a disclosure is sent twice'
  | 'a digest appears more than once'
  | 'a disclosed claim name already exists at its level'
  | 'a disclosure claim name is _sd or ...'
  | 'a disclosure is referenced from the wrong place'
  | 'an _sd or ... entry is malformed';

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Gaps 17–19, RFC 9901 §7.1 steps 3–5: walks the issuer payload and the disclosed values as the
 * verifier embeds them; every digest is found at most once, every disclosure is referenced
 * exactly once, from `_sd` for a claim and from `{"...": digest}` for an array element, and a
 * disclosed name is neither `_sd`, `...` nor one already present at its level.
 *
 * @example checkDisclosureReferences(issuerPayload, disclosures) // null when sound
 */
export function checkDisclosureReferences(
  payload: Record<string, unknown>,
  disclosures: readonly DisclosureView[],
): DisclosureProblem | null {
  const byDigest = new Map<string, DisclosureView>();
  for (const disclosure of disclosures) {
    if (byDigest.has(disclosure.digest)) return 'a disclosure is sent twice';
    byDigest.set(disclosure.digest, disclosure);
  }
  const seen = new Set<string>();
  const referenced = new Set<string>();
  const reference = (digest: unknown, arrayElement: boolean): DisclosureView | null | DisclosureProblem => {
    if (typeof digest !== 'string') return 'an _sd or ... entry is malformed';
    if (seen.has(digest)) return 'a digest appears more than once';
    seen.add(digest);
    const disclosure = byDigest.get(digest);
    if (!disclosure) return null; // a decoy or an undisclosed claim
    if ((disclosure.name === null) !== arrayElement) return 'a disclosure is referenced from the wrong place';
    referenced.add(digest);
    return disclosure;
  };
  const visit = (node: unknown, depth: number): DisclosureProblem | null => {
    if (depth > 64) return 'an _sd or ... entry is malformed';
    if (Array.isArray(node)) {
      for (const item of node) {
        if (isJsonObject(item) && Object.hasOwn(item, '...')) {
          if (Object.keys(item).length !== 1) return 'an _sd or ... entry is malformed';
          const found = reference(item['...'], true);
          if (typeof found === 'string') return found;
          const problem = found ? visit(found.value, depth + 1) : null;
          if (problem) return problem;
        } else {
          const problem = visit(item, depth + 1);
          if (problem) return problem;
        }
      }
      return null;
    }
    if (!isJsonObject(node)) return null;
    const names = new Set(Object.keys(node).filter((key) => key !== '_sd'));
    for (const [key, value] of Object.entries(node)) {
      if (key === '_sd') continue;
      const problem = visit(value, depth + 1);
      if (problem) return problem;
    }
    const sd = node._sd;
    if (sd === undefined) return null;
    if (!Array.isArray(sd)) return 'an _sd or ... entry is malformed';
    for (const digest of sd) {
      const found = reference(digest, false);
      if (typeof found === 'string') return found;
      if (!found) continue;
      const name = found.name!;
      if (name === '_sd' || name === '...') return 'a disclosure claim name is _sd or ...';
      if (names.has(name)) return 'a disclosed claim name already exists at its level';
      names.add(name);
      const problem = visit(found.value, depth + 1);
      if (problem) return problem;
    }
    return null;
  };
  const problem = visit(payload, 0);
  if (problem) return problem;
  return referenced.size === byDigest.size ? null : 'a disclosure is not referenced by the issuer JWT';
}
