import type { Page } from '@playwright/test';
import { SERVICE_URL } from './urls.ts';

/**
 * Counts the creates (POST /api/w/verify-request) that reach the wire from `page`.
 *
 * @example const creates = countCreates(page); await page.reload(); expect(creates.count).toBe(1);
 */
export function countCreates(page: Page): { count: number } {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url() === `${SERVICE_URL}/api/w/verify-request`) seen.count++;
  });
  return seen;
}
