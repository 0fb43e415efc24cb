/**
 * The embedded, durable store: SQLite through better-sqlite3, in WAL mode.
 *
 * Durability: every method is one transaction committed before its promise resolves; with
 * WAL and synchronous=NORMAL a committed transaction survives `kill -9` of the process (it is
 * in the WAL file the OS already holds). Several processes may share the file; long polls see
 * their changes through one shared check per store (createChangeFeed), not a timer per waiter.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type {
  CounterHit,
  ExchangeReplayRecord,
  GrantRecord,
  KeyPurpose,
  LoginStateRecord,
  PartnerRecord,
  PassTokenRecord,
  ProviderRecord,
  SigningKeyRecord,
  Store,
  VerifyRequestPatch,
  VerifyRequestRecord,
} from './store.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS partners (
  id TEXT PRIMARY KEY, secret TEXT NOT NULL, name TEXT NOT NULL, domain TEXT NOT NULL,
  rail TEXT NOT NULL, blind_app_id TEXT, allowed_scopes TEXT, created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS nonces (
  partner_id TEXT NOT NULL, nonce TEXT NOT NULL, expires_at INTEGER NOT NULL,
  PRIMARY KEY (partner_id, nonce)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS counters (
  key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS requests (
  id TEXT PRIMARY KEY, version INTEGER NOT NULL, expires_at INTEGER NOT NULL, data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS grants (
  digest TEXT PRIMARY KEY, used INTEGER NOT NULL DEFAULT 0, expires_at INTEGER NOT NULL, data TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS exchange_replays (
  partner_id TEXT NOT NULL, idempotency_key TEXT NOT NULL, expires_at INTEGER NOT NULL, data TEXT NOT NULL,
  PRIMARY KEY (partner_id, idempotency_key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS pass_tokens (
  digest TEXT PRIMARY KEY, expires_at INTEGER NOT NULL, data TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS slots (
  key TEXT NOT NULL, slot TEXT NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (key, slot)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS signing_keys (
  kid TEXT PRIMARY KEY, purpose TEXT NOT NULL, created_at INTEGER NOT NULL, data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS providers (
  id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS login_states (
  digest TEXT PRIMARY KEY, expires_at INTEGER NOT NULL, data TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS nonces_expiry ON nonces (expires_at);
CREATE INDEX IF NOT EXISTS counters_expiry ON counters (reset_at);
CREATE INDEX IF NOT EXISTS requests_expiry ON requests (expires_at);
CREATE INDEX IF NOT EXISTS grants_expiry ON grants (expires_at);
CREATE INDEX IF NOT EXISTS replays_expiry ON exchange_replays (expires_at);
CREATE INDEX IF NOT EXISTS pass_tokens_expiry ON pass_tokens (expires_at);
CREATE INDEX IF NOT EXISTS slots_expiry ON slots (expires_at);
CREATE INDEX IF NOT EXISTS login_states_expiry ON login_states (expires_at);
`;

/**
 * How often, while anyone waits, the store asks SQLite whether another process wrote to the file
 * (`PRAGMA data_version`, one cheap call whatever the number of waiters).
 */
const CROSS_PROCESS_POLL_MS = 150;

interface Waiter {
  sinceVersion: number;
  done(): void;
}

/**
 * One change feed per store (issue 8): long polls register here instead of each running a
 * timer. A change made through this store wakes the request's waiters at once; a change made by
 * another process on the same file is seen by one shared 150 ms check of `PRAGMA data_version`,
 * and only then are the waited-on rows re-read, in one query.
 */
function createChangeFeed(read: { dataVersion(): number; versions(ids: string[]): { id: string; version: number }[] }) {
  const waiting = new Map<string, Set<Waiter>>();
  let timer: NodeJS.Timeout | undefined;
  let lastDataVersion = 0;

  function wake(id: string, version: number | null): void {
    for (const waiter of waiting.get(id) ?? []) if (waiter.sinceVersion !== version) waiter.done();
  }
  function checkOtherProcesses(): void {
    const dataVersion = read.dataVersion();
    if (dataVersion === lastDataVersion) return;
    lastDataVersion = dataVersion;
    const ids = [...waiting.keys()];
    const found = new Map(read.versions(ids).map((row) => [row.id, row.version]));
    for (const id of ids) wake(id, found.get(id) ?? null);
  }
  return {
    add(id: string, waiter: Waiter): void {
      let set = waiting.get(id);
      if (!set) waiting.set(id, (set = new Set()));
      set.add(waiter);
      if (!timer) {
        lastDataVersion = read.dataVersion();
        timer = setInterval(checkOtherProcesses, CROSS_PROCESS_POLL_MS);
        timer.unref();
      }
    },
    remove(id: string, waiter: Waiter): void {
      const set = waiting.get(id);
      if (!set?.delete(waiter)) return;
      if (set.size === 0) waiting.delete(id);
      if (waiting.size === 0) {
        clearInterval(timer);
        timer = undefined;
      }
    },
    /** this store changed `id`: its waiters re-check now */
    changed(id: string): void {
      if (!waiting.has(id)) return;
      const [row] = read.versions([id]);
      wake(id, row?.version ?? null);
    },
    closeAll(): void {
      for (const set of [...waiting.values()]) for (const waiter of [...set]) waiter.done();
    },
  };
}

