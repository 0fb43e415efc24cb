/**
 * EC keys and COSE signature algorithms for the wallet path, on node:crypto and Web Crypto only.
 *
 * Keys are made from random bytes and imported, never with generateKeyPair + JWK export, which can
 * deadlock Node 20 (see server/crypto/result-box.ts).
 */
import { createECDH, randomBytes, webcrypto } from 'node:crypto';

const subtle = webcrypto.subtle;

/** A P-256 / P-384 / P-521 key as JWK; `d` only on private keys. */
export interface EcJwk {
  kty: 'EC';
  crv: 'P-256' | 'P-384' | 'P-521';
  x: string;
  y: string;
  d?: string;
}

/** COSE algorithm name → curve and hash (RFC 9053 §2.1): the only signatures this path accepts. */
const ECDSA_ALGORITHMS = {
  ES256: { crv: 'P-256', hash: 'SHA-256', ecdhCurve: 'prime256v1' },
  ES384: { crv: 'P-384', hash: 'SHA-384', ecdhCurve: 'secp384r1' },
  ES512: { crv: 'P-521', hash: 'SHA-512', ecdhCurve: 'secp521r1' },
} as const;

export type EcdsaAlgorithm = keyof typeof ECDSA_ALGORITHMS;

export function isEcdsaAlgorithm(value: unknown): value is EcdsaAlgorithm {
  return typeof value === 'string' && Object.hasOwn(ECDSA_ALGORITHMS, value);
}

/**
 * A fresh EC private key as JWK, from random bytes (the public point is derived by OpenSSL).
 *
 * @example const deviceKey = createEcJwk(); // { kty: 'EC', crv: 'P-256', x, y, d }
 */
export function createEcJwk(algorithm: EcdsaAlgorithm = 'ES256'): Required<EcJwk> {
  const { crv, ecdhCurve } = ECDSA_ALGORITHMS[algorithm];
  const size = crv === 'P-521' ? 66 : crv === 'P-384' ? 48 : 32;
  for (;;) {
    const d = randomBytes(size);
    if (crv === 'P-521') d[0]! &= 0x01; // a P-521 scalar has 521 bits
    const ecdh = createECDH(ecdhCurve);
    try {
      ecdh.setPrivateKey(d); // refuses 0 and values ≥ the group order; draw again
    } catch {
      continue;
    }
    const point = ecdh.getPublicKey(); // 0x04 ‖ x ‖ y
    return {
      kty: 'EC',
      crv,
      x: point.subarray(1, 1 + size).toString('base64url'),
      y: point.subarray(1 + size).toString('base64url'),
      d: d.toString('base64url'),
    };
  }
}

/** The public half of a JWK, member by member so `d` cannot slip through. */
export function toPublicEcJwk(jwk: EcJwk): EcJwk {
  return { kty: 'EC', crv: jwk.crv, x: jwk.x, y: jwk.y };
}

/** Imports a JWK as an ECDSA key for Web Crypto (sign with `d`, verify without). */
export async function importEcdsaKey(jwk: EcJwk, use: 'sign' | 'verify'): Promise<webcrypto.CryptoKey> {
  const key = use === 'sign' ? { ...jwk } : toPublicEcJwk(jwk);
  return subtle.importKey('jwk', key, { name: 'ECDSA', namedCurve: jwk.crv }, false, [use]);
}

function checkCurve(algorithm: EcdsaAlgorithm, jwk: EcJwk): void {
  const expected = ECDSA_ALGORITHMS[algorithm].crv;
  if (jwk.crv !== expected) throw new Error(`${algorithm} needs a ${expected} key, not ${String(jwk.crv)}`);
}

/**
 * ECDSA signature in COSE form (r ‖ s, RFC 9053 §2.1), which is Web Crypto's own output.
 *
 * @example const signature = await signEcdsa('ES256', privateJwk, toBeSigned)
 */
export async function signEcdsa(algorithm: EcdsaAlgorithm, jwk: EcJwk, data: Uint8Array): Promise<Uint8Array> {
  checkCurve(algorithm, jwk);
  const key = await importEcdsaKey(jwk, 'sign');
  const signature = await subtle.sign({ name: 'ECDSA', hash: ECDSA_ALGORITHMS[algorithm].hash }, key, data);
  return new Uint8Array(signature);
}

/** Verifies an r ‖ s ECDSA signature; false (never a throw) for a wrong key, curve or signature. */
export async function verifyEcdsa(
  algorithm: EcdsaAlgorithm,
  jwk: EcJwk,
  data: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  try {
    checkCurve(algorithm, jwk);
    const key = await importEcdsaKey(jwk, 'verify');
    return await subtle.verify({ name: 'ECDSA', hash: ECDSA_ALGORITHMS[algorithm].hash }, key, signature, data);
  } catch {
    return false;
  }
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Strict base64url (no padding, no spaces): Buffer's decoder alone would accept both. */
export function decodeBase64Url(value: string): Uint8Array | null {
  if (!BASE64URL.test(value) || value.length % 4 === 1) return null;
  return new Uint8Array(Buffer.from(value, 'base64url'));
}

export function encodeBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}
