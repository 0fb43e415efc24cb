/**
 * Nullifiers (design.md §5): one stable pseudonym per person and audience, so a site can tell a
 * returning visitor without learning who they are, and two sites cannot link their visitors.
 */
import { createHmac } from 'node:crypto';

/**
 * Whose pseudonym it is: `partner:` + partner ID (STANDARD) or `app:` + blind app id
 * (ADULT_BLIND), so a partner ID and a blind app id of the same value never share nullifiers.
 */
export type NullifierAudience = `partner:${string}` | `app:${string}`;

/**
 * `0x` + hex(HMAC-SHA256(key, userId + "|" + audience)) (design.md §5).
 *
 * @example computeNullifier(deps.nullifierKey, 'fr-adult-m', 'partner:pk_test_demo')
 */
export function computeNullifier(key: Uint8Array, userId: string, audience: NullifierAudience): string {
  return `0x${createHmac('sha256', key).update(`${userId}|${audience}`, 'utf8').digest('hex')}`;
}
