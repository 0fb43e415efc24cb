/**
 * The store for several instances (design.md §10): every record in Redis through ioredis, every
 * single-use step atomic in Redis itself, long-poll wake-ups over pub/sub.
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
import { Redis, type ChainableCommander, type RedisOptions } from 'ioredis';
import { ConfigError } from '../errors.ts';
import {
  StoreUnavailableError,
  type CounterHit,
  type ExchangeReplayRecord,
  type GrantRecord,
  type KeyPurpose,
  type LoginStateRecord,
  type PartnerRecord,
  type PassTokenRecord,
  type ProviderRecord,
  type SigningKeyRecord,
  type Store,
  type VerifyRequestPatch,
  type VerifyRequestRecord,
} from './store.ts';

export interface RedisStoreOptions {
  /** redis:// or rediss:// (SVC_REDIS_URL); credentials in it never reach a message. Or `sentinels`. */
  url?: string;
  /** SVC_REDIS_SENTINELS and SVC_REDIS_MASTER_NAME: the primary as the sentinels name it */
  sentinels?: { hosts: readonly { host: string; port: number }[]; masterName: string };
  /** SVC_REDIS_MIN_REPLICAS: replicas that must acknowledge each single-use write (default 0: none waited for) */
  minReplicas?: number;
  /** SVC_REDIS_WAIT_MS: how long WAIT waits for them (default 250) */
  waitMs?: number;
  /** namespaces every key and the change channel (SVC_REDIS_PREFIX); default "svc:" */
  prefix?: string;
  /** one line for the operator: connection lost or back, eviction check skipped. Default: stderr. */
  notice?: (line: string) => void;
}

/**
 * Added to every TTL: covers clocks that differ between instances and Redis, so that Redis never
 * drops a row (a nonce above all) before every instance sees it expired.
 */
export const TTL_MARGIN_MS = 60_000;

/** Below the 2 s design.md §10 allows, so that a call rejects in time even when Redis hangs. */
const COMMAND_TIMEOUT_MS = 1_500;

const CLIENT_OPTIONS: RedisOptions = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  // A command sent before the connection dropped may have run: never send it again.
  autoResendUnfulfilledCommands: false,
  commandTimeout: COMMAND_TIMEOUT_MS,
  connectTimeout: COMMAND_TIMEOUT_MS,
  retryStrategy: (attempt) => Math.min(attempt * 200, 1_000),
  enableAutoPipelining: true,
};

/** After ioredis gives a connection up ("end"), the store connects it again this much later. */
const RECONNECT_AFTER_END_MS = 500;

const SENTINEL_OPTIONS: RedisOptions = {
  // One round over the sentinels per connection attempt: a boot with every sentinel down fails
  // instead of hanging. ioredis then ends the client; the store connects it again (keepConnecting).
  sentinelRetryStrategy: () => null,
  sentinelCommandTimeout: COMMAND_TIMEOUT_MS,
  // Told of a switch by the sentinels (+switch-master): a planned failover leaves the old primary
  // up, and a primary without its replica, for up to 10 s until Sentinel demotes it. Its disconnect
  // may land on a reconnection and end the client; keepConnecting connects it again.
  failoverDetector: true,
  sentinelReconnectStrategy: (attempt) => Math.min(attempt * 200, 1_000),
  // A planned failover turns the old primary into a replica under the open connection: reconnect
  // (asking the sentinels again), never resend (2 would).
  reconnectOnError: (error) => (error.message.startsWith('READONLY') ? 1 : false),
};

