/**
 * The store: the only place state lives, and storage only (the use cases that read and write it
 * are in domain/). Two implementations share this contract: `sqlite.ts`, the durable embedded
 * default, and `redis.ts`, for several instances; `open.ts` picks one from the configuration,
 * and one suite (`store.contract.ts`) runs against each.
 *
 * Contract, in prose:
 * - Every method is async and every method is atomic on its own: a caller never sees half a
 *   write, and two callers racing on the same key see one winner.
 * - Tokens are never stored: grants, pass tokens, poll and handoff tokens and login states are
 *   keyed by their SHA-256 digest (`digestToken`). A verification result is stored sealed to a per-request
 *   X25519 key whose private half only the reader's secret opens (`crypto/result-box.ts`); an
 *   exchange replay, sealed with its grant code (`crypto/seal.ts`). The store holds neither secret.
 * - Times are ms since the Unix epoch, given by the caller (from its Clock): the store never
 *   reads the wall clock, so a fake clock controls expiry in tests.
 * - Whatever a method has acknowledged survives `kill -9` of the process.
 * - `sweep(now)` deletes rows whose expiry is before `now`; reads also treat them as absent. A
 *   store whose rows expire by themselves (Redis TTLs) has nothing to sweep and returns 0.
 * - A store on a server (Redis) fails closed: while the server is unreachable every method but
 *   `waitForRequestChange` rejects with `StoreUnavailableError` within 2 s, nothing is answered
 *   from memory, and the same handle works again once the server is back.
 */
import type {
  CounterHit,
  ExchangeReplayRecord,
  GrantRecord,
  KeyPurpose,
  LoginStateRecord,
  NonceRead,
  NonceReadResult,
  PartnerRecord,
  PassTokenRecord,
  ProviderRecord,
  SigningKeyRecord,
  VerifyRequestPatch,
  VerifyRequestRecord,
} from './records.ts';

export type * from './records.ts';

export interface Store {
  readonly kind: 'sqlite' | 'redis';

  // Partners
  putPartner(partner: PartnerRecord): Promise<void>;
  getPartner(id: string): Promise<PartnerRecord | null>;
  listPartners(): Promise<PartnerRecord[]>;
  /** Deletes a partner; false when there was none. */
  removePartner(id: string): Promise<boolean>;

  // Identity providers (design.md §12)
  /** Stores a provider, replacing one with the same id. */
  putProvider(provider: ProviderRecord): Promise<void>;
  getProvider(id: string): Promise<ProviderRecord | null>;
  /** Every provider, oldest first (by createdAt, then id), enabled or not. */
  listProviders(): Promise<ProviderRecord[]>;
  /** Deletes a provider; false when there was none. */
  removeProvider(id: string): Promise<boolean>;

  // Service secrets and records (the nullifier key, result_reader_key, the store's mode), created once and then stable
  /** Returns the stored value for `name`, storing `value` first if there is none (first writer wins). */
  getOrCreateSecret(name: string, value: string): Promise<string>;
  /** Every service secret, by name (for re-sealing under a new master key). */
  listSecrets(): Promise<Record<string, string>>;
  /**
   * Replaces a secret that exists: re-sealing (the value stays the same underneath), and a new
   * access certificate from `svc wallet access-cert import` (cli/access-cert.ts).
   */
  replaceSecret(name: string, value: string): Promise<void>;

  // Replay protection
  /**
   * Remembers (partnerId, nonce) until `expiresAt`. false if it is already remembered and not
   * expired at `now`: exactly one of several racing callers gets true.
   */
  rememberNonce(partnerId: string, nonce: string, expiresAt: number, now: number): Promise<boolean>;
  /**
   * A signed partner call's one store step (design.md §23): remembers the nonce as
   * `rememberNonce` does and, only when it was fresh, in the same atomic step (one round trip on
   * Redis, one transaction on SQLite) reads what `read` names: a pass token as `getPassToken`, or
   * a grant as `consumeGrant` (exactly one of racing takers gets it), unless a live exchange
   * replay under the same partner and Idempotency-Key is found first (then the grant stays). A
   * replayed nonce reads, takes and changes nothing.
   */
  rememberNonceAnd(
    partnerId: string,
    nonce: string,
    expiresAt: number,
    now: number,
    read: NonceRead,
  ): Promise<NonceReadResult>;

  // Rate-limit counters, fixed windows
  hitCounter(key: string, windowMs: number, now: number): Promise<CounterHit>;

