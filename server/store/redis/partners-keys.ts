/**
 * Partners, signing keys and service secrets in Redis: `partner:<id>` JSON with the set
 * `partners` of ids, the hash `keys` (kid → JSON) and the hash `secrets` (name → value).
 */
import type { PartnerRecord, SigningKeyRecord, Store } from '../store.ts';
import type { RedisConnection } from './connection.ts';

const SCRIPTS = {
  /** ARGV: name, value → the stored value (first writer wins) */
  getOrCreateSecret: `
    redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
    return redis.call('HGET', KEYS[1], ARGV[1])`,
  /** ARGV: name, value: replaces the secret only if it exists */
  replaceSecret: `
    if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
    return 1`,
} as const;

/** Oldest first, then by id: the order SQLite lists in. */
export const byCreation =
  <T extends { createdAt: number }>(id: (record: T) => string) =>
  (a: T, b: T): number =>
    a.createdAt - b.createdAt || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0);

/** The lifecycle fields are null when absent, as SQLite's columns are. */
function withLifecycle(p: PartnerRecord): PartnerRecord {
  const { previousSecret = null, previousSecretUntil = null, disabledAt = null, attestation = null } = p;
  const { walletFormats = null } = p;
  return { ...p, previousSecret, previousSecretUntil, disabledAt, attestation, walletFormats };
}

const toPartner = (json: string) => withLifecycle(JSON.parse(json) as PartnerRecord);

type PartnerMethods = Pick<Store, 'putPartner' | 'getPartner' | 'listPartners' | 'removePartner'>;

function partnerMethods({ client, call, prefix }: RedisConnection): PartnerMethods {
  const key = (id: string) => `${prefix}partner:${id}`;
  const ids = `${prefix}partners`;
  return {
    async putPartner(p) {
      const json = JSON.stringify(withLifecycle(p));
      await call('putPartner', () => client.multi().set(key(p.id), json).sadd(ids, p.id).exec());
    },
    async getPartner(id) {
      const json = await call('getPartner', () => client.get(key(id)));
      return json === null ? null : toPartner(json);
    },
    async listPartners() {
      const all = await call('listPartners', () => client.smembers(ids));
      if (all.length === 0) return [];
      const rows = await call('listPartners', () => client.mget(all.map(key)));
      return rows
        .filter((json): json is string => json !== null)
        .map(toPartner)
        .sort(byCreation((p) => p.id));
    },
    async removePartner(id) {
      const results = await call('removePartner', () => client.multi().del(key(id)).srem(ids, id).exec());
      return results?.[0]?.[1] === 1;
    },
  };
}

type SecretMethods = Pick<Store, 'getOrCreateSecret' | 'listSecrets' | 'replaceSecret'>;

function secretMethods(conn: RedisConnection): SecretMethods {
  const { client, call } = conn;
  const secrets = `${conn.prefix}secrets`;
  const scripts = conn.scripts(SCRIPTS);
  return {
    getOrCreateSecret: async (name, value) =>
      (await call('getOrCreateSecret', () => scripts.run('getOrCreateSecret', [secrets], [name, value]))) as string,
    async listSecrets() {
      const all = await call('listSecrets', () => client.hgetall(secrets));
      return Object.fromEntries(Object.entries(all).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    },
    replaceSecret: async (name, value) =>
      void (await call('replaceSecret', () => scripts.run('replaceSecret', [secrets], [name, value]))),
  };
}

type KeyMethods = Pick<Store, 'listKeys' | 'putKey' | 'updateKeys'>;

function keyMethods({ client, call, prefix }: RedisConnection): KeyMethods {
  const keys = `${prefix}keys`;
  return {
    async listKeys(purpose) {
      const all = await call('listKeys', () => client.hvals(keys));
      return all
        .map((json) => JSON.parse(json) as SigningKeyRecord)
        .filter((key) => key.purpose === purpose)
        .sort(byCreation((key) => key.kid));
    },
    putKey: async (key) => void (await call('putKey', () => client.hset(keys, key.kid, JSON.stringify(key)))),
    async updateKeys(changes) {
      const put = changes.put ?? [];
      const drop = changes.drop ?? [];
      if (put.length === 0 && drop.length === 0) return;
      const tx = client.multi();
      if (put.length > 0) tx.hset(keys, ...put.flatMap((key) => [key.kid, JSON.stringify(key)]));
      if (drop.length > 0) tx.hdel(keys, ...drop);
      await call('updateKeys', () => tx.exec());
    },
  };
}

/** Partners, service secrets and signing keys over `conn`. */
export function partnersAndKeys(conn: RedisConnection): PartnerMethods & SecretMethods & KeyMethods {
  return { ...partnerMethods(conn), ...secretMethods(conn), ...keyMethods(conn) };
}
