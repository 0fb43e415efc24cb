/**
 * Opens the store the configuration names. Outside store/ nothing knows the implementations:
 * each is a file here with its run of store.contract.ts, and a branch below. Async, as opening a
 * store on a server is.
 */
import { join } from 'node:path';
import { openRedisStore } from './redis.ts';
import { openSqliteStore } from './sqlite.ts';
import type { Store } from './store.ts';

/** Where the store lives, as the configuration says it (config.ts reads the variables). */
export interface StoreLocation {
  /** SVC_DATA_DIR: the SQLite file's folder */
  dataDir: string;
  /** SVC_REDIS_URL; null: SQLite, unless Sentinel is set */
  redisUrl: string | null;
  redisPrefix: string;
  /** SVC_REDIS_SENTINELS and SVC_REDIS_MASTER_NAME (design.md §17): both or neither */
  redisSentinels?: readonly { host: string; port: number }[] | null;
  redisMasterName?: string | null;
  /** SVC_REDIS_MIN_REPLICAS and SVC_REDIS_WAIT_MS (design.md §17) */
  redisMinReplicas?: number;
  redisWaitMs?: number;
}

export interface OpenStoreOptions {
  /**
   * One line for the operator from a store on a server (connection lost or back, a check
   * skipped); the service sends it to its log. Default: stderr.
   */
  notice?: (line: string) => void;
}

/**
 * Redis when SVC_REDIS_URL (design.md §10) or SVC_REDIS_SENTINELS (§17) is set, SQLite in
 * `dataDir` otherwise. The Redis store
 * rejects with ConfigError when Redis is set up wrongly (an evicting maxmemory-policy, a version
 * below 6.2) and with StoreUnavailableError when it cannot be reached.
 *
 * @example const store = await openConfiguredStore(loadConfig())
 */
export async function openConfiguredStore(config: StoreLocation, options: OpenStoreOptions = {}): Promise<Store> {
  if (config.redisUrl || config.redisSentinels) {
    return openRedisStore({
      ...(config.redisSentinels
        ? { sentinels: { hosts: config.redisSentinels, masterName: config.redisMasterName! } }
        : { url: config.redisUrl! }),
      prefix: config.redisPrefix,
      minReplicas: config.redisMinReplicas,
      waitMs: config.redisWaitMs,
      notice: options.notice,
    });
  }
  return openSqliteStore(join(config.dataDir, 'svc.sqlite'));
}

/** `svc store backup` / `restore` on SQLite (docs/operations.md#backups-and-restores). */
export { backupSqliteStore, restoreSqliteStore } from './sqlite.ts';
