/**
 * Verification requests in SQLite: created, compare-and-set, waited on by long polls; and the
 * pass tokens their results become.
 */
import type { PassTokenRecord, Store, VerifyRequestPatch, VerifyRequestRecord } from '../store.ts';
import { createChangeFeed, type Waiter } from './change-feed.ts';
import { immediate, parseRow, type Db } from './connection.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS requests (
  id TEXT PRIMARY KEY, version INTEGER NOT NULL, expires_at INTEGER NOT NULL, data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pass_tokens (
  digest TEXT PRIMARY KEY, expires_at INTEGER NOT NULL, data TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS requests_expiry ON requests (expires_at);
CREATE INDEX IF NOT EXISTS pass_tokens_expiry ON pass_tokens (expires_at);
`;

/** The tables `sweep` empties of expired rows, each with its expiry column. */
export const REQUESTS_EXPIRING = { requests: 'expires_at', pass_tokens: 'expires_at' };

type RequestMethods = Pick<
  Store,
  'createRequest' | 'getRequest' | 'updateRequest' | 'waitForRequestChange' | 'putPassToken' | 'getPassToken'
>;

function requestStatements(db: Db) {
  const get = db.prepare('SELECT data FROM requests WHERE id = ?');
  const cas = db.prepare('UPDATE requests SET version = ?, expires_at = ?, data = ? WHERE id = ? AND version = ?');
  return {
    insert: db.prepare('INSERT INTO requests (id, version, expires_at, data) VALUES (?, ?, ?, ?)'),
    get,
    version: db.prepare('SELECT version FROM requests WHERE id = ?').pluck(),
    versionsOf: db.prepare('SELECT id, version FROM requests WHERE id IN (SELECT value FROM json_each(?))'),
    dataVersion: db.prepare('PRAGMA data_version').pluck(),
    update: immediate(db, (id: string, expectedVersion: number, patch: VerifyRequestPatch) => {
      const current = parseRow<VerifyRequestRecord>(get.get(id));
      if (!current || current.version !== expectedVersion) return null;
      const next: VerifyRequestRecord = { ...current, ...patch, version: expectedVersion + 1 };
      cas.run(next.version, next.expiresAt, JSON.stringify(next), id, expectedVersion);
      return next;
    }),
    insertPassToken: db.prepare('INSERT INTO pass_tokens (digest, expires_at, data) VALUES (?, ?, ?)'),
    getPassToken: db.prepare('SELECT data FROM pass_tokens WHERE digest = ? AND expires_at > ?'),
  };
}

/** Requests and pass tokens over `db`, creating their tables when missing; `close` answers every waiting poll. */
export function requests(db: Db): { methods: RequestMethods; close(): void } {
  db.exec(SCHEMA);
  const q = requestStatements(db);
  const feed = createChangeFeed({
    dataVersion: () => q.dataVersion.get() as number,
    versions: (ids) => q.versionsOf.all(JSON.stringify(ids)) as { id: string; version: number }[],
  });
  let closed = false;
  const readVersion = (id: string) => (q.version.get(id) as number | undefined) ?? null;

  const waitForRequestChange: Store['waitForRequestChange'] = (id, sinceVersion, timeoutMs, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted || closed || readVersion(id) !== sinceVersion) return resolve();
      const waiter: Waiter = { sinceVersion, done: () => undefined };
      const timer = setTimeout(() => waiter.done(), Math.max(0, timeoutMs));
      const abort = () => waiter.done();
      waiter.done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
        feed.remove(id, waiter);
        resolve();
      };
      signal?.addEventListener('abort', abort, { once: true });
      feed.add(id, waiter);
    });

  const methods: RequestMethods = {
    async createRequest(record) {
      q.insert.run(record.id, record.version, record.expiresAt, JSON.stringify(record));
      feed.changed(record.id);
    },
    async getRequest(id, now) {
      const record = parseRow<VerifyRequestRecord>(q.get.get(id));
      return record && record.expiresAt > now ? record : null;
    },
    async updateRequest(id, expectedVersion, patch) {
      const next = q.update(id, expectedVersion, patch);
      if (next) feed.changed(id);
      return next;
    },
    waitForRequestChange,
    putPassToken: async (token) => void q.insertPassToken.run(token.digest, token.expiresAt, JSON.stringify(token)),
    getPassToken: async (digest, now) => parseRow<PassTokenRecord>(q.getPassToken.get(digest, now)),
  };
  const close = () => {
    closed = true;
    feed.closeAll();
  };
  return { methods, close };
}
