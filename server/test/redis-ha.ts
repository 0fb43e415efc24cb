/**
 * A throwaway Redis with Sentinel for tests and benches (design.md §17): a primary, its replicas
 * and three sentinels, each a real `redis-server` (redis-server.ts) on a free loopback port.
 * Detection is tuned down (down-after 400 ms) so that a failover takes a second or two, not thirty.
 *
 * @example
 * const ha = await startRedisHa();
 * afterAll(() => ha.remove());
 * const store = await openRedisStore({ sentinels: ha.sentinels, minReplicas: 1 });
 */
import { Redis } from 'ioredis';
import { startRedisServer, type RedisServer } from './redis-server.ts';

export interface RedisHaOptions {
  /** replicas of the first primary; default 1 */
  replicas?: number;
  /** sentinel down-after-milliseconds; default 400 */
  downAfterMs?: number;
  /** sentinel failover-timeout; default 2000 */
  failoverTimeoutMs?: number;
}

export interface RedisHa {
  readonly masterName: string;
  /** what openRedisStore's `sentinels` takes */
  readonly sentinels: { hosts: { host: string; port: number }[]; masterName: string };
  /** every data node, the first primary first */
  readonly nodes: RedisServer[];
  readonly sentinelServers: RedisServer[];
  /** the node the sentinels name primary now */
  primary(): Promise<RedisServer>;
  /**
   * Resolves with the new primary once the sentinels name one other than `old` and it answers
   * as a primary; rejects after `withinMs`.
   */
  waitForSwitch(old: RedisServer, withinMs?: number): Promise<RedisServer>;
  /** starts a killed node again as a replica of the current primary, as its supervisor would */
  rejoin(node: RedisServer): Promise<void>;
  /** `SENTINEL FAILOVER`: a planned switch to a replica */
  failover(): Promise<void>;
  remove(): Promise<void>;
}

async function ask<T>(port: number, ...command: [string, ...(string | number)[]]): Promise<T> {
  const client = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.call(...command)) as T;
  } finally {
    client.disconnect();
  }
}

async function until(what: string, withinMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`redis-ha: ${what} within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A replica that joins is synced at once, not after the 5 s Redis waits by default for others to join. */
const NODE_ARGS = ['--repl-diskless-sync-delay', '0'];

const infoField = (info: string, name: string) => new RegExp(`^${name}:(.*)\\r?$`, 'm').exec(info)?.[1]?.trim();

/**
 * Starts a primary, `replicas` replicas and three sentinels (quorum 2), and resolves once the
 * sentinels know each other and the replicas, so that a failover can be elected at once.
 */
export async function startRedisHa(options: RedisHaOptions = {}): Promise<RedisHa> {
  const masterName = 'svc-ha';
  const started: RedisServer[] = [];
  try {
    const first = await startRedisServer({ args: NODE_ARGS });
    started.push(first);
    const nodes = [first];
    for (let i = 0; i < (options.replicas ?? 1); i++) {
      const replica = await startRedisServer({ args: [...NODE_ARGS, '--replicaof', '127.0.0.1', String(first.port)] });
      started.push(replica);
      nodes.push(replica);
    }
    await until('the replicas did not connect', 10_000, async () => {
      const info = await ask<string>(first.port, 'INFO', 'replication');
      return Number(infoField(info, 'connected_slaves')) === nodes.length - 1;
    });
    const sentinelServers: RedisServer[] = [];
    for (let i = 0; i < 3; i++) {
      const sentinel = await startRedisServer({
        sentinel: [
          `sentinel monitor ${masterName} 127.0.0.1 ${first.port} 2`,
          `sentinel down-after-milliseconds ${masterName} ${options.downAfterMs ?? 400}`,
          `sentinel failover-timeout ${masterName} ${options.failoverTimeoutMs ?? 2_000}`,
          `sentinel parallel-syncs ${masterName} 1`,
        ],
      });
      started.push(sentinel);
      sentinelServers.push(sentinel);
    }
    await until('the sentinels did not find each other and the replicas', 15_000, async () => {
      for (const sentinel of sentinelServers) {
        const peers = await ask<unknown[]>(sentinel.port, 'SENTINEL', 'SENTINELS', masterName);
        const replicas = await ask<unknown[]>(sentinel.port, 'SENTINEL', 'REPLICAS', masterName);
        if (peers.length !== 2 || replicas.length !== nodes.length - 1) return false;
      }
      return true;
    });

    const byPort = (port: number) => nodes.find((node) => node.port === port);
    async function primary(): Promise<RedisServer> {
      for (const sentinel of sentinelServers) {
        const answer = await ask<[string, string] | null>(
          sentinel.port,
          'SENTINEL',
          'GET-MASTER-ADDR-BY-NAME',
          masterName,
        ).catch(() => null);
        const node = answer && byPort(Number(answer[1]));
        if (node) return node;
      }
      throw new Error('redis-ha: no sentinel names a primary');
    }

    return {
      masterName,
      sentinels: { hosts: sentinelServers.map(({ port }) => ({ host: '127.0.0.1', port })), masterName },
      nodes,
      sentinelServers,
      primary,
      async waitForSwitch(old, withinMs = 15_000) {
        let next: RedisServer | undefined;
        await until('no new primary was named', withinMs, async () => {
          const named = await primary();
          if (named === old) return false;
          const role = infoField(await ask<string>(named.port, 'INFO', 'replication'), 'role');
          next = named;
          return role === 'master';
        });
        return next!;
      },
      async rejoin(node) {
        const current = await primary();
        await node.start();
        await ask(node.port, 'REPLICAOF', '127.0.0.1', current.port);
      },
      async failover() {
        await ask(sentinelServers[0]!.port, 'SENTINEL', 'FAILOVER', masterName);
      },
      async remove() {
        await Promise.all(started.map((server) => server.remove()));
      },
    };
  } catch (error) {
    await Promise.all(started.map((server) => server.remove()));
    throw error;
  }
}
