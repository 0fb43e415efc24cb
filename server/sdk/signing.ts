/**
 * HMAC-SHA256 request signing, exactly as docs/partner-api.md#signing-with-a-worked-example says.
 * Self-contained (node:crypto only) so the SDK can be published on its own; the service's
 * authentication uses these same functions.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';

export interface SignedHeaders {
  'Content-Type': 'application/json';
  'X-Partner-ID': string;
  'X-Partner-Timestamp': string;
  'X-Partner-Nonce': string;
  'X-Partner-Signature': string;
}

/** Step 2: base64url (no padding) of SHA-256 over the exact bytes of the body. */
export function hashBody(body: string | Uint8Array): string {
  return createHash('sha256').update(body).digest('base64url');
}

/** Step 3: bodyHash.timestamp.partnerId.nonce, in this order. */
export function canonicalString(bodyHash: string, timestamp: string, partnerId: string, nonce: string): string {
  return `${bodyHash}.${timestamp}.${partnerId}.${nonce}`;
}

/**
 * Steps 4–5: base64url (no padding) of HMAC-SHA256 keyed with the base64-*decoded* secret.
 *
 * @example computeSignature('BwcH…Bwc=', 'mLlh….1767225600.pk_test_demo.0f8b…') // 'RaLhrktu…'
 */
export function computeSignature(secretBase64: string, canonical: string | Uint8Array): string {
  const hmac = createHmac('sha256', Buffer.from(secretBase64, 'base64'));
  return (typeof canonical === 'string' ? hmac.update(canonical, 'utf8') : hmac.update(canonical)).digest('base64url');
}

/**
 * Signs one request. `body` must be the exact text that will be sent ('' for a GET).
 *
 * @example
 * const body = JSON.stringify({ grant_code });
 * const headers = signRequest({ partnerId, secret, body });
 * await fetch(`${apiUrl}/v1/exchange`, { method: 'POST', headers, body });
 */
export function signRequest(input: {
  partnerId: string;
  secret: string;
  body: string;
  /** Unix seconds; defaults to now */
  timestamp?: number;
  /** defaults to a fresh UUID v4 */
  nonce?: string;
}): SignedHeaders {
  const timestamp = String(input.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = input.nonce ?? randomUUID();
  const signature = computeSignature(
    input.secret,
    canonicalString(hashBody(input.body), timestamp, input.partnerId, nonce),
  );
  return {
    'Content-Type': 'application/json',
    'X-Partner-ID': input.partnerId,
    'X-Partner-Timestamp': timestamp,
    'X-Partner-Nonce': nonce,
    'X-Partner-Signature': signature,
  };
}
