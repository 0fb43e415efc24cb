/**
 * The Redis connections every part of the store shares (redis.ts assembles them): one client for
 * every store call and one subscriber for request-change messages, failing closed, reconnecting by
 * themselves; and the helpers the parts write their methods with.
 */
import { Redis, type ChainableCommander, type RedisOptions } from 'ioredis';
import { ConfigError } from '../../errors.ts';
import { StoreUnavailableError } from '../store.ts';
import { checkReplicas, checkServer, describeRedis, reasonOf } from './checks.ts';
import { replicatedWrites } from './replicated.ts';

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

type Args = (string | number)[];

/** Runs a part's Lua scripts by name: on the client, or queued in a pipeline (EVALSHA, falling back to EVAL after a restart). */
export interface Scripts<Name extends string> {
  run(name: Name, keys: string[], args: Args): Promise<unknown>;
  inPipeline(pipeline: ChainableCommander, name: Name, keys: string[], args: Args): void;
}

/** Defines `lua` on the client; no numberOfKeys: each call passes its key count first. */
function defineScripts<Name extends string>(client: Redis, lua: Record<Name, string>): Scripts<Name> {
  for (const [name, source] of Object.entries<string>(lua)) client.defineCommand(name, { lua: source });
  type Commands = Record<Name, (...args: Args) => Promise<unknown>>;
  return {
    run: (name, keys, args) => (client as unknown as Commands)[name](keys.length, ...keys, ...args),
    inPipeline: (pipeline, name, keys, args) =>
      void (pipeline as unknown as Commands)[name](keys.length, ...keys, ...args),
  };
}

function createClients(options: RedisStoreOptions): { client: Redis; subscriber: Redis } {
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
  client.on('error', () => {}); // every failure surfaces through the call that met it
  subscriber.on('error', () => {});
  return { client, subscriber };
}

/** Connects both clients, checks the server, subscribes to `channel`; rejects as openRedisStore says. */
async function connectClients(
  { client, subscriber }: { client: Redis; subscriber: Redis },
  options: RedisStoreOptions,
  channel: string,
  where: string,
  notice: (line: string) => void,
): Promise<void> {
  const fail = (error: unknown) => {
    client.disconnect();
    subscriber.disconnect();
    if (error instanceof ConfigError) return error;
    return new StoreUnavailableError(`cannot reach Redis at ${where}: ${reasonOf(error)}`);
  };
  try {
    await client.connect();
  } catch (error) {
    throw fail(error);
  }
  try {
    await checkServer(client, where, notice);
    await checkReplicas(client, where, options.minReplicas ?? 0, Boolean(options.sentinels), notice);
    await subscriber.connect();
    await subscriber.subscribe(channel);
  } catch (error) {
    throw fail(error);
  }
}

/** Says when the client loses Redis and when it is back; connects a client ioredis ended again. */
function watchConnection(
  client: Redis,
  subscriber: Redis,
  where: string,
  notice: (line: string) => void,
  isClosed: () => boolean,
) {
  let connected = true;
  // keepConnecting: ioredis ends a client for good when a connection attempt fails before a socket
  // exists (every sentinel unreachable, or a switch announced mid-attempt): connect it again.
  for (const c of [client, subscriber]) {
    c.on('end', () => {
      if (isClosed()) return;
      setTimeout(() => {
        if (!isClosed() && c.status === 'end') c.connect().catch(() => {});
      }, RECONNECT_AFTER_END_MS).unref();
    });
  }
  client.on('close', () => {
    if (isClosed() || !connected) return;
    connected = false;
    notice(`lost the connection to Redis at ${where}: store calls fail (503) until it is back`);
  });
  client.on('ready', () => {
    if (isClosed() || connected) return;
    connected = true;
    notice(`Redis at ${where} is back`);
  });
}

export type RedisConnection = Awaited<ReturnType<typeof connectRedis>>;

/**
 * Connects to the Redis `options` name: rejects with StoreUnavailableError when it cannot be
 * reached, ConfigError when it is set up to evict or lacks the replicas SVC_REDIS_MIN_REPLICAS asks.
 */
export async function connectRedis(options: RedisStoreOptions) {
  const prefix = options.prefix ?? 'svc:';
  const notice = options.notice ?? ((line: string) => console.warn(`svc: ${line}`));
  const where = describeRedis(options);
  const channel = `${prefix}request-changes`;
  const { client, subscriber } = createClients(options);
  await connectClients({ client, subscriber }, options, channel, where, notice);
  let closed = false;
  const onClose: (() => void)[] = [];
  watchConnection(client, subscriber, where, notice, () => closed);

  async function call<T>(what: string, work: () => Promise<T>): Promise<T> {
    if (closed) throw new Error('store is closed');
    try {
      return await work();
    } catch (error) {
      throw new StoreUnavailableError(`Redis did not answer (${what}): ${reasonOf(error)}`);
    }
  }
  const minReplicas = options.minReplicas ?? 0;
  return {
    client,
    subscriber,
    prefix,
    channel,
    minReplicas,
    isClosed: () => closed,
    call,
    /** defines a part's Lua scripts on the client, by name */
    scripts: <Name extends string>(lua: Record<Name, string>) => defineScripts(client, lua),
    ...replicatedWrites(client, call, minReplicas, options.waitMs ?? 250),
    /** `hook` runs when the store closes, before the connections go */
    onClose: (hook: () => void) => void onClose.push(hook),
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      for (const hook of onClose) hook();
      // disconnect() after quit() also closes the failover detector's sentinel connections
      await Promise.all([client, subscriber].map((c) => c.quit().catch(() => {})));
      for (const c of [client, subscriber]) c.disconnect();
    },
  };
}
