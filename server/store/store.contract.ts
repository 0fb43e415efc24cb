/**
 * The store contract (store.ts, in prose there) as one suite that every implementation runs:
 * `sqlite.test.ts` today, `redis.test.ts` later. Written against the `Store` interface only.
 *
 * Times are deliberately in 2001: a store that read the wall clock instead of the `now` it is
 * given would see every row as long expired and fail here.
 *
 * @example
 * // sqlite.test.ts
 * runStoreContract('SQLite in memory', async () => openSqliteStore(':memory:'));
 * runStoreContract('SQLite on a file', openOnFile, { openPeer: (store) => openSqliteStore(pathOf(store)) });
 * // redis.test.ts
 * runStoreContract('Redis', openOnFreshPrefix, { openPeer: samePrefix, expiresByItself: true });
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createKeyring, isSealed } from '../crypto/master-key.ts';
import { sealedStore } from './sealed.ts';
import type {
  ExchangeReplayRecord,
  GrantRecord,
  LoginStateRecord,
  PartnerRecord,
  PassTokenRecord,
  ProviderRecord,
  SigningKeyRecord,
  Store,
  VerifyRequestRecord,
} from './store.ts';

export interface StoreContractOptions {
  /**
   * Opens a second instance over the same data as `store`, as another process or service
   * instance would. Omit it for a store that cannot be shared (SQLite `:memory:`): the tests
   * that need two instances are then not defined for it.
   */
  openPeer?: (store: Store) => Promise<Store>;
  /**
   * The store drops expired rows by itself (Redis TTLs): `sweep` has nothing to do and returns 0,
   * and the sweep test checks that expired rows read as absent rather than that they are gone.
   */
  expiresByItself?: boolean;
}

const T0 = Date.UTC(2001, 0, 1);
const MINUTE = 60_000;

let serial = 0;
function unique(prefix: string): string {
  serial += 1;
  return `${prefix}${serial.toString(36).padStart(6, '0')}`;
}

function partner(overrides: Partial<PartnerRecord> = {}): PartnerRecord {
  return {
    id: unique('pk_test_'),
    secret: Buffer.alloc(32, 7).toString('base64'),
    name: 'Contract Shop',
    domain: 'https://shop.example',
    rail: 'standard',
    blindAppId: null,
    allowedScopes: null,
    createdAt: T0,
    previousSecret: null,
    previousSecretUntil: null,
    disabledAt: null,
    attestation: null,
    walletFormats: null,
    ...overrides,
  };
}

function request(overrides: Partial<VerifyRequestRecord> = {}): VerifyRequestRecord {
  return {
    id: unique('vr_contract'),
    rail: 'standard',
    partnerId: 'pk_test_demo',
    appId: null,
    originHash: null,
    sessionJti: null,
    scopes: ['isAdult', 'isUnique'],
    clientProofMode: false,
    locale: 'fr',
    audienceLabel: 'Demo Shop',
    pollTokenDigest: unique('pt-digest-'),
    handoffTokenDigest: unique('h-digest-'),
    status: 'pending',
    reason: null,
    method: null,
    sealedResult: null,
    version: 1,
    createdAt: T0,
    expiresAt: T0 + 6 * MINUTE,
    channel: 'widget',
    deadlineAt: T0 + 5 * MINUTE,
    openedAt: null,
    resultPublicKey: 'public-key',
    resultKeySealed: 'sealed-private-key',
    ...overrides,
  };
}

function grant(overrides: Partial<GrantRecord> = {}): GrantRecord {
  return {
    digest: unique('grant-digest-'),
    partnerId: 'pk_test_demo',
    requestId: unique('vr_'),
    scopes: ['isAdult', 'revealBirthYear'],
    attributes: { age_over_18: true, birth_year: 1992 },
    method: 'face_check',
    verifiedAt: T0,
    generationTimeMs: 1_400,
    expiresAt: T0 + 5 * MINUTE,
    ...overrides,
  };
}

function passToken(overrides: Partial<PassTokenRecord> = {}): PassTokenRecord {
  return {
    digest: unique('pass-digest-'),
    partnerId: 'pk_test_demo',
    requestId: unique('vr_'),
    scopes: ['isAdult'],
    attributes: { age_over_18: true },
    method: 'eudi_wallet',
    issuedAt: T0,
    expiresAt: T0 + 240 * MINUTE,
    generationTimeMs: 900,
    ...overrides,
  };
}

function replay(overrides: Partial<ExchangeReplayRecord> = {}): ExchangeReplayRecord {
  return {
    partnerId: 'pk_test_demo',
    idempotencyKey: unique('idem-'),
    grantDigest: unique('grant-digest-'),
    sealedResponse: 'v1.sealed.first',
    expiresAt: T0 + 5 * MINUTE,
    ...overrides,
  };
}

function key(overrides: Partial<SigningKeyRecord> = {}): SigningKeyRecord {
  return {
    kid: unique('kid-'),
    purpose: 'attestation',
    state: 'current',
    privateJwk: '{"kty":"OKP","crv":"Ed25519","d":"private","x":"public"}',
    publicJwk: '{"kty":"OKP","crv":"Ed25519","x":"public"}',
    createdAt: T0,
    dropAfter: null,
    ...overrides,
  };
}

function provider(overrides: Partial<ProviderRecord> = {}): ProviderRecord {
  return {
    id: unique('idp_contract'),
    issuer: 'https://id.example',
    clientId: 'svc-client',
    clientAuth: 'client_secret_basic',
    credential: 'contract-client-secret',
    name: 'Example ID',
    method: 'face_check',
    proves: ['isAdult', 'isFrench'],
    enabled: true,
    createdAt: T0,
    ...overrides,
  };
}

function loginState(overrides: Partial<LoginStateRecord> = {}): LoginStateRecord {
  return {
    digest: unique('state-digest-'),
    requestId: unique('vr_'),
    providerId: 'idp_example',
    codeVerifier: unique('contract-code-verifier-'),
    nonce: unique('contract-nonce-'),
    browserDigest: unique('contract-browser-digest-'),
    expiresAt: T0 + 5 * MINUTE,
    ...overrides,
  };
}

