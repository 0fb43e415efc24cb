/**
 * Private attestations (docs/adult-blind.md#private-attestations): Privacy Pass
 * publicly verifiable tokens (RFC 9578 type 0x0002, blind RSA, RSA-2048, RSABSSA-SHA384-PSS-
 * Deterministic of RFC 9474) that the service signs blindly.
 *
 * Why type 0x0002 and not the partially blind 0xDA7A: the widget finalises the token in the
 * browser, and the partially blind scheme's finalisation verifies the signature under a derived
 * public exponent e' of about 1,022 bits; Chromium's WebCrypto (BoringSSL caps RSA public
 * exponents at 33 bits) refuses to import such a key (OperationError), so 0xDA7A tokens cannot
 * be finalised in Chrome. Its keys also need safe primes, which WebCrypto's generateKey does not
 * make (with ordinary RSA keys 8 of 20 metadata values failed: e' not invertible). So the
 * metadata `{scope_mask, epoch}` is bound by key choice: one key per scope mask in every key
 * set, the set's epoch being the UTC date it was made (docs/privacy.md).
 *
 * A key set is one store record (purpose `private-attestation`), so it rotates exactly like the
 * Ed25519 keys (keys.ts): next → current → retired, retired sets published 24 h more.
 */
import { constants, createHash, createPrivateKey, createPublicKey, privateDecrypt, publicEncrypt } from 'node:crypto';
import { publicVerif } from '@cloudflare/privacypass-ts';
import type { SigningKeyRecord } from './key-records.ts';

/** RFC 9578 §8.2: Blind RSA (2048-bit). */
export const PRIVATE_TOKEN_TYPE = 0x0002;
/** RSA-2048: the blinded message, the blind signature and the authenticator are all this long. */
export const PRIVATE_TOKEN_NK = 256;
/** A TokenRequest: token_type (2) | truncated_token_key_id (1) | blinded_msg (Nk). */
export const TOKEN_REQUEST_LENGTH = 2 + 1 + PRIVATE_TOKEN_NK;
/**
 * The masks a private attestation can carry: it is issued only when isAdult was proven, so bit 0
 * is always set; bits 1 and 2 (isFrench, isEU) as `scope_mask` numbers them
 * (docs/adult-blind.md#what-an-attestation-is). Never bit 3: isUnique needs a nullifier, which
 * would link the visits a private attestation keeps apart, so a private partner's billing session refuses it.
 */
export const PRIVATE_SCOPE_MASKS = [1, 3, 5, 7] as const;

/** One published key: the public half of one scope mask's key in a key set. */
export interface PrivateAttestationKey {
  token_type: 2;
  /** base64url of SHA-256 over `public_key` (RFC 9578 §6.5) */
  token_key_id: string;
  /** base64url of the DER SubjectPublicKeyInfo with the RSASSA-PSS OID (RFC 9578 §6.5) */
  public_key: string;
  scope_mask: number;
  /** the UTC date the key set was made, YYYY-MM-DD */
  epoch: string;
}

/** `GET {app_url}/api/billing/private-attestation-keys` (docs/adult-blind.md#private-attestations). */
export interface PrivateAttestationKeySet {
  /** the TokenChallenge's issuer_name: the host of {app_url} */
  issuer_name: string;
  /** signing set first, then the announced next set, then retired sets still inside their 24 h */
  keys: Array<PrivateAttestationKey & { state: 'current' | 'next' | 'retired' }>;
}

interface StoredPrivateHalf {
  epoch: string;
  keys: Array<{ scope_mask: number; pkcs8: string }>;
}

