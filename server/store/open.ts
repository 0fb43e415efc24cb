/**
 * Opens the store the configuration names. Outside store/ nothing knows the implementations:
 * each is a file here with its run of store.contract.ts, and a branch below. Async, as opening a
 * store on a server is (redis.ts, not chosen here yet).
 */
import { join } from 'node:path';
import { ConfigError, type Config } from '../config.ts';
import { openSqliteStore } from './sqlite.ts';
import type { Store } from './store.ts';

/**
 * SQLite in `dataDir` unless SVC_REDIS_URL is set.
 *
 * @example const store = await openConfiguredStore(loadConfig())
 */
export async function openConfiguredStore(config: Pick<Config, 'redisUrl' | 'dataDir'>): Promise<Store> {
  if (config.redisUrl)
    throw new ConfigError('SVC_REDIS_URL is set but the Redis store is not built yet; unset it to use SQLite');
  return openSqliteStore(join(config.dataDir, 'svc.sqlite'));
}
