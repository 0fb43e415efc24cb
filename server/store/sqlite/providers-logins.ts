/** Identity providers and the login states of their authorization code flows (design.md §12) in SQLite. */
import type { LoginStateRecord, ProviderRecord, Store } from '../store.ts';
import { parseRow, type Db } from './connection.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS providers (
  id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS login_states (
  digest TEXT PRIMARY KEY, expires_at INTEGER NOT NULL, data TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS login_states_expiry ON login_states (expires_at);
`;

/** The tables `sweep` empties of expired rows, each with its expiry column. */
export const PROVIDERS_LOGINS_EXPIRING = { login_states: 'expires_at' };

type ProviderLoginMethods = Pick<
  Store,
  'putProvider' | 'getProvider' | 'listProviders' | 'removeProvider' | 'putLoginState' | 'takeLoginState'
>;

/** Providers and login states over `db`, creating their tables when missing. */
export function providersAndLogins(db: Db): ProviderLoginMethods {
  db.exec(SCHEMA);
  const putProvider = db.prepare(
    `INSERT INTO providers (id, created_at, data) VALUES (?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, data = excluded.data`,
  );
  const getProvider = db.prepare('SELECT data FROM providers WHERE id = ?');
  const listProviders = db.prepare('SELECT data FROM providers ORDER BY created_at, id');
  const removeProvider = db.prepare('DELETE FROM providers WHERE id = ?');
  const insertLoginState = db.prepare('INSERT INTO login_states (digest, expires_at, data) VALUES (?, ?, ?)');
  // One statement: the row is read and deleted together, so two takers never both get it.
  const takeLoginState = db.prepare('DELETE FROM login_states WHERE digest = ? RETURNING expires_at, data');
  return {
    putProvider: async (provider) => void putProvider.run(provider.id, provider.createdAt, JSON.stringify(provider)),
    getProvider: async (id) => parseRow<ProviderRecord>(getProvider.get(id)),
    listProviders: async () => listProviders.all().map((row) => parseRow<ProviderRecord>(row)!),
    removeProvider: async (id) => removeProvider.run(id).changes === 1,
    putLoginState: async (state) => void insertLoginState.run(state.digest, state.expiresAt, JSON.stringify(state)),
    takeLoginState: async (digest, now) => {
      const row = takeLoginState.get(digest) as { expires_at: number; data: string } | undefined;
      return row && row.expires_at > now ? parseRow<LoginStateRecord>(row) : null;
    },
  };
}
