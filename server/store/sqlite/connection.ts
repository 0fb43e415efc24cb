/**
 * The one SQLite connection every part of the store shares (sqlite.ts assembles them), in WAL
 * mode, and the helpers the parts write their methods with.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

export type Db = Database.Database;

/**
 * Only the service's user may read its data: the folder 0700, the database files 0600 (SQLite
 * gives the -wal and -shm files the database file's mode). A shared sticky folder such as /tmp
 * is left as it is; the files in it are still 0600.
 */
function keepPrivate(path: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = statSync(dir).mode;
  if ((mode & 0o077) !== 0 && (mode & 0o1000) === 0) chmodSync(dir, 0o700);
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}

/** Opens (creating if needed) the database at `path`, or a throwaway one for `":memory:"`. */
export function openDatabase(path: string): Db {
  if (path !== ':memory:') keepPrivate(path);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Checkpoint every ~40 MB of WAL rather than every 4 MB: every signed call commits a nonce, and
  // fewer, larger checkpoints copy each hot page once instead of many times (a nonce commit went
  // from ~35 to ~27 µs in a loop of 30,000).
  db.pragma('wal_autocheckpoint = 10000');
  // Deleted rows are overwritten, not left in free pages: a replaced secret must not linger.
  db.pragma('secure_delete = ON');
  return db;
}

/**
 * `work` as one transaction begun IMMEDIATE: every read-then-write transaction runs so, since a
 * deferred one that read first fails with SQLITE_BUSY_SNAPSHOT, busy_timeout or not, as soon as
 * another process sharing the file wrote in between.
 */
export function immediate<A extends unknown[], R>(db: Db, work: (...args: A) => R): (...args: A) => R {
  const transaction = db.transaction(work);
  return (...args) => transaction.immediate(...args);
}

/** The record in a `data` column, or null for no row. */
export function parseRow<T>(row: unknown): T | null {
  return row ? (JSON.parse((row as { data: string }).data) as T) : null;
}

/** The statements that delete a part's rows whose expiry column is at or before `now`. */
export function expiryDeletes(db: Db, expiring: Record<string, string>): Database.Statement[] {
  return Object.entries(expiring).map(([table, column]) => db.prepare(`DELETE FROM ${table} WHERE ${column} <= ?`));
}
