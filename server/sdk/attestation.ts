/**
 * Offline verification of an ADULT_BLIND attestation, following the six steps
 * of docs/adult-blind.md#verifying-offline and design.md §5, with the checks a careful verifier adds:
 * the key is chosen by kid, and typ, aud, app_id and origin_hash must match.
 *
 * Self-contained: node:crypto and ./ files only, so a partner can copy it as is.
 */
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';

export const ATTESTATION_TYP = 'svc-attestation+jwt';
export const ATTESTATION_AUDIENCE = 'svc-attestation';
/** A verifier caches the key set for at most an hour (docs/adult-blind.md#verifying-offline). */
export const JWKS_MAX_CACHE_MS = 3_600_000;
/** After a refetch, an unknown kid does not trigger another one for this long (no fetch storm). */
export const UNKNOWN_KID_COOLDOWN_MS = 30_000;

const MAX_ATTESTATION_LENGTH = 8 * 1024;
const B64URL = /^[A-Za-z0-9_-]+$/;

export type AttestationErrorCode =
  | 'MALFORMED'
  | 'UNKNOWN_KEY'
  | 'BAD_SIGNATURE'
  | 'EXPIRED'
  | 'WRONG_AUDIENCE'
  | 'WRONG_APP'
  | 'WRONG_ORIGIN'
  /** the key set could not be fetched or is not a key set */
  | 'KEYS_UNAVAILABLE';

/**
 * Why an attestation was refused. `code` is stable API; `cause` says precisely what failed and
 * is meant for logs.
 *
 * @example
 * try { await verifyAttestation(jws, opts) } catch (e) { if (e instanceof AttestationError) log(e.code) }
 */
export class AttestationError extends Error {
  readonly code: AttestationErrorCode;
  constructor(code: AttestationErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'AttestationError';
    this.code = code;
  }
}

/** A public key as the attestation-keys endpoint publishes it. */
export interface AttestationJwk {
  kty: string;
  crv?: string;
  kid?: string;
  x?: string;
  use?: string;
  alg?: string;
}

export interface AttestationJwks {
  keys: AttestationJwk[];
}

/** What a verified attestation says: the scope_mask bits, and the values a partner may keep. */
export interface VerifiedAttestation {
  /** bit 0: of legal age */
  adult: boolean;
  /** bit 1: French nationality */
  french: boolean;
  /** bit 2: EU citizen */
  eu: boolean;
  /** bit 3: the nullifier identifies this person on this app (deduplication) */
  unique: boolean;
  /** same person, same app: same value; another app: another value */
  nullifier: string;
  /** remember it until `exp` to refuse a replayed attestation */
  jti: string;
  /** Unix seconds */
  exp: number;
}

export interface VerifyAttestationOptions {
  /** your blind application id (the service tells you at onboarding) */
  appId: string;
  /** your site's origin, e.g. "https://shop.example": the attestation must have been made for it */
  origin: string;
  /** a key set you already hold; no network then */
  keys?: AttestationJwks;
  /** `{app_url}/api/billing/attestation-keys`; fetched, cached ≤ 1 h, refetched once on an unknown kid */
  jwksUrl?: string;
  /** ms since the Unix epoch; defaults to Date.now() */
  now?: number;
  /** defaults to the global fetch */
  fetch?: typeof fetch;
}

function fail(code: AttestationErrorCode, message: string, cause?: unknown): never {
  throw new AttestationError(code, message, cause === undefined ? {} : { cause });
}

/**
 * A decoded value, for an error message: never throws (`String()` does on JSON such as
 * `{"toString":1}`), objects named by kind, strings cut to 64 characters.
 */
function shown(value: unknown): string {
  if (typeof value === 'string') return value.slice(0, 64);
  if (value !== null && typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  return String(value);
}

function decodeJson(part: string, what: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch (cause) {
    return fail('MALFORMED', `${what} is not base64url JSON`, cause);
  }
}

/**
 * origin_hash as the service computes it: base64url (no padding) of SHA-256 over the ASCII origin.
 *
 * @example computeOriginHash('https://shop.example')
 */
export function computeOriginHash(origin: string): string {
  return createHash('sha256').update(origin, 'ascii').digest('base64url');
}

/**
 * The Ed25519 public key of a JWK; refuses anything that is not an OKP Ed25519 signing key.
 *
 * @example const key = importEd25519Jwk(jwks.keys[0])
 */
export function importEd25519Jwk(jwk: AttestationJwk): KeyObject {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(jwk.x)) {
    return fail('UNKNOWN_KEY', 'key is not an Ed25519 public key');
  }
  if ((jwk.use !== undefined && jwk.use !== 'sig') || (jwk.alg !== undefined && jwk.alg !== 'EdDSA')) {
    return fail('UNKNOWN_KEY', 'key is not meant for EdDSA signatures');
  }
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
}

