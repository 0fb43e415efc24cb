/**
 * Ed25519 signing keys for ADULT_BLIND (design.md §5): creation, the rotation state machine shared
 * by `svc keys rotate` and the tests, and the only function that turns a key into its public JWK.
 *
 * Life of a key: next (announced, published second) → current (signs, published first) →
 * retired (published until `dropAfter`, then deleted). Every transition goes through one
 * `store.updateKeys` call, so no reader ever sees zero or two current keys.
 */
import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import { LIMITS } from '../../src/protocol/wire.ts';
import type { KeyPurpose, KeyStore, SigningKeyRecord } from './key-records.ts';
import { createPrivateAttestationRecord } from './private-attestation.ts';

/** How long a next key is published before it may sign: a partner's JWKS cache has seen it. */
export const ANNOUNCE_BEFORE_PROMOTION_MS = LIMITS.jwksMaxAgeSeconds * 1000;

/**
 * How long a retired key stays published: the last attestation it signed lives 300 s, and a
 * verifier may have cached the key set for an hour.
 */
export const RETIRED_KEY_LIFETIME_MS = (LIMITS.attestationTtlSeconds + LIMITS.jwksMaxAgeSeconds) * 1000;

/**
 * How long a retired private-attestation key set stays published (docs/adult-blind.md#private-attestations): a private
 * token carries no expiry, so a partner holding one finalised just before a rotation can still
 * check it for a day.
 */
export const RETIRED_PRIVATE_KEY_LIFETIME_MS = 24 * 3_600_000;

/** How long a key of `purpose` stays published once retired. */
export function retiredLifetimeMs(purpose: KeyPurpose): number {
  return purpose === 'private-attestation' ? RETIRED_PRIVATE_KEY_LIFETIME_MS : RETIRED_KEY_LIFETIME_MS;
}

/** A published key, exactly the members docs/adult-blind.md#what-an-attestation-is shows (plus alg): never `d`. */
export interface PublicSigningJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  kid: string;
  x: string;
  use: 'sig';
  alg: 'EdDSA';
}

/**
 * Creates a fresh Ed25519 key pair as a store record; kid is the RFC 7638 thumbprint.
 *
 * @example const key = await createKeyRecord('attestation', 'next', clock.now())
 */
export async function createKeyRecord(
  purpose: KeyPurpose,
  state: SigningKeyRecord['state'],
  now: number,
): Promise<SigningKeyRecord> {
  if (purpose === 'private-attestation') return createPrivateAttestationRecord(state, now);
  // A 32-byte seed imported as JWK, not generateKeyPairSync + JWK export, which can deadlock
  // Node 20 (see server/crypto/result-box.ts). Node builds the key from `d` and only
  // type-checks `x`; the real public key is then derived from it.
  const d = randomBytes(32).toString('base64url');
  const privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d, x: 'A'.repeat(43) }, format: 'jwk' });
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' });
  if (!publicJwk.x || privateKey.type !== 'private') throw new Error('Ed25519 key derivation failed');
  const privateJwk = { kty: 'OKP', crv: 'Ed25519', d, x: publicJwk.x };
  const kid = await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: publicJwk.x! });
  return {
    kid,
    purpose,
    state,
    privateJwk: JSON.stringify({ ...privateJwk, kid }),
    publicJwk: JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: publicJwk.x, kid }),
    createdAt: now,
    dropAfter: null,
  };
}

/**
 * The public half of a key record, built member by member so no private part can slip through.
 *
 * @example toPublicJwk(record) // { kty: 'OKP', crv: 'Ed25519', kid, x, use: 'sig', alg: 'EdDSA' }
 */
export function toPublicJwk(record: SigningKeyRecord): PublicSigningJwk {
  const { x } = JSON.parse(record.publicJwk) as { x: string };
  return { kty: 'OKP', crv: 'Ed25519', kid: record.kid, x, use: 'sig', alg: 'EdDSA' };
}

/** A retired key whose time is up: it must be neither published nor trusted. */
export function isDroppable(record: SigningKeyRecord, now: number): boolean {
  return record.state === 'retired' && record.dropAfter !== null && record.dropAfter <= now;
}

/**
 * Orders keys as the JWKS publishes them: the signing key first (simple verifiers use
 * `keys[0]`), then next, then retired (newest first); droppable keys are left out.
 *
 * @example const [signing] = orderForPublication(await store.listKeys('attestation'), now)
 */
export function orderForPublication(records: readonly SigningKeyRecord[], now: number): SigningKeyRecord[] {
  const live = records.filter((r) => !isDroppable(r, now));
  const signing = pickCurrent(live);
  const rank = { current: 0, next: 1, retired: 2 } as const;
  const rest = live
    .filter((r) => r !== signing)
    .sort((a, b) => rank[a.state] - rank[b.state] || b.createdAt - a.createdAt || a.kid.localeCompare(b.kid));
  return signing ? [signing, ...rest] : rest;
}

