import { expect, test } from '@playwright/test';
import { completeVerification, waitForWidgetState } from './support/qa.ts';

test('server-verify waits for the partner backend, then lands on the success page with the remembered exchange', async ({
  page,
}) => {
  const confirmations: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/confirm')) confirmations.push(request.headers()['x-svc-grant-code'] ?? '');
  });
  await page.goto('/server-verify');
  await completeVerification(page, { via: 'api' });
  await page.waitForURL('**/success');
  expect(confirmations.length).toBeGreaterThan(0);
  expect(confirmations.every((grant) => grant.startsWith('g_'))).toBe(true);
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  // The confirmation endpoint already spent the grant; the success page gets the same answer.
  await expect(page.getByTestId('result')).toContainText('had already confirmed this result');
  await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('yes');
});

test('server-verify reports SERVER_VERIFY_TIMEOUT through onError when the backend never confirms', async ({
  page,
}) => {
  await page.goto('/server-verify-timeout');
  const started = Date.now();
  await completeVerification(page, { via: 'api' });
  await waitForWidgetState(page, 'confirming');
  await expect(page.locator('html')).toHaveAttribute('data-last-error', 'SERVER_VERIFY_TIMEOUT', { timeout: 15_000 });
  expect(Date.now() - started).toBeGreaterThanOrEqual(2_500);
  await expect(page.getByTestId('events')).toContainText('error: SERVER_VERIFY_TIMEOUT');
  await waitForWidgetState(page, 'error');
  expect(new URL(page.url()).pathname).toBe('/server-verify-timeout');
});