/** Columns added after the first release, created on open when missing. */
const PARTNER_COLUMNS_ADDED = {
  previous_secret: 'TEXT',
  previous_secret_until: 'INTEGER',
  disabled_at: 'INTEGER',
  attestation: 'TEXT',
} as const;

interface PartnerRow {
  id: string;
  secret: string;
  name: string;
  domain: string;
  rail: string;
  blind_app_id: string | null;
  allowed_scopes: string | null;
  created_at: number;
  previous_secret: string | null;
  previous_secret_until: number | null;
  disabled_at: number | null;
  attestation: string | null;
}

function toPartner(row: PartnerRow): PartnerRecord {
  return {
    id: row.id,
    secret: row.secret,
    name: row.name,
    domain: row.domain,
    rail: row.rail as PartnerRecord['rail'],
    blindAppId: row.blind_app_id,
    allowedScopes: row.allowed_scopes === null ? null : JSON.parse(row.allowed_scopes),
    createdAt: row.created_at,
    previousSecret: row.previous_secret,
    previousSecretUntil: row.previous_secret_until,
    disabledAt: row.disabled_at,
    attestation: row.attestation === 'private' ? 'private' : null,
  };
}

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

/**
 * Opens (creating if needed) the SQLite store at `path`; `":memory:"` for a throwaway one.
 *
 * @example const store = openSqliteStore('./data/svc.sqlite')
 */
