/**
 * The embedded, durable store: SQLite through better-sqlite3, in WAL mode, one part per record
 * kind in sqlite/ over one shared connection (sqlite/connection.ts).
 *
 * Durability: every method is one transaction committed before its promise resolves; with
 * WAL and synchronous=NORMAL a committed transaction survives `kill -9` of the process (it is
 * in the WAL file the OS already holds). Several processes may share the file; long polls see
 * their changes through one shared check per store (sqlite/change-feed.ts), not a timer per waiter.
 */
import Database from 'better-sqlite3';
import { chmodSync } from 'node:fs';
import { markRestored } from './restored.ts';
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
  const live = requests(db); // first: the nonce batch reads its pass_tokens table
  const once = noncesAndReplay(db);
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

/**
 * Copies the SQLite store at `path` into `file` through SQLite's online backup API: a consistent
 * copy while the service writes (docs/operations.md#backups-and-restores). The copy is 0600.
 *
 * @example await backupSqliteStore('./data/svc.sqlite', '/backups/svc-2026-11-29.sqlite')
 */
export async function backupSqliteStore(path: string, file: string): Promise<{ pages: number }> {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const { totalPages } = await db.backup(file);
    chmodSync(file, 0o600);
    return { pages: totalPages };
  } finally {
    db.close();
  }
}

/**
 * Writes the backup `file` over the SQLite store at `path` (every instance stopped), through the
 * backup API again (the live file's WAL is replaced with it), then `restoredAt` into its secrets:
 * from then on store/restored.ts refuses every single-use value made before the restore. The
 * backup file itself is left as it was.
 *
 * @example await restoreSqliteStore('/backups/svc-2026-11-29.sqlite', './data/svc.sqlite', Date.now())
 */
export async function restoreSqliteStore(file: string, path: string, restoredAt: number): Promise<void> {
  const source = new Database(file, { readonly: true, fileMustExist: true });
  try {
    await source.backup(path);
  } finally {
    source.close();
  }
  const store = openSqliteStore(path);
  try {
    await markRestored(store, restoredAt);
  } finally {
    await store.close();
  }
}
