/** What the Redis store checks of the server it opens, and how it names it in messages. */
import type { Redis } from 'ioredis';
import { ConfigError } from '../../errors.ts';

/** Where the store is, without credentials, for messages. */
export function describeRedis(options: {
  url?: string;
  sentinels?: { hosts: readonly { host: string; port: number }[]; masterName: string };
}): string {
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

/** An error's message, cut to 200 characters, for a message that names what failed. */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}

/** `[k1, v1, k2, v2]` → `[[k1, v1], [k2, v2]]`, as Redis answers hashes and CONFIG GET. */
export function pairs(flat: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
}

/**
 * With SVC_REDIS_MIN_REPLICAS ≥ 1, refuses a primary with fewer replicas: every single-use write
 * would answer 503. Through Sentinel, says when a failover may lose acknowledged writes: none
 * waited for, or fewer than the replicas (the one promoted may not be one that acknowledged).
 */
export async function checkReplicas(
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

/** The server's maxmemory-policy and appendonly settings, or null when CONFIG is disabled. */
async function readConfig(client: Redis, where: string, notice: (line: string) => void) {
  try {
    const flat = (await client.config('GET', 'maxmemory-policy')) as string[];
    flat.push(...((await client.config('GET', 'appendonly')) as string[]));
    return Object.fromEntries(pairs(flat));
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'ReplyError') throw error;
    notice(
      `cannot read maxmemory-policy of Redis at ${where} (${reasonOf(error)}): CONFIG looks disabled, ` +
        'so the check is skipped; it must be noeviction',
    );
    return null;
  }
}

/**
 * Refuses a Redis older than 6.2 (no GETDEL) or one that may evict keys: an evicted nonce is a
 * replay let through. Says so when it cannot tell (CONFIG renamed away or denied), and when Redis
 * keeps nothing on disk.
 */
export async function checkServer(client: Redis, where: string, notice: (line: string) => void): Promise<void> {
  const version = /^redis_version:(\d+)\.(\d+)/m.exec(await client.info('server'));
  if (version && Number(version[1]) * 100 + Number(version[2]) < 602) {
    throw new ConfigError(
      `Redis at ${where} is version ${version[1]}.${version[2]}; the service needs Redis 6.2 or later`,
    );
  }
  const config = await readConfig(client, where, notice);
  if (!config) return;
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
