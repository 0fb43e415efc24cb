/**
 * ADULT_BLIND crypto (design.md §5): session tokens, attestations and the published key set, all
 * compact JWS signed with Ed25519 keys kept in the store (see keys.ts for their life cycle).
 *
 * Keys are read from the store and cached; the cache is re-read every few seconds and when a
 * session token names an unknown kid, so a rotation made by `svc keys rotate` in another process
 * (or on another instance) is picked up without a restart.
 */
import { createHash, createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { LIMITS, type AttestationClaims, type SessionClaims } from '../../src/protocol/wire.ts';
import type { Clock } from '../clock.ts';
import { ConfigError, ServiceError } from '../errors.ts';
import type { KeyPurpose, KeyStore, SigningKeyRecord } from './key-records.ts';
import { ensureCurrentKey, isDroppable, orderForPublication, pickCurrent, toPublicJwk } from './keys.ts';

export const SESSION_TYP = 'svc-session+jwt';
export const ATTESTATION_TYP = 'svc-attestation+jwt';
export const SESSION_AUDIENCE = 'svc-widget';
export const ATTESTATION_AUDIENCE = 'svc-attestation';

/** How often the key cache is re-read from the store. */
export const KEY_RELOAD_INTERVAL_MS = 5_000;
/** An unknown kid forces a re-read, but not more than once per this interval (no store flood). */
const UNKNOWN_KID_RELOAD_MIN_MS = 1_000;
/** Tolerated clock difference between instances for a session token's iat. */
const IAT_LEEWAY_SECONDS = 60;

const B64URL = /^[A-Za-z0-9_-]+$/;

/** A published key set (docs/adult-blind.md#what-an-attestation-is). */
export interface Jwks {
  keys: Array<{ kty: 'OKP'; crv: 'Ed25519'; kid: string; x: string; use: 'sig'; alg?: 'EdDSA' }>;
}

/**
 * ADULT_BLIND crypto (design.md §5), backed by signing keys in the store and made by
 * createBlindCrypto; the use cases in domain/ and the billing routes only call these four functions.
 */
export interface BlindCrypto {
  /** Signs a session token (300 s) for a billing session. */
  issueSessionToken(input: {
    appId: string;
    origin: string;
    scopeMask: number;
    /** docs/adult-blind.md#private-attestations: the partner opted in to private attestations */
    attestation?: 'private' | null;
  }): Promise<{ token: string; claims: SessionClaims }>;
  /** Verifies signature, typ, aud and exp; throws ServiceError('SESSION_INVALID') otherwise. */
  verifySessionToken(token: string): Promise<SessionClaims>;
  /** Signs an attestation (300 s) with the current attestation key. */
  signAttestation(input: { appId: string; originHash: string; scopeMask: number; nullifier: string }): Promise<string>;
  /** The published attestation key set: signing key first, then next, then retired-but-live. */
  jwks(): Promise<Jwks>;
  /** True when a current attestation key and a current session key are loaded (readiness, design.md §17). */
  hasSigningKeys(): Promise<boolean>;
}

/**
 * origin_hash: base64url (no padding) of SHA-256 over the ASCII origin (design.md §5).
 *
 * @example originHash('https://shop.example') // 43 base64url characters
 */
export function originHash(origin: string): string {
  return createHash('sha256').update(origin, 'ascii').digest('base64url');
}

interface LoadedKey {
  record: SigningKeyRecord;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

interface KeyRing {
  /** signs; null only if an operator removed every current key */
  current: LoadedKey | null;
  /** every key still trusted (current, next, retired before dropAfter), by kid */
  byKid: Map<string, LoadedKey>;
  /** for the JWKS, in publication order */
  published: SigningKeyRecord[];
  loadedAt: number;
}

function encodeJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

function signCompact(key: LoadedKey, typ: string, payload: object): string {
  const signingInput = `${encodeJson({ alg: 'EdDSA', kid: key.record.kid, typ })}.${encodeJson(payload)}`;
  return `${signingInput}.${sign(null, Buffer.from(signingInput, 'ascii'), key.privateKey).toString('base64url')}`;
}

/**
 * A decoded token value, for the refusal's cause: never throws (`String()` does on JSON such as
 * `{"toString":1}`, which would turn a bad token into a 500), objects named by kind, strings cut.
 */
function shown(value: unknown): string {
  if (typeof value === 'string') return value.slice(0, 64);
  if (value !== null && typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  return String(value);
}

function isPositiveInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * The boot's check of the store's keys: in sandbox mode the missing current attestation key is
 * created; in production one must exist (`svc keys rotate`). A current session key is created in
 * either mode when missing: session keys are never published and only this service verifies them.
 */
async function ensureSigningKeys(store: KeyStore, clock: Clock, mode: 'sandbox' | 'production'): Promise<void> {
  if (mode === 'sandbox') {
    await ensureCurrentKey(store, 'attestation', clock.now());
  } else if (!pickCurrent(await store.listKeys('attestation'))) {
    throw new ConfigError(
      'SVC_MODE=production found no current attestation key in the store; create one with `svc keys rotate`',
    );
  }
  await ensureCurrentKey(store, 'session', clock.now());
}

/** The key rings of one process, read from the store and cached (this file's comment says when). */
interface KeyCache {
  /** the purpose's ring, re-read when older than `maxAgeMs` (KEY_RELOAD_INTERVAL_MS by default) */
  ringFor(purpose: KeyPurpose, options?: { maxAgeMs?: number }): Promise<KeyRing>;
  /** the purpose's current key; 500 INTERNAL_ERROR when an operator removed every current key */
  signingKey(purpose: KeyPurpose): Promise<LoadedKey>;
}

function createKeyCache(store: KeyStore, clock: Clock): KeyCache {
  const loadedKeys = new Map<string, LoadedKey>();
  const rings = new Map<KeyPurpose, KeyRing>();
  const loading = new Map<KeyPurpose, Promise<KeyRing>>();

  function loadKey(record: SigningKeyRecord): LoadedKey {
    // A retired key keeps its kid and material: reuse the parsed KeyObjects, refresh the record.
    const cached = loadedKeys.get(record.kid);
    if (cached) return { ...cached, record };
    const loaded = {
      record,
      privateKey: createPrivateKey({ key: JSON.parse(record.privateJwk), format: 'jwk' }),
      publicKey: createPublicKey({ key: JSON.parse(record.publicJwk), format: 'jwk' }),
    };
    loadedKeys.set(record.kid, loaded);
    return loaded;
  }

  async function reload(purpose: KeyPurpose): Promise<KeyRing> {
    const now = clock.now();
    const records = await store.listKeys(purpose);
    const gone = records.filter((r) => isDroppable(r, now)).map((r) => r.kid);
    // Lazily deleted here, by whichever instance notices first; deleting twice is harmless.
    if (gone.length > 0) await store.updateKeys({ drop: gone });
    const published = orderForPublication(records, now);
    const byKid = new Map(published.map((r) => [r.kid, loadKey(r)] as const));
    for (const [kid, key] of loadedKeys) if (key.record.purpose === purpose && !byKid.has(kid)) loadedKeys.delete(kid);
    const current = pickCurrent(published);
    const ring: KeyRing = { current: current ? byKid.get(current.kid)! : null, byKid, published, loadedAt: now };
    rings.set(purpose, ring);
    return ring;
  }

  function ringFor(purpose: KeyPurpose, options: { maxAgeMs?: number } = {}): Promise<KeyRing> {
    const ring = rings.get(purpose);
    const now = clock.now();
    const maxAgeMs = options.maxAgeMs ?? KEY_RELOAD_INTERVAL_MS;
    if (ring && now - ring.loadedAt < maxAgeMs && now >= ring.loadedAt) return Promise.resolve(ring);
    let pending = loading.get(purpose);
    if (!pending) {
      pending = reload(purpose).finally(() => loading.delete(purpose));
      loading.set(purpose, pending);
    }
    return pending;
  }

  async function signingKey(purpose: KeyPurpose): Promise<LoadedKey> {
    const ring = await ringFor(purpose);
    if (!ring.current) throw new ServiceError('INTERNAL_ERROR', { cause: `no current ${purpose} key in the store` });
    return ring.current;
  }

  return { ringFor, signingKey };
}

function nowSecondsOf(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}

/**
 * A session token's claims when its signature (by a session key the cache knows, re-read once for
 * an unknown kid), typ, aud, iss (`issuer`) and lifetime are right; 401 SESSION_INVALID otherwise,
 * its cause naming the first check that failed.
 */
async function readSessionToken(token: string, keys: KeyCache, clock: Clock, issuer: string): Promise<SessionClaims> {
  const invalid = (cause: string): ServiceError => new ServiceError('SESSION_INVALID', { cause });
  if (typeof token !== 'string' || token.length > 4096) throw invalid('not a string of sane length');
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => B64URL.test(p))) throw invalid('not a compact JWS');
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];

  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(payloadPart, 'base64url').toString('utf8'));
  } catch (cause) {
    throw new ServiceError('SESSION_INVALID', { cause });
  }
  if (!header || typeof header !== 'object' || !claims || typeof claims !== 'object' || Array.isArray(claims))
    throw invalid('header or payload is not an object');
  if (header.alg !== 'EdDSA') throw invalid(`alg ${shown(header.alg)}`);
  if (header.typ !== SESSION_TYP) throw invalid(`typ ${shown(header.typ)}`);
  if ('crit' in header) throw invalid('crit header not understood');
  if (typeof header.kid !== 'string') throw invalid('kid missing');

  let ring = await keys.ringFor('session');
  if (!ring.byKid.has(header.kid)) ring = await keys.ringFor('session', { maxAgeMs: UNKNOWN_KID_RELOAD_MIN_MS });
  const key = ring.byKid.get(header.kid);
  if (!key) throw invalid('kid unknown');

  const signature = Buffer.from(signaturePart, 'base64url');
  if (
    signature.length !== 64 ||
    !verify(null, Buffer.from(`${headerPart}.${payloadPart}`, 'ascii'), key.publicKey, signature)
  ) {
    throw invalid('signature does not verify');
  }

  if (claims.aud !== SESSION_AUDIENCE) throw invalid(`aud ${shown(claims.aud)}`);
  if (claims.iss !== issuer) throw invalid(`iss ${shown(claims.iss)}`);
  const { iat, exp, scope_mask, app_id, origin_hash, jti, iss } = claims;
  if (!isPositiveInt(iat) || !isPositiveInt(exp) || !isPositiveInt(scope_mask))
    throw invalid('iat, exp or scope_mask not an integer');
  if (typeof app_id !== 'string' || typeof origin_hash !== 'string' || typeof jti !== 'string')
    throw invalid('app_id, origin_hash or jti not a string');
  const now = nowSecondsOf(clock);
  if (exp <= now) throw invalid('expired');
  if (iat > now + IAT_LEEWAY_SECONDS) throw invalid('issued in the future');
  if (exp - iat > LIMITS.sessionTokenTtlSeconds) throw invalid('lifetime longer than a session token has');
  if (claims.attestation !== undefined && claims.attestation !== 'private')
    throw invalid(`attestation ${shown(claims.attestation)}`);
  return {
    iss: iss as string,
    aud: SESSION_AUDIENCE,
    app_id,
    origin_hash,
    scope_mask,
    iat,
    exp,
    jti,
    ...(claims.attestation === 'private' ? { attestation: 'private' as const } : {}),
  };
}

