/**
 * The store for several instances (design.md §10): every record in Redis through ioredis, every
 * single-use step atomic in Redis itself, long-poll wake-ups over pub/sub; one part per record
 * kind in redis/ over one shared connection (redis/connection.ts).
 *
 * Keys, all under the prefix (SVC_REDIS_PREFIX, default "svc:"):
 *
 *   partner:<id>           JSON             partners    set of partner ids
 *   secrets                hash name → value             keys        hash kid → JSON
 *   nonce:<partner>:<n>    its expiresAt    SET NX PX (a Lua script renews one expired early by the caller's clock)
 *   counter:<key>          hash c, r        one Lua script per hit
 *   slots:<key>            sorted set       slot id → its expiresAt; taken in Lua, given back by ZREM
 *   request:<id>           hash field → JSON value; created and compare-and-set in Lua, which publishes
 *                          "<id> <version>" on <prefix>request-changes
 *   grant:<digest>         JSON             GETDEL: handed out once, never GET then DEL
 *   replay:<partner>:<k>   hash e, d        first live writer wins in Lua
 *   pass:<digest>          JSON
 *   providers              hash id → JSON
 *   login:<digest>         JSON             GETDEL, as grants: taken once
 *
 * Expiry: the caller's `now` decides (reads compare `expiresAt`, as on SQLite); Redis TTLs only
 * collect, so nothing needs a sweep. A TTL is the record's lifetime plus TTL_MARGIN_MS, measured
 * from the record's own start (createdAt, verifiedAt, issuedAt, the caller's now), never from an absolute time
 * compared with Redis's clock.
 *
 * Failure: fail closed. No offline queue, no retry of a command whose answer was lost, a command
 * timeout below 2 s: while Redis is unreachable every call rejects with StoreUnavailableError, and
 * the same handle works again once the client has reconnected by itself.
 *
 * High availability (design.md §17): through Sentinel the client asks the sentinels for the
 * primary, and again after every lost connection (a failover). With `minReplicas` ≥ 1 every
 * single-use write (a grant or login state taken, a nonce, a pass token, an exchange replay) and
 * every status change of a request is sent in one pipeline with `WAIT minReplicas waitMs`, so on
 * the connection that wrote it; fewer acknowledgements reject with StoreUnavailableError (503),
 * and a grant or login state taken is put back first, so the caller's retry finds it. The answer
 * is never a success that a promoted replica would not hold.
 */
import type { Store } from './store.ts';
import { connectRedis, type RedisStoreOptions } from './redis/connection.ts';
import { limits } from './redis/limits.ts';
import { noncesAndReplay } from './redis/nonces-replay.ts';
import { partnersAndKeys } from './redis/partners-keys.ts';
import { providersAndLogins } from './redis/providers-logins.ts';
import { replicasOnline } from './redis/replicated.ts';
import { requests } from './redis/requests.ts';

export { TTL_MARGIN_MS } from './redis/ttl.ts';

/**
 * Opens the Redis store: connects, refuses an evicting `maxmemory-policy`, subscribes to request
 * changes. Rejects with StoreUnavailableError when Redis cannot be reached, ConfigError when it
 * is set up to evict.
 *
 * @example const store = await openRedisStore({ url: 'redis://127.0.0.1:6379', prefix: 'svc:' })
 */
export async function openRedisStore(options: RedisStoreOptions): Promise<Store> {
  const conn = await connectRedis(options);
  const live = requests(conn);
  return {
    kind: 'redis',
    ...partnersAndKeys(conn),
    ...providersAndLogins(conn),
    ...limits(conn),
    ...noncesAndReplay(conn, live.putPassToken),
    ...live,
    sweep: async () => 0, // every expiring key carries its TTL
    replicasOnline: () => conn.call('replicasOnline', () => replicasOnline(conn.client)),
    close: () => conn.close(),
  };
}
