/**
 * What must happen once, in Redis: `nonce:<partner>:<n>` (its expiresAt) set NX, a Lua script
 * renewing one expired early by the caller's clock; on a signed partner call, one script sets it
 * and reads the pass token, or takes the grant and writes its pass token, in the same round trip
 * (design.md §23); `grant:<digest>` JSON, handed out once by GETDEL (never GET then DEL);
 * `replay:<partner>:<key>` a hash (e, d), first live writer wins in Lua; an exchange's own is
 * written by the script that takes its grant. With
 * SVC_REDIS_MIN_REPLICAS ≥ 1 each write here waits for the replicas (replicated.ts).
 */
import {
  replayKeptBy,
  type ExchangeReplayRecord,
  type GrantRecord,
  type PassTokenRecord,
  type Store,
} from '../store.ts';
import type { RedisConnection, Scripts as ScriptsOf } from './connection.ts';
import { ttl, TTL_MARGIN_MS } from './ttl.ts';
import { SCOPE_FIELD } from '../../../src/protocol/scopes.ts';

/** `{ isAdult = 'age_over_18', … }`: a Lua table of simple names and values. */
function luaTable(record: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(record).map(([name, value]) => {
    if (!/^\w+$/.test(name) || !/^\w+$/.test(value)) throw new Error(`not a simple name: ${name} = ${value}`);
    return `${name} = '${value}'`;
  });
  return `{ ${pairs.join(', ')} }`;
}

