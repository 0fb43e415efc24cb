/**
 * A verification result sealed so that only its reader can open it.
 *
 * Why not simply `seal(pollToken, …)`: the result is written when the phone approves, and at
 * that moment the service no longer has the poll token (the store keeps its digest only). So each
 * request gets an X25519 key pair when it is created: the public half stays in the record, the
 * private half is sealed with the reader's secret (the poll token for the loader, a service-held
 * per-partner key for a signed partner request). Completion encrypts to the public half (ECDH with a
 * one-time key, then `seal`); only a caller presenting the reader's secret can open it, and
 * neither a dump of the store nor the phone's handoff token is enough.
 */
import { createPrivateKey, createPublicKey, diffieHellman, randomBytes, type KeyObject } from 'node:crypto';
import { seal, unseal } from './seal.ts';

/*
 * Why X25519 keys are made by hand from 32 random bytes: on Node 20, generateKeyPairSync
 * followed by export({format: 'jwk'}) can deadlock the whole process — the JWK export holds the
 * key's mutex while it allocates, and the garbage collection that allocation may trigger
 * destroys the finished key-generation job, which takes the same mutex. It was seen as a
 * service that stopped answering; result-box.test.ts keeps a regression loop. DER import would
 * avoid it too but costs ~0.6 ms per key (OpenSSL 3 decoders) against ~0.05 ms for JWK.
 */

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

/** Node builds an OKP private key from `d` alone and only type-checks `x` (the test pins this). */
const PLACEHOLDER_X = 'A'.repeat(43);

function privateKeyOf(d: string): KeyObject {
  return createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d, x: PLACEHOLDER_X }, format: 'jwk' });
}

function publicKeyOf(x: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x }, format: 'jwk' });
}

/** A fresh X25519 key pair as base64url raw values. */
export function newX25519KeyPair(): { d: string; x: string } {
  const d = randomBytes(32).toString('base64url');
  const privateKey = privateKeyOf(d);
  const x = createPublicKey(privateKey).export({ format: 'jwk' }).x;
  // Keeps the private key reachable until the export is done.
  if (!x || privateKey.type !== 'private') throw new Error('X25519 key derivation failed');
  return { d, x };
}

function sharedSecret(privateD: string, publicX: string): string {
  return diffieHellman({ privateKey: privateKeyOf(privateD), publicKey: publicKeyOf(publicX) }).toString('base64url');
}

/**
 * A new lock whose results open only with `readerSecret`.
 *
 * @example const lock = createResultLock(pollToken) // keep lock.publicKey and lock.sealedPrivateKey
 */
export function createResultLock(readerSecret: string): ResultLock {
  const { d, x } = newX25519KeyPair();
  return { publicKey: x, sealedPrivateKey: seal(readerSecret, KEY_PURPOSE, `${d}.${x}`) };
}

/**
 * Seals `plaintext` to a lock's public key; no secret is needed to write.
 *
 * @example const box = lockResult(record.resultPublicKey, JSON.stringify({ grant_code }))
 */
export function lockResult(publicKey: string, plaintext: string): string {
  const oneTime = newX25519KeyPair();
  return `${BOX_VERSION}.${oneTime.x}.${seal(sharedSecret(oneTime.d, publicKey), RESULT_PURPOSE, plaintext)}`;
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
    return unseal(sharedSecret(d, oneTimePublic), RESULT_PURPOSE, box.slice(dot + 1));
  } catch {
    return null;
  }
}
