/**
 * The non-retention scan (design.md §22, docs/privacy.md "What is kept after a decision"): the
 * pieces of a proof, and everything the service keeps — its SQLite files with their WAL, every
 * Redis key and the AOF, the sealed values opened with the service's own keys, log lines, the
 * metrics scrape, exported spans — searched for every spelling of every piece. Test support, not
 * a test file: server/non-retention.test.ts runs it after each kind of proof.
 *
 * @example
 * const pieces = [binaryPiece('DeviceResponse', bytes), textPiece('birth date', '1992-03-14')];
 * expect(findPieces(await keptBy(service), pieces)).toEqual([]);
 */
import { cborDecode, DataItem } from '@owf/mdoc';
import Database from 'better-sqlite3';
import type Redis from 'ioredis';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A piece of a proof, and every spelling of it a careless service might keep. */
export interface Piece {
  /** what it is, e.g. "pid_sd KB-JWT" */
  name: string;
  /** exact byte sequences, any of which found anywhere is the piece kept */
  needles: Buffer[];
  /** for short values (a nationality, a status index): only these shapes count as the piece */
  patterns: RegExp[];
}

/** One place the service keeps things, as bytes. */
export interface Haystack {
  where: string;
  bytes: Buffer;
}

function encodings(bytes: Buffer): Buffer[] {
  const forms = [
    bytes,
    Buffer.from(bytes.toString('base64')),
    Buffer.from(bytes.toString('base64').replace(/=+$/, '')),
    Buffer.from(bytes.toString('base64url')),
    Buffer.from(bytes.toString('hex')),
    Buffer.from(bytes.toString('hex').toUpperCase()),
  ];
  return forms.filter((form, index) => forms.findIndex((other) => other.equals(form)) === index);
}

/**
 * A piece given as bytes (a DeviceResponse, a salt, a blinded message): found raw, in base64,
 * base64url or hex.
 */
export function binaryPiece(name: string, bytes: Uint8Array): Piece {
  if (bytes.length < 12) throw new Error(`${name}: ${bytes.length} bytes is too short to search for`);
  return { name, needles: encodings(Buffer.from(bytes)), patterns: [] };
}

/**
 * A piece given as text (a presentation, a disclosure, an ID token, a birth date): found as the
 * text, its JSON-escaped form, and every encoding of its UTF-8 bytes; a compact JWS or SD-JWT
 * also by each of its parts, decoded.
 */
export function textPiece(name: string, text: string, otherSpellings: readonly string[] = []): Piece {
  const needles: Buffer[] = [];
  for (const spelling of [text, ...otherSpellings]) {
    if (spelling.length < 8) throw new Error(`${name}: "${spelling}" is too short to search for; use patternPiece`);
    needles.push(...encodings(Buffer.from(spelling, 'utf8')));
    const escaped = JSON.stringify(spelling).slice(1, -1);
    if (escaped !== spelling) needles.push(Buffer.from(escaped));
  }
  return { name, needles, patterns: [] };
}

/** A short value (a nationality code, a status-list index) that counts only in these shapes. */
export function patternPiece(name: string, patterns: RegExp[], needles: Uint8Array[] = []): Piece {
  return { name, needles: needles.map((n) => Buffer.from(n)), patterns };
}

/**
 * Every long byte string inside a CBOR structure (an mdoc DeviceResponse): salts, signatures,
 * the MSO, each IssuerSignedItem (tag 24, decoded in turn), device keys. Certificates (DER
 * SEQUENCEs, the issuer's: public and the same for every credential) are left out.
 */
export function cborByteStrings(bytes: Uint8Array, minLength = 16): Uint8Array[] {
  const found: Uint8Array[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (depth > 32 || value === null || value === undefined) return;
    if (value instanceof DataItem) {
      found.push(value.buffer);
      walk(value.data, depth + 1);
    } else if (value instanceof Uint8Array) {
      if (value.length < minLength || (value[0] === 0x30 && value[1] === 0x82)) return;
      found.push(value);
      try {
        walk(cborDecode(value), depth + 1);
      } catch {
        // not CBOR: a salt, a signature
      }
    } else if (value instanceof Map) {
      for (const [key, item] of value) {
        walk(key, depth + 1);
        walk(item, depth + 1);
      }
    } else if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1);
    } else if (typeof value === 'object') {
      for (const item of Object.values(value as object)) walk(item, depth + 1);
    }
  };
  walk(cborDecode(bytes), 0);
  return found.filter((part) => part.length >= minLength);
}

