/**
 * Nullifiers (DESIGN §5): one stable pseudonym per person and audience, so a site can tell a
 * returning visitor without learning who they are, and two sites cannot link their visitors.
 */
import { createHmac } from 'node:crypto';

/**
 * `0x` + hex(HMAC-SHA256(key, userId + "|" + audience)); audience is the partner ID (STANDARD)
 * or the blind app id (ADULT_BLIND).
 *
 * @example computeNullifier(deps.nullifierKey, 'fr-adult-m', 'pk_test_demo') // '0x21e9…b5d1'
 */
export function computeNullifier(key: Uint8Array, userId: string, audience: string): string {
  return `0x${createHmac('sha256', key).update(`${userId}|${audience}`, 'utf8').digest('hex')}`;
}
