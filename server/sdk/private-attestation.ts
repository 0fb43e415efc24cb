/**
 * Offline check of a private attestation (docs/adult-blind.md#private-attestations): an RFC
 * 9578 publicly verifiable token (type 0x0002, blind RSA-2048, RSASSA-PSS SHA-384) followed by
 * its metadata, `<base64url token>.<base64url JSON>`.
 *
 * The metadata `{"scope_mask", "epoch"}` is bound by the key: each published key signs for one
 * scope mask and epoch, so a token whose metadata differs from its key's is refused. The token's
 * challenge must be the one the partner page asked for: issuer_name from the key set and the
 * page's redemption context (32 random bytes the partner backend made for that page).
 *
 * Self-contained: node:crypto only, so a partner can copy it as is.
 */
import { createHash, createPublicKey, constants, timingSafeEqual, verify } from 'node:crypto';

export type PrivateAttestationErrorCode =
  /** not `<token>.<metadata>`, not base64url, a token of the wrong size or type, metadata not as documented */
  | 'MALFORMED'
  /** no key in the key set has the token's token_key_id */
  | 'UNKNOWN_KEY'
  /** the metadata is not the one the token's key signs for */
  | 'WRONG_METADATA'
  /** the token was made for another challenge: another redemption context or issuer */
  | 'WRONG_CONTEXT'
  | 'BAD_SIGNATURE'
  /** `consumeContext` said this redemption context was already used */
  | 'REUSED';

/** Why a private attestation was refused; `code` is stable API. */
export class PrivateAttestationError extends Error {
  readonly code: PrivateAttestationErrorCode;
  constructor(code: PrivateAttestationErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'PrivateAttestationError';
    this.code = code;
  }
}

/** One key as `GET {app_url}/api/billing/private-attestation-keys` publishes it. */
export interface PrivateAttestationKey {
  token_type: number;
  token_key_id: string;
  public_key: string;
  scope_mask: number;
  epoch: string;
  state?: string;
}

/** The whole answer of the private-attestation-keys endpoint (cache it up to an hour). */
export interface PrivateAttestationKeySet {
  issuer_name: string;
  keys: PrivateAttestationKey[];
}

export interface VerifyPrivateAttestationOptions {
  /** the 32 bytes your backend made for the page (`data-redemption-context`), base64url or bytes */
  redemptionContext: string | Uint8Array;
  /** the key set, as fetched from the private-attestation-keys endpoint */
  keys: PrivateAttestationKeySet;
  /**
   * Called once every other check passed, with the redemption context (base64url): answer true
   * the first time, false for a context already used (then REUSED). Give it to refuse a copied
   * token; without it, make each context usable once yourself.
   */
  consumeContext?: (redemptionContext: string) => boolean | Promise<boolean>;
}

export interface VerifiedPrivateAttestation {
  /** bit 0: of legal age (always set: the service signs only for a proven isAdult) */
  adult: boolean;
  /** bit 1 */
  french: boolean;
  /** bit 2 */
  eu: boolean;
  scopeMask: number;
  /** the UTC date the signing key set was made */
  epoch: string;
  tokenKeyId: string;
}

/** RFC 9578 §8.2. */
const TOKEN_TYPE = 0x0002;
const NK = 256;
/** token_type (2) | nonce (32) | challenge_digest (32) | token_key_id (32) */
const TOKEN_INPUT_LENGTH = 2 + 32 + 32 + 32;
const TOKEN_LENGTH = TOKEN_INPUT_LENGTH + NK;
const B64URL = /^[A-Za-z0-9_-]+$/;
const EPOCH = /^\d{4}-\d{2}-\d{2}$/;

function fail(code: PrivateAttestationErrorCode, message: string): never {
  throw new PrivateAttestationError(code, message);
}

/**
 * RFC 9577 §2.1 TokenChallenge: token_type, issuer_name<1..2^16-1>, redemption_context<0..32>,
 * origin_info<0..2^16-1> (empty: the service names no origin).
 *
 * @example createHash('sha256').update(serializeTokenChallenge('svc.example', context)).digest()
 */
export function serializeTokenChallenge(issuerName: string, redemptionContext: Uint8Array): Buffer {
  const issuer = Buffer.from(issuerName, 'utf8');
  if (issuer.length < 1 || issuer.length > 0xffff) throw new RangeError('issuer_name must be 1 to 65535 bytes');
  if (redemptionContext.length !== 0 && redemptionContext.length !== 32)
    throw new RangeError('redemption_context must be empty or 32 bytes');
  const head = Buffer.alloc(4);
  head.writeUInt16BE(TOKEN_TYPE, 0);
  head.writeUInt16BE(issuer.length, 2);
  return Buffer.concat([head, issuer, Buffer.from([redemptionContext.length]), redemptionContext, Buffer.alloc(2)]);
}

