/**
 * Rate-limit counters and long-poll slots in Redis: `counter:<key>` a hash (c, r) hit by one Lua
 * script; `slots:<key>` a sorted set (slot id → its expiresAt), taken in Lua, given back by ZREM.
 */
import type { Store } from '../store.ts';
import type { RedisConnection } from './connection.ts';
import { ttl } from './ttl.ts';

const SCRIPTS = {
  /** ARGV: now, resetAt of a new window, its TTL → {count, resetAt} */
  hitCounter: `
    local reset = redis.call('HGET', KEYS[1], 'r')
    if reset and tonumber(reset) > tonumber(ARGV[1]) then
      return {redis.call('HINCRBY', KEYS[1], 'c', 1), reset}
    end
    redis.call('HSET', KEYS[1], 'c', 1, 'r', ARGV[2])
    redis.call('PEXPIRE', KEYS[1], ARGV[3])
    return {1, ARGV[2]}`,
  /**
   * ARGV: now, cap, slot id, its expiresAt, TTL → 1 if taken, 0 when `cap` live slots are held.
   * Slots expired at `now` are dropped first; the key lives as long as its longest slot.
   */
  holdSlot: `
    redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
    if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
    redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
    if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
    return 1`,
} as const;

/** Counters and slots over `conn`. */
export function limits(conn: RedisConnection): Pick<Store, 'hitCounter' | 'holdSlot' | 'releaseSlot'> {
  const { client, call, prefix } = conn;
  const scripts = conn.scripts(SCRIPTS);
  const counter = (key: string) => `${prefix}counter:${key}`;
  const slots = (key: string) => `${prefix}slots:${key}`;
  return {
    async hitCounter(key, windowMs, now) {
      const [count, resetAt] = (await call('hitCounter', () =>
        scripts.run('hitCounter', [counter(key)], [now, now + windowMs, ttl(windowMs)]),
      )) as [number, string];
      return { count, resetAt: Number(resetAt) };
    },
    async holdSlot(key, slotId, cap, expiresAt, now) {
      const args = [now, cap, slotId, expiresAt, ttl(expiresAt - now)];
      return (await call('holdSlot', () => scripts.run('holdSlot', [slots(key)], args))) === 1;
    },
    releaseSlot: async (key, slotId) => void (await call('releaseSlot', () => client.zrem(slots(key), slotId))),
  };
}
