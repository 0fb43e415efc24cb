import type { Page } from '@playwright/test';
import { SERVICE_URL } from './urls.ts';

/**
 * Counts the creates (POST /api/w/verify-request with a partner id or a session token) that reach
 * the wire from `page`; `names` counts the bodies with neither, which a loader whose own check
 * failed sends for the service's warnings and which create nothing (docs/embedding.md#warnings).
 *
 * @example const creates = countCreates(page); await page.reload(); expect(creates.count).toBe(1);
 */
export function countCreates(page: Page): { count: number; names: number } {
  const seen = { count: 0, names: 0 };
  page.on('request', (request) => {
    if (request.method() !== 'POST' || request.url() !== `${SERVICE_URL}/api/w/verify-request`) return;
    const body = (request.postDataJSON() ?? {}) as Record<string, unknown>;
    if ('partner_id' in body || 'session_token' in body) seen.count++;
    else seen.names++;
  });
  return seen;
}