export function openSqliteStore(path: string): Store {
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
  db.exec(SCHEMA);
  const partnerColumns = new Set((db.pragma('table_info(partners)') as { name: string }[]).map((c) => c.name));
  for (const [column, type] of Object.entries(PARTNER_COLUMNS_ADDED)) {
    if (!partnerColumns.has(column)) db.exec(`ALTER TABLE partners ADD COLUMN ${column} ${type}`);
  }

  const q = {
    putPartner: db.prepare(
      `INSERT INTO partners (id, secret, name, domain, rail, blind_app_id, allowed_scopes, created_at,
         previous_secret, previous_secret_until, disabled_at, attestation)
       VALUES (@id, @secret, @name, @domain, @rail, @blind_app_id, @allowed_scopes, @created_at,
         @previous_secret, @previous_secret_until, @disabled_at, @attestation)
       ON CONFLICT (id) DO UPDATE SET secret = excluded.secret, name = excluded.name, domain = excluded.domain,
         rail = excluded.rail, blind_app_id = excluded.blind_app_id, allowed_scopes = excluded.allowed_scopes,
         previous_secret = excluded.previous_secret, previous_secret_until = excluded.previous_secret_until,
         disabled_at = excluded.disabled_at, attestation = excluded.attestation`,
    ),
    getPartner: db.prepare('SELECT * FROM partners WHERE id = ?'),
    listPartners: db.prepare('SELECT * FROM partners ORDER BY created_at, id'),
    removePartner: db.prepare('DELETE FROM partners WHERE id = ?'),
    putProvider: db.prepare(
      `INSERT INTO providers (id, created_at, data) VALUES (?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, data = excluded.data`,
    ),
    getProvider: db.prepare('SELECT data FROM providers WHERE id = ?'),
    listProviders: db.prepare('SELECT data FROM providers ORDER BY created_at, id'),
    removeProvider: db.prepare('DELETE FROM providers WHERE id = ?'),
    insertSecret: db.prepare('INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING'),
    getSecret: db.prepare('SELECT value FROM secrets WHERE name = ?'),
    listSecrets: db.prepare('SELECT name, value FROM secrets ORDER BY name'),
    replaceSecret: db.prepare('UPDATE secrets SET value = ? WHERE name = ?'),
    insertNonce: db.prepare(
      `INSERT INTO nonces (partner_id, nonce, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (partner_id, nonce) DO UPDATE SET expires_at = excluded.expires_at
       WHERE nonces.expires_at <= ?`,
    ),
    getCounter: db.prepare('SELECT count, reset_at FROM counters WHERE key = ?'),
    putCounter: db.prepare(
      `INSERT INTO counters (key, count, reset_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET count = excluded.count, reset_at = excluded.reset_at`,
    ),
    countSlots: db.prepare('SELECT count(*) FROM slots WHERE key = ? AND expires_at > ?').pluck(),
    insertSlot: db.prepare(
      `INSERT INTO slots (key, slot, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key, slot) DO UPDATE SET expires_at = excluded.expires_at`,
    ),
    deleteSlot: db.prepare('DELETE FROM slots WHERE key = ? AND slot = ?'),
    insertRequest: db.prepare('INSERT INTO requests (id, version, expires_at, data) VALUES (?, ?, ?, ?)'),
    getRequest: db.prepare('SELECT data FROM requests WHERE id = ?'),
    getRequestVersion: db.prepare('SELECT version FROM requests WHERE id = ?'),
    versionsOf: db.prepare('SELECT id, version FROM requests WHERE id IN (SELECT value FROM json_each(?))'),
    dataVersion: db.prepare('PRAGMA data_version'),
    casRequest: db.prepare('UPDATE requests SET version = ?, expires_at = ?, data = ? WHERE id = ? AND version = ?'),
    insertGrant: db.prepare('INSERT INTO grants (digest, used, expires_at, data) VALUES (?, 0, ?, ?)'),
    consumeGrant: db.prepare(
      'UPDATE grants SET used = 1 WHERE digest = ? AND used = 0 AND expires_at > ? RETURNING data',
    ),
    insertReplay: db.prepare(
      `INSERT INTO exchange_replays (partner_id, idempotency_key, expires_at, data) VALUES (?, ?, ?, ?)
       ON CONFLICT (partner_id, idempotency_key) DO UPDATE SET expires_at = excluded.expires_at, data = excluded.data
       WHERE exchange_replays.expires_at <= ?`,
    ),
    getReplay: db.prepare(
      'SELECT data FROM exchange_replays WHERE partner_id = ? AND idempotency_key = ? AND expires_at > ?',
    ),
    insertPassToken: db.prepare('INSERT INTO pass_tokens (digest, expires_at, data) VALUES (?, ?, ?)'),
    getPassToken: db.prepare('SELECT data FROM pass_tokens WHERE digest = ? AND expires_at > ?'),
    insertLoginState: db.prepare('INSERT INTO login_states (digest, expires_at, data) VALUES (?, ?, ?)'),
    // One statement: the row is read and deleted together, so two takers never both get it.
    takeLoginState: db.prepare('DELETE FROM login_states WHERE digest = ? RETURNING expires_at, data'),
    listKeys: db.prepare('SELECT data FROM signing_keys WHERE purpose = ? ORDER BY created_at, kid'),
    putKey: db.prepare(
      `INSERT INTO signing_keys (kid, purpose, created_at, data) VALUES (?, ?, ?, ?)
       ON CONFLICT (kid) DO UPDATE SET purpose = excluded.purpose, data = excluded.data`,
    ),
    dropKey: db.prepare('DELETE FROM signing_keys WHERE kid = ?'),
    sweep: [
      db.prepare('DELETE FROM nonces WHERE expires_at <= ?'),
      db.prepare('DELETE FROM counters WHERE reset_at <= ?'),
      db.prepare('DELETE FROM requests WHERE expires_at <= ?'),
      db.prepare('DELETE FROM grants WHERE expires_at <= ?'),
      db.prepare('DELETE FROM exchange_replays WHERE expires_at <= ?'),
      db.prepare('DELETE FROM pass_tokens WHERE expires_at <= ?'),
      db.prepare('DELETE FROM slots WHERE expires_at <= ?'),
      db.prepare('DELETE FROM login_states WHERE expires_at <= ?'),
    ],
  };

  // Every read-then-write transaction runs as BEGIN IMMEDIATE (`.immediate` below): a deferred
  // one that read first fails with SQLITE_BUSY_SNAPSHOT, busy_timeout or not, as soon as another
  // process sharing the file wrote in between.
  const hitCounter = db.transaction((key: string, windowMs: number, now: number): CounterHit => {
    const row = q.getCounter.get(key) as { count: number; reset_at: number } | undefined;
    const hit =
      row && row.reset_at > now
        ? { count: row.count + 1, resetAt: row.reset_at }
        : { count: 1, resetAt: now + windowMs };
    q.putCounter.run(key, hit.count, hit.resetAt);
    return hit;
  });

  const holdSlot = db.transaction((key: string, slotId: string, cap: number, expiresAt: number, now: number) => {
    if ((q.countSlots.get(key, now) as number) >= cap) return false;
    q.insertSlot.run(key, slotId, expiresAt);
    return true;
  });

  const getOrCreateSecret = db.transaction((name: string, value: string): string => {
    q.insertSecret.run(name, value);
    return (q.getSecret.get(name) as { value: string }).value;
  });

  const updateRequest = db.transaction(
    (id: string, expectedVersion: number, patch: VerifyRequestPatch): VerifyRequestRecord | null => {
      const row = q.getRequest.get(id) as { data: string } | undefined;
      if (!row) return null;
      const current = JSON.parse(row.data) as VerifyRequestRecord;
      if (current.version !== expectedVersion) return null;
      const next: VerifyRequestRecord = { ...current, ...patch, version: expectedVersion + 1 };
      q.casRequest.run(next.version, next.expiresAt, JSON.stringify(next), id, expectedVersion);
      return next;
    },
  );

  const putReplay = db.transaction((record: ExchangeReplayRecord, now: number): ExchangeReplayRecord => {
    q.insertReplay.run(record.partnerId, record.idempotencyKey, record.expiresAt, JSON.stringify(record), now);
    const row = db
      .prepare('SELECT data FROM exchange_replays WHERE partner_id = ? AND idempotency_key = ?')
      .get(record.partnerId, record.idempotencyKey) as { data: string };
    return JSON.parse(row.data);
  });

  const updateKeys = db.transaction((put: SigningKeyRecord[], drop: string[]) => {
    for (const key of put) q.putKey.run(key.kid, key.purpose, key.createdAt, JSON.stringify(key));
    for (const kid of drop) q.dropKey.run(kid);
  });

  // Group commit for nonces, the one write on every signed call: the nonces that arrive within
  // one turn of the event loop are inserted in one transaction, and each caller's promise
  // resolves only after that commit (so durability is unchanged). Rows are inserted in arrival
  // order, so of two racing callers with the same nonce exactly the first gets true.
  type PendingNonce = {
    partnerId: string;
    nonce: string;
    expiresAt: number;
    now: number;
    resolve(fresh: boolean): void;
    reject(error: unknown): void;
  };
  let pendingNonces: PendingNonce[] = [];
  const insertNonces = db.transaction((batch: PendingNonce[]) =>
    batch.map((n) => q.insertNonce.run(n.partnerId, n.nonce, n.expiresAt, n.now).changes === 1),
  );
  function flushNonces(): void {
    const batch = pendingNonces;
    pendingNonces = [];
    try {
      const fresh = insertNonces(batch);
      batch.forEach((n, i) => n.resolve(fresh[i]!));
    } catch (error) {
      for (const n of batch) n.reject(error);
    }
  }

  const sweep = db.transaction((now: number) => q.sweep.reduce((n, stmt) => n + stmt.run(now).changes, 0));

  function readVersion(id: string): number | null {
    const row = q.getRequestVersion.get(id) as { version: number } | undefined;
    return row ? row.version : null;
  }

  let closed = false;
  const feed = createChangeFeed({
    dataVersion: () => q.dataVersion.pluck().get() as number,
    versions: (ids) => q.versionsOf.all(JSON.stringify(ids)) as { id: string; version: number }[],
  });

  return {
    kind: 'sqlite',

    async putPartner(p: PartnerRecord) {
      q.putPartner.run({
        id: p.id,
        secret: p.secret,
        name: p.name,
        domain: p.domain,
        rail: p.rail,
        blind_app_id: p.blindAppId,
        allowed_scopes: p.allowedScopes === null ? null : JSON.stringify(p.allowedScopes),
        created_at: p.createdAt,
        previous_secret: p.previousSecret ?? null,
        previous_secret_until: p.previousSecretUntil ?? null,
        disabled_at: p.disabledAt ?? null,
        attestation: p.attestation ?? null,
      });
    },
    async getPartner(id: string) {
      const row = q.getPartner.get(id) as PartnerRow | undefined;
      return row ? toPartner(row) : null;
    },
    async listPartners() {
      return (q.listPartners.all() as PartnerRow[]).map(toPartner);
    },
    async removePartner(id: string) {
      return q.removePartner.run(id).changes === 1;
    },

    async putProvider(provider: ProviderRecord) {
      q.putProvider.run(provider.id, provider.createdAt, JSON.stringify(provider));
    },
    async getProvider(id: string) {
      const row = q.getProvider.get(id) as { data: string } | undefined;
      return row ? (JSON.parse(row.data) as ProviderRecord) : null;
    },
    async listProviders() {
      return (q.listProviders.all() as { data: string }[]).map((r) => JSON.parse(r.data) as ProviderRecord);
    },
    async removeProvider(id: string) {
      return q.removeProvider.run(id).changes === 1;
    },

    async getOrCreateSecret(name: string, value: string) {
      return getOrCreateSecret.immediate(name, value);
    },
    async listSecrets() {
      return Object.fromEntries(
        (q.listSecrets.all() as { name: string; value: string }[]).map((r) => [r.name, r.value]),
      );
    },
    async replaceSecret(name: string, value: string) {
      q.replaceSecret.run(value, name);
    },

    rememberNonce(partnerId: string, nonce: string, expiresAt: number, now: number) {
      return new Promise<boolean>((resolve, reject) => {
        if (closed) return reject(new Error('store is closed'));
        pendingNonces.push({ partnerId, nonce, expiresAt, now, resolve, reject });
        if (pendingNonces.length === 1) setImmediate(flushNonces);
      });
    },

    async hitCounter(key: string, windowMs: number, now: number) {
      return hitCounter.immediate(key, windowMs, now);
    },

    async holdSlot(key: string, slotId: string, cap: number, expiresAt: number, now: number) {
      return holdSlot.immediate(key, slotId, cap, expiresAt, now);
    },
    async releaseSlot(key: string, slotId: string) {
      q.deleteSlot.run(key, slotId);
    },

    async createRequest(record: VerifyRequestRecord) {
      q.insertRequest.run(record.id, record.version, record.expiresAt, JSON.stringify(record));
      feed.changed(record.id);
    },
    async getRequest(id: string, now: number) {
      const row = q.getRequest.get(id) as { data: string } | undefined;
      if (!row) return null;
      const record = JSON.parse(row.data) as VerifyRequestRecord;
      return record.expiresAt > now ? record : null;
    },
    async updateRequest(id: string, expectedVersion: number, patch: VerifyRequestPatch) {
      const next = updateRequest.immediate(id, expectedVersion, patch);
      if (next) feed.changed(id);
      return next;
    },
    waitForRequestChange(id: string, sinceVersion: number, timeoutMs: number, signal?: AbortSignal) {
      return new Promise<void>((resolve) => {
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
    },

    async putGrant(grant: GrantRecord) {
      q.insertGrant.run(grant.digest, grant.expiresAt, JSON.stringify(grant));
    },
    async consumeGrant(digest: string, now: number) {
      const row = q.consumeGrant.get(digest, now) as { data: string } | undefined;
      return row ? (JSON.parse(row.data) as GrantRecord) : null;
    },

    async putExchangeReplay(record: ExchangeReplayRecord, now: number) {
      return putReplay.immediate(record, now);
    },
    async getExchangeReplay(partnerId: string, idempotencyKey: string, now: number) {
      const row = q.getReplay.get(partnerId, idempotencyKey, now) as { data: string } | undefined;
      return row ? (JSON.parse(row.data) as ExchangeReplayRecord) : null;
    },

    async putPassToken(token: PassTokenRecord) {
      q.insertPassToken.run(token.digest, token.expiresAt, JSON.stringify(token));
    },
    async getPassToken(digest: string, now: number) {
      const row = q.getPassToken.get(digest, now) as { data: string } | undefined;
      return row ? (JSON.parse(row.data) as PassTokenRecord) : null;
    },

    async putLoginState(state: LoginStateRecord) {
      q.insertLoginState.run(state.digest, state.expiresAt, JSON.stringify(state));
    },
    async takeLoginState(digest: string, now: number) {
      const row = q.takeLoginState.get(digest) as { expires_at: number; data: string } | undefined;
      return row && row.expires_at > now ? (JSON.parse(row.data) as LoginStateRecord) : null;
    },

    async listKeys(purpose: KeyPurpose) {
      return (q.listKeys.all(purpose) as { data: string }[]).map((r) => JSON.parse(r.data) as SigningKeyRecord);
    },
    async putKey(key: SigningKeyRecord) {
      updateKeys.immediate([key], []);
    },
    async updateKeys(changes: { put?: SigningKeyRecord[]; drop?: string[] }) {
      updateKeys.immediate(changes.put ?? [], changes.drop ?? []);
    },

    async sweep(now: number) {
      return sweep.immediate(now);
    },
    async close() {
      if (closed) return;
      if (pendingNonces.length > 0) flushNonces();
      closed = true;
      feed.closeAll();
      db.close();
    },
  };
}