/**
 * Steps 2–3 of docs/adult-blind.md#verifying-offline: exactly three base64url parts, and a valid
 * Ed25519 signature over `part1.part2`. Returns the decoded header and the raw payload bytes; checks no claim.
 * Known-answer tested with RFC 8037 Appendix A.4.
 *
 * @example
 * const { header, payload } = verifyCompactEd25519(jws, importEd25519Jwk(jwk));
 */
export function verifyCompactEd25519(
  jws: string,
  key: KeyObject,
): { header: Record<string, unknown>; payload: Buffer } {
  const { header, signingInput, signature, payloadPart } = splitCompact(jws);
  if (header.alg !== 'EdDSA') fail('MALFORMED', `alg must be EdDSA, got ${shown(header.alg)}`);
  if (signature.length !== 64 || !verify(null, Buffer.from(signingInput, 'ascii'), key, signature)) {
    fail('BAD_SIGNATURE', 'signature does not verify');
  }
  return { header, payload: Buffer.from(payloadPart, 'base64url') };
}

function splitCompact(jws: string) {
  if (typeof jws !== 'string' || jws.length > MAX_ATTESTATION_LENGTH) fail('MALFORMED', 'not a string of sane length');
  const parts = jws.split('.');
  if (parts.length !== 3) fail('MALFORMED', `expected 3 parts, got ${parts.length}`);
  if (!parts.every((p) => B64URL.test(p))) fail('MALFORMED', 'a part is empty or not base64url');
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeJson(headerPart, 'header');
  if (!header || typeof header !== 'object' || Array.isArray(header)) fail('MALFORMED', 'header is not an object');
  if ('crit' in header) fail('MALFORMED', 'crit header parameters are not understood');
  return {
    header: header as Record<string, unknown>,
    signingInput: `${headerPart}.${payloadPart}`,
    payloadPart,
    signature: Buffer.from(signaturePart, 'base64url'),
  };
}

// ---- key set source: cache ≤ 1 h (shorter if max-age says so), one refetch on an unknown kid ----

interface CachedKeySet {
  jwks: AttestationJwks;
  fetchedAt: number;
  expiresAt: number;
}

const keySetCache = new Map<string, CachedKeySet>();
const inFlight = new Map<string, Promise<CachedKeySet>>();

/** Forgets every cached key set (tests; or after you changed jwksUrl's target). */
export function clearJwksCache(): void {
  keySetCache.clear();
}