/**
 * The one current key that signs, chosen deterministically so that every instance agrees even
 * while a start-up race briefly left two: the oldest wins.
 */
export function pickCurrent(records: readonly SigningKeyRecord[]): SigningKeyRecord | null {
  const current = records
    .filter((r) => r.state === 'current')
    .sort((a, b) => a.createdAt - b.createdAt || a.kid.localeCompare(b.kid));
  return current[0] ?? null;
}

/**
 * Makes sure `purpose` has a current key, creating one when there is none. Safe when several
 * processes start at once on an empty store: after writing, each re-reads, and every current
 * key but the winner (see pickCurrent, the same choice every signer makes) is retired, not
 * deleted, in case a process already signed with it.
 *
 * @example await ensureCurrentKey(store, 'session', clock.now())
 */
export async function ensureCurrentKey(store: KeyStore, purpose: KeyPurpose, now: number): Promise<SigningKeyRecord> {
  const existing = pickCurrent(await store.listKeys(purpose));
  if (existing) return existing;
  const mine = await createKeyRecord(purpose, 'current', now);
  await store.putKey(mine);
  const records = await store.listKeys(purpose);
  const winner = pickCurrent(records) ?? mine;
  const losers = records.filter((r) => r.state === 'current' && r.kid !== winner.kid);
  if (losers.length > 0)
    await store.updateKeys({
      put: losers.map((r) => ({ ...r, state: 'retired' as const, dropAfter: now + retiredLifetimeMs(purpose) })),
    });
  return winner;
}

export type RotationResult =
  | { action: 'created'; kid: string }
  | { action: 'announced'; kid: string; promotableAt: number }
  | { action: 'promoted'; kid: string; retiredKid: string | null; dropAfter: number }
  | { action: 'waiting'; kid: string; promotableAt: number };

/**
 * One step of `svc keys rotate`:
 * - no current key at all: create one as current (nothing can have cached a key yet);
 * - no next key: announce one (published second in the JWKS);
 * - a next key published for at least an hour (or `force`): promote it and retire the old
 *   current one with dropAfter = now + 300 s + 3600 s (24 h for private-attestation key sets),
 *   in one atomic update;
 * - otherwise: nothing changes, the result says when promotion becomes possible.
 *
 * Retired keys past their dropAfter are deleted on the way.
 *
 * @example
 * const r = await rotateKeys(store, 'attestation', clock.now());
 * if (r.action === 'waiting') console.log(`promote after ${new Date(r.promotableAt).toISOString()}`);
 */
export async function rotateKeys(
  store: KeyStore,
  purpose: KeyPurpose,
  now: number,
  options: { force?: boolean } = {},
): Promise<RotationResult> {
  const records = await store.listKeys(purpose);
  const expired = records.filter((r) => isDroppable(r, now)).map((r) => r.kid);
  if (expired.length > 0) await store.updateKeys({ drop: expired });

  const current = pickCurrent(records);
  const next = records.filter((r) => r.state === 'next').sort((a, b) => a.createdAt - b.createdAt)[0];

  if (!current) {
    if (next) {
      await store.updateKeys({ put: [{ ...next, state: 'current' }] });
      return { action: 'created', kid: next.kid };
    }
    const created = await createKeyRecord(purpose, 'current', now);
    await store.putKey(created);
    return { action: 'created', kid: created.kid };
  }

  if (!next) {
    const announced = await createKeyRecord(purpose, 'next', now);
    await store.putKey(announced);
    return { action: 'announced', kid: announced.kid, promotableAt: now + ANNOUNCE_BEFORE_PROMOTION_MS };
  }

  const promotableAt = next.createdAt + ANNOUNCE_BEFORE_PROMOTION_MS;
  if (now < promotableAt && !options.force) return { action: 'waiting', kid: next.kid, promotableAt };

  const dropAfter = now + retiredLifetimeMs(purpose);
  const retire = records
    .filter((r) => r.state === 'current')
    .map((r) => ({ ...r, state: 'retired' as const, dropAfter }));
  await store.updateKeys({ put: [...retire, { ...next, state: 'current' }] });
  return { action: 'promoted', kid: next.kid, retiredKid: current.kid, dropAfter };
}

/** What `svc keys list` shows: never private material. */
export interface KeySummary {
  kid: string;
  purpose: KeyPurpose;
  state: SigningKeyRecord['state'];
  createdAt: number;
  dropAfter: number | null;
}

/** @example for (const k of await listKeySummaries(store, now)) console.log(k.kid, k.state) */
export async function listKeySummaries(store: KeyStore, now: number): Promise<KeySummary[]> {
  const purposes: KeyPurpose[] = ['attestation', 'session', 'private-attestation'];
  const out: KeySummary[] = [];
  for (const purpose of purposes) {
    for (const r of orderForPublication(await store.listKeys(purpose), now)) {
      out.push({ kid: r.kid, purpose: r.purpose, state: r.state, createdAt: r.createdAt, dropAfter: r.dropAfter });
    }
  }
  return out;
}
