/**
 * Identity providers and login states (design.md §12) in Redis: the hash `providers` (id → JSON),
 * and `login:<digest>` JSON, taken once with GETDEL as grants are.
 */
import type { LoginStateRecord, ProviderRecord, Store } from '../store.ts';
import type { RedisConnection } from './connection.ts';
import { byCreation } from './partners-keys.ts';
import { ttl } from './ttl.ts';

type ProviderMethods = Pick<Store, 'putProvider' | 'getProvider' | 'listProviders' | 'removeProvider'>;

function providerMethods({ client, call, prefix }: RedisConnection): ProviderMethods {
  const providers = `${prefix}providers`;
  return {
    putProvider: async (provider) =>
      void (await call('putProvider', () => client.hset(providers, provider.id, JSON.stringify(provider)))),
    async getProvider(id) {
      const json = await call('getProvider', () => client.hget(providers, id));
      return json === null ? null : (JSON.parse(json) as ProviderRecord);
    },
    async listProviders() {
      const all = await call('listProviders', () => client.hvals(providers));
      return all.map((json) => JSON.parse(json) as ProviderRecord).sort(byCreation((p) => p.id));
    },
    removeProvider: async (id) => (await call('removeProvider', () => client.hdel(providers, id))) === 1,
  };
}

function loginStateMethods({ client, call, prefix, takeHeld }: RedisConnection) {
  const key = (digest: string) => `${prefix}login:${digest}`;
  const methods: Pick<Store, 'putLoginState' | 'takeLoginState'> = {
    async putLoginState(state, now) {
      const px = ttl(state.expiresAt - now);
      await call('putLoginState', () => client.set(key(state.digest), JSON.stringify(state), 'PX', px));
    },
    async takeLoginState(digest, now) {
      const expiry = (json: string) => (JSON.parse(json) as LoginStateRecord).expiresAt - now;
      const json = await takeHeld('takeLoginState', key(digest), expiry);
      if (json === null) return null;
      const state = JSON.parse(json) as LoginStateRecord;
      return state.expiresAt > now ? state : null;
    },
  };
  return methods;
}

/** Providers and login states over `conn`. */
export function providersAndLogins(
  conn: RedisConnection,
): ProviderMethods & Pick<Store, 'putLoginState' | 'takeLoginState'> {
  return { ...providerMethods(conn), ...loginStateMethods(conn) };
}
