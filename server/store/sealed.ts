/**
 * A Store that seals secrets on the way in and opens them on the way out with a `Sealer` (the
 * master keyring, crypto/master-key.ts, is one: the store imports no crypto),
 * over any other Store: the SQLite file or the Redis keys hold partner secrets, private signing
 * keys, service secrets, identity providers' credentials and the PKCE verifier and nonce of
 * login states only as ciphertext. Everything else passes through untouched.
 *
 * Each sealed value is bound to its field (partner id, key id, secret name, provider id, login
 * state digest), so a value copied from one record to another does not open.
 *
 * Login states live minutes and are not listed, so `resealStore` and `sealedKeyIds` do not see
 * them: one sealed under a master key that was dropped within its life fails to open (the flow
 * fails; the visitor starts again).
 */
import type { LoginStateRecord, PartnerRecord, ProviderRecord, SigningKeyRecord, Store } from './store.ts';

/** What seals values at rest, each bound to a context (crypto/master-key.ts `Keyring`). */
interface Sealer {
  /** id of the key that seals new values */
  readonly currentId: string;
  seal(context: string, plaintext: string): string;
  /** throws when the value was sealed by a key it lacks, or was altered */
  open(context: string, sealed: string): string;
  /** the id of the key that sealed `value`, null for a plain value */
  keyIdOf(value: string): string | null;
}

/** Service secrets that are not secret and must be readable before the keyring is known. */
const PLAIN_SECRETS = new Set(['store_mode', 'restored_at']);

const partnerContext = (id: string, field: 'secret' | 'previous') => `partner/${id}/${field}`;
const keyContext = (kid: string) => `signing-key/${kid}`;
const secretContext = (name: string) => `secret/${name}`;
const providerContext = (id: string) => `provider/${id}/credential`;
const loginContext = (digest: string, field: 'code_verifier' | 'nonce') => `login-state/${digest}/${field}`;

function sealPartner(keyring: Sealer, partner: PartnerRecord): PartnerRecord {
  const previous = partner.previousSecret;
  return {
    ...partner,
    secret: keyring.seal(partnerContext(partner.id, 'secret'), partner.secret),
    previousSecret: previous ? keyring.seal(partnerContext(partner.id, 'previous'), previous) : (previous ?? null),
  };
}

function openPartner(keyring: Sealer, partner: PartnerRecord): PartnerRecord {
  const previous = partner.previousSecret;
  return {
    ...partner,
    secret: keyring.open(partnerContext(partner.id, 'secret'), partner.secret),
    previousSecret: previous ? keyring.open(partnerContext(partner.id, 'previous'), previous) : (previous ?? null),
  };
}

const sealKey = (keyring: Sealer, key: SigningKeyRecord): SigningKeyRecord => ({
  ...key,
  privateJwk: keyring.seal(keyContext(key.kid), key.privateJwk),
});
const openKey = (keyring: Sealer, key: SigningKeyRecord): SigningKeyRecord => ({
  ...key,
  privateJwk: keyring.open(keyContext(key.kid), key.privateJwk),
});

const sealProvider = (keyring: Sealer, provider: ProviderRecord): ProviderRecord => ({
  ...provider,
  credential: keyring.seal(providerContext(provider.id), provider.credential),
});
const openProvider = (keyring: Sealer, provider: ProviderRecord): ProviderRecord => ({
  ...provider,
  credential: keyring.open(providerContext(provider.id), provider.credential),
});

const sealLoginState = (keyring: Sealer, state: LoginStateRecord): LoginStateRecord => ({
  ...state,
  codeVerifier: keyring.seal(loginContext(state.digest, 'code_verifier'), state.codeVerifier),
  nonce: keyring.seal(loginContext(state.digest, 'nonce'), state.nonce),
});
const openLoginState = (keyring: Sealer, state: LoginStateRecord): LoginStateRecord => ({
  ...state,
  codeVerifier: keyring.open(loginContext(state.digest, 'code_verifier'), state.codeVerifier),
  nonce: keyring.open(loginContext(state.digest, 'nonce'), state.nonce),
});

/**
 * @example const store = sealedStore(openSqliteStore(path), loadKeyring(config))
 */
