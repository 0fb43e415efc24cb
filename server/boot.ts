/**
 * Builds the dependencies from a Config: the store, fixtures (sandbox only), keys.
 * Used by main.ts, the CLI and tests that want the real thing on a temporary directory.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from './clock.ts';
import { systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { ConfigError } from './errors.ts';
import { createBlindCrypto } from './crypto/blind.ts';
import { loadKeyring, type Keyring } from './crypto/master-key.ts';
import { loadResultReaderKeys } from './crypto/result-reader.ts';
import type { AppDeps } from './deps.ts';
import { loadPartnerFixtures, loadProviderFixtures, refuseInsecurePartners } from './domain/index.ts';
import { createLongPollGate } from './limits/long-polls.ts';
import { claimStoreMode } from './mode.ts';
import { createRelyingParty } from './providers/relying-party.ts';
import { openConfiguredStore, type OpenStoreOptions } from './store/open.ts';
import { RESTORED_AT, restoredStore } from './store/restored.ts';
import { resealStore, sealedKeyIds, sealedStore } from './store/sealed.ts';
import type { Store } from './store/store.ts';
import type { ScrapeReadings } from './telemetry/metrics.ts';
import { loadAccessCertificate, createStatusChecker, createStatusFetcher, loadWalletTrust } from './wallet/index.ts';

export function openStore(config: Config, options: OpenStoreOptions = {}): Promise<Store> {
  return openConfiguredStore(config, options);
}

export interface ServiceStore {
  /** the config the process runs with: its mode is the store's (server/mode.ts) */
  config: Config;
  /** the store, sealing secrets at rest under the master key */
  store: Store;
  /** for `svc master-key` only: the keyring and the store beneath the sealing */
  sealing: { keyring: Keyring; inner: Store };
}

/**
 * Opens the store as the service and the CLI both must: claims its mode, then wraps it so that
 * secrets are sealed at rest. Stops with one line when the master key cannot open what the store
 * holds; values stored plain (a store made before sealing) are sealed on the way.
 *
 * @example const { config, store } = await openServiceStore(loadConfig())
 */
export async function openServiceStore(
  requested: Config,
  options: { store?: Store; keyring?: Keyring } & OpenStoreOptions = {},
): Promise<ServiceStore> {
  const raw = options.store ?? (await openStore(requested, { notice: options.notice }));
  try {
    const config = await claimStoreMode(raw, requested);
    const keyring = options.keyring ?? loadKeyring(config);
    const counts = await sealedKeyIds(raw, keyring);
    const unknown = Object.keys(counts).find((id) => id !== 'plain' && !keyring.ids.includes(id));
    if (unknown) {
      throw new ConfigError(
        `the store holds secrets sealed with master key ${unknown}, which this process cannot open ` +
          `(SVC_MASTER_KEY is ${keyring.currentId}); set the key that sealed them, or the old one in SVC_MASTER_KEY_PREVIOUS`,
      );
    }
    if (counts.plain) await resealStore(raw, keyring, { plainOnly: true });
    return { config, store: sealedStore(raw, keyring), sealing: { keyring, inner: raw } };
  } catch (error) {
    if (!options.store) await raw.close();
    throw error;
  }
}

/**
 * The status lists a sandbox serves itself (`/sandbox/status/1` beside each of its base URLs, which
 * its credentials and `svc wallet present` point to); none in production.
 */
async function ownStatusLists(config: Config): Promise<string[]> {
  if (config.mode !== 'sandbox') return [];
  const { SANDBOX_STATUS_LIST_PATH } = await import('./sandbox/wallet/sandbox-status-list.ts');
  return [...new Set([config.publicUrl, config.apiUrl, config.appUrl])].map((base) => base + SANDBOX_STATUS_LIST_PATH);
}