/** Runs of base64url text long enough to be an encoded piece, decoded: what a re-encoding would hide. */
function decodedRuns(bytes: Buffer): Buffer {
  const runs = bytes.toString('latin1').match(/[A-Za-z0-9_-]{24,}/g) ?? [];
  return Buffer.concat(runs.map((run) => Buffer.from(run, 'base64url')));
}

/**
 * What of `pieces` is in `haystacks`: one line per piece and place (`"<piece>" in <where>`),
 * empty when nothing is kept. Each haystack is searched as it is and with its base64url runs
 * decoded.
 */
export function findPieces(haystacks: readonly Haystack[], pieces: readonly Piece[]): string[] {
  const found: string[] = [];
  for (const haystack of haystacks) {
    const forms = [haystack.bytes, decodedRuns(haystack.bytes)];
    const texts = forms.map((form) => form.toString('latin1'));
    for (const piece of pieces) {
      const hit =
        piece.needles.some((needle) => forms.some((form) => form.includes(needle))) ||
        piece.patterns.some((pattern) => texts.some((text) => pattern.test(text)));
      if (hit) found.push(`"${piece.name}" in ${haystack.where}`);
    }
  }
  return found;
}

/** Every file of a SQLite data folder, raw (the database, its -wal and -shm), and every row of every table. */
export function sqliteHaystacks(dataDir: string, file = 'svc.sqlite'): Haystack[] {
  const haystacks: Haystack[] = [];
  for (const name of readdirSync(dataDir)) {
    const path = join(dataDir, name);
    if (statSync(path).isFile()) haystacks.push({ where: `file ${name}`, bytes: readFileSync(path) });
  }
  const db = new Database(join(dataDir, file), { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    for (const table of tables)
      haystacks.push({
        where: `table ${table}`,
        bytes: Buffer.from(JSON.stringify(db.prepare(`SELECT * FROM "${table}"`).raw().all())),
      });
  } finally {
    db.close();
  }
  return haystacks;
}

/**
 * Every key of a Redis server, each with its whole value read by its type, and the server's
 * append-only files (every write since it started: what a deleted key once held).
 */
export async function redisHaystacks(client: Redis, dir: string | null): Promise<Haystack[]> {
  const haystacks: Haystack[] = [];
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  for (const key of keys) {
    const type = await client.type(key);
    let value: unknown;
    if (type === 'string') value = await client.getBuffer(key);
    else if (type === 'hash') value = await client.hgetall(key);
    else if (type === 'set') value = await client.smembers(key);
    else if (type === 'zset') value = await client.zrange(key, 0, -1, 'WITHSCORES');
    else if (type === 'list') value = await client.lrange(key, 0, -1);
    else if (type === 'stream') value = await client.xrange(key, '-', '+');
    else throw new Error(`redis key ${key} of type ${type}: the scan does not read it`);
    const bytes = Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value));
    haystacks.push({ where: `redis key ${key}`, bytes: Buffer.concat([Buffer.from(key), Buffer.from(' '), bytes]) });
  }
  if (dir !== null) {
    const walk = (folder: string): void => {
      for (const name of readdirSync(folder)) {
        const path = join(folder, name);
        if (statSync(path).isDirectory()) walk(path);
        else haystacks.push({ where: `redis file ${name}`, bytes: readFileSync(path) });
      }
    };
    if (existsSync(dir)) walk(dir);
  }
  return haystacks;
}

/** Text as a haystack. */
export function textHaystack(where: string, text: string): Haystack {
  return { where, bytes: Buffer.from(text, 'utf8') };
}
