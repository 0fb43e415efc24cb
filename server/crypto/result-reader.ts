/**
 * What opens the result of a request a partner created through the signed variant (the partner
 * polls with its signature, not a poll token): a key per partner, derived (HKDF-SHA256) from the
 * store's `result_reader_key` secret and the partner ID. Not the partner's own secret, which a
 * rotation would change while a request is open. The service holds that secret, so the lock
 * protects against a leak of the requests alone, not of the whole store.
 *
 * Stores made before this secret existed sealed their partner results with a key derived the
 * same way from the nullifier key. Such a result lives at most a request's life plus a grant's
 * (about ten minutes), so `keysFor` keeps that key second, to open them across the upgrade; the
 * nullifier key never seals anything new. Drop `legacySecret` once no deployment can still hold
 * a request made before the upgrade.
 */
import { hkdfSync, randomBytes } from 'node:crypto';

/** The store secret the keys derive from: 32 random bytes, base64, created once per store. */
export const RESULT_READER_SECRET = 'result_reader_key';

/** The result-reader keys of every partner. */
export interface ResultReaderKeys {
  /** The partner's key, base64url: seals the results of the requests it creates. */
  keyFor(partnerId: string): string;
  /** Every key that may open the partner's results, `keyFor`'s first. */
  keysFor(partnerId: string): readonly string[];
}

function derive(secret: Uint8Array, partnerId: string): string {
  return Buffer.from(
    hkdfSync('sha256', secret, Buffer.alloc(0), `svc/partner-result-reader/${partnerId}`, 32),
  ).toString('base64url');
}

/**
 * The keys derived from `secret` (and, for results sealed before it existed, from `legacySecret`).
 *
 * @example createResultReaderKeys(randomBytes(32)).keyFor('pk_test_demo') // 43 base64url characters
 */
export function createResultReaderKeys(
  secret: Uint8Array,
  options: { legacySecret?: Uint8Array } = {},
): ResultReaderKeys {
  const { legacySecret } = options;
  return {
    keyFor: (partnerId) => derive(secret, partnerId),
    keysFor: (partnerId) =>
      legacySecret ? [derive(secret, partnerId), derive(legacySecret, partnerId)] : [derive(secret, partnerId)],
  };
}

/**
 * The keys over the store's `result_reader_key`, creating it on a store that has none (the first
 * writer wins when several instances start at once).
 *
 * @example const resultReader = await loadResultReaderKeys(store, { legacySecret: nullifierKey })
 */
export async function loadResultReaderKeys(
  store: { getOrCreateSecret(name: string, value: string): Promise<string> },
  options: { legacySecret?: Uint8Array } = {},
): Promise<ResultReaderKeys> {
  const secret = await store.getOrCreateSecret(RESULT_READER_SECRET, randomBytes(32).toString('base64'));
  return createResultReaderKeys(Buffer.from(secret, 'base64'), options);
}
