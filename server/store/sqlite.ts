/**
 * The embedded, durable store: SQLite through better-sqlite3, in WAL mode, one part per record
 * kind in sqlite/ over one shared connection (sqlite/connection.ts).
 *
 * Durability: every method is one transaction committed before its promise resolves; with
 * WAL and synchronous=NORMAL a committed transaction survives `kill -9` of the process (it is
 * in the WAL file the OS already holds). Several processes may share the file; long polls see
 * their changes through one shared check per store (sqlite/change-feed.ts), not a timer per waiter.
 */
import type { Store } from './store.ts';
import { expiryDeletes, immediate, openDatabase } from './sqlite/connection.ts';
import { LIMITS_EXPIRING, limits } from './sqlite/limits.ts';
import { NONCES_REPLAY_EXPIRING, noncesAndReplay } from './sqlite/nonces-replay.ts';
import { partnersAndKeys } from './sqlite/partners-keys.ts';
import { PROVIDERS_LOGINS_EXPIRING, providersAndLogins } from './sqlite/providers-logins.ts';
import { REQUESTS_EXPIRING, requests } from './sqlite/requests.ts';

/**
 * Opens (creating if needed) the SQLite store at `path`; `":memory:"` for a throwaway one.
 *
 * @example const store = openSqliteStore('./data/svc.sqlite')
 */
export function openSqliteStore(path: string): Store {
  const db = openDatabase(path);
  const once = noncesAndReplay(db);
  const live = requests(db);
  const parts = { ...partnersAndKeys(db), ...providersAndLogins(db), ...limits(db), ...once.methods, ...live.methods };
  const deletes = expiryDeletes(db, {
    ...NONCES_REPLAY_EXPIRING,
    ...LIMITS_EXPIRING,
    ...REQUESTS_EXPIRING,
    ...PROVIDERS_LOGINS_EXPIRING,
  });
  const sweep = immediate(db, (now: number) => deletes.reduce((n, statement) => n + statement.run(now).changes, 0));
  let closed = false;
  return {
    kind: 'sqlite',
    ...parts,
    sweep: async (now) => sweep(now),
    async close() {
      if (closed) return;
      closed = true;
      once.close();
      live.close();
      db.close();
    },
  };
}
