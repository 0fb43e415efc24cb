/**
 * What must happen once, in Redis: `nonce:<partner>:<n>` (its expiresAt) set NX, a Lua script
 * renewing one expired early by the caller's clock; `grant:<digest>` JSON, handed out once by
 * GETDEL (never GET then DEL); `replay:<partner>:<key>` a hash (e, d), first live writer wins in
 * Lua. With SVC_REDIS_MIN_REPLICAS ≥ 1 each write here waits for the replicas (replicated.ts).
 */
import type { ExchangeReplayRecord, GrantRecord, Store } from '../store.ts';
import type { RedisConnection, Scripts as ScriptsOf } from './connection.ts';
import { ttl } from './ttl.ts';

const SCRIPTS = {
  /** after SET NX failed: renews a nonce the caller's clock sees expired; 1 if it did */
  renewNonce: `
    local stored = tonumber(redis.call('GET', KEYS[1]))
    if stored and stored > tonumber(ARGV[1]) then return 0 end
    redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
    return 1`,
  /** ARGV: now, expiresAt, record JSON, TTL → the stored record JSON */
  putReplay: `
    local stored = redis.call('HMGET', KEYS[1], 'e', 'd')
    if stored[1] and tonumber(stored[1]) > tonumber(ARGV[1]) then return stored[2] end
    redis.call('HSET', KEYS[1], 'e', ARGV[2], 'd', ARGV[3])
    redis.call('PEXPIRE', KEYS[1], ARGV[4])
    return ARGV[3]`,
} as const;

type Scripts = ScriptsOf<keyof typeof SCRIPTS>;

function rememberNonce(conn: RedisConnection, scripts: Scripts): Store['rememberNonce'] {
  const { client, call, minReplicas, writeHeld, unheld } = conn;
  return async (partnerId, nonce, expiresAt, now) => {
    const key = `${conn.prefix}nonce:${encodeURIComponent(partnerId)}:${nonce}`;
    const px = ttl(expiresAt - now);
    if (minReplicas === 0) {
      const set = await call('rememberNonce', () => client.set(key, String(expiresAt), 'PX', px, 'NX'));
      if (set === 'OK') return true;
      return (await call('rememberNonce', () => scripts.run('renewNonce', [key], [now, expiresAt, px]))) === 1;
    }
    const set = await writeHeld<string | null>('rememberNonce', (p) => p.set(key, String(expiresAt), 'PX', px, 'NX'));
    if (set.value === 'OK' && !set.held) throw unheld('rememberNonce');
    if (set.value === 'OK') return true;
    const renewed = await writeHeld<number>('rememberNonce', (p) =>
      scripts.inPipeline(p, 'renewNonce', [key], [now, expiresAt, px]),
    );
    if (renewed.value === 1 && !renewed.held) throw unheld('rememberNonce');
    return renewed.value === 1;
  };
}

type GrantMethods = Pick<Store, 'putGrant' | 'consumeGrant'>;

function grantMethods({ client, call, prefix, takeHeld }: RedisConnection): GrantMethods {
  const key = (digest: string) => `${prefix}grant:${digest}`;
  return {
    async putGrant(grant) {
      const px = ttl(grant.expiresAt - grant.verifiedAt);
      await call('putGrant', () => client.set(key(grant.digest), JSON.stringify(grant), 'PX', px));
    },
    async consumeGrant(digest, now) {
      const expiry = (json: string) => (JSON.parse(json) as GrantRecord).expiresAt - now;
      const json = await takeHeld('consumeGrant', key(digest), expiry);
      if (json === null) return null;
      const grant = JSON.parse(json) as GrantRecord;
      return grant.expiresAt > now ? grant : null;
    },
  };
}

type ReplayMethods = Pick<Store, 'putExchangeReplay' | 'getExchangeReplay'>;

function replayMethods(conn: RedisConnection, scripts: Scripts): ReplayMethods {
  const { client, call, writeAndWait } = conn;
  const key = (partnerId: string, idempotencyKey: string) =>
    `${conn.prefix}replay:${encodeURIComponent(partnerId)}:${idempotencyKey}`;
  return {
    async putExchangeReplay(record, now) {
      const json = JSON.stringify(record);
      const args = [now, record.expiresAt, json, ttl(record.expiresAt - now)];
      const stored = await writeAndWait<string>('putExchangeReplay', (p) =>
        scripts.inPipeline(p, 'putReplay', [key(record.partnerId, record.idempotencyKey)], args),
      );
      return JSON.parse(stored) as ExchangeReplayRecord;
    },
    async getExchangeReplay(partnerId, idempotencyKey, now) {
      const [expiresAt, json] = await call('getExchangeReplay', () =>
        client.hmget(key(partnerId, idempotencyKey), 'e', 'd'),
      );
      if (expiresAt == null || json == null || Number(expiresAt) <= now) return null;
      return JSON.parse(json) as ExchangeReplayRecord;
    },
  };
}

/** Nonces, grants and exchange replays over `conn`. */
export function noncesAndReplay(conn: RedisConnection): Pick<Store, 'rememberNonce'> & GrantMethods & ReplayMethods {
  const scripts = conn.scripts(SCRIPTS);
  return { rememberNonce: rememberNonce(conn, scripts), ...grantMethods(conn), ...replayMethods(conn, scripts) };
}