interface StoredPublicHalf {
  epoch: string;
  keys: PrivateAttestationKey[];
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** The UTC date of `now`, YYYY-MM-DD: a key set's epoch. */
export function epochOf(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

async function makeMaskKey(scopeMask: number, epoch: string) {
  // WebCrypto's generateKey, not generateKeyPairSync + JWK export (which can deadlock Node 20).
  const pair = await crypto.subtle.generateKey(
    { name: 'RSA-PSS', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-384' },
    true,
    ['sign', 'verify'],
  );
  const publicKey = await publicVerif.getPublicKeyBytes(pair.publicKey);
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
  const tokenKeyId = createHash('sha256').update(publicKey).digest();
  return {
    privateHalf: { scope_mask: scopeMask, pkcs8: b64url(pkcs8) },
    publicHalf: {
      token_type: PRIVATE_TOKEN_TYPE,
      token_key_id: tokenKeyId.toString('base64url'),
      public_key: b64url(publicKey),
      scope_mask: scopeMask,
      epoch,
    } satisfies PrivateAttestationKey,
  };
}

/**
 * A fresh key set (one RSA-2048 key per scope mask) as a store record; kid is the base64url
 * SHA-256 over its token key ids.
 *
 * @example const record = await createPrivateAttestationRecord('next', clock.now())
 */
export async function createPrivateAttestationRecord(
  state: SigningKeyRecord['state'],
  now: number,
): Promise<SigningKeyRecord> {
  const epoch = epochOf(now);
  const made = await Promise.all(PRIVATE_SCOPE_MASKS.map((mask) => makeMaskKey(mask, epoch)));
  const kid = createHash('sha256')
    .update(made.map((m) => m.publicHalf.token_key_id).join('.'))
    .digest('base64url');
  const privateHalf: StoredPrivateHalf = { epoch, keys: made.map((m) => m.privateHalf) };
  const publicHalf: StoredPublicHalf = { epoch, keys: made.map((m) => m.publicHalf) };
  return {
    kid,
    purpose: 'private-attestation',
    state,
    privateJwk: JSON.stringify(privateHalf),
    publicJwk: JSON.stringify(publicHalf),
    createdAt: now,
    dropAfter: null,
  };
}

/** The published keys of one key set, member by member (never the private half). */
export function publicKeysOf(record: SigningKeyRecord): PrivateAttestationKey[] {
  const { keys } = JSON.parse(record.publicJwk) as StoredPublicHalf;
  return keys.map(({ token_type, token_key_id, public_key, scope_mask, epoch }) => ({
    token_type,
    token_key_id,
    public_key,
    scope_mask,
    epoch,
  }));
}

/** A TokenRequest the service can sign, or the reason it cannot. */
export type ParsedTokenRequest =
  { ok: true; truncatedTokenKeyId: number; blindedMsg: Buffer } | { ok: false; cause: string };

/**
 * Reads an RFC 9578 §6.1 TokenRequest: type 0x0002, one byte of key id, a 256-byte blinded message.
 *
 * @example const parsed = parseTokenRequest(Buffer.from(body.token_request, 'base64url'))
 */
export function parseTokenRequest(bytes: Uint8Array): ParsedTokenRequest {
  if (bytes.length !== TOKEN_REQUEST_LENGTH) return { ok: false, cause: `length ${bytes.length}` };
  const type = (bytes[0]! << 8) | bytes[1]!;
  if (type !== PRIVATE_TOKEN_TYPE) return { ok: false, cause: `token_type ${type}` };
  return { ok: true, truncatedTokenKeyId: bytes[2]!, blindedMsg: Buffer.from(bytes.subarray(3)) };
}

/** The key of `scopeMask` in a key set: what signs, and the id a TokenRequest must name. */
export interface MaskSigningKey {
  key: PrivateAttestationKey;
  /** RFC 9578: the last byte of token_key_id */
  truncatedTokenKeyId: number;
  sign(blindedMsg: Uint8Array): Buffer;
}

/**
 * The signing key of `scopeMask` in `record`, or null when the set has none for it.
 *
 * @example maskSigningKey(current, 1)?.sign(blindedMsg)
 */
export function maskSigningKey(record: SigningKeyRecord, scopeMask: number): MaskSigningKey | null {
  const privateHalf = JSON.parse(record.privateJwk) as StoredPrivateHalf;
  const secret = privateHalf.keys.find((k) => k.scope_mask === scopeMask);
  const key = publicKeysOf(record).find((k) => k.scope_mask === scopeMask);
  if (!secret || !key) return null;
  const privateKey = createPrivateKey({ key: Buffer.from(secret.pkcs8, 'base64url'), format: 'der', type: 'pkcs8' });
  const tokenKeyId = Buffer.from(key.token_key_id, 'base64url');
  return {
    key,
    truncatedTokenKeyId: tokenKeyId[tokenKeyId.length - 1]!,
    sign: (blindedMsg) => blindSign(privateKey, blindedMsg),
  };
}

/**
 * RFC 9474 §4.3 BlindSign: s = RSASP1(sk, m), then m' = RSAVP1(pk, s) must equal m ("signing
 * failure" otherwise). Both are OpenSSL's raw RSA operations (CRT, blinded): the library's own
 * blindSign does the same arithmetic in JavaScript big numbers and takes about 1.3 s per
 * signature, which would hold the event loop. Known-answer tested against RFC 9474's vectors and
 * byte for byte against @cloudflare/privacypass-ts's Issuer (private-attestation.test.ts).
 * Throws on a message not below the modulus or not as long as it.
 */
export function blindSign(privateKey: ReturnType<typeof createPrivateKey>, blindedMsg: Uint8Array): Buffer {
  const kLen = (privateKey.asymmetricKeyDetails?.modulusLength ?? 0) / 8;
  if (blindedMsg.length !== kLen) throw new Error(`blinded message is not ${kLen} bytes`);
  const s = privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, blindedMsg);
  const check = publicEncrypt({ key: createPublicKey(privateKey), padding: constants.RSA_NO_PADDING }, s);
  if (!check.equals(Buffer.from(blindedMsg))) throw new Error('signing failure');
  return s;
}
