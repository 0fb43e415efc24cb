/**
 * The Redis store through Sentinel with SVC_REDIS_MIN_REPLICAS (design.md §17): the whole store
 * contract, then what happens when the replica does not acknowledge (paused with SIGSTOP: the
 * port stays open, nothing answers). The failover itself is server/failover.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.ts';
import { makeTestApp, putTestGrant, signedInject } from '../test/helpers.ts';
import { startRedisHa } from '../test/redis-ha.ts';
import { openRedisStore } from './redis.ts';
import { runStoreContract } from './store.contract.ts';
import { StoreUnavailableError, type GrantRecord, type Store } from './store.ts';

const ha = await startRedisHa();
afterAll(() => ha.remove());
const replica = ha.nodes[1]!;

const T0 = Date.UTC(2001, 0, 1);
const MINUTE = 60_000;

let prefixes = 0;
const prefixOf = new WeakMap<Store, string>();
async function openHeld(prefix = `ha-${++prefixes}:`, minReplicas = 1): Promise<Store> {
  const store = await openRedisStore({ sentinels: ha.sentinels, prefix, minReplicas, notice: () => {} });
  prefixOf.set(store, prefix);
  return store;
}

runStoreContract('Redis through Sentinel, SVC_REDIS_MIN_REPLICAS=1', () => openHeld(), {
  openPeer: (store) => openHeld(prefixOf.get(store)!),
  expiresByItself: true,
});

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

async function rejection(work: () => Promise<unknown>): Promise<unknown> {
  return work().then(
    () => null,
    (error: unknown) => error,
  );
}

/**
 * Retries `work` while it rejects with StoreUnavailableError, for at most 5 s: after a short
 * WAIT, the store answers 503 at once until the replica acknowledges again (within a second).
 */
async function onceReplicaAcknowledges<T>(work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof StoreUnavailableError) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Runs `work` with the replica paused (SIGSTOP), and resumes it whatever happens. */
async function withReplicaPaused<T>(work: () => Promise<T>): Promise<T> {
  replica.pause();
  try {
    return await work();
  } finally {
    replica.resume();
  }
}

describe('Redis store with SVC_REDIS_MIN_REPLICAS=1', () => {
  it('rejects a grant taken while no replica acknowledges, and hands it out once the replica is back', async () => {
    const store = await openHeld();
    try {
      await store.putGrant(grant('g-held'));
      const error = await withReplicaPaused(() => rejection(() => store.consumeGrant('g-held', T0)));
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(String(error)).toContain('replica');
      // it was put back: the caller's retry gets it, exactly once
      expect((await onceReplicaAcknowledges(() => store.consumeGrant('g-held', T0)))?.requestId).toBe('vr_x');
      expect(await store.consumeGrant('g-held', T0)).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('rejects every single-use write and every status change no replica acknowledged', async () => {
    const store = await openHeld();
    try {
      await store.createRequest({
        id: 'vr_held',
        rail: 'standard',
        partnerId: 'pk_test_demo',
        appId: null,
        originHash: null,
        sessionJti: null,
        scopes: ['isAdult'],
        clientProofMode: false,
        locale: 'fr',
        audienceLabel: 'Demo',
        pollTokenDigest: 'p',
        handoffTokenDigest: 'h',
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
      });
      await store.putGrant(grant('g-held-2'));
      await store.putLoginState(
        {
          digest: 'l-held',
          requestId: 'vr_held',
          providerId: 'idp',
          codeVerifier: 'v',
          nonce: 'n',
          browserDigest: 'b',
          expiresAt: T0 + MINUTE,
        },
        T0,
      );
      const calls: [string, () => Promise<unknown>][] = [
        ['nonce', () => store.rememberNonce('pk_test_demo', 'nonce-held-0001', T0 + MINUTE, T0)],
        [
          'nonce with its grant',
          () =>
            store.rememberNonceAnd('pk_test_demo', 'nonce-held-0002', T0 + MINUTE, T0, {
              kind: 'grant',
              digest: 'g-held-2',
              replay: null,
            }),
        ],
        ['pass token', () => store.putPassToken({ ...grant('p-held'), issuedAt: T0, expiresAt: T0 + MINUTE })],
        [
          'exchange replay',
          () =>
            store.putExchangeReplay(
              {
                partnerId: 'pk_test_demo',
                idempotencyKey: 'k',
                grantDigest: 'g',
                sealedResponse: 's',
                expiresAt: T0 + MINUTE,
              },
              T0,
            ),
        ],
        ['completion', () => store.updateRequest('vr_held', 1, { status: 'completed', sealedResult: 'r' })],
        ['login state', () => store.takeLoginState('l-held', T0)],
      ];
      const refused = await withReplicaPaused(async () => {
        const names: string[] = [];
        for (const [name, call] of calls)
          if ((await rejection(call)) instanceof StoreUnavailableError) names.push(name);
        return names;
      });
      expect(refused).toEqual(calls.map(([name]) => name));
      // the login state and the grant were put back; reads, which change nothing, never waited
      expect((await onceReplicaAcknowledges(() => store.takeLoginState('l-held', T0)))?.requestId).toBe('vr_held');
      expect((await store.consumeGrant('g-held-2', T0))?.digest).toBe('g-held-2');
    } finally {
      await store.close();
    }
  });

  it('answers an exchange 503 SERVICE_UNAVAILABLE while no replica acknowledges, and 200 to the retry', async () => {
    const t = await makeTestApp({ store: await openHeld() });
    try {
      const grantCode = await putTestGrant(t);
      const exchange = () =>
        signedInject(t, {
          url: '/v1/exchange',
          body: { grant_code: grantCode },
          headers: { 'Idempotency-Key': 'once' },
        });
      const refused = await withReplicaPaused(exchange);
      expect(refused.statusCode).toBe(503);
      expect(refused.json().error).toBe('SERVICE_UNAVAILABLE');
      expect(refused.headers['retry-after']).toBeDefined();
      const retried = await onceReplicaAcknowledges(async () => {
        const res = await exchange();
        if (res.statusCode === 503) throw new StoreUnavailableError('still 503');
        return res;
      });
      expect(retried.statusCode).toBe(200);
      expect((await exchange()).json().pass_token).toBe(retried.json().pass_token);
    } finally {
      await t.close();
    }
  });

  it('refuses to open through Sentinel when the primary has fewer replicas than asked, in one line', async () => {
    const lonely = await startRedisHa({ replicas: 0 });
    try {
      const error = await rejection(() =>
        openRedisStore({ sentinels: lonely.sentinels, minReplicas: 1, notice: () => {} }),
      );
      expect(error).toBeInstanceOf(ConfigError);
      expect(String(error)).toMatch(/has 0 connected replica\(s\) and SVC_REDIS_MIN_REPLICAS is 1/);
      expect(String(error)).not.toContain('\n');
    } finally {
      await lonely.remove();
    }
  });

  it('says at open that a failover may lose writes when SVC_REDIS_MIN_REPLICAS is 0', async () => {
    const notices: string[] = [];
    const store = await openRedisStore({ sentinels: ha.sentinels, notice: (line) => notices.push(line) });
    await store.close();
    expect(notices.some((line) => line.includes('SVC_REDIS_MIN_REPLICAS=0'))).toBe(true);
  });

  it('rejects the open with StoreUnavailableError when no sentinel answers, instead of hanging', async () => {
    const down = { hosts: [{ host: '127.0.0.1', port: 1 }], masterName: ha.masterName };
    const error = await rejection(() => openRedisStore({ sentinels: down, notice: () => {} }));
    expect(error).toBeInstanceOf(StoreUnavailableError);
  });
});