/** @example const deps = await buildDeps(loadConfig()) */
export async function buildDeps(
  requested: Config,
  options: { store?: Store; clock?: Clock; keyring?: Keyring } & OpenStoreOptions = {},
): Promise<AppDeps> {
  const clock = options.clock ?? systemClock;
  const { config, store } = await openServiceStore(requested, options);
  if (config.mode === 'sandbox') {
    for (const partner of loadPartnerFixtures(config.fixturesPath, clock.now())) await store.putPartner(partner);
    for (const provider of loadProviderFixtures(config.providerFixturesPath, clock.now()))
      await store.putProvider(provider);
  } else {
    const partners = await store.listPartners();
    if (partners.length === 0) {
      throw new ConfigError(
        'SVC_MODE=production found no partners in the store; add one with `svc partners add` first',
      );
    }
    refuseInsecurePartners(partners);
  }
  const nullifierKey = config.nullifierKey
    ? Buffer.from(config.nullifierKey, 'base64')
    : Buffer.from(await store.getOrCreateSecret('nullifier_key', randomBytes(32).toString('base64')), 'base64');
  const resultReader = await loadResultReaderKeys(store, { legacySecret: nullifierKey });
  // design.md §23: after `svc store restore`, nothing single-use from before it is spendable (store/restored.ts).
  const restoredAt = Number((await store.listSecrets())[RESTORED_AT] ?? 0) || 0;
  const blind = await createBlindCrypto(store, clock, config);
  const longPolls = createLongPollGate(
    { perAddress: config.longPollPerAddress, total: config.longPollMax },
    { store, clock },
  );
  const trust = loadWalletTrust({
    mode: config.mode,
    trustPath: config.walletTrustPath ?? undefined,
    allowTestRoots: config.walletTrustAllowTest,
  });
  const notice = options.notice ?? ((line: string) => console.warn(`svc: ${line}`));
  const wallet = {
    trust,
    sealingSecret: await store.getOrCreateSecret('wallet_material_key', randomBytes(32).toString('base64')),
    // design.md §15: https from public addresses only; a sandbox also reaches its own list, on
    // loopback if it runs there, and no other loopback URI (createStatusFetcher).
    status: createStatusChecker({
      policy: config.walletStatus,
      anchors: trust.anchors.map((anchor) => anchor.certificate),
      refusedKeys: trust.refusedKeys,
      fetch: createStatusFetcher({ ownLists: await ownStatusLists(config) }),
      clock: () => clock.now(),
      log: notice,
    }),
    access: await loadAccessCertificate(config, store, clock.now()),
  };
  const relyingParty = createRelyingParty({ maxAgeSeconds: config.providerMaxAgeSeconds, clock });
  return {
    config,
    store: restoredAt > 0 ? restoredStore(store, restoredAt) : store,
    clock,
    nullifierKey,
    resultReader,
    blind,
    longPolls,
    wallet,
    relyingParty,
    restoredAt,
  };
}

/** A scrape's store read (svc_store_up) waits this long, as /readyz does. */
const STORE_UP_WITHIN_MS = 1_000;
const KEY_PURPOSES = ['attestation', 'session', 'private-attestation'] as const;

/** True when `read` settles well within `ms`. */
async function answersWithin(read: () => Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([read().then(() => true as const), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What the operator gauges read at each scrape (docs/operations.md "Alerts").
 *
 * @example createTelemetry({ metrics: { processMetrics: true, readings: scrapeReadings(deps) } })
 */
export function scrapeReadings(built: Pick<AppDeps, 'store' | 'config' | 'wallet'>): ScrapeReadings {
  const { store, config, wallet } = built;
  return {
    storeUp: () => answersWithin(() => store.getPartner('__readyz__'), STORE_UP_WITHIN_MS),
    redisReplicas: async () => (store.replicasOnline ? store.replicasOnline() : null),
    redisMinReplicas: store.kind === 'redis' ? config.redisMinReplicas : null,
    async signingKeysCreated() {
      const created: Partial<Record<(typeof KEY_PURPOSES)[number], number>> = {};
      for (const purpose of KEY_PURPOSES) {
        const current = (await store.listKeys(purpose)).find((key) => key.state === 'current');
        if (current) created[purpose] = current.createdAt;
      }
      return created;
    },
    accessCertificateExpiry: () => (wallet.access ? new Date(wallet.access.leaf.validTo).getTime() : null),
  };
}