  // Slots: at most `cap` holders of one key at a time, across every handle on the same data
  // (the per-address cap on waiting long polls, limits/long-polls.ts)
  /**
   * Takes slot `slotId` under `key` until `expiresAt` or its release, unless `cap` slots are
   * already live at `now`: then false, and nothing is taken. Of many racing callers exactly as
   * many as there are free slots get true. A holder that never releases (a crashed instance)
   * stops counting at its `expiresAt`.
   */
  holdSlot(key: string, slotId: string, cap: number, expiresAt: number, now: number): Promise<boolean>;
  /** Gives a slot back before its expiry; a slot that is unknown, released or expired is no error. */
  releaseSlot(key: string, slotId: string): Promise<void>;

  // Verification requests
  createRequest(record: VerifyRequestRecord): Promise<void>;
  /** null when unknown or when expiresAt <= now */
  getRequest(id: string, now: number): Promise<VerifyRequestRecord | null>;
  /**
   * Compare-and-set: applies `patch` and bumps `version` only if the stored version equals
   * `expectedVersion`. Returns the updated record, or null if the version moved (or it is gone).
   */
  updateRequest(id: string, expectedVersion: number, patch: VerifyRequestPatch): Promise<VerifyRequestRecord | null>;
  /**
   * Resolves when request `id` has a version other than `sinceVersion` (including a change made
   * by another process or instance), or after `timeoutMs`, or when `signal` aborts. Never rejects.
   */
  waitForRequestChange(id: string, sinceVersion: number, timeoutMs: number, signal?: AbortSignal): Promise<void>;

  // Grants: single use, atomically
  putGrant(grant: GrantRecord): Promise<void>;
  /** Marks the grant used and returns it; null if unknown, already used or expired at `now`. */
  consumeGrant(digest: string, now: number): Promise<GrantRecord | null>;

  // Exchange idempotency (design.md §6)
  /**
   * Stores the replay unless a live one (not expired at `now`) exists for (partnerId,
   * idempotencyKey); returns the stored one. An expired one is replaced.
   */
  putExchangeReplay(record: ExchangeReplayRecord, now: number): Promise<ExchangeReplayRecord>;
  getExchangeReplay(partnerId: string, idempotencyKey: string, now: number): Promise<ExchangeReplayRecord | null>;

  // Login states of the authorization code flow: single use, atomically
  /** Stores a login state; `now` (the caller's clock) only sizes how long a store that expires rows by itself keeps it. */
  putLoginState(state: LoginStateRecord, now: number): Promise<void>;
  /**
   * Returns the login state and deletes it in one atomic step: of several racing takers (on any
   * instance) exactly one gets it. null when unknown, already taken or expired at `now`.
   */
  takeLoginState(digest: string, now: number): Promise<LoginStateRecord | null>;

  // Pass tokens
  putPassToken(token: PassTokenRecord): Promise<void>;
  /** null when unknown or expired at `now` */
  getPassToken(digest: string, now: number): Promise<PassTokenRecord | null>;

  // Signing keys (ADULT_BLIND attestations and session tokens)
  listKeys(purpose: KeyPurpose): Promise<SigningKeyRecord[]>;
  putKey(key: SigningKeyRecord): Promise<void>;
  /**
   * Applies several key changes in one atomic step (a rotation must never leave zero or two
   * current keys). `drop` lists kids to delete.
   */
  updateKeys(changes: { put?: SigningKeyRecord[]; drop?: string[] }): Promise<void>;

  /** Deletes everything expired before `now`; returns how many rows went. */
  sweep(now: number): Promise<number>;
  /** Redis only: the replicas online and acknowledging, for the metrics (docs/operations.md "Alerts") */
  replicasOnline?(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The store's server did not answer (down, unreachable, timed out, out of memory). The HTTP edge
 * answers 503 SERVICE_UNAVAILABLE with Retry-After; the message says what failed and carries
 * no key or value.
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/**
 * The replay record a store writes in the exchange's step (`NonceRead.replaySealed`), for `grant`
 * just taken; null when the read asks for none.
 *
 * @example replayKeptBy(read, grant) // { partnerId, idempotencyKey, grantDigest, sealedResponse, expiresAt }
 */
export function replayKeptBy(read: NonceRead, grant: GrantRecord): ExchangeReplayRecord | null {
  if (read.kind !== 'grant' || !read.replay || !read.replaySealed) return null;
  const { partnerId, idempotencyKey } = read.replay;
  const { digest: grantDigest, replaySealed: sealedResponse } = read;
  return { partnerId, idempotencyKey, grantDigest, sealedResponse, expiresAt: grant.expiresAt };
}
