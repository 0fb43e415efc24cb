/** Opaque tokens (design.md §5): 32 random bytes, base64url, with their prefix; stored as digests. */
import { createHash, randomBytes } from 'node:crypto';
import { PREFIX } from '../../src/protocol/wire.ts';

/** @example newToken('grant') // "g_3q2-…" (45 characters) */
export function newToken(kind: 'grant' | 'pass' | 'poll' | 'handoff'): string {
  return PREFIX[kind] + randomBytes(32).toString('base64url');
}

/** Request ids are shorter: they appear in URLs and logs and are not secrets. */
export function newRequestId(): string {
  return PREFIX.request + randomBytes(16).toString('base64url');
}

/** SHA-256 of the token text, base64url: the only form in which the store sees a token. */
export function digestToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

/** Shape check before any lookup: prefix + 43 base64url characters. */
export function isTokenShaped(value: unknown, kind: 'grant' | 'pass' | 'poll' | 'handoff'): value is string {
  return (
    typeof value === 'string' &&
    value.length === PREFIX[kind].length + 43 &&
    value.startsWith(PREFIX[kind]) &&
    /^[A-Za-z0-9_-]{43}$/.test(value.slice(PREFIX[kind].length))
  );
}