function maxAgeMs(cacheControl: string | null): number {
  if (cacheControl && /(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(cacheControl)) return 0;
  const match = cacheControl?.match(/(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i);
  return match ? Math.min(Number(match[1]) * 1000, JWKS_MAX_CACHE_MS) : JWKS_MAX_CACHE_MS;
}

function isKeySet(value: unknown): value is AttestationJwks {
  return (
    !!value &&
    typeof value === 'object' &&
    Array.isArray((value as AttestationJwks).keys) &&
    (value as AttestationJwks).keys.every((k) => !!k && typeof k === 'object')
  );
}

async function fetchKeySet(url: string, fetchImpl: typeof fetch, now: number): Promise<CachedKeySet> {
  let pending = inFlight.get(url);
  if (!pending) {
    pending = (async () => {
      let response: Response;
      try {
        response = await fetchImpl(url, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(10_000),
        });
      } catch (cause) {
        return fail('KEYS_UNAVAILABLE', `fetching ${url} failed`, cause);
      }
      if (!response.ok) fail('KEYS_UNAVAILABLE', `fetching ${url} answered HTTP ${response.status}`);
      const body: unknown = await response
        .json()
        .catch((cause: unknown) => fail('KEYS_UNAVAILABLE', 'key set is not JSON', cause));
      if (!isKeySet(body)) fail('KEYS_UNAVAILABLE', 'key set has no keys array');
      const entry = { jwks: body, fetchedAt: now, expiresAt: now + maxAgeMs(response.headers.get('cache-control')) };
      keySetCache.set(url, entry);
      return entry;
    })().finally(() => inFlight.delete(url));
    inFlight.set(url, pending);
  }
  return pending;
}

async function findKey(kid: string, options: VerifyAttestationOptions, now: number): Promise<AttestationJwk> {
  const byKid = (jwks: AttestationJwks) => jwks.keys.find((k) => k.kid === kid);
  if (options.keys) return byKid(options.keys) ?? fail('UNKNOWN_KEY', `no key with kid ${kid} in the given key set`);
  if (!options.jwksUrl) return fail('UNKNOWN_KEY', 'give keys or jwksUrl');

  const fetchImpl = options.fetch ?? fetch;
  let entry = keySetCache.get(options.jwksUrl);
  let refreshed = false;
  if (!entry || now >= entry.expiresAt || now < entry.fetchedAt) {
    entry = await fetchKeySet(options.jwksUrl, fetchImpl, now);
    refreshed = true;
  }
  const found = byKid(entry.jwks);
  if (found) return found;
  // A kid we have not seen may be a key announced after our copy was fetched: fetch once more.
  if (!refreshed && now - entry.fetchedAt >= UNKNOWN_KID_COOLDOWN_MS) {
    entry = await fetchKeySet(options.jwksUrl, fetchImpl, now);
    const again = byKid(entry.jwks);
    if (again) return again;
  }
  return fail('UNKNOWN_KEY', `no key with kid ${kid} in the published key set`);
}

function isInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/**
 * Verifies an attestation offline and returns what it proves; throws AttestationError otherwise.
 * Spec steps: 3 parts → Ed25519 signature over part1.part2 (key chosen by kid) → decode →
 * exp in the future → scope_mask bits; plus typ, aud, app_id and origin_hash.
 *
 * @example
 * const result = await verifyAttestation(attestation, {
 *   appId: 'app_blind_shop',
 *   origin: 'https://shop.example',
 *   jwksUrl: 'https://svc.example/api/billing/attestation-keys',
 * });
 * if (result.adult) grantAccess();
 */
export async function verifyAttestation(jws: string, options: VerifyAttestationOptions): Promise<VerifiedAttestation> {
  const now = options.now ?? Date.now();
  const { header } = splitCompact(jws);
  if (header.typ !== ATTESTATION_TYP) fail('MALFORMED', `typ must be ${ATTESTATION_TYP}, got ${shown(header.typ)}`);
  if (typeof header.kid !== 'string' || header.kid.length === 0) fail('MALFORMED', 'kid is missing');

  const jwk = await findKey(header.kid, options, now);
  const { payload } = verifyCompactEd25519(jws, importEd25519Jwk(jwk));

  let claims: Record<string, unknown> | null;
  try {
    claims = JSON.parse(payload.toString('utf8'));
  } catch (cause) {
    return fail('MALFORMED', 'payload is not JSON', cause);
  }
  if (!claims || typeof claims !== 'object' || Array.isArray(claims)) fail('MALFORMED', 'payload is not an object');
  const { exp, scope_mask, aud, app_id, origin_hash, nullifier, jti, ver } = claims;
  if (!isInt(exp) || !isInt(scope_mask) || scope_mask < 0 || typeof jti !== 'string' || typeof nullifier !== 'string') {
    fail('MALFORMED', 'exp, scope_mask, jti or nullifier has the wrong type');
  }
  if (ver !== '1') fail('MALFORMED', `unknown payload version ${shown(ver)}`);
  if (exp <= Math.floor(now / 1000)) fail('EXPIRED', 'attestation has expired');
  if (aud !== ATTESTATION_AUDIENCE) fail('WRONG_AUDIENCE', `aud must be ${ATTESTATION_AUDIENCE}`);
  if (app_id !== options.appId) fail('WRONG_APP', 'attestation was made for another app');
  if (typeof options.origin !== 'string' || origin_hash !== computeOriginHash(options.origin)) {
    fail('WRONG_ORIGIN', 'attestation was made for another origin');
  }

  return {
    adult: (scope_mask & 1) === 1,
    french: (scope_mask & 2) === 2,
    eu: (scope_mask & 4) === 4,
    unique: (scope_mask & 8) === 8,
    nullifier,
    jti,
    exp,
  };
}