const SCRIPTS = {
  /** after SET NX failed: renews a nonce the caller's clock sees expired; 1 if it did */
  renewNonce: `
    local stored = tonumber(redis.call('GET', KEYS[1]))
    if stored and stored > tonumber(ARGV[1]) then return 0 end
    redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
    return 1`,
  /**
   * A signed partner call's one round trip (design.md §23). KEYS: nonce, then pass:<d> or
   * grant:<d>, then replay:<partner>:<key> when ARGV[5] is 'r', then the pass token to issue when
   * ARGV[6] is given. ARGV: now, the nonce's expiresAt, its TTL, 'pass' or 'grant', 'r' or '', and
   * to issue: the partner, the pass token's digest, issuedAt, expiresAt, TTL, the earliest
   * verifiedAt a grant may have to issue anything (issueAs.verifiedSince: a restore); then, to
   * store the exchange's replay with it (NonceRead.replaySealed): the sealed pass token, the
   * replay's partner, its key, the grant's digest. → {0} for a replayed nonce (nothing else touched);
   * {1, pass JSON}; {1, false, replay JSON} when a live replay answers first; {1, grant JSON taken
   * by GETDEL, false, pass token JSON} with the pass token (passTokenRecordOf's record, built
   * here) and the replay stored when the grant is the partner's and live.
   */
  nonceAnd: `
    if not redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3], 'NX') then
      local stored = tonumber(redis.call('GET', KEYS[1]))
      if stored and stored > tonumber(ARGV[1]) then return {0} end
      redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
    end
    if ARGV[4] == 'pass' then return {1, redis.call('GET', KEYS[2])} end
    if ARGV[5] == 'r' then
      local replay = redis.call('HMGET', KEYS[3], 'e', 'd')
      if replay[1] and tonumber(replay[1]) > tonumber(ARGV[1]) then return {1, false, replay[2]} end
    end
    local json = redis.call('GETDEL', KEYS[2])
    if not json or not ARGV[6] then return {1, json} end
    -- From here on nothing may raise (the grant is taken): whatever this cannot build exactly as
    -- passTokenRecordOf does (cjson writes 14 significant digits; an empty list as {}) is left to
    -- the caller, which issues it in a second round trip.
    local decoded, grant = pcall(cjson.decode, json)
    local function exact(n) return n == nil or (type(n) == 'number' and n == math.floor(n) and math.abs(n) < 1e14) end
    if not decoded or type(grant) ~= 'table' or grant.partnerId ~= ARGV[6] or type(grant.expiresAt) ~= 'number'
      or grant.expiresAt <= tonumber(ARGV[1]) or (ARGV[12] and not exact(grant.expiresAt))
      or type(grant.verifiedAt) ~= 'number' or grant.verifiedAt < tonumber(ARGV[11])
      or type(grant.scopes) ~= 'table' or #grant.scopes == 0
      or type(grant.attributes) ~= 'table' or not exact(grant.verifiedAt) or not exact(grant.generationTimeMs) then
      return {1, json}
    end
    local field = ${luaTable(SCOPE_FIELD)}
    local attributes = {}
    for _, scope in ipairs(grant.scopes) do
      local name = field[scope]
      local value = name and grant.attributes[name]
      if value ~= nil then
        if type(value) == 'table' or (type(value) == 'number' and not exact(value)) then return {1, json} end
        attributes[name] = value
      end
    end
    attributes.verification_method = grant.method
    attributes.verified_at = grant.verifiedAt
    local pass = cjson.encode({
      digest = ARGV[7], partnerId = grant.partnerId, requestId = grant.requestId, scopes = grant.scopes,
      attributes = attributes, method = grant.method, issuedAt = tonumber(ARGV[8]),
      expiresAt = tonumber(ARGV[9]), generationTimeMs = grant.generationTimeMs,
    })
    redis.call('SET', KEYS[#KEYS], pass, 'PX', ARGV[10])
    if ARGV[12] then
      -- No live replay holds the key (looked for above). As putReplay, with ttl.ts's margin.
      local replay = cjson.encode({
        partnerId = ARGV[13], idempotencyKey = ARGV[14], grantDigest = ARGV[15], sealedResponse = ARGV[12],
        expiresAt = grant.expiresAt,
      })
      redis.call('HSET', KEYS[3], 'e', string.format('%d', grant.expiresAt), 'd', replay)
      redis.call('PEXPIRE', KEYS[3], math.max(1, math.ceil(grant.expiresAt - tonumber(ARGV[1]))) + ${TTL_MARGIN_MS})
    end
    return {1, json, false, pass}`,
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

type NonceAnswer = [0] | [1, string | null, (string | null)?, (string | null)?];

/** `replay:<partner>:<key>`: an exchange's replay record. */
const replayKey = (prefix: string, partnerId: string, idempotencyKey: string) =>
  `${prefix}replay:${encodeURIComponent(partnerId)}:${idempotencyKey}`;

/**
 * `Store.rememberNonceAnd`: the nonce and the token read, or the grant taken and its pass token
 * (and replay) written, in one script: one round trip.
 */
function rememberNonceAnd(
  conn: RedisConnection,
  scripts: Scripts,
  putPassToken: Store['putPassToken'],
  putExchangeReplay: Store['putExchangeReplay'],
): Store['rememberNonceAnd'] {
  const { call, prefix, minReplicas, writeHeld, unheld, client } = conn;
  return async (partnerId, nonce, expiresAt, now, read) => {
    const keys = [`${prefix}nonce:${encodeURIComponent(partnerId)}:${nonce}`];
    const args: (string | number)[] = [now, expiresAt, ttl(expiresAt - now), read.kind];
    const issueAs = read.kind === 'grant' && read.issue ? read.issueAs : undefined;
    // The exchange's replay, written with its pass token (NonceRead.replaySealed).
    const keeps = read.kind === 'grant' && issueAs && read.replay && read.replaySealed ? read : null;
    if (read.kind === 'pass') keys.push(`${prefix}pass:${read.digest}`);
    else {
      keys.push(`${prefix}grant:${read.digest}`);
      if (read.replay) keys.push(replayKey(prefix, read.replay.partnerId, read.replay.idempotencyKey));
      args.push(read.replay ? 'r' : '');
      if (issueAs) {
        keys.push(`${prefix}pass:${issueAs.digest}`);
        const { partnerId: owner, digest, issuedAt, expiresAt: until, verifiedSince = 0 } = issueAs;
        args.push(owner, digest, issuedAt, until, ttl(until - issuedAt), verifiedSince);
      }
      if (keeps) args.push(keeps.replaySealed!, keeps.replay!.partnerId, keeps.replay!.idempotencyKey, keeps.digest);
    }
    let answer: NonceAnswer;
    if (minReplicas === 0) {
      answer = (await call('rememberNonceAnd', () => scripts.run('nonceAnd', keys, args))) as NonceAnswer;
    } else {
      const { value, held } = await writeHeld<NonceAnswer>('rememberNonceAnd', (p) =>
        scripts.inPipeline(p, 'nonceAnd', keys, args),
      );
      answer = value;
      if (answer[0] === 1 && !held) {
        // A grant taken but not held by the replicas goes back (it was handed to nobody), as
        // takeHeld does, and the pass token written for it goes (nobody has it).
        const taken = read.kind === 'grant' ? answer[1] : null;
        if (taken) {
          const px = ttl((JSON.parse(taken) as GrantRecord).expiresAt - now);
          await client.set(keys[1]!, taken, 'PX', px, 'NX').catch(() => {});
        }
        if (answer[3] && issueAs) await client.del(keys.at(-1)!).catch(() => {});
        if (answer[3] && keeps) await client.del(keys[2]!).catch(() => {});
        throw unheld('rememberNonceAnd');
      }
    }
    const result = { fresh: answer[0] === 1, pass: null, grant: null, replay: null, issued: null };
    if (answer[0] === 0) return result;
    const [, json, replay, issuedJson] = answer;
    if (read.kind === 'pass') {
      const pass = json ? (JSON.parse(json) as PassTokenRecord) : null;
      return { ...result, pass: pass && pass.expiresAt > now ? pass : null };
    }
    if (replay) return { ...result, replay: JSON.parse(replay) as ExchangeReplayRecord };
    const parsed = json ? (JSON.parse(json) as GrantRecord) : null;
    const grant = parsed && parsed.expiresAt > now ? parsed : null;
    // Written by the script (issueAs), with the replay; otherwise, e.g. a store caller without
    // issueAs, in a second round trip (and the replay in a third).
    if (issuedJson) return { ...result, grant, issued: JSON.parse(issuedJson) as PassTokenRecord };
    const issued = grant && read.issue ? read.issue(grant) : null;
    if (issued) await putPassToken(issued);
    const kept = issued && replayKeptBy(read, grant!);
    if (kept) await putExchangeReplay(kept, now);
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
  const key = (partnerId: string, idempotencyKey: string) => replayKey(conn.prefix, partnerId, idempotencyKey);
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
  const replays = replayMethods(conn, scripts);
  return {
    rememberNonce: rememberNonce(conn, scripts),
    rememberNonceAnd: rememberNonceAnd(conn, scripts, putPassToken, replays.putExchangeReplay),
    ...grantMethods(conn),
    ...replays,
  };
}
