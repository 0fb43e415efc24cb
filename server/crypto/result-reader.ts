/**
 * What opens the result of a request a partner created through the signed variant (the partner
 * polls with its signature, not a poll token): a key per partner, derived (HKDF-SHA256) from a
 * service secret and the partner ID. Not the partner's own secret, which a rotation would change
 * while a request is open.
 */
import { hkdfSync } from 'node:crypto';

/**
 * The partner's result-reader key, base64url.
 *
 * @example createResultLock(resultReaderKey(secret, 'pk_test_demo'))
 */
export function resultReaderKey(secret: Uint8Array, partnerId: string): string {
  return Buffer.from(
    hkdfSync('sha256', secret, Buffer.alloc(0), `svc/partner-result-reader/${partnerId}`, 32),
  ).toString('base64url');
}
