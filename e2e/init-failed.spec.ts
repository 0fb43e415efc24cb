import { expect, test, type Page } from '@playwright/test';
import { loaderTag, servePartnerPage } from './support/pages.ts';
import { waitForWidgetState } from './support/qa.ts';

/** A page whose script defines onError before the loader runs; errors land on <html>. */
async function pageWithLoader(page: Page, path: string, attributes: Record<string, string>): Promise<string> {
  await page.route('**/e2e-assets/on-error.js', (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body:
        'window.e2eErrors = []; window.e2eOnError = function (e) { window.e2eErrors.push(e); ' +
        'document.documentElement.setAttribute("data-last-error", e.code); };',
    }),
  );
  return servePartnerPage(
    page,
    path,
    `<script src="/e2e-assets/on-error.js"></script><div id="svc-widget"></div>${loaderTag({ 'on-error': 'e2eOnError', ...attributes })}`,
  );
}

async function expectInitFailed(page: Page): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-last-error', 'INIT_FAILED');
  const errors = await page.evaluate(
    () => (window as unknown as { e2eErrors: Array<{ code: string; retryable: boolean; message: string }> }).e2eErrors,
  );
  expect(errors[0]).toMatchObject({ code: 'INIT_FAILED' });
  expect(typeof errors[0]!.message).toBe('string');
  await waitForWidgetState(page, 'error');
}

test('an unknown partner ID ends in INIT_FAILED', async ({ page }) => {
  const url = await pageWithLoader(page, '/e2e/unknown-partner', {
    'partner-id': 'pk_test_nobody',
    'success-path': '/success',
  });
  await page.goto(url);
  await expectInitFailed(page);
});

test('a success path on another origin ends in INIT_FAILED and nothing navigates', async ({ page }) => {
  let created = 0;
  page.on('request', (request) => {
    if (request.url().includes('/api/w/verify-request')) created++;
  });
  for (const [i, path] of ['https://evil.example/steal', '//evil.example/steal', '/\\evil.example'].entries()) {
    const url = await pageWithLoader(page, `/e2e/off-origin-${i}`, {
      'partner-id': 'pk_test_demo',
      'success-path': path,
    });
    await page.goto(url);
    await expectInitFailed(page);
    expect(page.url()).toBe(url);
  }
  expect(created).toBe(0);
});

test('a partner ID mixed with a session token ends in INIT_FAILED', async ({ page }) => {
  const url = await pageWithLoader(page, '/e2e/mixed', {
    'partner-id': 'pk_test_demo',
    'session-token': 'eyJhbGciOiJFZERTQSJ9.e30.sig',
    'success-path': '/success',
  });
  await page.goto(url);
  await expectInitFailed(page);
});

test('onError still receives an INIT_FAILED that happened before it subscribed', async ({ page }) => {
  const url = await servePartnerPage(
    page,
    '/e2e/late-subscriber',
    `<div id="svc-widget"></div>${loaderTag({ 'partner-id': 'pk_test_nobody', 'success-path': '/success' })}`,
  );
  await page.goto(url);
  await waitForWidgetState(page, 'error');
  const code = await page.evaluate(
    () =>
      new Promise<string>((resolve) =>
        (window as unknown as { SVC: { onError(fn: (e: { code: string }) => void): void } }).SVC.onError((e) =>
          resolve(e.code),
        ),
      ),
  );
  expect(code).toBe('INIT_FAILED');
});