function elapsedSince(start: number): number {
  return Date.now() - start;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Defines the contract's tests for one store implementation. `openStore` must give a fresh,
 * empty store each time; every store it opens is closed after its test.
 */
export function runStoreContract(
  name: string,
  openStore: () => Promise<Store>,
  options: StoreContractOptions = {},
): void {
  describe(`store contract: ${name}`, () => {
    const opened: Store[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    async function fresh(): Promise<Store> {
      const store = await openStore();
      opened.push(store);
      return store;
    }

    async function peerOf(store: Store): Promise<Store> {
      const peer = await options.openPeer!(store);
      opened.push(peer);
      return peer;
    }

    describe('partners', () => {
      it('stores a partner and reads every field back', async () => {
        const store = await fresh();
        const standard = partner();
        const blind = partner({
          rail: 'adult_blind',
          blindAppId: 'app_contract',
          allowedScopes: ['isAdult', 'isUnique'],
        });
        const privateBlind = partner({ rail: 'adult_blind', blindAppId: 'app_private', attestation: 'private' });
        const sdJwtOnly = partner({ walletFormats: 'dc+sd-jwt' });
        const mdocOnly = partner({ walletFormats: 'mso_mdoc' });
        await store.putPartner(standard);
        await store.putPartner(blind);
        await store.putPartner(privateBlind);
        await store.putPartner(sdJwtOnly);
        await store.putPartner(mdocOnly);
        expect(await store.getPartner(sdJwtOnly.id)).toEqual(sdJwtOnly);
        expect(await store.getPartner(mdocOnly.id)).toEqual(mdocOnly);
        expect(await store.getPartner(standard.id)).toEqual(standard);
        expect(await store.getPartner(blind.id)).toEqual(blind);
        expect(await store.getPartner(privateBlind.id)).toEqual(privateBlind);
        expect(await store.getPartner('pk_test_nobody')).toBeNull();
      });

      it('replaces a partner put again under the same id', async () => {
        const store = await fresh();
        const first = partner();
        await store.putPartner(first);
        await store.putPartner({
          ...first,
          secret: Buffer.alloc(32, 9).toString('base64'),
          domain: 'https://moved.example',
          allowedScopes: ['isAdult'],
        });
        expect(await store.getPartner(first.id)).toMatchObject({
          secret: Buffer.alloc(32, 9).toString('base64'),
          domain: 'https://moved.example',
          allowedScopes: ['isAdult'],
        });
        expect(await store.listPartners()).toHaveLength(1);
      });

      it("keeps a rotated or disabled partner's lifecycle fields, and clears them when put without", async () => {
        const store = await fresh();
        const rotated = partner({
          previousSecret: Buffer.alloc(32, 3).toString('base64'),
          previousSecretUntil: T0 + 86_400_000,
          disabledAt: T0 + 5,
        });
        await store.putPartner(rotated);
        expect(await store.getPartner(rotated.id)).toEqual(rotated);
        await store.putPartner({ ...rotated, previousSecret: null, previousSecretUntil: null, disabledAt: null });
        expect(await store.getPartner(rotated.id)).toMatchObject({
          previousSecret: null,
          previousSecretUntil: null,
          disabledAt: null,
        });
      });

      it('lists every partner', async () => {
        const store = await fresh();
        const all = [partner(), partner({ createdAt: T0 + 1 }), partner({ createdAt: T0 + 2 })];
        for (const p of all) await store.putPartner(p);
        expect((await store.listPartners()).map((p) => p.id).sort()).toEqual(all.map((p) => p.id).sort());
      });

      it('removes a partner once: true the first time, false after', async () => {
        const store = await fresh();
        const [gone, kept] = [partner(), partner({ createdAt: T0 + 1 })];
        await store.putPartner(gone);
        await store.putPartner(kept);
        expect(await store.removePartner(gone.id)).toBe(true);
        expect(await store.removePartner(gone.id)).toBe(false);
        expect(await store.getPartner(gone.id)).toBeNull();
        expect((await store.listPartners()).map((p) => p.id)).toEqual([kept.id]);
      });
    });

    describe('identity providers', () => {
      it('stores a provider and reads every field back', async () => {
        const store = await fresh();
        const withSecret = provider();
        const withKey = provider({
          clientAuth: 'private_key_jwt',
          credential: '{"kty":"EC","crv":"P-256","d":"private","x":"x","y":"y"}',
          issuer: 'http://127.0.0.1:8789',
          proves: ['isAdult'],
          enabled: false,
        });
        await store.putProvider(withSecret);
        await store.putProvider(withKey);
        expect(await store.getProvider(withSecret.id)).toEqual(withSecret);
        expect(await store.getProvider(withKey.id)).toEqual(withKey);
        expect(await store.getProvider('idp_nobody')).toBeNull();
      });

      it('replaces a provider put again under the same id', async () => {
        const store = await fresh();
        const first = provider();
        await store.putProvider(first);
        await store.putProvider({ ...first, enabled: false, credential: 'rotated-secret' });
        expect(await store.getProvider(first.id)).toEqual({ ...first, enabled: false, credential: 'rotated-secret' });
        expect(await store.listProviders()).toHaveLength(1);
      });

      it('lists every provider, oldest first', async () => {
        const store = await fresh();
        const [old, middle, recent] = [
          provider({ createdAt: T0 }),
          provider({ createdAt: T0 + 1 }),
          provider({ createdAt: T0 + 2 }),
        ];
        for (const p of [recent, old, middle]) await store.putProvider(p);
        expect(await store.listProviders()).toEqual([old, middle, recent]);
      });

      it('removes a provider once: true the first time, false after', async () => {
        const store = await fresh();
        const [gone, kept] = [provider(), provider()];
        await store.putProvider(gone);
        await store.putProvider(kept);
        expect(await store.removeProvider(gone.id)).toBe(true);
        expect(await store.removeProvider(gone.id)).toBe(false);
        expect(await store.getProvider(gone.id)).toBeNull();
        expect(await store.listProviders()).toEqual([kept]);
      });
    });

    describe('service secrets', () => {
      it('keeps the first value written: later writers get it back', async () => {
        const store = await fresh();
        expect(await store.getOrCreateSecret('nullifier_key', 'first')).toBe('first');
        expect(await store.getOrCreateSecret('nullifier_key', 'second')).toBe('first');
        expect(await store.getOrCreateSecret('other_key', 'third')).toBe('third');
      });

      it('lists every secret and replaces one in place', async () => {
        const store = await fresh();
        await store.getOrCreateSecret('a_key', 'one');
        await store.getOrCreateSecret('b_key', 'two');
        await store.replaceSecret('a_key', 'one, sealed anew');
        expect(await store.listSecrets()).toMatchObject({ a_key: 'one, sealed anew', b_key: 'two' });
        expect(await store.getOrCreateSecret('a_key', 'ignored')).toBe('one, sealed anew');
      });

      it('gives every racing writer the same winner', async () => {
        const store = await fresh();
        const values = await Promise.all(
          Array.from({ length: 20 }, (_, i) => store.getOrCreateSecret('raced', `value-${i}`)),
        );
        expect(new Set(values).size).toBe(1);
        expect(values[0]).toMatch(/^value-\d+$/);
      });
    });

    describe('nonces', () => {
      it('remembers a nonce until it expires, per partner', async () => {
        const store = await fresh();
        expect(await store.rememberNonce('pk_a', 'nonce-0123456789', T0 + MINUTE, T0)).toBe(true);
        expect(await store.rememberNonce('pk_a', 'nonce-0123456789', T0 + MINUTE, T0 + 1)).toBe(false);
        expect(await store.rememberNonce('pk_a', 'nonce-0123456789', T0 + 2 * MINUTE, T0 + MINUTE - 1)).toBe(false);
        expect(await store.rememberNonce('pk_b', 'nonce-0123456789', T0 + MINUTE, T0)).toBe(true);
        expect(await store.rememberNonce('pk_a', 'nonce-0123456789', T0 + 2 * MINUTE, T0 + MINUTE)).toBe(true);
        expect(await store.rememberNonce('pk_a', 'nonce-0123456789', T0 + 2 * MINUTE, T0 + MINUTE + 1)).toBe(false);
      });

      it('lets exactly one of many racing callers remember a nonce', async () => {
        const store = await fresh();
        const results = await Promise.all(
          Array.from({ length: 50 }, () => store.rememberNonce('pk_a', 'raced-nonce-0001', T0 + MINUTE, T0)),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
      });
    });

    describe('rate-limit counters', () => {
      it('counts hits in a fixed window that starts at the first hit', async () => {
        const store = await fresh();
        expect(await store.hitCounter('ip:1', MINUTE, T0)).toEqual({ count: 1, resetAt: T0 + MINUTE });
        expect(await store.hitCounter('ip:1', MINUTE, T0 + 10_000)).toEqual({ count: 2, resetAt: T0 + MINUTE });
        expect(await store.hitCounter('ip:1', MINUTE, T0 + MINUTE - 1)).toEqual({ count: 3, resetAt: T0 + MINUTE });
      });

      it('starts a new window once the old one has passed', async () => {
        const store = await fresh();
        await store.hitCounter('ip:1', MINUTE, T0);
        await store.hitCounter('ip:1', MINUTE, T0 + 1);
        expect(await store.hitCounter('ip:1', MINUTE, T0 + MINUTE)).toEqual({ count: 1, resetAt: T0 + 2 * MINUTE });
        expect(await store.hitCounter('ip:1', MINUTE, T0 + 5 * MINUTE + 7)).toEqual({
          count: 1,
          resetAt: T0 + 6 * MINUTE + 7,
        });
      });

      it('keeps keys apart', async () => {
        const store = await fresh();
        await store.hitCounter('ip:1', MINUTE, T0);
        await store.hitCounter('ip:1', MINUTE, T0);
        expect((await store.hitCounter('ip:2', MINUTE, T0)).count).toBe(1);
        expect((await store.hitCounter('partner:1', 300_000, T0)).resetAt).toBe(T0 + 300_000);
      });

      it('counts every one of many racing hits exactly once', async () => {
        const store = await fresh();
        const hits = await Promise.all(Array.from({ length: 50 }, () => store.hitCounter('raced', MINUTE, T0)));
        expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
        expect(new Set(hits.map((h) => h.resetAt))).toEqual(new Set([T0 + MINUTE]));
      });
    });

    describe('slots', () => {
      it('holds at most cap slots of a key, and frees one on release', async () => {
        const store = await fresh();
        const until = T0 + MINUTE;
        expect(await store.holdSlot('ip:1', 's1', 2, until, T0)).toBe(true);
        expect(await store.holdSlot('ip:1', 's2', 2, until, T0)).toBe(true);
        expect(await store.holdSlot('ip:1', 's3', 2, until, T0)).toBe(false);
        expect(await store.holdSlot('ip:2', 's3', 2, until, T0)).toBe(true);
        await store.releaseSlot('ip:1', 's1');
        await store.releaseSlot('ip:1', 's1');
        await store.releaseSlot('ip:1', 'never-held');
        expect(await store.holdSlot('ip:1', 's4', 2, until, T0)).toBe(true);
        expect(await store.holdSlot('ip:1', 's5', 2, until, T0)).toBe(false);
      });

      it('stops counting a slot at its expiry, by the clock of the caller', async () => {
        const store = await fresh();
        expect(await store.holdSlot('ip:1', 'short', 2, T0 + 10_000, T0)).toBe(true);
        expect(await store.holdSlot('ip:1', 'long', 2, T0 + 30_000, T0)).toBe(true);
        expect(await store.holdSlot('ip:1', 'early', 2, T0 + 40_000, T0 + 9_999)).toBe(false);
        expect(await store.holdSlot('ip:1', 'later', 2, T0 + 40_000, T0 + 10_000)).toBe(true);
        expect(await store.holdSlot('ip:1', 'again', 2, T0 + 40_000, T0 + 29_999)).toBe(false);
      });

      it('gives exactly cap of 50 racing holders a slot', async () => {
        const store = await fresh();
        const held = await Promise.all(
          Array.from({ length: 50 }, (_, i) => store.holdSlot('raced', `s${i}`, 7, T0 + MINUTE, T0)),
        );
        expect(held.filter(Boolean)).toHaveLength(7);
      });
    });

    describe('verification requests', () => {
      it('stores a request and reads every field back until it expires', async () => {
        const store = await fresh();
        const record = request({
          rail: 'adult_blind',
          partnerId: null,
          appId: 'app_x',
          originHash: 'hash',
          sessionJti: 'jti',
          audienceLabel: 'app_x',
        });
        await store.createRequest(record);
        expect(await store.getRequest(record.id, T0)).toEqual(record);
        expect(await store.getRequest(record.id, record.expiresAt - 1)).toEqual(record);
        expect(await store.getRequest(record.id, record.expiresAt)).toBeNull();
        expect(await store.getRequest('vr_unknown', T0)).toBeNull();
      });

      it('keeps the EUDI wallet material of a request (design.md §11, §13) through updates', async () => {
        const store = await fresh();
        const wallet = {
          v: 2 as const,
          responseUri: 'http://localhost:8787/oid4vp/response/vr_x',
          nonce: 'nonce-value',
          state: 'state-value',
          scopes: ['isAdult' as const, 'isFrench' as const],
          dc: { deviceRequest: 'dr', encryptionInfo: 'ei', recipientPrivateKey: 'v1.sealed.key.tag' },
          oid4vpDc: {
            nonce: 'dc-nonce',
            publicJwk: {
              kty: 'EC' as const,
              crv: 'P-256' as const,
              x: 'x',
              y: 'y',
              use: 'enc' as const,
              alg: 'ECDH-ES' as const,
              kid: 'k',
            },
            privateKey: 'v1.sealed.ecdh.tag',
          },
        };
        const record = request({ clientProofMode: true, scopes: ['isAdult', 'isFrench'], wallet });
        await store.createRequest(record);
        expect(await store.getRequest(record.id, T0)).toEqual(record);
        const updated = await store.updateRequest(record.id, 1, { status: 'in_progress', openedAt: T0 });
        expect(updated!.wallet).toEqual(wallet);
        expect((await store.getRequest(record.id, T0))!.wallet).toEqual(wallet);
      });

      it('refuses to create a request whose id already exists', async () => {
        const store = await fresh();
        const record = request();
        await store.createRequest(record);
        await expect(store.createRequest({ ...record, status: 'completed' })).rejects.toThrow();
        expect((await store.getRequest(record.id, T0))!.status).toBe('pending');
      });

      it('applies a patch when the version matches, bumps the version and leaves other fields alone', async () => {
        const store = await fresh();
        const record = request();
        await store.createRequest(record);
        const updated = await store.updateRequest(record.id, 1, { status: 'in_progress', openedAt: T0 + 5 });
        expect(updated).toEqual({ ...record, status: 'in_progress', openedAt: T0 + 5, version: 2 });
        expect(await store.getRequest(record.id, T0)).toEqual(updated);
        const completed = await store.updateRequest(record.id, 2, {
          status: 'completed',
          method: 'face_check',
          sealedResult: 'x1.box',
          expiresAt: T0 + 60 * MINUTE,
        });
        expect(completed).toMatchObject({
          status: 'completed',
          method: 'face_check',
          sealedResult: 'x1.box',
          version: 3,
          openedAt: T0 + 5,
        });
        expect(await store.getRequest(record.id, T0 + 30 * MINUTE)).toEqual(completed);
      });

      it('refuses a stale version or an unknown request and changes nothing', async () => {
        const store = await fresh();
        const record = request();
        await store.createRequest(record);
        await store.updateRequest(record.id, 1, { status: 'in_progress' });
        expect(await store.updateRequest(record.id, 1, { status: 'failed', reason: 'cancelled' })).toBeNull();
        expect(await store.getRequest(record.id, T0)).toMatchObject({
          status: 'in_progress',
          reason: null,
          version: 2,
        });
        expect(await store.updateRequest('vr_unknown', 1, { status: 'failed' })).toBeNull();
      });

      it('lets exactly one of many racing updates of one version win', async () => {
        const store = await fresh();
        const record = request();
        await store.createRequest(record);
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.updateRequest(record.id, 1, { status: i % 2 ? 'completed' : 'failed', sealedResult: `box-${i}` }),
          ),
        );
        const winners = results.filter((r) => r !== null);
        expect(winners).toHaveLength(1);
        expect(await store.getRequest(record.id, T0)).toEqual(winners[0]);
      });

      it('can shorten or extend a request life through expiresAt', async () => {
        const store = await fresh();
        const record = request();
        await store.createRequest(record);
        await store.updateRequest(record.id, 1, { status: 'failed', reason: 'failed', expiresAt: T0 + 1_000 });
        expect(await store.getRequest(record.id, T0 + 999)).not.toBeNull();
        expect(await store.getRequest(record.id, T0 + 1_000)).toBeNull();
      });
    });

    describe('waiting for a request change', () => {
      it('resolves as soon as the request changes', async () => {
        const store = await fresh();
        const record = request();
        await store.createRequest(record);
        const start = Date.now();
        const waiting = store.waitForRequestChange(record.id, 1, 10_000);
        await sleep(30);
        await store.updateRequest(record.id, 1, { status: 'in_progress' });
        await waiting;
        expect(elapsedSince(start)).toBeLessThan(1_000);
      });

      it('resolves every waiter of one request on one change', async () => {
        const store = await fresh();
        const record = request();
        await store.createRequest(record);
        const start = Date.now();
        const waiters = Array.from({ length: 10 }, () => store.waitForRequestChange(record.id, 1, 10_000));
        await sleep(20);
        await store.updateRequest(record.id, 1, { status: 'in_progress' });
        await Promise.all(waiters);
        expect(elapsedSince(start)).toBeLessThan(1_000);
      });

      it('resolves after the timeout when nothing changes', async () => {
        const store = await fresh();
        const record = request();
        await store.createRequest(record);
        const start = Date.now();
        await store.waitForRequestChange(record.id, 1, 120);
        expect(elapsedSince(start)).toBeGreaterThanOrEqual(100);
        expect(elapsedSince(start)).toBeLessThan(2_000);
      });

      it('is not woken by a change to another request', async () => {
        const store = await fresh();
        const [watched, other] = [request(), request()];
        await store.createRequest(watched);
        await store.createRequest(other);
        const start = Date.now();
        const waiting = store.waitForRequestChange(watched.id, 1, 300);
        await sleep(20);
        await store.updateRequest(other.id, 1, { status: 'in_progress' });
        await waiting;
        expect(elapsedSince(start)).toBeGreaterThanOrEqual(280);
      });

      it('resolves when its signal aborts, and at once when it already has', async () => {
        const store = await fresh();
        const record = request();
        await store.createRequest(record);
        const abort = new AbortController();
        const start = Date.now();
        const waiting = store.waitForRequestChange(record.id, 1, 10_000, abort.signal);
        await sleep(30);
        abort.abort();
        await waiting;
        expect(elapsedSince(start)).toBeLessThan(1_000);
        const again = Date.now();
        await store.waitForRequestChange(record.id, 1, 10_000, abort.signal);
        expect(elapsedSince(again)).toBeLessThan(500);
      });

      it('resolves at once when the version has already moved', async () => {
        const store = await fresh();
        const record = request();
        await store.createRequest(record);
        await store.updateRequest(record.id, 1, { status: 'in_progress' });
        const start = Date.now();
        await store.waitForRequestChange(record.id, 1, 10_000);
        expect(elapsedSince(start)).toBeLessThan(500);
      });
    });

    describe('grants', () => {
      it('hands a grant out exactly once', async () => {
        const store = await fresh();
        const record = grant();
        await store.putGrant(record);
        expect(await store.consumeGrant(record.digest, T0)).toEqual(record);
        expect(await store.consumeGrant(record.digest, T0 + 1)).toBeNull();
      });

      it('refuses an expired or unknown grant', async () => {
        const store = await fresh();
        const record = grant();
        await store.putGrant(record);
        expect(await store.consumeGrant(record.digest, record.expiresAt)).toBeNull();
        expect(await store.consumeGrant('unknown-digest', T0)).toBeNull();
      });

      it('gives a grant to exactly one of 50 concurrent consumers', async () => {
        const store = await fresh();
        const record = grant();
        await store.putGrant(record);
        const results = await Promise.all(Array.from({ length: 50 }, () => store.consumeGrant(record.digest, T0)));
        expect(results.filter((r) => r !== null)).toEqual([record]);
      });
    });

    describe('login states', () => {
      it('hands a login state out exactly once', async () => {
        const store = await fresh();
        const state = loginState();
        await store.putLoginState(state, T0);
        expect(await store.takeLoginState(state.digest, T0 + 1)).toEqual(state);
        expect(await store.takeLoginState(state.digest, T0 + 2)).toBeNull();
      });

      it("refuses an unknown login state, or one expired by the caller's clock", async () => {
        const store = await fresh();
        const state = loginState();
        await store.putLoginState(state, T0);
        expect(await store.takeLoginState('unknown-digest', T0)).toBeNull();
        expect(await store.takeLoginState(state.digest, state.expiresAt)).toBeNull();
        const live = loginState();
        await store.putLoginState(live, T0);
        expect(await store.takeLoginState(live.digest, live.expiresAt - 1)).toEqual(live);
      });

      it('gives a login state to exactly one of 50 concurrent takers', async () => {
        const store = await fresh();
        const state = loginState();
        await store.putLoginState(state, T0);
        const results = await Promise.all(Array.from({ length: 50 }, () => store.takeLoginState(state.digest, T0)));
        expect(results.filter((r) => r !== null)).toEqual([state]);
      });
    });

    describe('sealed at rest (sealed.ts over this store)', () => {
      it("holds a provider's credential and a login state's verifier and nonce only sealed, and reads them back plain", async () => {
        const raw = await fresh();
        const store = sealedStore(raw, createKeyring([Buffer.alloc(32, 5)]));
        const p = provider({ credential: 'the-client-secret' });
        const state = loginState({ codeVerifier: 'the-code-verifier', nonce: 'the-nonce' });
        await store.putProvider(p);
        await store.putLoginState(state, T0);

        const stored = await raw.getProvider(p.id);
        expect(isSealed(stored!.credential)).toBe(true);
        expect(JSON.stringify(await raw.listProviders())).not.toContain('the-client-secret');
        expect(await store.getProvider(p.id)).toEqual(p);
        expect(await store.listProviders()).toEqual([p]);

        // Taken through the raw store the values are sealed; put back, the sealing store opens them.
        const sealedState = await raw.takeLoginState(state.digest, T0);
        expect(isSealed(sealedState!.codeVerifier) && isSealed(sealedState!.nonce)).toBe(true);
        expect(JSON.stringify(sealedState)).not.toMatch(/the-code-verifier|the-nonce/);
        await raw.putLoginState(sealedState!, T0);
        expect(await store.takeLoginState(state.digest, T0)).toEqual(state);
      });
    });

    describe('exchange replays', () => {
      it('keeps the first replay stored for a partner and key, and returns it to later writers', async () => {
        const store = await fresh();
        const first = replay();
        expect(await store.putExchangeReplay(first, T0)).toEqual(first);
        expect(
          await store.putExchangeReplay({ ...first, sealedResponse: 'v1.sealed.second', grantDigest: 'other' }, T0),
        ).toEqual(first);
        expect(await store.getExchangeReplay(first.partnerId, first.idempotencyKey, T0)).toEqual(first);
      });

      it('keeps partners and keys apart and forgets a replay when it expires', async () => {
        const store = await fresh();
        const record = replay();
        await store.putExchangeReplay(record, T0);
        expect(await store.getExchangeReplay('pk_test_other', record.idempotencyKey, T0)).toBeNull();
        expect(await store.getExchangeReplay(record.partnerId, 'other-key', T0)).toBeNull();
        expect(await store.getExchangeReplay(record.partnerId, record.idempotencyKey, record.expiresAt)).toBeNull();
        const other = replay({
          partnerId: 'pk_test_other',
          idempotencyKey: record.idempotencyKey,
          sealedResponse: 'v1.sealed.other',
        });
        expect(await store.putExchangeReplay(other, T0)).toEqual(other);
      });

      it('replaces a replay that has expired', async () => {
        const store = await fresh();
        const old = replay();
        await store.putExchangeReplay(old, T0);
        const renewed = {
          ...old,
          sealedResponse: 'v1.sealed.renewed',
          grantDigest: 'later',
          expiresAt: old.expiresAt + 60_000,
        };
        expect(await store.putExchangeReplay(renewed, old.expiresAt)).toEqual(renewed);
        expect(await store.getExchangeReplay(old.partnerId, old.idempotencyKey, old.expiresAt)).toEqual(renewed);
      });

      it('gives every racing writer the same stored replay', async () => {
        const store = await fresh();
        const base = replay();
        const stored = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.putExchangeReplay({ ...base, sealedResponse: `v1.sealed.${i}` }, T0),
          ),
        );
        expect(new Set(stored.map((r) => r.sealedResponse)).size).toBe(1);
      });
    });

    describe('pass tokens', () => {
      it('reads a pass token back until it expires', async () => {
        const store = await fresh();
        const record = passToken();
        await store.putPassToken(record);
        expect(await store.getPassToken(record.digest, record.expiresAt - 1)).toEqual(record);
        expect(await store.getPassToken(record.digest, record.expiresAt)).toBeNull();
        expect(await store.getPassToken('unknown-digest', T0)).toBeNull();
      });
    });

    describe('a signed call: the nonce and its read in one step (rememberNonceAnd)', () => {
      const nonceUntil = T0 + 11 * MINUTE;
      const none = { fresh: false, pass: null, grant: null, replay: null, issued: null };

      it('reads a pass token with a fresh nonce, and nothing with a replayed one', async () => {
        const store = await fresh();
        const record = passToken();
        await store.putPassToken(record);
        const read = { kind: 'pass', digest: record.digest } as const;
        expect(await store.rememberNonceAnd('pk_test_demo', 'nonce-and-pass-01', nonceUntil, T0, read)).toEqual({
          ...none,
          fresh: true,
          pass: record,
        });
        expect(await store.rememberNonceAnd('pk_test_demo', 'nonce-and-pass-01', nonceUntil, T0 + 1, read)).toEqual(
          none,
        );
        const unknown = { kind: 'pass', digest: 'unknown-digest' } as const;
        expect(await store.rememberNonceAnd('pk_test_demo', 'nonce-and-pass-02', nonceUntil, T0, unknown)).toEqual({
          ...none,
          fresh: true,
        });
        const late = record.expiresAt;
        expect(
          (await store.rememberNonceAnd('pk_test_demo', 'nonce-and-pass-03', late + 11 * MINUTE, late, read)).pass,
        ).toBeNull();
      });

      it('takes a grant once with a fresh nonce; a replayed nonce takes nothing and the grant stays', async () => {
        const store = await fresh();
        const record = grant();
        await store.putGrant(record);
        const read = { kind: 'grant', digest: record.digest, replay: null } as const;
        expect(await store.rememberNonce('pk_test_demo', 'nonce-and-grant-2', nonceUntil, T0)).toBe(true);
        // the replayed nonce took nothing: the grant is still there for a fresh one, once
        expect(await store.rememberNonceAnd('pk_test_demo', 'nonce-and-grant-2', nonceUntil, T0, read)).toEqual(none);
        expect(await store.rememberNonceAnd('pk_test_demo', 'nonce-and-grant-3', nonceUntil, T0, read)).toEqual({
          ...none,
          fresh: true,
          grant: record,
        });
        expect(await store.rememberNonceAnd('pk_test_demo', 'nonce-and-grant-4', nonceUntil, T0, read)).toEqual({
          ...none,
          fresh: true,
        });
        expect(await store.consumeGrant(record.digest, T0)).toBeNull();
      });

      it('stores the pass token `issue` makes of the grant taken, in the same step; none for a replay', async () => {
        const store = await fresh();
        const record = grant();
        await store.putGrant(record);
        const pass = passToken({ requestId: record.requestId });
        const read = { kind: 'grant', digest: record.digest, replay: null, issue: () => pass } as const;
        expect(await store.rememberNonceAnd('pk_test_demo', 'nonce-issue-00001', nonceUntil, T0, read)).toEqual({
          ...none,
          fresh: true,
          grant: record,
          issued: pass,
        });
        expect(await store.getPassToken(pass.digest, T0)).toEqual(pass);

        const other = grant();
        await store.putGrant(other);
        const refusing = { kind: 'grant', digest: other.digest, replay: null, issue: () => null } as const;
        const spent = await store.rememberNonceAnd('pk_test_demo', 'nonce-issue-00002', nonceUntil, T0, refusing);
        expect(spent).toEqual({ ...none, fresh: true, grant: other });
        const never = passToken();
        const replayed = { ...refusing, digest: grant().digest, issue: () => never };
        expect(await store.rememberNonceAnd('pk_test_demo', 'nonce-issue-00002', nonceUntil, T0, replayed)).toEqual(
          none,
        );
        expect(await store.getPassToken(never.digest, T0)).toBeNull();
      });

      it("stores the exchange's replay with the pass token it issues, in the same step, and none without one", async () => {
        const store = await fresh();
        const record = grant();
        await store.putGrant(record);
        const pass = passToken({ requestId: record.requestId });
        const key = { partnerId: 'pk_test_demo', idempotencyKey: unique('idem-') };
        const read = {
          kind: 'grant',
          digest: record.digest,
          replay: key,
          issue: () => pass,
          replaySealed: 'v1.sealed.pass-token',
        } as const;
        const taken = await store.rememberNonceAnd('pk_test_demo', 'nonce-keeps-00001', nonceUntil, T0, read);
        expect(taken).toEqual({ ...none, fresh: true, grant: record, issued: pass });
        const stored = {
          ...key,
          grantDigest: record.digest,
          sealedResponse: 'v1.sealed.pass-token',
          expiresAt: record.expiresAt,
        };
        expect(await store.getExchangeReplay(key.partnerId, key.idempotencyKey, T0)).toEqual(stored);
        expect(await store.getExchangeReplay(key.partnerId, key.idempotencyKey, record.expiresAt)).toBeNull();
        // the retry finds it first, and the next grant under the same key stays
        const next = grant();
        await store.putGrant(next);
        const retry = { ...read, digest: next.digest, replaySealed: 'v1.sealed.other' };
        expect(await store.rememberNonceAnd('pk_test_demo', 'nonce-keeps-00002', nonceUntil, T0, retry)).toEqual({
          ...none,
          fresh: true,
          replay: stored,
        });
        expect(await store.consumeGrant(next.digest, T0)).toEqual(next);

        // nothing issued (an unknown grant, another partner's, a replayed nonce): no replay either
        const foreign = grant({ partnerId: 'pk_test_other' });
        await store.putGrant(foreign);
        for (const [nonce, digest, issue] of [
          ['nonce-keeps-00003', 'unknown-grant-digest', () => pass],
          ['nonce-keeps-00004', foreign.digest, () => null],
          ['nonce-keeps-00001', next.digest, () => pass],
        ] as const) {
          const other = { ...key, idempotencyKey: unique('idem-') };
          await store.rememberNonceAnd('pk_test_demo', nonce, nonceUntil, T0, {
            ...read,
            digest,
            issue,
            replay: other,
          });
          expect(await store.getExchangeReplay(other.partnerId, other.idempotencyKey, T0)).toBeNull();
        }
      });

      it('refuses an expired grant', async () => {
        const store = await fresh();
        const record = grant();
        await store.putGrant(record);
        const read = { kind: 'grant', digest: record.digest, replay: null } as const;
        const at = record.expiresAt;
        expect(
          (await store.rememberNonceAnd('pk_test_demo', 'nonce-expired-gr1', at + 11 * MINUTE, at, read)).grant,
        ).toBeNull();
      });

      it('answers a live exchange replay under the key first, and then leaves the grant', async () => {
        const store = await fresh();
        const record = grant();
        await store.putGrant(record);
        const stored = replay({ partnerId: 'pk_test_demo', grantDigest: record.digest });
        await store.putExchangeReplay(stored, T0);
        const key = { partnerId: stored.partnerId, idempotencyKey: stored.idempotencyKey };
        const read = { kind: 'grant', digest: record.digest, replay: key } as const;
        expect(await store.rememberNonceAnd('pk_test_demo', 'nonce-replay-0001', nonceUntil, T0, read)).toEqual({
          ...none,
          fresh: true,
          replay: stored,
        });
        const afterIt = { ...read, replay: { ...key, idempotencyKey: 'another-key' } };
        expect(
          (await store.rememberNonceAnd('pk_test_demo', 'nonce-replay-0002', nonceUntil, T0, afterIt)).grant,
        ).toEqual(record);
      });

      it('gives a grant to exactly one of 50 concurrent signed exchanges, each with its own nonce', async () => {
        const store = await fresh();
        const record = grant();
        await store.putGrant(record);
        const read = { kind: 'grant', digest: record.digest, replay: null } as const;
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            store.rememberNonceAnd(
              'pk_test_demo',
              `raced-exchange-${String(i).padStart(4, '0')}`,
              nonceUntil,
              T0,
              read,
            ),
          ),
        );
        expect(results.every((r) => r.fresh)).toBe(true);
        expect(results.filter((r) => r.grant !== null).map((r) => r.grant)).toEqual([record]);
      });

      it('lets exactly one of 50 racing calls with one nonce through, and it alone takes the grant', async () => {
        const store = await fresh();
        const record = grant();
        await store.putGrant(record);
        const read = { kind: 'grant', digest: record.digest, replay: null } as const;
        const results = await Promise.all(
          Array.from({ length: 50 }, () =>
            store.rememberNonceAnd('pk_test_demo', 'one-raced-nonce-01', nonceUntil, T0, read),
          ),
        );
        expect(results.filter((r) => r.fresh)).toEqual([{ ...none, fresh: true, grant: record }]);
      });
    });

    describe('signing keys', () => {
      it('lists the keys of one purpose, oldest first', async () => {
        const store = await fresh();
        const newer = key({ createdAt: T0 + 10, state: 'next' });
        const older = key({ createdAt: T0 });
        const session = key({ purpose: 'session' });
        for (const k of [newer, older, session]) await store.putKey(k);
        expect(await store.listKeys('attestation')).toEqual([older, newer]);
        expect(await store.listKeys('session')).toEqual([session]);
      });

      it('replaces a key put again under the same kid', async () => {
        const store = await fresh();
        const k = key({ state: 'next' });
        await store.putKey(k);
        await store.putKey({ ...k, state: 'current' });
        expect(await store.listKeys('attestation')).toEqual([{ ...k, state: 'current' }]);
      });

      it('applies a rotation as one step: puts and drops together', async () => {
        const store = await fresh();
        const retiredLongAgo = key({ state: 'retired', createdAt: T0 - 2, dropAfter: T0 - 1 });
        const current = key({ createdAt: T0 });
        const next = key({ state: 'next', createdAt: T0 + 1 });
        for (const k of [retiredLongAgo, current, next]) await store.putKey(k);
        await store.updateKeys({
          put: [
            { ...current, state: 'retired', dropAfter: T0 + MINUTE },
            { ...next, state: 'current' },
          ],
          drop: [retiredLongAgo.kid],
        });
        expect(await store.listKeys('attestation')).toEqual([
          { ...current, state: 'retired', dropAfter: T0 + MINUTE },
          { ...next, state: 'current' },
        ]);
        await store.updateKeys({});
        expect(await store.listKeys('attestation')).toHaveLength(2);
      });

      it('never shows readers racing a rotation zero or two current keys', async () => {
        const store = await fresh();
        let current = key({ createdAt: T0 });
        await store.putKey(current);
        const seen: number[] = [];
        for (let round = 1; round <= 10; round++) {
          const next = key({ createdAt: T0 + round });
          const reads = Array.from({ length: 5 }, () =>
            store.listKeys('attestation').then((keys) => seen.push(keys.filter((k) => k.state === 'current').length)),
          );
          const rotation = store.updateKeys({
            put: [
              { ...current, state: 'retired', dropAfter: T0 + round * MINUTE },
              { ...next, state: 'current' },
            ],
          });
          await Promise.all([...reads, rotation]);
          current = next;
        }
        expect(new Set(seen)).toEqual(new Set([1]));
      });
    });

    describe('sweep', () => {
      it('deletes what has expired, in every kind of row, and keeps what has not', async () => {
        const store = await fresh();
        const soon = T0 + 1_000;
        const later = T0 + 60 * MINUTE;
        await store.rememberNonce('pk_a', 'expired-nonce-00001', soon, T0);
        await store.rememberNonce('pk_a', 'live-nonce-00000001', later, T0);
        await store.hitCounter('expired-counter', 1_000, T0);
        await store.hitCounter('live-counter', 60 * MINUTE, T0);
        const [deadRequest, liveRequest] = [request({ expiresAt: soon }), request({ expiresAt: later })];
        await store.createRequest(deadRequest);
        await store.createRequest(liveRequest);
        const [deadGrant, liveGrant] = [grant({ expiresAt: soon }), grant({ expiresAt: later })];
        await store.putGrant(deadGrant);
        await store.putGrant(liveGrant);
        const [deadReplay, liveReplay] = [replay({ expiresAt: soon }), replay({ expiresAt: later })];
        await store.putExchangeReplay(deadReplay, T0);
        await store.putExchangeReplay(liveReplay, T0);
        const [deadPass, livePass] = [passToken({ expiresAt: soon }), passToken({ expiresAt: later })];
        await store.putPassToken(deadPass);
        await store.putPassToken(livePass);
        await store.holdSlot('expired-slots', 'dead', 1, soon, T0);
        await store.holdSlot('live-slots', 'live', 1, later, T0);
        const [deadState, liveState] = [loginState({ expiresAt: soon }), loginState({ expiresAt: later })];
        await store.putLoginState(deadState, T0);
        await store.putLoginState(liveState, T0);
        const keptProvider = provider();
        await store.putProvider(keptProvider);
        const keeper = partner();
        await store.putPartner(keeper);
        await store.getOrCreateSecret('kept', 'value');

        const now = T0 + 2_000;
        expect(await store.sweep(now)).toBe(options.expiresByItself ? 0 : 8);
        expect(await store.sweep(now)).toBe(0);

        expect(await store.getRequest(liveRequest.id, now)).toEqual(liveRequest);
        expect(await store.getPassToken(livePass.digest, now)).toEqual(livePass);
        expect(await store.getExchangeReplay(liveReplay.partnerId, liveReplay.idempotencyKey, now)).toEqual(liveReplay);
        expect(await store.consumeGrant(liveGrant.digest, now)).toEqual(liveGrant);
        expect(await store.rememberNonce('pk_a', 'live-nonce-00000001', later, now)).toBe(false);
        expect((await store.hitCounter('live-counter', 60 * MINUTE, now)).count).toBe(2);
        expect(await store.getPartner(keeper.id)).toEqual(keeper);
        expect(await store.getOrCreateSecret('kept', 'other')).toBe('value');
        expect(await store.holdSlot('live-slots', 'other', 1, later, now)).toBe(false);
        expect(await store.getProvider(keptProvider.id)).toEqual(keptProvider);
        expect(await store.takeLoginState(liveState.digest, now)).toEqual(liveState);

        // Swept rows are gone even for a reader whose clock is behind; rows that expire by themselves read as absent.
        const readAt = options.expiresByItself ? now : T0;
        expect(await store.getRequest(deadRequest.id, readAt)).toBeNull();
        expect(await store.consumeGrant(deadGrant.digest, readAt)).toBeNull();
        expect(await store.getPassToken(deadPass.digest, readAt)).toBeNull();
        expect(await store.getExchangeReplay(deadReplay.partnerId, deadReplay.idempotencyKey, readAt)).toBeNull();
        expect(await store.rememberNonce('pk_a', 'expired-nonce-00001', later, now)).toBe(true);
        expect((await store.hitCounter('expired-counter', 1_000, now)).count).toBe(1);
        expect(await store.holdSlot('expired-slots', 'next', 1, later, readAt)).toBe(true);
        expect(await store.takeLoginState(deadState.digest, readAt)).toBeNull();
      });
    });

    if (options.openPeer) {
      describe('two instances over the same data', () => {
        it('shows one instance what the other acknowledged', async () => {
          const store = await fresh();
          const peer = await peerOf(store);
          const p = partner();
          const r = request();
          await store.putPartner(p);
          await store.createRequest(r);
          expect(await peer.getPartner(p.id)).toEqual(p);
          expect(await peer.getRequest(r.id, T0)).toEqual(r);
        });

        it('wakes a long poll on one instance when the other changes the request', async () => {
          const store = await fresh();
          const peer = await peerOf(store);
          const record = request();
          await store.createRequest(record);
          const start = Date.now();
          const waiting = store.waitForRequestChange(record.id, 1, 10_000);
          await sleep(30);
          expect(
            await peer.updateRequest(record.id, 1, { status: 'completed', sealedResult: 'x1.box' }),
          ).not.toBeNull();
          await waiting;
          expect(elapsedSince(start)).toBeLessThan(1_000);
        });

        it('keeps single use, first-writer-wins and compare-and-set across instances', async () => {
          const store = await fresh();
          const peer = await peerOf(store);
          const g = grant();
          await store.putGrant(g);
          const consumed = await Promise.all(
            Array.from({ length: 50 }, (_, i) => (i % 2 ? peer : store).consumeGrant(g.digest, T0)),
          );
          expect(consumed.filter((r) => r !== null)).toHaveLength(1);

          const nonces = await Promise.all(
            Array.from({ length: 20 }, (_, i) =>
              (i % 2 ? peer : store).rememberNonce('pk_a', 'shared-nonce-000001', T0 + MINUTE, T0),
            ),
          );
          expect(nonces.filter(Boolean)).toHaveLength(1);

          const secrets = await Promise.all([
            store.getOrCreateSecret('shared', 'a'),
            peer.getOrCreateSecret('shared', 'b'),
          ]);
          expect(secrets[0]).toBe(secrets[1]);

          const r = request();
          await store.createRequest(r);
          const updates = await Promise.all([
            store.updateRequest(r.id, 1, { status: 'failed' }),
            peer.updateRequest(r.id, 1, { status: 'completed' }),
          ]);
          expect(updates.filter((u) => u !== null)).toHaveLength(1);

          const hits = await Promise.all(
            Array.from({ length: 20 }, (_, i) => (i % 2 ? peer : store).hitCounter('shared-counter', MINUTE, T0)),
          );
          expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
        });

        it('gives a grant to exactly one of 50 concurrent consumers spread over both instances', async () => {
          const store = await fresh();
          const peer = await peerOf(store);
          const g = grant();
          await peer.putGrant(g);
          const results = await Promise.all(
            Array.from({ length: 50 }, (_, i) => (i % 2 ? store : peer).consumeGrant(g.digest, T0)),
          );
          expect(results.filter((r) => r !== null)).toEqual([g]);
          expect(await store.consumeGrant(g.digest, T0)).toBeNull();
          expect(await peer.consumeGrant(g.digest, T0)).toBeNull();
        });

        it('gives a grant to exactly one of 50 concurrent signed exchanges spread over both instances', async () => {
          const store = await fresh();
          const peer = await peerOf(store);
          const g = grant();
          await peer.putGrant(g);
          const read = { kind: 'grant', digest: g.digest, replay: null } as const;
          const results = await Promise.all(
            Array.from({ length: 50 }, (_, i) =>
              (i % 2 ? store : peer).rememberNonceAnd('pk_test_demo', `spread-exchange-${i}`, T0 + MINUTE, T0, read),
            ),
          );
          expect(results.filter((r) => r.grant !== null).map((r) => r.grant)).toEqual([g]);
          expect(await store.consumeGrant(g.digest, T0)).toBeNull();
        });

        it('gives a login state to exactly one of 50 concurrent takers spread over both instances', async () => {
          const store = await fresh();
          const peer = await peerOf(store);
          const state = loginState();
          await store.putLoginState(state, T0);
          const results = await Promise.all(
            Array.from({ length: 50 }, (_, i) => (i % 2 ? store : peer).takeLoginState(state.digest, T0)),
          );
          expect(results.filter((r) => r !== null)).toEqual([state]);
          expect(await store.takeLoginState(state.digest, T0)).toBeNull();
          expect(await peer.takeLoginState(state.digest, T0)).toBeNull();
        });

        it('shows one instance the providers the other added, changed and removed', async () => {
          const store = await fresh();
          const peer = await peerOf(store);
          const [kept, removed] = [provider(), provider({ createdAt: T0 + 1 })];
          await store.putProvider(kept);
          await store.putProvider(removed);
          await peer.putProvider({ ...kept, enabled: false });
          expect(await peer.removeProvider(removed.id)).toBe(true);
          expect(await store.listProviders()).toEqual([{ ...kept, enabled: false }]);
          expect(await store.removeProvider(removed.id)).toBe(false);
        });

        it('treats a nonce used on one instance as a replay on the other', async () => {
          const store = await fresh();
          const peer = await peerOf(store);
          expect(await store.rememberNonce('pk_a', 'crossed-nonce-0001', T0 + MINUTE, T0)).toBe(true);
          expect(await peer.rememberNonce('pk_a', 'crossed-nonce-0001', T0 + MINUTE, T0 + 1)).toBe(false);
          expect(await store.rememberNonce('pk_a', 'crossed-nonce-0001', T0 + MINUTE, T0 + 2)).toBe(false);
          expect(await peer.rememberNonce('pk_b', 'crossed-nonce-0001', T0 + MINUTE, T0 + 2)).toBe(true);
        });

        it('counts slots held on either instance against one cap, 50 racing holders over both', async () => {
          const store = await fresh();
          const peer = await peerOf(store);
          const held = await Promise.all(
            Array.from({ length: 50 }, (_, i) =>
              (i % 2 === 0 ? store : peer).holdSlot('ip:shared', `s${i}`, 10, T0 + MINUTE, T0),
            ),
          );
          expect(held.filter(Boolean)).toHaveLength(10);
          const holder = held.indexOf(true);
          await (holder % 2 === 0 ? peer : store).releaseSlot('ip:shared', `s${holder}`);
          expect(await store.holdSlot('ip:shared', 'next', 10, T0 + MINUTE, T0)).toBe(true);
          expect(await peer.holdSlot('ip:shared', 'over', 10, T0 + MINUTE, T0)).toBe(false);
        });

        it('counts hits on either instance in one budget', async () => {
          const store = await fresh();
          const peer = await peerOf(store);
          expect(await store.hitCounter('ip:shared', MINUTE, T0)).toEqual({ count: 1, resetAt: T0 + MINUTE });
          expect(await peer.hitCounter('ip:shared', MINUTE, T0 + 5)).toEqual({ count: 2, resetAt: T0 + MINUTE });
          expect(await store.hitCounter('ip:shared', MINUTE, T0 + 6)).toEqual({ count: 3, resetAt: T0 + MINUTE });
        });

        it('wakes a waiter on one instance for a request created and then changed on the other', async () => {
          const store = await fresh();
          const peer = await peerOf(store);
          const record = request();
          await peer.createRequest(record);
          const woken = await Promise.all([
            store.waitForRequestChange(record.id, 1, 10_000).then(() => Date.now()),
            sleep(30).then(async () => {
              await peer.updateRequest(record.id, 1, { status: 'in_progress' });
              return Date.now();
            }),
          ]);
          expect(woken[0] - woken[1]).toBeLessThan(1_000);
          expect(await store.getRequest(record.id, T0)).toMatchObject({ status: 'in_progress', version: 2 });
        });

        it('answers at once a waiter whose change came on the other instance before it started waiting', async () => {
          const store = await fresh();
          const peer = await peerOf(store);
          const record = request();
          await store.createRequest(record);
          const seen = await store.getRequest(record.id, T0);
          await peer.updateRequest(record.id, seen!.version, { status: 'in_progress' });
          const start = Date.now();
          await store.waitForRequestChange(record.id, seen!.version, 10_000);
          expect(elapsedSince(start)).toBeLessThan(500);
        });

        it('sees a key rotation made on the other instance', async () => {
          const store = await fresh();
          const peer = await peerOf(store);
          const current = key({ createdAt: T0 });
          const next = key({ state: 'next', createdAt: T0 + 1 });
          await store.updateKeys({ put: [current, next] });
          await peer.updateKeys({
            put: [
              { ...current, state: 'retired', dropAfter: T0 + MINUTE },
              { ...next, state: 'current' },
            ],
          });
          expect((await store.listKeys('attestation')).map((k) => k.state)).toEqual(['retired', 'current']);
        });

        it('keeps what was acknowledged after the first instance closes', async () => {
          const store = await fresh();
          const g = grant();
          await store.putGrant(g);
          const peer = await peerOf(store);
          opened.splice(opened.indexOf(store), 1);
          await store.close();
          expect(await peer.consumeGrant(g.digest, T0)).toEqual(g);
        });
      });
    }
  });
}
