import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.ts';
import { grantReadWithNonce } from '../domain/index.ts';
import { passTokenRecordOf } from '../domain/pass-tokens.ts';
import { newToken } from '../crypto/tokens.ts';
import { makeTestApp, putTestGrant, signedInject } from '../test/helpers.ts';
import { startRedisServer, type RedisServer } from '../test/redis-server.ts';
import { openRedisStore, TTL_MARGIN_MS } from './redis.ts';
import { runStoreContract } from './store.contract.ts';
import { StoreUnavailableError, type GrantRecord, type Store, type VerifyRequestRecord } from './store.ts';

const redis = await startRedisServer();
afterAll(() => redis.remove());

const T0 = Date.UTC(2001, 0, 1);
const MINUTE = 60_000;
const quiet = () => {};

let prefixes = 0;
const prefixOf = new WeakMap<Store, string>();
async function openOn(
  server: RedisServer,
  prefix = `test-${++prefixes}:`,
  notice: (line: string) => void = quiet,
): Promise<Store> {
  const store = await openRedisStore({ url: server.url, prefix, notice });
  prefixOf.set(store, prefix);
  return store;
}

runStoreContract('Redis', () => openOn(redis), {
  openPeer: (store) => openOn(redis, prefixOf.get(store)!),
  expiresByItself: true,
});

function request(id: string, overrides: Partial<VerifyRequestRecord> = {}): VerifyRequestRecord {
  return {
    id,
    rail: 'standard',
    partnerId: 'pk_test_demo',
    appId: null,
    originHash: null,
    sessionJti: null,
    scopes: ['isAdult'],
    clientProofMode: false,
    locale: 'fr',
    audienceLabel: 'Demo',
    pollTokenDigest: `p-${id}`,
    handoffTokenDigest: `h-${id}`,
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
    resultPublicKey: 'k',
    resultKeySealed: 's',
    ...overrides,
  };
}

function grant(digest: string): GrantRecord {
  return {
    digest,
    partnerId: 'pk_test_demo',
    requestId: 'vr_x',
    scopes: ['isAdult'],
    attributes: { age_over_18: true },
    method: 'face_check',
    verifiedAt: T0,
    generationTimeMs: 1,
    expiresAt: T0 + 5 * MINUTE,
  };
}

const passToken = (digest: string) => ({ ...grant(digest), issuedAt: T0, expiresAt: T0 + 240 * MINUTE });

/** Runs `work`, which must reject with StoreUnavailableError; resolves with how long that took. */
async function rejectsUnavailable(work: () => Promise<unknown>): Promise<number> {
  const start = Date.now();
  const error = await work().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreUnavailableError);
  return Date.now() - start;
}

