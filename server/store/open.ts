/**
 * Opens the store the configuration names. Outside store/ nothing knows the implementations:
 * a second one (Redis, next) is a file beside sqlite.ts, a branch here, and a run of
 * store.contract.ts against it.
 */
import { join } from 'node:path';
import { ConfigError, type Config } from '../config.ts';
import { openSqliteStore } from './sqlite.ts';
import type { Store } from './store.ts';

/**
 * SQLite in `dataDir` unless SVC_REDIS_URL is set.
 *
 * @example const store = openConfiguredStore(loadConfig())
 */
export function openConfiguredStore(config: Pick<Config, 'redisUrl' | 'dataDir'>): Store {
  if (config.redisUrl)
    throw new ConfigError('SVC_REDIS_URL is set but the Redis store is not built yet; unset it to use SQLite');
  return openSqliteStore(join(config.dataDir, 'svc.sqlite'));
}
