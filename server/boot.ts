/**
 * Builds the dependencies from a Config: the store, fixtures (sandbox only), keys. Used by
 * main.ts, the CLI and tests that want the real thing on a temporary directory.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Persona } from '../src/protocol/api.ts';
import type { Clock } from './clock.ts';
import { systemClock } from './clock.ts';
import { ConfigError, type Config } from './config.ts';
import { createBlindCrypto } from './crypto/blind.ts';
import { loadResultReaderKeys } from './crypto/result-reader.ts';
import type { AppDeps } from './deps.ts';
import { loadPartnerFixtures } from './domain/partners.ts';
import { claimStoreMode } from './mode.ts';
import { PROJECT_ROOT } from './paths.ts';
import { openConfiguredStore } from './store/open.ts';
import type { Store } from './store/store.ts';

const PERSONAS_PATH = join(PROJECT_ROOT, 'fixtures', 'personas.json');

export function openStore(config: Config): Store {
  return openConfiguredStore(config);
}

export function loadPersonas(): Persona[] {
  return JSON.parse(readFileSync(PERSONAS_PATH, 'utf8')) as Persona[];
}

/** @example const deps = await buildDeps(loadConfig()) */
export async function buildDeps(requested: Config, options: { store?: Store; clock?: Clock } = {}): Promise<AppDeps> {
  const clock = options.clock ?? systemClock;
  const store = options.store ?? openStore(requested);
  const config = await claimStoreMode(store, requested);
  if (config.mode === 'sandbox') {
    for (const partner of loadPartnerFixtures(config.fixturesPath, clock.now())) await store.putPartner(partner);
  } else if ((await store.listPartners()).length === 0) {
    throw new ConfigError('SVC_MODE=production found no partners in the store; add one with `svc partners add` first');
  }
  const nullifierKey = config.nullifierKey
    ? Buffer.from(config.nullifierKey, 'base64')
    : Buffer.from(await store.getOrCreateSecret('nullifier_key', randomBytes(32).toString('base64')), 'base64');
  const resultReader = await loadResultReaderKeys(store, { legacySecret: nullifierKey });
  const blind = await createBlindCrypto(store, clock, config);
  return { config, store, clock, personas: config.mode === 'sandbox' ? loadPersonas() : [], nullifierKey, resultReader, blind };
}
