/**
 * Partner authentication for HMAC-signed routes (/v1/exchange, /v1/introspect,
 * /api/billing/session, /api/partner/*), in design.md §6's order:
 * body size (Fastify's bodyLimit, before this hook) → pre-auth rate limit (the route's
 * `config.rateLimit`, per client address, applied before this hook by http/route-policy.ts) → MISSING_HEADERS →
 * INVALID_PARTNER → TIMESTAMP_SKEW → INVALID_SIGNATURE → REPLAY_DETECTED → post-auth rate limit.
 * Body validation comes after, in the route.
 */
import type { FastifyRequest, preValidationHookHandler } from 'fastify';
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { HEADERS, LIMITS } from '../../src/protocol/wire.ts';
import type { AppDeps } from '../deps.ts';
import { PARTNER_ID_PATTERN } from '../domain/index.ts';
import { ServiceError } from '../errors.ts';
import { enforceRateLimit, type RateLimitRule } from '../limits/rate-limits.ts';
import { canonicalString, hashBody } from '../sdk/signing.ts';
import type { NonceRead, NonceReadResult, PartnerRecord } from '../store/store.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** set by the partner-auth hook once the request is authenticated */
    partner: PartnerRecord | null;
    /** what the store read with the nonce (the hook's `readWithNonce`), once authenticated; null without one */
    readAhead: ReadWithNonce | null;
  }
}

const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
const TIMESTAMP_PATTERN = /^\d{1,12}$/;
const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface PartnerAuthOptions {
  /** require `Content-Type` among the headers (every POST; a GET signs the empty body) */
  requireContentType: boolean;
  /** counted per partner ID once authenticated */
  postAuthLimit?: RateLimitRule;
  /**
   * What the route will read or take from the store, named before the body is validated: the
   * nonce and it go in one atomic store step (design.md §23: one round trip on Redis, one
   * transaction on SQLite). It is asked only once the signature has verified, and the checks
   * keep their order: a replayed nonce answers REPLAY_DETECTED and reads, takes and changes
   * nothing. It must be cheap and synchronous, and answer null (the nonce alone) for a request
   * the route would refuse before reaching the store, so that nothing single-use is taken for a
   * call that then fails its body checks. The route finds the store's answer in `request.readAhead`.
   */
  readWithNonce?: (request: FastifyRequest, partner: PartnerRecord) => NonceRead | null;
}

/** What a signed call asked the nonce's store step to read, and what it found. */
export interface ReadWithNonce {
  read: NonceRead;
  result: NonceReadResult;
}

/**
 * How long a partner record read for authentication is reused. Known partners only: a partner
 * added by the CLI is usable at once, a changed secret or domain applies within this time.
 * The lookup was ~6% of a signed introspection.
 */
export const PARTNER_CACHE_MS = 5_000;

/** A partner record as authentication reuses it, with its secrets ready as HMAC keys. */
interface CachedPartner {
  partner: PartnerRecord;
  until: number;
  /** the current secret's key, then the previous one's while its overlap lasts */
  keys: { key: KeyObject; until: number }[];
}

const partnerCaches = new WeakMap<AppDeps['store'], Map<string, CachedPartner>>();

/** The secrets as keys, decoded once per cached record rather than once per request. */
function signingKeysOf(partner: PartnerRecord): CachedPartner['keys'] {
  const keys = [{ key: createSecretKey(Buffer.from(partner.secret, 'base64')), until: Infinity }];
  if (partner.previousSecret)
    keys.push({
      key: createSecretKey(Buffer.from(partner.previousSecret, 'base64')),
      until: partner.previousSecretUntil ?? 0,
    });
  return keys;
}

async function findPartner(deps: AppDeps, partnerId: string, now: number): Promise<CachedPartner | null> {
  let cache = partnerCaches.get(deps.store);
  if (!cache) partnerCaches.set(deps.store, (cache = new Map()));
  const hit = cache.get(partnerId);
  if (hit && hit.until > now && hit.until - PARTNER_CACHE_MS <= now) return hit;
  const partner = await deps.store.getPartner(partnerId);
  if (!partner) {
    cache.delete(partnerId);
    return null;
  }
  const found = { partner, until: now + PARTNER_CACHE_MS, keys: signingKeysOf(partner) };
  cache.set(partnerId, found);
  return found;
}

/** How the docs spell each signing header (docs/partner-api.md, Signing). */
const HEADER_NAMES = {
  [HEADERS.partnerId]: 'X-Partner-ID',
  [HEADERS.timestamp]: 'X-Partner-Timestamp',
  [HEADERS.nonce]: 'X-Partner-Nonce',
  [HEADERS.signature]: 'X-Partner-Signature',
  'content-type': 'Content-Type',
} as const;

/**
 * MISSING_HEADERS' message, naming each header at fault: those missing, in the order the docs list
 * them, then the nonce when it is malformed (the one header whose form this check judges; the
 * others' forms have their own codes, design.md §6). The values are never echoed.
 *
 * @example missingHeadersMessage(['Content-Type'], true)
 * // 'Missing or malformed headers: Content-Type (missing), X-Partner-Nonce (malformed: 16 to 64 characters of A-Z, a-z, 0-9, _ and -).'
 */
