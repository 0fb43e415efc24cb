/**
 * Sealing at rest: partner secrets, signing keys, service secrets, identity providers'
 * credentials and login states' PKCE verifiers and nonces are stored encrypted under a master key
 * the store never holds (design.md §5).
 *
 * - The master key is 32 random bytes: `SVC_MASTER_KEY` (base64) in production; in sandbox, when
 *   that is unset, a key generated once into `<data folder>/master.key`.
 * - A sealed value is `sealed:v1:<key id>:<iv>:<ciphertext>:<tag>`: AES-256-GCM (node:crypto)
 *   under a key derived from the master key with HKDF-SHA256, and the field it belongs to as
 *   associated data, so a sealed value copied into another record does not open there.
 * - The key id (8 bytes of a hash of the master key) names which key sealed a value, so a
 *   keyring of the current key and the previous ones (`SVC_MASTER_KEY_PREVIOUS`) opens values
 *   during a rotation, and `svc master-key rotate` re-seals them under the current key.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors.ts';

const PREFIX = 'sealed:v1:';
const KEY_BYTES = 32;
/** The sandbox master key file, in the data folder. */
export const MASTER_KEY_FILE = 'master.key';

interface MasterKey {
  id: string;
  key: Buffer;
}

export interface Keyring {
  /** id of the key that seals new values */
  readonly currentId: string;
  /** every key id that can open values, the current one first */
  readonly ids: readonly string[];
  seal(context: string, plaintext: string): string;
  /** throws SealError when the value was sealed by a key not in the ring, or was altered */
  open(context: string, sealed: string): string;
  /** the id of the key that sealed `value` (`sealedKeyId`), null for a plain value */
  keyIdOf(value: string): string | null;
}

export class SealError extends Error {
  override name = 'SealError';
}

export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

/** The key id a sealed value names, or null for a plain value. */
export function sealedKeyId(value: string): string | null {
  if (!isSealed(value)) return null;
  return value.slice(PREFIX.length).split(':', 1)[0] ?? null;
}

function keyId(key: Buffer): string {
  return createHash('sha256').update('svc-master-key-id').update(key).digest('hex').slice(0, 16);
}

function toMasterKey(key: Buffer): MasterKey {
  return { id: keyId(key), key: Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'svc-at-rest/v1', KEY_BYTES)) };
}

/**
 * Decodes base64 of exactly 32 bytes; throws ConfigError naming `name` otherwise.
 *
 * @example parseMasterKey(process.env.SVC_MASTER_KEY!, 'SVC_MASTER_KEY')
 */
export function parseMasterKey(text: string, name: string): Buffer {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || key.length !== KEY_BYTES) {
    throw new ConfigError(`${name} must be base64 of exactly 32 random bytes (e.g. openssl rand -base64 32)`);
  }
  return key;
}

/** A new master key, base64. */
export function newMasterKey(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}

/**
 * A keyring from raw keys, the first one current.
 *
 * @example const ring = createKeyring([parseMasterKey(env.SVC_MASTER_KEY, 'SVC_MASTER_KEY')])
 */
export function createKeyring(keys: readonly Buffer[]): Keyring {
  if (keys.length === 0) throw new Error('createKeyring needs at least one key');
  const ring = new Map<string, MasterKey>();
  for (const raw of keys) {
    const key = toMasterKey(raw);
    if (!ring.has(key.id)) ring.set(key.id, key);
  }
  const current = toMasterKey(keys[0]!);
  const ids = [...ring.keys()];
  return {
    currentId: current.id,
    ids,
    keyIdOf: sealedKeyId,
    seal(context, plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current.key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const parts = [current.id, iv, body, cipher.getAuthTag()].map((p) =>
        typeof p === 'string' ? p : p.toString('base64url'),
      );
      return PREFIX + parts.join(':');
    },
    open(context, sealed) {
      if (!isSealed(sealed)) throw new SealError(`${context} is not sealed`);
      const [id, iv, body, tag] = sealed.slice(PREFIX.length).split(':');
      const key = id === undefined ? undefined : ring.get(id);
      if (!key)
        throw new SealError(
          `${context} was sealed with master key ${id}, which is not in this process's keyring (${ids.join(', ')})`,
        );
      try {
        const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv ?? '', 'base64url'));
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body ?? '', 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SealError(`${context} does not open with master key ${id}: altered, or moved from another record`);
      }
    },
  };
}

export interface MasterKeySource {
  mode: 'sandbox' | 'production';
  dataDir: string;
  /** SVC_MASTER_KEY, base64 */
  masterKey: string | null;
  /** SVC_MASTER_KEY_PREVIOUS: keys that still open values during a rotation, base64, comma-separated */
  previousMasterKeys: string | null;
}

/**
 * The process's keyring: SVC_MASTER_KEY (+ SVC_MASTER_KEY_PREVIOUS); in sandbox without it, the
 * data folder's key file, created on first use. Production without SVC_MASTER_KEY is refused.
 *
 * @example const keyring = loadKeyring(config)
 */
export function loadKeyring(source: MasterKeySource): Keyring {
  const previous = (source.previousMasterKeys ?? '')
    .split(',')
    .filter((s) => s.trim() !== '')
    .map((s, i) => parseMasterKey(s, `SVC_MASTER_KEY_PREVIOUS (key ${i + 1})`));
  if (source.masterKey !== null)
    return createKeyring([parseMasterKey(source.masterKey, 'SVC_MASTER_KEY'), ...previous]);
  if (source.mode === 'production') {
    throw new ConfigError(
      'SVC_MODE=production requires SVC_MASTER_KEY (base64 of 32 random bytes); it seals secrets at rest',
    );
  }
  return createKeyring([...readKeyFile(source.dataDir), ...previous]);
}

/** The sandbox key file's keys, current first; the file is created (0600) when missing. */
function readKeyFile(dataDir: string): Buffer[] {
  const path = join(dataDir, MASTER_KEY_FILE);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeNewFile(path, `${newMasterKey()}\n`);
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  if (lines.length === 0) throw new ConfigError(`${path} holds no master key`);
  return lines.map((line, i) => parseMasterKey(line, `${path} (line ${i + 1})`));
}

/** Writes `text` to `path` only if nothing is there, atomically: racing processes agree on one file. */
function writeNewFile(path: string, text: string): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * Sandbox rotation: puts a new key first in the data folder's key file and keeps the old ones
 * after it, so values not yet re-sealed still open. Returns the new keyring.
 */
export function rotateKeyFile(dataDir: string): Keyring {
  replaceKeyFile(dataDir, [randomBytes(KEY_BYTES), ...readKeyFile(dataDir)]);
  return createKeyring(readKeyFile(dataDir));
}

/** After a complete re-seal: the key file keeps only its current key. */
export function pruneKeyFile(dataDir: string): void {
  replaceKeyFile(dataDir, readKeyFile(dataDir).slice(0, 1));
}

function replaceKeyFile(dataDir: string, keys: Buffer[]): void {
  const path = join(dataDir, MASTER_KEY_FILE);
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, keys.map((key) => `${key.toString('base64')}\n`).join(''));
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}
