/**
 * What must happen once in SQLite: signed calls' nonces, grants (consumed once) and exchange
 * replays (the first live answer wins). A signed partner call's nonce and the pass token it reads
 * or the grant it takes share one transaction (design.md §23), grouped with the other calls of the
 * same event-loop turn.
 */
import type Database from 'better-sqlite3';
import {
  replayKeptBy,
  type ExchangeReplayRecord,
  type GrantRecord,
  type NonceRead,
  type NonceReadResult,
  type PassTokenRecord,
  type Store,
} from '../store.ts';
import { immediate, parseRow, type Db } from './connection.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS nonces (
  partner_id TEXT NOT NULL, nonce TEXT NOT NULL, expires_at INTEGER NOT NULL,
  PRIMARY KEY (partner_id, nonce)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS grants (
  digest TEXT PRIMARY KEY, used INTEGER NOT NULL DEFAULT 0, expires_at INTEGER NOT NULL, data TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS exchange_replays (
  partner_id TEXT NOT NULL, idempotency_key TEXT NOT NULL, expires_at INTEGER NOT NULL, data TEXT NOT NULL,
  PRIMARY KEY (partner_id, idempotency_key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS nonces_expiry ON nonces (expires_at);
CREATE INDEX IF NOT EXISTS grants_expiry ON grants (expires_at);
CREATE INDEX IF NOT EXISTS replays_expiry ON exchange_replays (expires_at);
`;

/** The tables `sweep` empties of expired rows, each with its expiry column. */
export const NONCES_REPLAY_EXPIRING = { nonces: 'expires_at', grants: 'expires_at', exchange_replays: 'expires_at' };

interface PendingNonce {
  partnerId: string;
  nonce: string;
  expiresAt: number;
  now: number;
  /** what `rememberNonceAnd` reads in the same transaction once the nonce is fresh */
  read: NonceRead | null;
  resolve(result: NonceReadResult): void;
  reject(error: unknown): void;
}

/** Stores a replay unless a live one holds its key (the first live writer wins); an expired one is replaced. */
const INSERT_REPLAY = `INSERT INTO exchange_replays (partner_id, idempotency_key, expires_at, data) VALUES (?, ?, ?, ?)
  ON CONFLICT (partner_id, idempotency_key) DO UPDATE SET expires_at = excluded.expires_at, data = excluded.data
  WHERE exchange_replays.expires_at <= ?`;

/** Stores `record`, as the exchange's replay, with `insertReplay` (INSERT_REPLAY). */
function storeReplay(insertReplay: Database.Statement, record: ExchangeReplayRecord, now: number): void {
  insertReplay.run(record.partnerId, record.idempotencyKey, record.expiresAt, JSON.stringify(record), now);
}

/** The statements `rememberNonceAnd` reads and writes with, prepared once (pass_tokens is requests.ts's table). */
function readStatements(db: Db) {
  return {
    pass: db.prepare('SELECT data FROM pass_tokens WHERE digest = ? AND expires_at > ?'),
    liveReplay: db.prepare(
      'SELECT data FROM exchange_replays WHERE partner_id = ? AND idempotency_key = ? AND expires_at > ?',
    ),
    consumeGrant: db.prepare(
      'UPDATE grants SET used = 1 WHERE digest = ? AND used = 0 AND expires_at > ? RETURNING data',
    ),
    insertPassToken: db.prepare('INSERT INTO pass_tokens (digest, expires_at, data) VALUES (?, ?, ?)'),
    insertReplay: db.prepare(INSERT_REPLAY),
  };
}

/**
 * Group commit for nonces, the one write on every signed call: the nonces that arrive within one
 * turn of the event loop are inserted in one transaction, and each caller's promise resolves only
 * after that commit (so durability is unchanged). Rows are inserted in arrival order, so of two
 * racing callers with the same nonce exactly the first gets true.
 */
function nonceBatcher(db: Db) {
  const insert = db.prepare(
    `INSERT INTO nonces (partner_id, nonce, expires_at) VALUES (?, ?, ?)
     ON CONFLICT (partner_id, nonce) DO UPDATE SET expires_at = excluded.expires_at
     WHERE nonces.expires_at <= ?`,
  );
  const q = readStatements(db);
  /** the nonce, then (fresh only) what the call reads, in the batch's transaction */
  const one = (n: PendingNonce): NonceReadResult => {
    const result: NonceReadResult = { fresh: false, pass: null, grant: null, replay: null, issued: null };
    if (insert.run(n.partnerId, n.nonce, n.expiresAt, n.now).changes !== 1) return result;
    result.fresh = true;
    const read = n.read;
    if (read?.kind === 'pass') result.pass = parseRow<PassTokenRecord>(q.pass.get(read.digest, n.now));
    else if (read?.kind === 'grant') {
      const { replay } = read;
      if (replay)
        result.replay = parseRow<ExchangeReplayRecord>(
          q.liveReplay.get(replay.partnerId, replay.idempotencyKey, n.now),
        );
      if (!result.replay) result.grant = parseRow<GrantRecord>(q.consumeGrant.get(read.digest, n.now));
      const issued = result.grant && read.issue ? read.issue(result.grant) : null;
      if (issued) q.insertPassToken.run(issued.digest, issued.expiresAt, JSON.stringify(issued));
      // No live replay holds the key (it was looked for above): the exchange's own is stored with its pass token.
      const kept = issued && replayKeptBy(read, result.grant!);
      if (kept) storeReplay(q.insertReplay, kept, n.now);
      result.issued = issued;
    }
    return result;
  };
  // IMMEDIATE: the batch reads (a grant, a replay) and writes, and other processes may share the file.
  const insertAll = immediate(db, (batch: PendingNonce[]) => batch.map(one));
  let pending: PendingNonce[] = [];
  let closed = false;
  function flush(): void {
    const batch = pending;
    pending = [];
    try {
      const fresh = insertAll(batch);
      batch.forEach((n, i) => n.resolve(fresh[i]!));
    } catch (error) {
      for (const n of batch) n.reject(error);
    }
  }
  const rememberNonceAnd = (
    partnerId: string,
    nonce: string,
    expiresAt: number,
    now: number,
    read: NonceRead | null,
  ): Promise<NonceReadResult> =>
    new Promise<NonceReadResult>((resolve, reject) => {
      if (closed) return reject(new Error('store is closed'));
      pending.push({ partnerId, nonce, expiresAt, now, read, resolve, reject });
      if (pending.length === 1) setImmediate(flush);
    });
  const rememberNonce: Store['rememberNonce'] = async (partnerId, nonce, expiresAt, now) =>
    (await rememberNonceAnd(partnerId, nonce, expiresAt, now, null)).fresh;
  /** commits the nonces still waiting for their turn, then refuses new ones */
  function close(): void {
    if (pending.length > 0) flush();
    closed = true;
  }
  return { rememberNonce, rememberNonceAnd: rememberNonceAnd as Store['rememberNonceAnd'], close };
}

type OnceMethods = Pick<Store, 'putGrant' | 'consumeGrant' | 'putExchangeReplay' | 'getExchangeReplay'>;

function grantsAndReplays(db: Db): OnceMethods {
  const insertGrant = db.prepare('INSERT INTO grants (digest, used, expires_at, data) VALUES (?, 0, ?, ?)');
  const consumeGrant = db.prepare(
    'UPDATE grants SET used = 1 WHERE digest = ? AND used = 0 AND expires_at > ? RETURNING data',
  );
  const insertReplay = db.prepare(INSERT_REPLAY);
  const getStoredReplay = db.prepare('SELECT data FROM exchange_replays WHERE partner_id = ? AND idempotency_key = ?');
  const getLiveReplay = db.prepare(
    'SELECT data FROM exchange_replays WHERE partner_id = ? AND idempotency_key = ? AND expires_at > ?',
  );
  const putReplay = immediate(db, (record: ExchangeReplayRecord, now: number) => {
    storeReplay(insertReplay, record, now);
    return parseRow<ExchangeReplayRecord>(getStoredReplay.get(record.partnerId, record.idempotencyKey))!;
  });
  return {
    putGrant: async (grant) => void insertGrant.run(grant.digest, grant.expiresAt, JSON.stringify(grant)),
    consumeGrant: async (digest, now) => parseRow<GrantRecord>(consumeGrant.get(digest, now)),
    putExchangeReplay: async (record, now) => putReplay(record, now),
    getExchangeReplay: async (partnerId, idempotencyKey, now) =>
      parseRow<ExchangeReplayRecord>(getLiveReplay.get(partnerId, idempotencyKey, now)),
  };
}

/** Nonces, grants and exchange replays over `db`, creating their tables when missing. */
export function noncesAndReplay(db: Db): {
  methods: OnceMethods & Pick<Store, 'rememberNonce' | 'rememberNonceAnd'>;
  close(): void;
} {
  db.exec(SCHEMA);
  const nonces = nonceBatcher(db);
  return {
    methods: {
      rememberNonce: nonces.rememberNonce,
      rememberNonceAnd: nonces.rememberNonceAnd,
      ...grantsAndReplays(db),
    },
    close: nonces.close,
  };
}
