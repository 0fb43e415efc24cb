/**
 * What must happen once, in Redis: `nonce:<partner>:<n>` (its expiresAt) set NX, a Lua script
 * renewing one expired early by the caller's clock; on a signed partner call, one script sets it
 * and reads the pass token or takes the grant in the same round trip (design.md §23); `grant:<digest>` JSON, handed out once by
 * GETDEL (never GET then DEL); `replay:<partner>:<key>` a hash (e, d), first live writer wins in
 * Lua. With SVC_REDIS_MIN_REPLICAS ≥ 1 each write here waits for the replicas (replicated.ts).
 */
import type { ExchangeReplayRecord, GrantRecord, PassTokenRecord, Store } from '../store.ts';
import type { RedisConnection, Scripts as ScriptsOf } from './connection.ts';
import { ttl } from './ttl.ts';

const SCRIPTS = {
  /** after SET NX failed: renews a nonce the caller's clock sees expired; 1 if it did */
  renewNonce: `
    local stored = tonumber(redis.call('GET', KEYS[1]))
    if stored and stored > tonumber(ARGV[1]) then return 0 end
    redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
    return 1`,
  /**
   * A signed partner call's one round trip (design.md §23). KEYS: nonce, then pass:<d> or
   * grant:<d>, then replay:<partner>:<key> or nothing. ARGV: now, the nonce's expiresAt, its TTL,
   * 'pass' or 'grant'. → {0} for a replayed nonce (nothing else touched); {1, pass JSON} ;
   * {1, grant JSON taken by GETDEL}; {1, false, replay JSON} when a live replay answers first.
   */
  nonceAnd: `
    if not redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3], 'NX') then
      local stored = tonumber(redis.call('GET', KEYS[1]))
      if stored and stored > tonumber(ARGV[1]) then return {0} end
      redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
    end
    if ARGV[4] == 'pass' then return {1, redis.call('GET', KEYS[2])} end
    if KEYS[3] then
      local replay = redis.call('HMGET', KEYS[3], 'e', 'd')
      if replay[1] and tonumber(replay[1]) > tonumber(ARGV[1]) then return {1, false, replay[2]} end
    end
    return {1, redis.call('GETDEL', KEYS[2])}`,
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

type NonceAnswer = [0] | [1, string | null, (string | null)?];

/** `Store.rememberNonceAnd`: the nonce and the token read in one script, so one round trip. */
function rememberNonceAnd(
  conn: RedisConnection,
  scripts: Scripts,
  putPassToken: Store['putPassToken'],
): Store['rememberNonceAnd'] {
  const { call, prefix, minReplicas, writeHeld, unheld, client } = conn;
  return async (partnerId, nonce, expiresAt, now, read) => {
    const keys = [`${prefix}nonce:${encodeURIComponent(partnerId)}:${nonce}`];
    if (read.kind === 'pass') keys.push(`${prefix}pass:${read.digest}`);
    else {
      keys.push(`${prefix}grant:${read.digest}`);
      if (read.replay)
        keys.push(`${prefix}replay:${encodeURIComponent(read.replay.partnerId)}:${read.replay.idempotencyKey}`);
    }
    const args = [now, expiresAt, ttl(expiresAt - now), read.kind];
    let answer: NonceAnswer;
    if (minReplicas === 0) {
      answer = (await call('rememberNonceAnd', () => scripts.run('nonceAnd', keys, args))) as NonceAnswer;
    } else {
      const { value, held } = await writeHeld<NonceAnswer>('rememberNonceAnd', (p) =>
        scripts.inPipeline(p, 'nonceAnd', keys, args),
      );
      answer = value;
      if (answer[0] === 1 && !held) {
        // A grant taken but not held by the replicas goes back (it was handed to nobody), as takeHeld does.
        const taken = read.kind === 'grant' ? answer[1] : null;
        if (taken) {
          const px = ttl((JSON.parse(taken) as GrantRecord).expiresAt - now);
          await client.set(keys[1]!, taken, 'PX', px, 'NX').catch(() => {});
        }
        throw unheld('rememberNonceAnd');
      }
    }
    const result = { fresh: answer[0] === 1, pass: null, grant: null, replay: null, issued: null };
    if (answer[0] === 0) return result;
    const [, json, replay] = answer;
    if (read.kind === 'pass') {
      const pass = json ? (JSON.parse(json) as PassTokenRecord) : null;
      return { ...result, pass: pass && pass.expiresAt > now ? pass : null };
    }
    if (replay) return { ...result, replay: JSON.parse(replay) as ExchangeReplayRecord };
    const parsed = json ? (JSON.parse(json) as GrantRecord) : null;
    const grant = parsed && parsed.expiresAt > now ? parsed : null;
    // The pass token goes in a second round trip: its record is made from the grant the script returned.
    const issued = grant && read.issue ? read.issue(grant) : null;
    if (issued) await putPassToken(issued);
    return { ...result, grant, issued };
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
export function noncesAndReplay(
  conn: RedisConnection,
  putPassToken: Store['putPassToken'],
): Pick<Store, 'rememberNonce' | 'rememberNonceAnd'> & GrantMethods & ReplayMethods {
  const scripts = conn.scripts(SCRIPTS);
  return {
    rememberNonce: rememberNonce(conn, scripts),
    rememberNonceAnd: rememberNonceAnd(conn, scripts, putPassToken),
    ...grantMethods(conn),
    ...replayMethods(conn, scripts),
  };
}