export function sealedStore(inner: Store, keyring: Sealer): Store {
  const sealSecret = (name: string, value: string) =>
    PLAIN_SECRETS.has(name) ? value : keyring.seal(secretContext(name), value);
  const openSecret = (name: string, value: string) =>
    PLAIN_SECRETS.has(name) ? value : keyring.open(secretContext(name), value);
  return {
    kind: inner.kind,
    putPartner: (partner) => inner.putPartner(sealPartner(keyring, partner)),
    getPartner: async (id) => {
      const partner = await inner.getPartner(id);
      return partner && openPartner(keyring, partner);
    },
    listPartners: async () => (await inner.listPartners()).map((p) => openPartner(keyring, p)),
    removePartner: (id) => inner.removePartner(id),
    putProvider: (provider) => inner.putProvider(sealProvider(keyring, provider)),
    getProvider: async (id) => {
      const provider = await inner.getProvider(id);
      return provider && openProvider(keyring, provider);
    },
    listProviders: async () => (await inner.listProviders()).map((p) => openProvider(keyring, p)),
    removeProvider: (id) => inner.removeProvider(id),
    getOrCreateSecret: async (name, value) =>
      openSecret(name, await inner.getOrCreateSecret(name, sealSecret(name, value))),
    listSecrets: async () =>
      Object.fromEntries(
        Object.entries(await inner.listSecrets()).map(([name, value]) => [name, openSecret(name, value)]),
      ),
    replaceSecret: (name, value) => inner.replaceSecret(name, sealSecret(name, value)),
    rememberNonce: (...args) => inner.rememberNonce(...args),
    rememberNonceAnd: (...args) => inner.rememberNonceAnd(...args),
    hitCounter: (...args) => inner.hitCounter(...args),
    holdSlot: (...args) => inner.holdSlot(...args),
    releaseSlot: (...args) => inner.releaseSlot(...args),
    createRequest: (...args) => inner.createRequest(...args),
    getRequest: (...args) => inner.getRequest(...args),
    updateRequest: (...args) => inner.updateRequest(...args),
    waitForRequestChange: (...args) => inner.waitForRequestChange(...args),
    putGrant: (...args) => inner.putGrant(...args),
    consumeGrant: (...args) => inner.consumeGrant(...args),
    putExchangeReplay: (...args) => inner.putExchangeReplay(...args),
    getExchangeReplay: (...args) => inner.getExchangeReplay(...args),
    putPassToken: (...args) => inner.putPassToken(...args),
    getPassToken: (...args) => inner.getPassToken(...args),
    putLoginState: (state, now) => inner.putLoginState(sealLoginState(keyring, state), now),
    takeLoginState: async (digest, now) => {
      const state = await inner.takeLoginState(digest, now);
      return state && openLoginState(keyring, state);
    },
    listKeys: async (purpose) => (await inner.listKeys(purpose)).map((k) => openKey(keyring, k)),
    putKey: (key) => inner.putKey(sealKey(keyring, key)),
    updateKeys: ({ put, drop }) => inner.updateKeys({ put: put?.map((k) => sealKey(keyring, k)), drop }),
    sweep: (now) => inner.sweep(now),
    close: () => inner.close(),
    ...(inner.replicasOnline && { replicasOnline: () => inner.replicasOnline!() }),
  };
}

interface ResealReport {
  /** values re-sealed under the current key (plain ones from before sealing included) */
  resealed: number;
  /** values already sealed under the current key */
  current: number;
}

/**
 * Re-seals, under the keyring's current key, every value sealed by an older key or stored plain
 * (a store made before sealing); with `plainOnly`, only the plain ones (what every boot does: a
 * boot must not re-seal under a new key while other instances may still hold only the old one).
 * Reads through the keyring, so a value sealed by a key it lacks throws SealError and nothing
 * after it is touched. Idempotent; safe while the service runs.
 *
 * @example await resealStore(rawStore, keyring)
 */
export async function resealStore(
  inner: Store,
  keyring: Sealer,
  options: { plainOnly?: boolean } = {},
): Promise<ResealReport> {
  const report: ResealReport = { resealed: 0, current: 0 };
  const stale = (value: string | null | undefined) => {
    if (!value) return false;
    const old = options.plainOnly ? keyring.keyIdOf(value) === null : keyring.keyIdOf(value) !== keyring.currentId;
    if (old) report.resealed++;
    else report.current++;
    return old;
  };
  const plainOr = (value: string, open: () => string) => (keyring.keyIdOf(value) === null ? value : open());

  for (const raw of await inner.listPartners()) {
    const staleSecret = stale(raw.secret);
    const stalePrevious = stale(raw.previousSecret);
    if (!staleSecret && !stalePrevious) continue;
    const partner: PartnerRecord = {
      ...raw,
      secret: plainOr(raw.secret, () => keyring.open(partnerContext(raw.id, 'secret'), raw.secret)),
      previousSecret: raw.previousSecret
        ? plainOr(raw.previousSecret, () => keyring.open(partnerContext(raw.id, 'previous'), raw.previousSecret!))
        : (raw.previousSecret ?? null),
    };
    await inner.putPartner(sealPartner(keyring, partner));
  }
  for (const raw of await inner.listProviders()) {
    if (!stale(raw.credential)) continue;
    const credential = plainOr(raw.credential, () => keyring.open(providerContext(raw.id), raw.credential));
    await inner.putProvider(sealProvider(keyring, { ...raw, credential }));
  }
  for (const purpose of ['attestation', 'session'] as const) {
    const put = (await inner.listKeys(purpose))
      .filter((key) => stale(key.privateJwk))
      .map((key) =>
        sealKey(keyring, {
          ...key,
          privateJwk: plainOr(key.privateJwk, () => keyring.open(keyContext(key.kid), key.privateJwk)),
        }),
      );
    if (put.length > 0) await inner.updateKeys({ put });
  }
  for (const [name, value] of Object.entries(await inner.listSecrets())) {
    if (PLAIN_SECRETS.has(name) || !stale(value)) continue;
    const plain = plainOr(value, () => keyring.open(secretContext(name), value));
    await inner.replaceSecret(name, keyring.seal(secretContext(name), plain));
  }
  return report;
}

/** How many stored values each master key id sealed (`plain` for values stored before sealing). */
export async function sealedKeyIds(inner: Store, sealer: Pick<Sealer, 'keyIdOf'>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const count = (value: string | null | undefined) => {
    if (!value) return;
    const id = sealer.keyIdOf(value) ?? 'plain';
    counts[id] = (counts[id] ?? 0) + 1;
  };
  for (const partner of await inner.listPartners()) {
    count(partner.secret);
    count(partner.previousSecret);
  }
  for (const provider of await inner.listProviders()) count(provider.credential);
  for (const purpose of ['attestation', 'session'] as const)
    for (const key of await inner.listKeys(purpose)) count(key.privateJwk);
  for (const [name, value] of Object.entries(await inner.listSecrets())) if (!PLAIN_SECRETS.has(name)) count(value);
  return counts;
}
