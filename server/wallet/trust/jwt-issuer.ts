/**
 * The issuer of a JWT under the wallet trust bundle: its key from the `x5c` header (RFC 7515
 * §4.1.6) on a path to a trust anchor (chain.ts, the `jwt` signer profile), and ES256 signatures
 * over P-256 checked with node:crypto. An SD-JWT VC's issuer JWT (sd-jwt.ts) and a Status List
 * Token (status-list.ts) are verified with both.
 */
import { type KeyObject, verify as verifySignature } from 'node:crypto';
import { readCertificate, type X509Certificate } from './certificates.ts';
import { type ChainResult, evaluateIssuerChain } from './chain.ts';

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Why a JWT's issuer key is refused: no `x5c`, or the chain's own refusal. */
export type IssuerKeyRefusal =
  | Exclude<ChainResult, { ok: true }>
  | { ok: false; check: 'trust_chain'; detail: 'the issuer JWT has no x5c certificate chain' };

/** The issuer key for a header, or why there is none. */
export type IssuerKeyResolver = (header: Record<string, unknown>) => { key: KeyObject } | IssuerKeyRefusal;

/** Signatures this path accepts: ES256 over P-256, as r ‖ s (RFC 7518 §3.4); false, never a throw. */
export function verifyEs256(key: KeyObject, signingInput: string, signature: string): boolean {
  if (!BASE64URL.test(signature)) return false;
  const bytes = Buffer.from(signature, 'base64url');
  if (bytes.length !== 64) return false;
  try {
    return verifySignature('sha256', Buffer.from(signingInput), { key, dsaEncoding: 'ieee-p1363' }, bytes);
  } catch {
    return false;
  }
}

/**
 * The issuer key of a PID: the leaf of `x5c` (base64 DER, RFC 7515 §4.1.6), on a path to one of
 * `anchors` with the `jwt` signer profile of chain.ts, valid at `now`, no certificate of it
 * carrying a key of `refusedKeys`.
 */
export function resolveX5cKey(
  anchors: readonly X509Certificate[],
  now: number,
  refusedKeys: readonly string[] = [],
): IssuerKeyResolver {
  return (header) => {
    const x5c = header.x5c;
    if (!Array.isArray(x5c) || x5c.length === 0 || x5c.some((c) => typeof c !== 'string' || !BASE64.test(c)))
      return { ok: false, check: 'trust_chain', detail: 'the issuer JWT has no x5c certificate chain' };
    const ders = (x5c as string[]).map((c) => new Uint8Array(Buffer.from(c, 'base64')));
    const chain = evaluateIssuerChain(ders, anchors, new Date(now), refusedKeys, 'jwt');
    if (!chain.ok) return chain;
    const leaf = readCertificate(ders[0]!);
    if (!leaf) return { ok: false, check: 'trust_chain', detail: 'x5chain is empty or unreadable' };
    return { key: leaf.publicKey };
  };
}
