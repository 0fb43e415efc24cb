import type { Page } from '@playwright/test';
import { SERVICE_URL } from './urls.ts';

/**
 * Counts the creates (POST /api/w/verify-request with a partner id or a session token) that reach
 * the wire from `page`; `names` counts the bodies with neither, which a loader whose own check
 * failed sends for the service's warnings and which create nothing (docs/embedding.md#warnings).
 * The body is read where the engine gives it to Playwright; Firefox does not for these fetches
 * (postData() is null), so there a POST counts by its answer: 201 a create, anything else names.
 * Counted as the answer arrives: read the counts once the widget shows its QR code or its error.
 *
 * @example const creates = countCreates(page); await page.reload(); expect(creates.count).toBe(1);
 */
export function countCreates(page: Page): { count: number; names: number } {
  const seen = { count: 0, names: 0 };
  page.on('response', (response) => {
    const request = response.request();
    if (request.method() !== 'POST' || request.url() !== `${SERVICE_URL}/api/w/verify-request`) return;
    const text = request.postData();
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    const create = body ? 'partner_id' in body || 'session_token' in body : response.status() === 201;
    if (create) seen.count++;
    else seen.names++;
  });
  return seen;
}
