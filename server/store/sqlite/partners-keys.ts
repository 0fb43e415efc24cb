/** Partners, signing keys and service secrets in SQLite: records an operator makes, kept until removed. */
import type { PartnerRecord, SigningKeyRecord, Store } from '../store.ts';
import { immediate, parseRow, type Db } from './connection.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS partners (
  id TEXT PRIMARY KEY, secret TEXT NOT NULL, name TEXT NOT NULL, domain TEXT NOT NULL,
  rail TEXT NOT NULL, blind_app_id TEXT, allowed_scopes TEXT, created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS signing_keys (
  kid TEXT PRIMARY KEY, purpose TEXT NOT NULL, created_at INTEGER NOT NULL, data TEXT NOT NULL
);
`;

/** Columns added after the first release, created on open when missing. */
const PARTNER_COLUMNS_ADDED = {
  previous_secret: 'TEXT',
  previous_secret_until: 'INTEGER',
  disabled_at: 'INTEGER',
  attestation: 'TEXT',
  wallet_formats: 'TEXT',
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
  wallet_formats: string | null;
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
    walletFormats: row.wallet_formats === 'mso_mdoc' || row.wallet_formats === 'dc+sd-jwt' ? row.wallet_formats : null,
  };
}

function toPartnerRow(p: PartnerRecord): PartnerRow {
  return {
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
    wallet_formats: p.walletFormats ?? null,
  };
}

function createTables(db: Db): void {
  db.exec(SCHEMA);
  const partnerColumns = new Set((db.pragma('table_info(partners)') as { name: string }[]).map((c) => c.name));
  for (const [column, type] of Object.entries(PARTNER_COLUMNS_ADDED)) {
    if (!partnerColumns.has(column)) db.exec(`ALTER TABLE partners ADD COLUMN ${column} ${type}`);
  }
}

type PartnerMethods = Pick<Store, 'putPartner' | 'getPartner' | 'listPartners' | 'removePartner'>;

function partnerMethods(db: Db): PartnerMethods {
  const put = db.prepare(
    `INSERT INTO partners (id, secret, name, domain, rail, blind_app_id, allowed_scopes, created_at,
       previous_secret, previous_secret_until, disabled_at, attestation, wallet_formats)
     VALUES (@id, @secret, @name, @domain, @rail, @blind_app_id, @allowed_scopes, @created_at,
       @previous_secret, @previous_secret_until, @disabled_at, @attestation, @wallet_formats)
     ON CONFLICT (id) DO UPDATE SET secret = excluded.secret, name = excluded.name, domain = excluded.domain,
       rail = excluded.rail, blind_app_id = excluded.blind_app_id, allowed_scopes = excluded.allowed_scopes,
       previous_secret = excluded.previous_secret, previous_secret_until = excluded.previous_secret_until,
       disabled_at = excluded.disabled_at, attestation = excluded.attestation,
       wallet_formats = excluded.wallet_formats`,
  );
  const get = db.prepare('SELECT * FROM partners WHERE id = ?');
  const list = db.prepare('SELECT * FROM partners ORDER BY created_at, id');
  const remove = db.prepare('DELETE FROM partners WHERE id = ?');
  return {
    putPartner: async (partner) => void put.run(toPartnerRow(partner)),
    getPartner: async (id) => {
      const row = get.get(id) as PartnerRow | undefined;
      return row ? toPartner(row) : null;
    },
    listPartners: async () => (list.all() as PartnerRow[]).map(toPartner),
    removePartner: async (id) => remove.run(id).changes === 1,
  };
}

type SecretMethods = Pick<Store, 'getOrCreateSecret' | 'listSecrets' | 'replaceSecret'>;

function secretMethods(db: Db): SecretMethods {
  const insert = db.prepare('INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING');
  const get = db.prepare('SELECT value FROM secrets WHERE name = ?');
  const list = db.prepare('SELECT name, value FROM secrets ORDER BY name');
  const replace = db.prepare('UPDATE secrets SET value = ? WHERE name = ?');
  const getOrCreate = immediate(db, (name: string, value: string): string => {
    insert.run(name, value);
    return (get.get(name) as { value: string }).value;
  });
  return {
    getOrCreateSecret: async (name, value) => getOrCreate(name, value),
    listSecrets: async () =>
      Object.fromEntries((list.all() as { name: string; value: string }[]).map((r) => [r.name, r.value])),
    replaceSecret: async (name, value) => void replace.run(value, name),
  };
}

type KeyMethods = Pick<Store, 'listKeys' | 'putKey' | 'updateKeys'>;

function keyMethods(db: Db): KeyMethods {
  const list = db.prepare('SELECT data FROM signing_keys WHERE purpose = ? ORDER BY created_at, kid');
  const put = db.prepare(
    `INSERT INTO signing_keys (kid, purpose, created_at, data) VALUES (?, ?, ?, ?)
     ON CONFLICT (kid) DO UPDATE SET purpose = excluded.purpose, data = excluded.data`,
  );
  const drop = db.prepare('DELETE FROM signing_keys WHERE kid = ?');
  const update = immediate(db, (keys: SigningKeyRecord[], kids: string[]) => {
    for (const key of keys) put.run(key.kid, key.purpose, key.createdAt, JSON.stringify(key));
    for (const kid of kids) drop.run(kid);
  });
  return {
    listKeys: async (purpose) => list.all(purpose).map((row) => parseRow<SigningKeyRecord>(row)!),
    putKey: async (key) => update([key], []),
    updateKeys: async (changes) => update(changes.put ?? [], changes.drop ?? []),
  };
}

/** Partners, service secrets and signing keys over `db`, creating their tables when missing. */
export function partnersAndKeys(db: Db): PartnerMethods & SecretMethods & KeyMethods {
  createTables(db);
  return { ...partnerMethods(db), ...secretMethods(db), ...keyMethods(db) };
}