/**
 * Builds the service's ADULT_BLIND crypto over the store's keys. In sandbox mode it creates the
 * missing current keys on first start; in production it refuses to start without a current
 * attestation key (create it with `svc keys rotate`). Session keys are never published and only
 * this service verifies them, so one is created in either mode when missing.
 *
 * @example
 * const blind = await createBlindCrypto(store, clock, config);
 * const { token } = await blind.issueSessionToken({ appId: 'app_blind_shop', origin: 'https://shop.example', scopeMask: 1 });
 */
export async function createBlindCrypto(
  store: KeyStore,
  clock: Clock,
  config: { mode: 'sandbox' | 'production'; appUrl: string },
): Promise<BlindCrypto> {
  await ensureSigningKeys(store, clock, config.mode);
  const keys = createKeyCache(store, clock);
  const { ringFor, signingKey } = keys;
  const nowSeconds = (): number => nowSecondsOf(clock);

  return {
    async issueSessionToken({ appId, origin, scopeMask, attestation }) {
      const key = await signingKey('session');
      const iat = nowSeconds();
      const claims: SessionClaims = {
        iss: config.appUrl,
        aud: SESSION_AUDIENCE,
        app_id: appId,
        origin_hash: originHash(origin),
        scope_mask: scopeMask,
        iat,
        exp: iat + LIMITS.sessionTokenTtlSeconds,
        jti: randomBytes(16).toString('base64url'),
        ...(attestation === 'private' ? { attestation } : {}),
      };
      return { token: signCompact(key, SESSION_TYP, claims), claims };
    },

    verifySessionToken: (token) => readSessionToken(token, keys, clock, config.appUrl),

    async signAttestation({ appId, originHash: hash, scopeMask, nullifier }) {
      const key = await signingKey('attestation');
      const iat = nowSeconds();
      const claims: AttestationClaims = {
        jti: randomBytes(16).toString('base64url'),
        iat,
        exp: iat + LIMITS.attestationTtlSeconds,
        scope_mask: scopeMask,
        app_id: appId,
        origin_hash: hash,
        nullifier,
        aud: ATTESTATION_AUDIENCE,
        ver: '1',
      };
      return signCompact(key, ATTESTATION_TYP, claims);
    },

    async jwks(): Promise<Jwks> {
      const ring = await ringFor('attestation');
      const now = clock.now();
      return { keys: ring.published.filter((r) => !isDroppable(r, now)).map(toPublicJwk) };
    },

    async hasSigningKeys(): Promise<boolean> {
      const [attestation, session] = await Promise.all([ringFor('attestation'), ringFor('session')]);
      return attestation.current !== null && session.current !== null;
    },
  };
}
