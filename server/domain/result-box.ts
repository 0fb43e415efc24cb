/**
 * A verification result sealed so that only its reader can open it.
 *
 * Why not simply `seal(pollToken, …)`: the result is written when the phone approves, and at
 * that moment the service no longer has the poll token (the store keeps its digest only). So each
 * request gets an X25519 key pair when it is created: the public half stays in the record, the
 * private half is sealed with the reader's secret (the poll token for the loader, the partner
 * secret for a signed partner request). Completion encrypts to the public half (ECDH with a
 * one-time key, then `seal`); only a caller presenting the reader's secret can open it, and
 * neither a dump of the store nor the phone's handoff token is enough.
 */
import { createPrivateKey, createPublicKey, diffieHellman, generateKeyPairSync } from 'node:crypto';
import { seal, unseal } from '../crypto/seal.ts';

const BOX_VERSION = 'x1';
const KEY_PURPOSE = 'result-key';
const RESULT_PURPOSE = 'result';
const B64URL_32 = /^[A-Za-z0-9_-]{43}$/;

export interface ResultLock {
  /** X25519 public key, base64url */
  publicKey: string;
  /** its private key, sealed with the reader's secret */
  sealedPrivateKey: string;
}

function sharedSecret(privateD: string, privateX: string, publicX: string): string {
  const privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: privateD, x: privateX }, format: 'jwk' });
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: publicX }, format: 'jwk' });
  return diffieHellman({ privateKey, publicKey }).toString('base64url');
}

/**
 * A new lock whose results open only with `readerSecret`.
 *
 * @example const lock = createResultLock(pollToken) // keep lock.publicKey and lock.sealedPrivateKey
 */
export function createResultLock(readerSecret: string): ResultLock {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  const jwk = privateKey.export({ format: 'jwk' });
  return {
    publicKey: publicKey.export({ format: 'jwk' }).x!,
    sealedPrivateKey: seal(readerSecret, KEY_PURPOSE, `${jwk.d}.${jwk.x}`),
  };
}

/**
 * Seals `plaintext` to a lock's public key; no secret is needed to write.
 *
 * @example const box = lockResult(record.resultPublicKey, JSON.stringify({ grant_code }))
 */
export function lockResult(publicKey: string, plaintext: string): string {
  const oneTime = generateKeyPairSync('x25519').privateKey.export({ format: 'jwk' });
  const secret = sharedSecret(oneTime.d!, oneTime.x!, publicKey);
  return `${BOX_VERSION}.${oneTime.x}.${seal(secret, RESULT_PURPOSE, plaintext)}`;
}

/**
 * Opens a box with the reader's secret; null when the secret is wrong or anything was tampered with.
 *
 * @example const text = openResult(record.resultKeySealed, pollToken, record.sealedResult)
 */
export function openResult(sealedPrivateKey: string, readerSecret: string, box: string): string | null {
  const privateKey = unseal(readerSecret, KEY_PURPOSE, sealedPrivateKey);
  if (privateKey === null) return null;
  const [d, x] = privateKey.split('.');
  const dot = box.indexOf('.', BOX_VERSION.length + 1);
  const version = box.slice(0, BOX_VERSION.length);
  const oneTimePublic = box.slice(BOX_VERSION.length + 1, dot);
  if (!d || !x || version !== BOX_VERSION || dot < 0 || !B64URL_32.test(oneTimePublic)) return null;
  try {
    return unseal(sharedSecret(d, x, oneTimePublic), RESULT_PURPOSE, box.slice(dot + 1));
  } catch {
    return null;
  }
}
