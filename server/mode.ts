/**
 * Mode is a property of the store (design.md §1): the first boot or CLI command on a data folder
 * records the mode it ran in, and every later one must agree. This closes two bypasses:
 * a sandbox folder (public fixture secrets, sandbox-made keys) opened in production, and a
 * production folder restarted without SVC_MODE booting as sandbox, with the sandbox phone API
 * that completes any request.
 */
import { checkProductionConfig, type Config, type Mode } from './config.ts';
import { ConfigError } from './errors.ts';
import type { Store } from './store/store.ts';

/** The store's meta record that holds the mode it was created in. */
const MODE_RECORD = 'store_mode';
/** Partner IDs of sandbox partners (fixtures, `svc partners add` in sandbox). */
const SANDBOX_PARTNER_PREFIX = 'pk_test_';

function isMode(value: string): value is Mode {
  return value === 'sandbox' || value === 'production';
}

/**
 * Records the mode on a new store, or checks it on an existing one; resolves to the config the
 * process must run with. Throws ConfigError with one line when the two disagree.
 *
 * - SVC_MODE set and different from the store's mode: refused.
 * - SVC_MODE unset: the store's mode wins (a production store boots as production, or refuses
 *   when production's environment is missing), never the sandbox default.
 * - Production refuses a store that holds sandbox partners (`pk_test_…`), e.g. a folder made
 *   before the mode was recorded.
 *
 * @example const config = await claimStoreMode(store, loadConfig());
 */
export async function claimStoreMode(store: Store, config: Config): Promise<Config> {
  const where = config.redisUrl || config.redisSentinels ? 'the Redis store' : `the data folder ${config.dataDir}`;
  // Checked before the mode is recorded, so that a refusal leaves the store as it was.
  if (config.mode === 'production') await refuseSandboxPartners(store, where);
  // A store without the record gets the mode this process runs in; it is never changed after.
  const stored = await store.getOrCreateSecret(MODE_RECORD, config.mode);
  if (!isMode(stored))
    throw new ConfigError(`${where} records an unknown mode "${stored}"; it was not made by this service`);

  let resolved = config;
  if (stored !== config.mode) {
    if (config.modeFromEnv) {
      throw new ConfigError(
        `${where} was made in ${stored} mode and cannot be opened with SVC_MODE=${config.mode}; ` +
          `use another SVC_DATA_DIR (sandbox and production data never mix)`,
      );
    }
    try {
      checkProductionConfig(config);
    } catch (cause) {
      throw new ConfigError(`${where} was made in production mode (SVC_MODE is unset): ${(cause as Error).message}`);
    }
    resolved = Object.freeze({ ...config, mode: stored });
    await refuseSandboxPartners(store, where);
  }
  return resolved;
}

async function refuseSandboxPartners(store: Store, where: string): Promise<void> {
  const sandboxPartner = (await store.listPartners()).find((partner) => partner.id.startsWith(SANDBOX_PARTNER_PREFIX));
  if (sandboxPartner) {
    throw new ConfigError(
      `${where} holds sandbox data (partner ${sandboxPartner.id}) and cannot be opened in production mode; ` +
        `use another SVC_DATA_DIR (sandbox and production data never mix)`,
    );
  }
}