const SCRIPTS = {
  /** after SET NX failed: renews a nonce the caller's clock sees expired; 1 if it did */
  renewNonce: `
    local stored = tonumber(redis.call('GET', KEYS[1]))
    if stored and stored > tonumber(ARGV[1]) then return 0 end
    redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
    return 1`,
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
  /** ARGV: TTL, channel, message, field, value, … → 1, or 0 when the id exists */
  createRequest: `
    if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
    redis.call('HSET', KEYS[1], unpack(ARGV, 4))
    redis.call('PEXPIRE', KEYS[1], ARGV[1])
    redis.call('PUBLISH', ARGV[2], ARGV[3])
    return 1`,
  /**
   * ARGV: expected version, next version, new expiresAt or '', channel, message, field, value, …
   * → the whole hash after the update, or nil when the version moved. A new expiresAt moves the
   * TTL by as much as it moves the expiry.
   */
  updateRequest: `
    local version = redis.call('HGET', KEYS[1], 'version')
    if not version or tonumber(version) ~= tonumber(ARGV[1]) then return false end
    if ARGV[3] ~= '' then
      local ttl = redis.call('PTTL', KEYS[1])
      if ttl > 0 then
        ttl = ttl + tonumber(ARGV[3]) - tonumber(redis.call('HGET', KEYS[1], 'expiresAt'))
        if ttl < 1 then ttl = 1 end
        redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl))
      end
    end
    redis.call('HSET', KEYS[1], 'version', ARGV[2], unpack(ARGV, 6))
    redis.call('PUBLISH', ARGV[4], ARGV[5])
    return redis.call('HGETALL', KEYS[1])`,
  /** ARGV: now, expiresAt, record JSON, TTL → the stored record JSON */
  putReplay: `
    local stored = redis.call('HMGET', KEYS[1], 'e', 'd')
    if stored[1] and tonumber(stored[1]) > tonumber(ARGV[1]) then return stored[2] end
    redis.call('HSET', KEYS[1], 'e', ARGV[2], 'd', ARGV[3])
    redis.call('PEXPIRE', KEYS[1], ARGV[4])
    return ARGV[3]`,
  /** ARGV: name, value → the stored value (first writer wins) */
  getOrCreateSecret: `
    redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
    return redis.call('HGET', KEYS[1], ARGV[1])`,
  /** ARGV: name, value: replaces the secret only if it exists */
  replaceSecret: `
    if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
    return 1`,
} as const;

type ScriptName = keyof typeof SCRIPTS;
type RunScript = (name: ScriptName, keys: string[], args: (string | number)[]) => Promise<unknown>;

function defineScripts(client: Redis): RunScript {
  for (const [name, lua] of Object.entries(SCRIPTS)) client.defineCommand(name, { lua });
  const commands = client as unknown as Record<ScriptName, (...args: (string | number)[]) => Promise<unknown>>;
  // No numberOfKeys: each call passes its key count first (EVALSHA, falling back to EVAL after a restart).
  return (name, keys, args) => commands[name](keys.length, ...keys, ...args);
}

/** Where the store is, without credentials, for messages. */
function describeRedis(options: RedisStoreOptions): string {
  if (options.sentinels) {
    const hosts = options.sentinels.hosts.map(({ host, port }) => `${host}:${port}`).join(',');
    return `primary "${options.sentinels.masterName}" via sentinels ${hosts}`;
  }
  return describeUrl(options.url ?? '');
}

function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return 'the configured Redis URL';
  }
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}

const ttl = (lifetimeMs: number) => Math.max(1, Math.ceil(lifetimeMs)) + TTL_MARGIN_MS;

/** The lifecycle fields are null when absent, as SQLite's columns are. */
function withLifecycle(p: PartnerRecord): PartnerRecord {
  const { previousSecret = null, previousSecretUntil = null, disabledAt = null, attestation = null } = p;
  return { ...p, previousSecret, previousSecretUntil, disabledAt, attestation };
}

const toPartner = (json: string) => withLifecycle(JSON.parse(json) as PartnerRecord);

/** Request hash: one field per record property, each JSON-encoded, so that a patch touches only its fields. */
function requestFields(record: Partial<VerifyRequestRecord>): string[] {
  const fields: string[] = [];
  for (const [name, value] of Object.entries(record)) if (value !== undefined) fields.push(name, JSON.stringify(value));
  return fields;
}

function toRequest(fields: [string, string][]): VerifyRequestRecord {
  return Object.fromEntries(fields.map(([name, json]) => [name, JSON.parse(json)])) as unknown as VerifyRequestRecord;
}

function pairs(flat: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
}

interface Waiter {
  id: string;
  sinceVersion: number;
  deadline: number;
  done: boolean;
  resolve(): void;
  signal: AbortSignal | undefined;
  onAbort(): void;
}