export function missingHeadersMessage(missing: readonly string[], nonceMalformed: boolean): string {
  const faults = missing.map((name) => `${name} (missing)`);
  if (nonceMalformed)
    faults.push(`${HEADER_NAMES[HEADERS.nonce]} (malformed: 16 to 64 characters of A-Z, a-z, 0-9, _ and -)`);
  return `Missing or malformed headers: ${faults.join(', ')}.`;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  // A repeated header is ambiguous: treat it as malformed rather than pick one.
  return typeof value === 'string' ? value : undefined;
}

/**
 * Checks a signed request; on success sets `request.partner`, otherwise throws the catalogue
 * error for the first failing step. `cause` says precisely which, for the log only.
 */
export async function authenticatePartner(
  request: FastifyRequest,
  deps: AppDeps,
  options: PartnerAuthOptions,
): Promise<PartnerRecord> {
  const now = deps.clock.now();

  const partnerId = header(request, HEADERS.partnerId);
  const timestamp = header(request, HEADERS.timestamp);
  const nonce = header(request, HEADERS.nonce);
  const signature = header(request, HEADERS.signature);
  const contentTypeMissing = options.requireContentType && !request.headers['content-type'];
  const nonceMalformed = nonce !== undefined && nonce !== '' && !NONCE_PATTERN.test(nonce);
  if (!partnerId || !timestamp || !nonce || !signature || contentTypeMissing || nonceMalformed) {
    const missing = [
      !partnerId && HEADER_NAMES[HEADERS.partnerId],
      !timestamp && HEADER_NAMES[HEADERS.timestamp],
      !nonce && HEADER_NAMES[HEADERS.nonce],
      !signature && HEADER_NAMES[HEADERS.signature],
      contentTypeMissing && HEADER_NAMES['content-type'],
    ].filter((name) => name !== false);
    const message = missingHeadersMessage(missing, nonceMalformed);
    throw new ServiceError('MISSING_HEADERS', { message, cause: message });
  }

  if (!PARTNER_ID_PATTERN.test(partnerId!))
    throw new ServiceError('INVALID_PARTNER', { cause: 'partner id malformed' });
  const found = await findPartner(deps, partnerId!, now);
  if (!found) throw new ServiceError('INVALID_PARTNER', { cause: 'partner id unknown' });
  const partner = found.partner;
  if (partner.disabledAt != null && partner.disabledAt <= now)
    throw new ServiceError('INVALID_PARTNER', { cause: 'partner disabled' });

  if (!TIMESTAMP_PATTERN.test(timestamp!)) throw new ServiceError('TIMESTAMP_SKEW', { cause: 'timestamp malformed' });
  const skewSeconds = Math.abs(Math.floor(now / 1000) - Number(timestamp));
  if (skewSeconds > LIMITS.skewSeconds) throw new ServiceError('TIMESTAMP_SKEW', { cause: `skew ${skewSeconds} s` });
  // design.md §23: a signature made before `svc store restore` may have its nonce missing from the backup.
  if (Number(timestamp) * 1000 < (deps.restoredAt ?? 0))
    throw new ServiceError('TIMESTAMP_SKEW', { cause: 'signed before the store was restored' });

  if (!SIGNATURE_PATTERN.test(signature!))
    throw new ServiceError('INVALID_SIGNATURE', { cause: 'signature malformed' });
  const canonical = canonicalString(hashBody(request.rawBody), timestamp!, partnerId!, nonce!);
  // After `svc partners rotate-secret` the previous secret still signs until its overlap ends.
  // Compared as text, not as decoded bytes: the last of 43 characters carries 2 unused bits, so
  // four spellings decode alike and a byte comparison would accept non-canonical signatures.
  const given = Buffer.from(signature!, 'latin1');
  const signedBy = found.keys.some(
    ({ key, until }) =>
      until > now &&
      timingSafeEqual(
        Buffer.from(createHmac('sha256', key).update(canonical, 'utf8').digest('base64url'), 'latin1'),
        given,
      ),
  );
  if (!signedBy) throw new ServiceError('INVALID_SIGNATURE', { cause: 'hmac mismatch' });

  // Remembered only after the signature verified, so nobody can burn a partner's nonces; kept
  // past the whole window in which the same timestamp would still be accepted.
  const nonceExpiresAt = now + 2 * LIMITS.skewSeconds * 1000 + 60_000;
  const read = options.readWithNonce?.(request, partner) ?? null;
  const readAhead = read && {
    read,
    result: await deps.store.rememberNonceAnd(partner.id, nonce!, nonceExpiresAt, now, read),
  };
  const fresh = readAhead
    ? readAhead.result.fresh
    : await deps.store.rememberNonce(partner.id, nonce!, nonceExpiresAt, now);
  if (!fresh) throw new ServiceError('REPLAY_DETECTED', { cause: 'nonce seen' });

  if (options.postAuthLimit) await enforceRateLimit(deps.store, options.postAuthLimit, partner.id, now);
  request.partner = partner;
  request.readAhead = readAhead;
  return partner;
}

/** The same as a preValidation hook, so it runs after the body is read and before validation. */
export function partnerAuthHook(deps: AppDeps, options: PartnerAuthOptions): preValidationHookHandler {
  // A grant taken with the nonce and then refused by the limit would be lost.
  if (options.readWithNonce && options.postAuthLimit)
    throw new Error('partnerAuthHook: readWithNonce and postAuthLimit do not go together');
  return async (request) => {
    await authenticatePartner(request, deps, options);
  };
}