function readMetadata(part: string): { scope_mask: number; epoch: string } {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return fail('MALFORMED', 'metadata is not base64url JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail('MALFORMED', 'metadata is not an object');
  const { scope_mask, epoch, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) fail('MALFORMED', 'metadata has members other than scope_mask and epoch');
  if (typeof scope_mask !== 'number' || !Number.isInteger(scope_mask) || scope_mask < 0 || scope_mask > 15)
    fail('MALFORMED', 'scope_mask is not an integer from 0 to 15');
  if (typeof epoch !== 'string' || !EPOCH.test(epoch)) fail('MALFORMED', 'epoch is not a UTC date');
  return { scope_mask, epoch };
}

function contextBytes(context: string | Uint8Array): Buffer {
  const bytes =
    typeof context === 'string'
      ? B64URL.test(context)
        ? Buffer.from(context, 'base64url')
        : null
      : Buffer.from(context);
  if (!bytes || bytes.length !== 32) throw new RangeError('redemptionContext must be 32 bytes (base64url or bytes)');
  return bytes;
}

/**
 * Verifies a private attestation offline: its shape, the key (by token_key_id), the metadata the
 * key signs for, the challenge (issuer and this page's redemption context), the RSA-PSS signature,
 * then, if given, `consumeContext`. Throws PrivateAttestationError.
 *
 * @example
 * const keys = await (await fetch('https://svc.example/api/billing/private-attestation-keys')).json();
 * const result = await verifyPrivateAttestation(attestation, { redemptionContext, keys, consumeContext: (c) => contexts.delete(c) });
 * if (result.adult) letIn();
 */
export async function verifyPrivateAttestation(
  attestation: string,
  options: VerifyPrivateAttestationOptions,
): Promise<VerifiedPrivateAttestation> {
  const context = contextBytes(options.redemptionContext);
  if (typeof attestation !== 'string' || attestation.length > 1024) fail('MALFORMED', 'not a string of sane length');
  const parts = attestation.split('.');
  if (parts.length !== 2 || !parts.every((p) => B64URL.test(p)))
    fail('MALFORMED', 'not <token>.<metadata> in base64url');
  const token = Buffer.from(parts[0]!, 'base64url');
  if (token.length !== TOKEN_LENGTH) fail('MALFORMED', `token is ${token.length} bytes, not ${TOKEN_LENGTH}`);
  if (token.readUInt16BE(0) !== TOKEN_TYPE) fail('MALFORMED', `token_type ${token.readUInt16BE(0)}`);
  const metadata = readMetadata(parts[1]!);

  const challengeDigest = token.subarray(34, 66);
  const tokenKeyId = token.subarray(66, 98);
  const key = options.keys.keys.find(
    (k) =>
      k.token_type === TOKEN_TYPE &&
      B64URL.test(k.token_key_id) &&
      Buffer.from(k.token_key_id, 'base64url').equals(tokenKeyId),
  );
  if (!key) fail('UNKNOWN_KEY', 'no published key has this token_key_id');
  const publicKeyDer = Buffer.from(key.public_key, 'base64url');
  if (!createHash('sha256').update(publicKeyDer).digest().equals(tokenKeyId))
    fail('UNKNOWN_KEY', 'the key set lists a public_key that does not hash to its token_key_id');
  if (key.scope_mask !== metadata.scope_mask || key.epoch !== metadata.epoch)
    fail('WRONG_METADATA', 'the metadata is not the one the token key signs for');

  const expected = createHash('sha256').update(serializeTokenChallenge(options.keys.issuer_name, context)).digest();
  if (!timingSafeEqual(expected, challengeDigest))
    fail('WRONG_CONTEXT', 'the token was made for another redemption context or issuer');

  let publicKey;
  try {
    publicKey = createPublicKey({ key: publicKeyDer, format: 'der', type: 'spki' });
  } catch {
    return fail('UNKNOWN_KEY', 'public_key is not an RSA SubjectPublicKeyInfo');
  }
  const ok = verify(
    'sha384',
    token.subarray(0, TOKEN_INPUT_LENGTH),
    { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 48 },
    token.subarray(TOKEN_INPUT_LENGTH),
  );
  if (!ok) fail('BAD_SIGNATURE', 'the signature does not verify');

  if (options.consumeContext && !(await options.consumeContext(context.toString('base64url'))))
    fail('REUSED', 'this redemption context was already used');
  return {
    adult: (metadata.scope_mask & 1) === 1,
    french: (metadata.scope_mask & 2) === 2,
    eu: (metadata.scope_mask & 4) === 4,
    scopeMask: metadata.scope_mask,
    epoch: metadata.epoch,
    tokenKeyId: key.token_key_id,
  };
}