/**
 * Waiting long polls, in process: by request id (for wake-ups) and in a min-heap by deadline, so
 * that one timer serves them all. A finished waiter stays in the heap until its deadline comes up.
 */
function createWaiters() {
  const byId = new Map<string, Set<Waiter>>();
  const heap: Waiter[] = [];
  let live = 0;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;

  const less = (i: number, j: number) => heap[i]!.deadline < heap[j]!.deadline;
  function swap(i: number, j: number) {
    [heap[i], heap[j]] = [heap[j]!, heap[i]!];
  }
  function push(w: Waiter) {
    heap.push(w);
    for (let i = heap.length - 1; i > 0 && less(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
  }
  function pop() {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0; ;) {
        const [l, r] = [2 * i + 1, 2 * i + 2];
        let m = i;
        if (l < heap.length && less(l, m)) m = l;
        if (r < heap.length && less(r, m)) m = r;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    }
    return top;
  }

  function arm() {
    while (heap.length > 0 && heap[0]!.done) pop();
    const next = heap[0]?.deadline ?? Infinity;
    if (next === timerAt) return;
    clearTimeout(timer);
    timerAt = next;
    if (next !== Infinity) timer = setTimeout(expire, Math.max(0, next - Date.now()));
  }
  function expire() {
    timerAt = Infinity;
    const now = Date.now();
    while (heap.length > 0 && (heap[0]!.done || heap[0]!.deadline <= now)) finish(pop());
    arm();
  }

  function finish(w: Waiter) {
    if (w.done) return;
    w.done = true;
    const set = byId.get(w.id);
    set?.delete(w);
    if (set?.size === 0) byId.delete(w.id);
    w.signal?.removeEventListener('abort', w.onAbort);
    live -= 1;
    // Mostly finished waiters (answered long before their deadline): drop them. A sorted array is a heap.
    if (heap.length > 1_024 && heap.length > 4 * live) {
      const kept = heap.filter((x) => !x.done).sort((a, b) => a.deadline - b.deadline);
      heap.length = 0;
      for (const x of kept) heap.push(x);
    }
    w.resolve();
  }

  function add(w: Waiter) {
    let set = byId.get(w.id);
    if (!set) byId.set(w.id, (set = new Set()));
    set.add(w);
    live += 1;
    push(w);
    arm();
    w.signal?.addEventListener('abort', w.onAbort, { once: true });
  }
  function finishAll() {
    for (const set of [...byId.values()]) for (const w of [...set]) finish(w);
  }

  return { byId, add, finish, finishAll };
}

/**
 * Opens the Redis store: connects, refuses an evicting `maxmemory-policy`, subscribes to request
 * changes. Rejects with StoreUnavailableError when Redis cannot be reached, ConfigError when it
 * is set up to evict.
 *
 * @example const store = await openRedisStore({ url: 'redis://127.0.0.1:6379', prefix: 'svc:' })
 */
export async function openRedisStore(options: RedisStoreOptions): Promise<Store> {
  const prefix = options.prefix ?? 'svc:';
  const notice = options.notice ?? ((line: string) => console.warn(`svc: ${line}`));
  const where = describeRedis(options);
  const minReplicas = options.minReplicas ?? 0;
  const waitMs = options.waitMs ?? 250;
  const channel = `${prefix}request-changes`;
  const k = {
    partner: (id: string) => `${prefix}partner:${id}`,
    partners: `${prefix}partners`,
    secrets: `${prefix}secrets`,
    keys: `${prefix}keys`,
    nonce: (partnerId: string, nonce: string) => `${prefix}nonce:${encodeURIComponent(partnerId)}:${nonce}`,
    counter: (key: string) => `${prefix}counter:${key}`,
    slots: (key: string) => `${prefix}slots:${key}`,
    request: (id: string) => `${prefix}request:${id}`,
    grant: (digest: string) => `${prefix}grant:${digest}`,
    replay: (partnerId: string, key: string) => `${prefix}replay:${encodeURIComponent(partnerId)}:${key}`,
    pass: (digest: string) => `${prefix}pass:${digest}`,
    providers: `${prefix}providers`,
    login: (digest: string) => `${prefix}login:${digest}`,
  };

  if (!options.url === !options.sentinels)
    throw new ConfigError('the Redis store needs a URL or sentinels, one of them');
  const client = options.sentinels
    ? new Redis({
        ...CLIENT_OPTIONS,
        ...SENTINEL_OPTIONS,
        sentinels: options.sentinels.hosts.map(({ host, port }) => ({ host, port })),
        name: options.sentinels.masterName,
      })
    : new Redis(options.url!, CLIENT_OPTIONS);
  // The one subscriber connection of this instance: request-change messages only, never a store call.
  const subscriber = client.duplicate({ autoResubscribe: false });
  let closed = false;
  let connected = false;
  client.on('error', () => {}); // every failure surfaces through the call that met it
  subscriber.on('error', () => {});

  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    subscriber.disconnect();
    throw new StoreUnavailableError(`cannot reach Redis at ${where}: ${reasonOf(error)}`);
  }
  try {
    await checkServer(client, where, notice);
    await checkReplicas(client, where, minReplicas, Boolean(options.sentinels), notice);
    await subscriber.connect();
    await subscriber.subscribe(channel);
  } catch (error) {
    client.disconnect();
    subscriber.disconnect();
    if (error instanceof ConfigError) throw error;
    throw new StoreUnavailableError(`cannot reach Redis at ${where}: ${reasonOf(error)}`);
  }
  connected = true;
  // keepConnecting: ioredis ends a client for good when a connection attempt fails before a socket
  // exists (every sentinel unreachable, or a switch announced mid-attempt): connect it again.
  for (const c of [client, subscriber]) {
    c.on('end', () => {
      if (closed) return;
      setTimeout(() => {
        if (!closed && c.status === 'end') c.connect().catch(() => {});
      }, RECONNECT_AFTER_END_MS).unref();
    });
  }
  client.on('close', () => {
    if (closed || !connected) return;
    connected = false;
    notice(`lost the connection to Redis at ${where}: store calls fail (503) until it is back`);
  });
  client.on('ready', () => {
    if (closed || connected) return;
    connected = true;
    notice(`Redis at ${where} is back`);
  });

  const script = defineScripts(client);

  async function call<T>(what: string, work: () => Promise<T>): Promise<T> {
    if (closed) throw new Error('store is closed');
    try {
      return await work();
    } catch (error) {
      throw new StoreUnavailableError(`Redis did not answer (${what}): ${reasonOf(error)}`);
    }
  }

  /**
   * Sends `write` and `WAIT minReplicas waitMs` in one pipeline: one connection, so WAIT counts
   * the acknowledgements of this very write. `held` is false when fewer replicas acknowledged it.
   */
  async function writeHeld<T>(what: string, write: (pipeline: ChainableCommander) => void) {
    // After a WAIT came back short, look before writing: each WAIT blocks the connection for up
    // to waitMs, and callers retrying 503s would queue them back to back while no replica is there.
    if (short && !(await call(what, replicasReady))) throw unheld(what);
    const pipeline = client.pipeline();
    write(pipeline);
    pipeline.wait(minReplicas, waitMs);
    const results = await call(what, () => pipeline.exec());
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw new StoreUnavailableError(`Redis did not answer (${what}): ${reasonOf(failed?.[0])}`);
    const held = (results.at(-1)![1] as number) >= minReplicas;
    short = !held;
    return { value: results[0]![1] as T, held };
  }
  let short = false;
  /** Enough replicas online and acknowledging (lag ≤ 1 s: they acknowledge every second). */
  async function replicasReady(): Promise<boolean> {
    const info = await client.info('replication');
    const ready = [...info.matchAll(/^slave\d+:.*state=online.*lag=(\d+)/gm)].filter(([, lag]) => Number(lag) <= 1);
    return ready.length >= minReplicas;
  }
  const unheld = (what: string) =>
    new StoreUnavailableError(
      `fewer than ${minReplicas} replica(s) acknowledged ${what} within ${waitMs} ms (SVC_REDIS_MIN_REPLICAS)`,
    );
  /** A write that must be held by the replicas before the caller answers: throws when it is not. */
  async function writeAndWait<T>(what: string, write: (pipeline: ChainableCommander) => void): Promise<T> {
    if (minReplicas === 0) {
      const results = await call(what, () => {
        const pipeline = client.pipeline();
        write(pipeline);
        return pipeline.exec();
      });
      const [error, value] = results?.[0] ?? [new Error('no answer'), null];
      if (error) throw new StoreUnavailableError(`Redis did not answer (${what}): ${reasonOf(error)}`);
      return value as T;
    }
    const { value, held } = await writeHeld<T>(what, write);
    if (!held) throw unheld(what);
    return value;
  }
  /**
   * GETDEL, held by the replicas; when they do not acknowledge it, the value is put back (it was
   * handed to nobody) and the call rejects: the caller's retry finds it again.
   */
  async function takeHeld(what: string, key: string, lifetimeMs: (json: string) => number): Promise<string | null> {
    if (minReplicas === 0) return call(what, () => client.getdel(key));
    const { value, held } = await writeHeld<string | null>(what, (p) => p.getdel(key));
    if (value !== null && !held) {
      await client.set(key, value, 'PX', ttl(lifetimeMs(value)), 'NX').catch(() => {});
      throw unheld(what);
    }
    return value;
  }
  const pipelineScript = (pipeline: ChainableCommander, name: ScriptName, keys: string[], args: (string | number)[]) =>
    (pipeline as unknown as Record<ScriptName, (...a: (string | number)[]) => void>)[name](
      keys.length,
      ...keys,
      ...args,
    );

  // Long-poll wake-ups.
  const waiters = createWaiters();
  let listening = true;

  subscriber.on('message', (_channel: string, message: string) => {
    const space = message.lastIndexOf(' ');
    const set = waiters.byId.get(message.slice(0, space));
    if (!set) return;
    const version = Number(message.slice(space + 1));
    for (const w of [...set]) if (w.sinceVersion !== version) waiters.finish(w);
  });
  // Deaf while the subscriber is down: answer every waiter (its poll re-reads, and meets a 503 if
  // Redis is gone); once it is back, subscribe again and re-check whoever started waiting meanwhile.
  subscriber.on('close', () => {
    if (closed || !listening) return;
    listening = false;
    waiters.finishAll();
  });
  subscriber.on('ready', () => {
    if (closed || listening) return;
    subscriber.subscribe(channel).then(
      () => {
        listening = true;
        for (const set of [...waiters.byId.values()]) for (const w of [...set]) void recheck(w);
      },
      () => {}, // the next reconnection tries again
    );
  });

  async function readVersion(id: string): Promise<number | null> {
    const raw = await client.hget(k.request(id), 'version');
    return raw === null ? null : Number(raw);
  }

  async function recheck(w: Waiter): Promise<void> {
    try {
      if ((await readVersion(w.id)) !== w.sinceVersion) waiters.finish(w);
    } catch {
      waiters.finish(w); // Redis is failing: let the poll re-read and answer 503
    }
  }

  return {
    kind: 'redis',

    async putPartner(p: PartnerRecord) {
      const json = JSON.stringify(withLifecycle(p));
      await call('putPartner', () => client.multi().set(k.partner(p.id), json).sadd(k.partners, p.id).exec());
    },
    async getPartner(id: string) {
      const json = await call('getPartner', () => client.get(k.partner(id)));
      return json === null ? null : toPartner(json);
    },
    async listPartners() {
      const ids = await call('listPartners', () => client.smembers(k.partners));
      if (ids.length === 0) return [];
      const rows = await call('listPartners', () => client.mget(ids.map(k.partner)));
      return rows
        .filter((json): json is string => json !== null)
        .map(toPartner)
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
    async removePartner(id: string) {
      const results = await call('removePartner', () => client.multi().del(k.partner(id)).srem(k.partners, id).exec());
      return results?.[0]?.[1] === 1;
    },

    async putProvider(provider: ProviderRecord) {
      await call('putProvider', () => client.hset(k.providers, provider.id, JSON.stringify(provider)));
    },
    async getProvider(id: string) {
      const json = await call('getProvider', () => client.hget(k.providers, id));
      return json === null ? null : (JSON.parse(json) as ProviderRecord);
    },
    async listProviders() {
      const all = await call('listProviders', () => client.hvals(k.providers));
      return all
        .map((json) => JSON.parse(json) as ProviderRecord)
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
    async removeProvider(id: string) {
      return (await call('removeProvider', () => client.hdel(k.providers, id))) === 1;
    },

    async getOrCreateSecret(name: string, value: string) {
      return (await call('getOrCreateSecret', () => script('getOrCreateSecret', [k.secrets], [name, value]))) as string;
    },
    async listSecrets() {
      const all = await call('listSecrets', () => client.hgetall(k.secrets));
      return Object.fromEntries(Object.entries(all).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    },
    async replaceSecret(name: string, value: string) {
      await call('replaceSecret', () => script('replaceSecret', [k.secrets], [name, value]));
    },

    async rememberNonce(partnerId: string, nonce: string, expiresAt: number, now: number) {
      const key = k.nonce(partnerId, nonce);
      const px = ttl(expiresAt - now);
      if (minReplicas === 0) {
        const set = await call('rememberNonce', () => client.set(key, String(expiresAt), 'PX', px, 'NX'));
        if (set === 'OK') return true;
        return (await call('rememberNonce', () => script('renewNonce', [key], [now, expiresAt, px]))) === 1;
      }
      const set = await writeHeld<string | null>('rememberNonce', (p) => p.set(key, String(expiresAt), 'PX', px, 'NX'));
      if (set.value === 'OK' && !set.held) throw unheld('rememberNonce');
      if (set.value === 'OK') return true;
      const renewed = await writeHeld<number>('rememberNonce', (p) =>
        pipelineScript(p, 'renewNonce', [key], [now, expiresAt, px]),
      );
      if (renewed.value === 1 && !renewed.held) throw unheld('rememberNonce');
      return renewed.value === 1;
    },

    async hitCounter(key: string, windowMs: number, now: number): Promise<CounterHit> {
      const [count, resetAt] = (await call('hitCounter', () =>
        script('hitCounter', [k.counter(key)], [now, now + windowMs, ttl(windowMs)]),
      )) as [number, string];
      return { count, resetAt: Number(resetAt) };
    },

    async holdSlot(key: string, slotId: string, cap: number, expiresAt: number, now: number) {
      const args = [now, cap, slotId, expiresAt, ttl(expiresAt - now)];
      return (await call('holdSlot', () => script('holdSlot', [k.slots(key)], args))) === 1;
    },
    async releaseSlot(key: string, slotId: string) {
      await call('releaseSlot', () => client.zrem(k.slots(key), slotId));
    },

    async createRequest(record: VerifyRequestRecord) {
      const created = await call('createRequest', () =>
        script(
          'createRequest',
          [k.request(record.id)],
          [
            ttl(record.expiresAt - record.createdAt),
            channel,
            `${record.id} ${record.version}`,
            ...requestFields(record),
          ],
        ),
      );
      if (created !== 1) throw new Error(`request ${record.id} already exists`);
    },
    async getRequest(id: string, now: number) {
      const flat = await call('getRequest', () => client.hgetall(k.request(id)));
      if (Object.keys(flat).length === 0) return null;
      const record = toRequest(Object.entries(flat));
      return record.expiresAt > now ? record : null;
    },
    async updateRequest(id: string, expectedVersion: number, patch: VerifyRequestPatch) {
      const next = expectedVersion + 1;
      const args = [expectedVersion, next, patch.expiresAt ?? '', channel, `${id} ${next}`, ...requestFields(patch)];
      if (minReplicas > 0 && patch.status !== undefined) {
        // A status change is what the phone, the widget and the partner act on: held, or not answered.
        const { value, held } = await writeHeld<string[] | null>('updateRequest', (p) =>
          pipelineScript(p, 'updateRequest', [k.request(id)], args),
        );
        if (value !== null && !held) throw unheld('updateRequest');
        return value === null ? null : toRequest(pairs(value));
      }
      const flat = await call('updateRequest', () => script('updateRequest', [k.request(id)], args));
      return flat === null ? null : toRequest(pairs(flat as string[]));
    },
    waitForRequestChange(id: string, sinceVersion: number, timeoutMs: number, signal?: AbortSignal) {
      return new Promise<void>((resolve) => {
        if (closed || signal?.aborted) return resolve();
        const w: Waiter = {
          id,
          sinceVersion,
          deadline: Date.now() + Math.max(0, timeoutMs),
          done: false,
          resolve,
          signal,
          onAbort: () => waiters.finish(w),
        };
        waiters.add(w);
        // Registered first, read second: a change between the caller's read and now is not missed.
        // While Redis is down the read fails and the waiter is answered at once (its poll meets a 503).
        void recheck(w);
      });
    },

    async putGrant(grant: GrantRecord) {
      const px = ttl(grant.expiresAt - grant.verifiedAt);
      await call('putGrant', () => client.set(k.grant(grant.digest), JSON.stringify(grant), 'PX', px));
    },
    async consumeGrant(digest: string, now: number) {
      const json = await takeHeld(
        'consumeGrant',
        k.grant(digest),
        (value) => (JSON.parse(value) as GrantRecord).expiresAt - now,
      );
      if (json === null) return null;
      const grant = JSON.parse(json) as GrantRecord;
      return grant.expiresAt > now ? grant : null;
    },

    async putExchangeReplay(record: ExchangeReplayRecord, now: number) {
      const json = JSON.stringify(record);
      const key = k.replay(record.partnerId, record.idempotencyKey);
      const args = [now, record.expiresAt, json, ttl(record.expiresAt - now)];
      const stored = await writeAndWait<string>('putExchangeReplay', (p) =>
        pipelineScript(p, 'putReplay', [key], args),
      );
      return JSON.parse(stored) as ExchangeReplayRecord;
    },
    async getExchangeReplay(partnerId: string, idempotencyKey: string, now: number) {
      const [expiresAt, json] = await call('getExchangeReplay', () =>
        client.hmget(k.replay(partnerId, idempotencyKey), 'e', 'd'),
      );
      if (expiresAt == null || json == null || Number(expiresAt) <= now) return null;
      return JSON.parse(json) as ExchangeReplayRecord;
    },

    async putPassToken(token: PassTokenRecord) {
      const px = ttl(token.expiresAt - token.issuedAt);
      await writeAndWait('putPassToken', (p) => p.set(k.pass(token.digest), JSON.stringify(token), 'PX', px));
    },
    async getPassToken(digest: string, now: number) {
      const json = await call('getPassToken', () => client.get(k.pass(digest)));
      if (json === null) return null;
      const token = JSON.parse(json) as PassTokenRecord;
      return token.expiresAt > now ? token : null;
    },

    async putLoginState(state: LoginStateRecord, now: number) {
      const px = ttl(state.expiresAt - now);
      await call('putLoginState', () => client.set(k.login(state.digest), JSON.stringify(state), 'PX', px));
    },
    async takeLoginState(digest: string, now: number) {
      const json = await takeHeld(
        'takeLoginState',
        k.login(digest),
        (value) => (JSON.parse(value) as LoginStateRecord).expiresAt - now,
      );
      if (json === null) return null;
      const state = JSON.parse(json) as LoginStateRecord;
      return state.expiresAt > now ? state : null;
    },

    async listKeys(purpose: KeyPurpose) {
      const all = await call('listKeys', () => client.hvals(k.keys));
      return all
        .map((json) => JSON.parse(json) as SigningKeyRecord)
        .filter((key) => key.purpose === purpose)
        .sort((a, b) => a.createdAt - b.createdAt || (a.kid < b.kid ? -1 : a.kid > b.kid ? 1 : 0));
    },
    async putKey(key: SigningKeyRecord) {
      await call('putKey', () => client.hset(k.keys, key.kid, JSON.stringify(key)));
    },
    async updateKeys(changes: { put?: SigningKeyRecord[]; drop?: string[] }) {
      const put = changes.put ?? [];
      const drop = changes.drop ?? [];
      if (put.length === 0 && drop.length === 0) return;
      const tx = client.multi();
      if (put.length > 0) tx.hset(k.keys, ...put.flatMap((key) => [key.kid, JSON.stringify(key)]));
      if (drop.length > 0) tx.hdel(k.keys, ...drop);
      await call('updateKeys', () => tx.exec());
    },

    async sweep() {
      return 0; // every expiring key carries its TTL
    },
    async close() {
      if (closed) return;
      closed = true;
      waiters.finishAll();
      // disconnect() after quit() also closes the failover detector's sentinel connections
      await Promise.all([client, subscriber].map((c) => c.quit().catch(() => {})));
      for (const c of [client, subscriber]) c.disconnect();
    },
  };
}

/**
 * With SVC_REDIS_MIN_REPLICAS ≥ 1, refuses a primary with fewer replicas: every single-use write
 * would answer 503. Through Sentinel, says when a failover may lose acknowledged writes: none
 * waited for, or fewer than the replicas (the one promoted may not be one that acknowledged).
 */
async function checkReplicas(
  client: Redis,
  where: string,
  minReplicas: number,
  sentinel: boolean,
  notice: (line: string) => void,
): Promise<void> {
  if (minReplicas === 0) {
    if (sentinel)
      notice(
        `Redis through Sentinel with SVC_REDIS_MIN_REPLICAS=0: a failover may lose the last single-use writes ` +
          '(a grant could be exchanged twice); set it to 1 (see the operations doc)',
      );
    return;
  }
  const connected = Number(/^connected_slaves:(\d+)/m.exec(await client.info('replication'))?.[1] ?? 0);
  if (connected < minReplicas) {
    throw new ConfigError(
      `Redis at ${where} has ${connected} connected replica(s) and SVC_REDIS_MIN_REPLICAS is ${minReplicas}: ` +
        'every single-use write waits for that many; start the replicas or lower it',
    );
  }
  if (sentinel && connected > minReplicas) {
    notice(
      `Redis at ${where} has ${connected} replicas and SVC_REDIS_MIN_REPLICAS is ${minReplicas}: Sentinel may promote ` +
        'a replica that did not acknowledge the last writes; set it to the number of replicas (see the operations doc)',
    );
  }
}

/**
 * Refuses a Redis older than 6.2 (no GETDEL) or one that may evict keys: an evicted nonce is a
 * replay let through. Says so when it cannot tell (CONFIG renamed away or denied), and when Redis
 * keeps nothing on disk.
 */
async function checkServer(client: Redis, where: string, notice: (line: string) => void): Promise<void> {
  const version = /^redis_version:(\d+)\.(\d+)/m.exec(await client.info('server'));
  if (version && Number(version[1]) * 100 + Number(version[2]) < 602) {
    throw new ConfigError(
      `Redis at ${where} is version ${version[1]}.${version[2]}; the service needs Redis 6.2 or later`,
    );
  }
  let config: Record<string, string>;
  try {
    const flat = (await client.config('GET', 'maxmemory-policy')) as string[];
    flat.push(...((await client.config('GET', 'appendonly')) as string[]));
    config = Object.fromEntries(pairs(flat));
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'ReplyError') throw error;
    notice(
      `cannot read maxmemory-policy of Redis at ${where} (${reasonOf(error)}): CONFIG looks disabled, ` +
        'so the check is skipped; it must be noeviction',
    );
    return;
  }
  const policy = config['maxmemory-policy'];
  if (policy === undefined) {
    notice(`Redis at ${where} reports no maxmemory-policy, so the check is skipped; it must be noeviction`);
  } else if (policy !== 'noeviction') {
    throw new ConfigError(
      `Redis at ${where} has maxmemory-policy ${policy}, which evicts keys (an evicted nonce is a replay let through); ` +
        'set it to noeviction',
    );
  }
  if (config.appendonly === 'no') {
    notice(
      `Redis at ${where} runs with appendonly no: what it acknowledged is lost if it restarts (see the operations doc)`,
    );
  }
}