/** Retries `work` until it resolves (the client reconnecting by itself), for at most `withinMs`. */
async function eventually<T>(work: () => Promise<T>, withinMs = 10_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

describe('Redis store', () => {
  it('gives every expiring key a TTL of its lifetime plus the margin, and the lasting ones none', async () => {
    const prefix = `ttl-${++prefixes}:`;
    const store = await openOn(redis, prefix);
    const raw = new Redis(redis.url);
    try {
      await store.putPartner({
        id: 'pk_ttl',
        secret: 's',
        name: 'n',
        domain: 'https://d.example',
        rail: 'standard',
        blindAppId: null,
        allowedScopes: null,
        createdAt: T0,
      });
      await store.getOrCreateSecret('kept', 'v');
      await store.putKey({
        kid: 'kid-1',
        purpose: 'session',
        state: 'current',
        privateJwk: '{}',
        publicJwk: '{}',
        createdAt: T0,
        dropAfter: null,
      });
      await store.rememberNonce('pk_ttl', 'nonce-000000000001', T0 + 11 * MINUTE, T0);
      await store.hitCounter('ip:1', MINUTE, T0);
      await store.createRequest(request('vr_ttl'));
      await store.putGrant(grant('g-ttl'));
      await store.putPassToken(passToken('p-ttl'));
      await store.putExchangeReplay(
        {
          partnerId: 'pk_ttl',
          idempotencyKey: 'idem',
          grantDigest: 'g',
          sealedResponse: 'x',
          expiresAt: T0 + 5 * MINUTE,
        },
        T0,
      );
      await store.putProvider({
        id: 'idp_ttl',
        issuer: 'https://id.example',
        clientId: 'c',
        clientAuth: 'client_secret_basic',
        credential: 's',
        name: 'n',
        method: 'face_check',
        proves: ['isAdult'],
        enabled: true,
        createdAt: T0,
      });
      // A login state lives until the request's deadline, measured from the caller's now.
      await store.putLoginState(
        {
          digest: 'l-ttl',
          requestId: 'vr_ttl',
          providerId: 'idp_ttl',
          codeVerifier: 'v',
          nonce: 'n',
          browserDigest: 'b',
          expiresAt: T0 + 4 * MINUTE,
        },
        T0 + MINUTE,
      );

      const lifetimes: Record<string, number | null> = {
        'partner:pk_ttl': null,
        partners: null,
        secrets: null,
        keys: null,
        'nonce:pk_ttl:nonce-000000000001': 11 * MINUTE,
        'counter:ip:1': MINUTE,
        'request:vr_ttl': 6 * MINUTE,
        'grant:g-ttl': 5 * MINUTE,
        'pass:p-ttl': 240 * MINUTE,
        'replay:pk_ttl:idem': 5 * MINUTE,
        providers: null,
        'login:l-ttl': 3 * MINUTE,
      };
      expect((await raw.keys(`${prefix}*`)).sort()).toEqual(
        Object.keys(lifetimes)
          .map((k) => prefix + k)
          .sort(),
      );
      for (const [key, lifetime] of Object.entries(lifetimes)) {
        const pttl = await raw.pttl(prefix + key);
        if (lifetime === null) expect(pttl, key).toBe(-1);
        else {
          expect(pttl, key).toBeLessThanOrEqual(lifetime + TTL_MARGIN_MS);
          expect(pttl, key).toBeGreaterThan(lifetime + TTL_MARGIN_MS - 5_000);
        }
      }

      // A completed request's life moves its TTL by as much: here 60 minutes from T0 instead of 6.
      await store.updateRequest('vr_ttl', 1, { status: 'completed', expiresAt: T0 + 60 * MINUTE });
      expect(await raw.pttl(`${prefix}request:vr_ttl`)).toBeGreaterThan(60 * MINUTE + TTL_MARGIN_MS - 5_000);
      await store.updateRequest('vr_ttl', 2, { expiresAt: T0 - 10 * MINUTE });
      expect(await raw.pttl(`${prefix}request:vr_ttl`)).toBeLessThanOrEqual(TTL_MARGIN_MS);
    } finally {
      raw.disconnect();
      await store.close();
    }
  });

  it('keeps two prefixes on one Redis apart', async () => {
    const [a, b] = [await openOn(redis), await openOn(redis)];
    try {
      await a.putGrant(grant('g-shared-digest'));
      expect(await b.consumeGrant('g-shared-digest', T0)).toBeNull();
      expect(await a.rememberNonce('pk_a', 'nonce-prefixed-0001', T0 + MINUTE, T0)).toBe(true);
      expect(await b.rememberNonce('pk_a', 'nonce-prefixed-0001', T0 + MINUTE, T0)).toBe(true);
      expect(await a.consumeGrant('g-shared-digest', T0)).not.toBeNull();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('holds every waiter of an instance on its one subscriber connection', async () => {
    const raw = new Redis(redis.url);
    const subscribers = async () =>
      ((await raw.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string).split('\n').filter(Boolean).length;
    const before = await subscribers();
    const prefix = `sub-${++prefixes}:`;
    const [a, b] = [await openOn(redis, prefix), await openOn(redis, prefix)];
    try {
      expect(await subscribers()).toBe(before + 2);
      await a.createRequest(request('vr_many'));
      const waiting = Array.from({ length: 200 }, () => a.waitForRequestChange('vr_many', 1, 10_000));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await subscribers()).toBe(before + 2);
      await b.updateRequest('vr_many', 1, { status: 'in_progress' });
      await Promise.all(waiting);
    } finally {
      raw.disconnect();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('times every waiter out at its own deadline with one timer, also after most were answered early', async () => {
    const store = await openOn(redis);
    try {
      await store.createRequest(request('vr_busy'));
      await store.createRequest(request('vr_quiet'));
      const busy = Array.from({ length: 3_000 }, () => store.waitForRequestChange('vr_busy', 1, 10_000));
      const start = Date.now();
      const quiet = [300, 60, 180].map((timeoutMs) =>
        store.waitForRequestChange('vr_quiet', 1, timeoutMs).then(() => Date.now() - start),
      );
      await store.updateRequest('vr_busy', 1, { status: 'in_progress' });
      await Promise.all(busy);
      const [late, early, middle] = await Promise.all(quiet);
      expect(early).toBeGreaterThanOrEqual(55);
      expect(middle).toBeGreaterThanOrEqual(175);
      expect(late).toBeGreaterThanOrEqual(295);
      // each at or after its own deadline, in order; on a loaded machine two may fire in one turn
      expect(early).toBeLessThanOrEqual(middle!);
      expect(middle).toBeLessThanOrEqual(late!);
      expect(late).toBeLessThan(2_000);
    } finally {
      await store.close();
    }
  });

  it('answers a waiter on one instance within 100 ms of a change on the other (p99 over 200 changes)', async () => {
    const prefix = `latency-${++prefixes}:`;
    const [a, b] = [await openOn(redis, prefix), await openOn(redis, prefix)];
    try {
      await b.createRequest(request('vr_latency'));
      const latencies: number[] = [];
      for (let version = 1; version <= 200; version++) {
        let changedAt = 0;
        const woken = a.waitForRequestChange('vr_latency', version, 5_000).then(() => performance.now() - changedAt);
        await new Promise((resolve) => setTimeout(resolve, 5)); // its re-check read is back: pub/sub must wake it
        changedAt = performance.now();
        expect(
          await b.updateRequest('vr_latency', version, { status: version % 2 ? 'in_progress' : 'pending' }),
        ).not.toBeNull();
        latencies.push(await woken);
      }
      latencies.sort((x, y) => x - y);
      const [median, p99] = [percentile(latencies, 50), percentile(latencies, 99)];
      console.info(
        `cross-instance wake-up over 200 changes: median ${median.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, ` +
          `max ${latencies.at(-1)!.toFixed(2)} ms`,
      );
      expect(p99).toBeLessThan(100);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('Redis store set up wrong', () => {
  it('refuses an evicting maxmemory-policy at open with one line', async () => {
    const evicting = await startRedisServer({ args: ['--maxmemory-policy', 'allkeys-lru'] });
    try {
      const error = await openRedisStore({ url: evicting.url, notice: quiet }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/maxmemory-policy allkeys-lru.*noeviction/);
      expect((error as Error).message).not.toContain('\n');
    } finally {
      await evicting.remove();
    }
  });

  it('says so and skips the eviction check when CONFIG is disabled', async () => {
    const locked = await startRedisServer({ args: ['--rename-command', 'CONFIG', ''] });
    const notices: string[] = [];
    try {
      const store = await openRedisStore({ url: locked.url, notice: (line) => notices.push(line) });
      await store.close();
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatch(/CONFIG.*skipped.*noeviction/);
    } finally {
      await locked.remove();
    }
  });

  it('rejects at open within 2 s when nothing listens, without the password in the message', async () => {
    const down = await startRedisServer();
    await down.remove();
    const start = Date.now();
    const error = await openRedisStore({
      url: `redis://user:hunter2-secret@127.0.0.1:${down.port}`,
      notice: quiet,
    }).catch((e: unknown) => e);
    expect(Date.now() - start).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toContain(`127.0.0.1:${down.port}`);
    expect((error as Error).message).not.toContain('hunter2');
  });
});

describe('Redis store when Redis fails', () => {
  it('rejects every call within 2 s while Redis is stopped, then works again on the same handle', async () => {
    const server = await startRedisServer({ appendOnly: true });
    const notices: string[] = [];
    const store = await openOn(server, 'down:', (line) => notices.push(line));
    const peer = await openOn(server, 'down:');
    try {
      await store.createRequest(request('vr_down'));
      await store.putGrant(grant('g-down'));
      const waiter = store.waitForRequestChange('vr_down', 1, 20_000).then(() => Date.now());
      await new Promise((resolve) => setTimeout(resolve, 20));

      await server.stop();
      const stoppedAt = Date.now();
      expect((await waiter) - stoppedAt).toBeLessThan(2_000);
      const calls: (() => Promise<unknown>)[] = [
        () => store.getPartner('pk_test_demo'),
        () => store.rememberNonce('pk_a', 'nonce-while-down-01', T0 + MINUTE, T0),
        () => store.hitCounter('ip:1', MINUTE, T0),
        () => store.getRequest('vr_down', T0),
        () => store.updateRequest('vr_down', 1, { status: 'failed' }),
        () => store.consumeGrant('g-down', T0),
        () => store.getOrCreateSecret('x', 'y'),
        () => store.listKeys('session'),
        () => store.updateKeys({ drop: ['kid'] }),
      ];
      for (const call of calls) expect(await rejectsUnavailable(call)).toBeLessThan(2_000);
      const start = Date.now();
      await store.waitForRequestChange('vr_down', 1, 20_000);
      expect(Date.now() - start).toBeLessThan(2_000);
      expect(notices.some((line) => line.includes('lost the connection'))).toBe(true);

      await server.start();
      expect(await eventually(() => store.getRequest('vr_down', T0))).toMatchObject({ version: 1 });
      expect(await store.consumeGrant('g-down', T0)).toMatchObject({ digest: 'g-down' });
      expect(notices.some((line) => line.includes('is back'))).toBe(true);
      // Wake-ups work again too, once the subscriber is back.
      const woken = await eventually(async () => {
        const waiting = store.waitForRequestChange('vr_down', 1, 5_000).then(() => Date.now());
        await new Promise((resolve) => setTimeout(resolve, 50));
        const changedAt = Date.now();
        const updated = await eventually(() => peer.updateRequest('vr_down', 1, { status: 'in_progress' }));
        expect(updated).not.toBeNull();
        return (await waiting) - changedAt;
      });
      expect(woken).toBeLessThan(1_000);
    } finally {
      await Promise.all([store.close(), peer.close()]);
      await server.remove();
    }
  });

  it('rejects within 2 s while Redis hangs, and works again when it answers', async () => {
    const server = await startRedisServer();
    const store = await openOn(server);
    try {
      await store.putGrant(grant('g-hang'));
      server.pause();
      expect(await rejectsUnavailable(() => store.getPartner('pk_test_demo'))).toBeLessThan(2_000);
      expect(
        await rejectsUnavailable(() => store.rememberNonce('pk_a', 'nonce-while-hung-1', T0 + MINUTE, T0)),
      ).toBeLessThan(2_000);
      server.resume();
      expect(await eventually(() => store.getPartner('pk_test_demo'))).toBeNull();
    } finally {
      server.resume();
      await store.close();
      await server.remove();
    }
  });

  it('keeps every acknowledged write through kill -9 of Redis (AOF, appendfsync always)', async () => {
    const server = await startRedisServer({ appendOnly: true });
    const store = await openOn(server, 'durable:');
    try {
      await store.putPassToken(passToken('pass-acknowledged'));
      await store.putGrant(grant('g-spent'));
      expect(await store.consumeGrant('g-spent', T0)).not.toBeNull();
      expect(await store.rememberNonce('pk_a', 'nonce-used-before-kill', T0 + MINUTE, T0)).toBe(true);

      await server.kill();
      await server.start();

      expect(await eventually(() => store.getPassToken('pass-acknowledged', T0))).toMatchObject({
        digest: 'pass-acknowledged',
      });
      expect(await store.consumeGrant('g-spent', T0)).toBeNull();
      expect(await store.rememberNonce('pk_a', 'nonce-used-before-kill', T0 + MINUTE, T0 + 1)).toBe(false);
      const reopened = await openOn(server, 'durable:');
      expect(await reopened.getPassToken('pass-acknowledged', T0)).toMatchObject({ digest: 'pass-acknowledged' });
      await reopened.close();
    } finally {
      await store.close();
      await server.remove();
    }
  });
});

describe('a signed partner call on Redis (design.md §23)', () => {
  /** Commands Redis ran while `work` ran (INFO commandstats; the scripts' inner commands counted apart). */
  async function commandsDuring(work: () => Promise<unknown>): Promise<Record<string, number>> {
    const admin = new Redis(redis.url);
    try {
      await admin.config('RESETSTAT');
      await work();
      const stats = await admin.info('commandstats');
      const counts = Object.fromEntries(
        [...stats.matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm)].map(([, name, n]) => [name!, Number(n)]),
      );
      delete counts['config|resetstat'];
      delete counts.info;
      return counts;
    } finally {
      admin.disconnect();
    }
  }

  /**
   * Commands the store's client sent Redis while `work` ran, each a round trip (MONITOR, from the
   * connection that ran the scripts; a script's own commands and other connections left out).
   */
  async function roundTripsDuring(work: () => Promise<unknown>): Promise<string[]> {
    const admin = new Redis(redis.url);
    const monitor = await admin.monitor();
    const probe = new Redis(redis.url);
    await probe.ping();
    const sent: { source: string; command: string }[] = [];
    const marker = `marker-${Math.random()}`;
    let markerSeen: () => void = () => {};
    const seen = new Promise<void>((resolve) => (markerSeen = resolve));
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (args[0]?.toLowerCase() === 'echo' && args[1] === marker) return markerSeen();
      if (source !== 'lua') sent.push({ source, command: args[0]!.toLowerCase() });
    });
    try {
      await work();
      await probe.echo(marker); // every command before it has reached the monitor once it shows
      await seen;
      const store = new Set(sent.filter((c) => c.command === 'evalsha').map((c) => c.source));
      return sent.filter((c) => store.has(c.source)).map((c) => c.command);
    } finally {
      probe.disconnect();
      monitor.disconnect();
      admin.disconnect();
    }
  }

  it("writes, in the exchange's script, exactly the pass token record passTokenRecordOf makes of the grant", async () => {
    const store = await openOn(redis);
    try {
      const now = 1_790_000_000_123;
      const grants: GrantRecord[] = [
        { scopes: ['isAdult'], attributes: { age_over_18: true } },
        // fields of scopes not requested are not disclosed; false, text, numbers and a nullifier are
        {
          scopes: ['isFrench', 'revealNationality', 'revealBirthYear', 'isUnique'],
          attributes: { is_french: false, nationality: 'FRA', birth_year: 1990, nullifier: '0xabc', age_over_18: true },
        },
        { scopes: ['isEU', 'isAdult'], attributes: { is_eu: true, age_over_18: true }, method: 'provider_é/"x' },
      ].map((partial, i) => ({
        digest: `parity-grant-${i}`,
        partnerId: 'pk_test_demo',
        requestId: `vr_parity${i}`,
        method: 'eudi_wallet',
        verifiedAt: now - 61_000,
        generationTimeMs: 4_321 + i,
        expiresAt: now + 60_000,
        ...partial,
      })) as GrantRecord[];
      for (const [i, grant] of grants.entries()) {
        await store.putGrant(grant);
        const read = grantReadWithNonce('pk_test_demo', newToken('grant'), null, now);
        const taken = await store.rememberNonceAnd('pk_test_demo', `nonce-parity-0000${i}`, now + 60_000, now, {
          ...read!,
          digest: grant.digest,
        });
        const expected = passTokenRecordOf(grant, read!.passToken, now);
        expect(taken.issued).toEqual(expected);
        expect(await store.getPassToken(expected.digest, now)).toEqual(expected);
      }
      // another partner's grant is burnt and issues nothing
      const foreign = { ...grants[0]!, digest: 'parity-grant-foreign', partnerId: 'pk_test_other' };
      await store.putGrant(foreign);
      const read = grantReadWithNonce('pk_test_demo', newToken('grant'), null, now)!;
      const taken = await store.rememberNonceAnd('pk_test_demo', 'nonce-parity-foreign', now + 60_000, now, {
        ...read,
        digest: foreign.digest,
      });
      // with a key, the replay the script stores is the one putExchangeReplay would (the grant's expiry)
      const keyedGrant = { ...grants[0]!, digest: 'parity-grant-keyed' };
      await store.putGrant(keyedGrant);
      const keyed = grantReadWithNonce('pk_test_demo', newToken('grant'), 'order-9', now)!;
      const keyedRead = { ...keyed, digest: keyedGrant.digest };
      expect(
        (await store.rememberNonceAnd('pk_test_demo', 'nonce-parity-keyed', now + 60_000, now, keyedRead)).issued,
      ).not.toBeNull();
      expect(await store.getExchangeReplay('pk_test_demo', 'order-9', now)).toEqual({
        partnerId: 'pk_test_demo',
        idempotencyKey: 'order-9',
        grantDigest: keyedGrant.digest,
        sealedResponse: keyed.replaySealed,
        expiresAt: keyedGrant.expiresAt,
      });
      expect(await store.getExchangeReplay('pk_test_demo', 'order-9', keyedGrant.expiresAt)).toBeNull();

      expect(taken).toMatchObject({ fresh: true, grant: foreign, issued: null });
      expect(await store.getPassToken(read.issueAs!.digest, now)).toBeNull();
      expect(await store.consumeGrant(foreign.digest, now)).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('makes one round trip for an introspection and one for an exchange, and takes the grant once', async () => {
    const t = await makeTestApp({ store: await openOn(redis) });
    try {
      const warm = await signedInject(t, { url: '/v1/exchange', body: { grant_code: await putTestGrant(t.deps) } });
      const passToken = warm.json().pass_token as string;
      await signedInject(t, { url: '/v1/introspect', body: { pass_token: passToken } }); // scripts loaded, partner cached

      const introspection = await commandsDuring(async () => {
        const res = await signedInject(t, { url: '/v1/introspect', body: { pass_token: passToken } });
        expect(res.json().active).toBe(true);
      });
      // one EVALSHA: the nonce's SET and the pass token's GET inside it
      expect(introspection).toEqual({ evalsha: 1, set: 1, get: 1 });

      const grantCode = await putTestGrant(t.deps);
      let answers: { statusCode: number; json(): { pass_token?: string } }[] = [];
      const exchange = await commandsDuring(async () => {
        answers = await Promise.all(
          Array.from({ length: 5 }, () => signedInject(t, { url: '/v1/exchange', body: { grant_code: grantCode } })),
        );
        expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401, 401, 401, 401]);
      });
      // five scripts (nonce + GETDEL each); the one that found the grant wrote its pass token too
      expect(exchange).toEqual({ evalsha: 5, set: 6, getdel: 5 });
      const issued = answers.find((r) => r.statusCode === 200)!.json().pass_token!;
      const introspected = await signedInject(t, { url: '/v1/introspect', body: { pass_token: issued } });
      expect(introspected.json()).toMatchObject({ active: true, sub: expect.stringMatching(/^vr_test/) });

      // ...each a single round trip, whether it wins the grant or is refused: nothing but the script
      const fresh = await putTestGrant(t.deps);
      const trips = await roundTripsDuring(async () => {
        expect((await signedInject(t, { url: '/v1/exchange', body: { grant_code: fresh } })).statusCode).toBe(200);
        expect((await signedInject(t, { url: '/v1/exchange', body: { grant_code: fresh } })).statusCode).toBe(401);
      });
      expect(trips).toEqual(['evalsha', 'evalsha']);

      // With an Idempotency-Key (the SDK always sends one) as well: the script stores the replay too.
      const keyed = await putTestGrant(t.deps);
      const retry = { url: '/v1/exchange', body: { grant_code: keyed }, headers: { 'Idempotency-Key': 'order-7' } };
      let first = '';
      const keyedTrips = await roundTripsDuring(async () => {
        const res = await signedInject(t, retry);
        expect(res.statusCode).toBe(200);
        first = res.body;
      });
      expect(keyedTrips).toEqual(['evalsha']);
      // A retry: the script answers with the replay, whose pass token's record rebuilds the first answer.
      const retryTrips = await roundTripsDuring(async () => expect((await signedInject(t, retry)).body).toBe(first));
      expect(retryTrips).toEqual(['evalsha', 'get']);
    } finally {
      await t.close();
    }
  });
});
