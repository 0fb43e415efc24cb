/**
 * Sealing a value with a token the store does not keep.
 *
 * Why: the browser must fetch its grant code (or attestation) by poll token, and a retried
 * exchange must get its first answer again, yet design.md §5 forbids storing tokens. So the value
 * is encrypted (AES-256-GCM) under a key derived (HKDF-SHA256) from the token the caller will
 * present again; the store holds only the token's digest and the ciphertext.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

function deriveKey(token: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', token, Buffer.alloc(0), `svc-seal/${purpose}`, 32));
}

/** @example const sealed = seal(pollToken, 'result', JSON.stringify({ grant_code })) */
export function seal(token: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(token, purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    body.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
  ].join('.');
}

/** The plaintext, or null when the token is wrong or the box was tampered with. */
export function unseal(token: string, purpose: string, sealed: string): string | null {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== VERSION || !iv || !body || !tag) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', deriveKey(token, purpose), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
