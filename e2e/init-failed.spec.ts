import { expect, test, type Page } from '@playwright/test';
import { loaderTag, servePartnerPage } from './support/pages.ts';
import { waitForWidgetState, widget } from './support/qa.ts';
import { countCreates } from './support/wire.ts';

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
  const creates = countCreates(page);
  for (const [i, path] of ['https://evil.example/steal', '//evil.example/steal', '/\\evil.example'].entries()) {
    const url = await pageWithLoader(page, `/e2e/off-origin-${i}`, {
      'partner-id': 'pk_test_demo',
      'success-path': path,
    });
    await page.goto(url);
    await expectInitFailed(page);
    expect(page.url()).toBe(url);
  }
  expect(creates.count).toBe(0);
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

test('a configuration error tells the visitor the site is not set up, and the console names the origin and the fix', async ({
  page,
}) => {
  const errors: string[] = [];
  const warnings: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
  // pk_test_other is registered on http://127.0.0.1:8788, not on this page's origin
  const url = await pageWithLoader(page, '/e2e/origin-not-allowed', {
    'partner-id': 'pk_test_other',
    'success-path': '/success',
    locale: 'en',
  });
  await page.goto(url);
  await expectInitFailed(page);
  const card = widget(page).getByTestId('svc-card');
  await expect(card).toContainText('This site’s age check is not set up correctly.');
  await expect(card).not.toContainText('not responding');
  await expect(widget(page).getByTestId('svc-retry')).toHaveCount(0);
  const origin = new URL(url).origin;
  expect(errors.join('\n')).toContain(`ORIGIN_NOT_ALLOWED ${origin}`);
  // the partner exists: the fix is to move its domain, with a command that runs as printed
  expect(warnings).toContain(
    `[svc] ${origin} is not pk_test_other's domain: npm run svc -- partners update pk_test_other --domain ${origin}`,
  );
});

test('data-locale="en-GB" is English, and de-AT German, never INIT_FAILED', async ({ page }) => {
  for (const [locale, words] of [
    ['en-GB', 'Scan this QR code'],
    ['de-AT', 'Scannen Sie den QR-Code'],
  ] as const) {
    const url = await pageWithLoader(page, `/e2e/locale-${locale}`, {
      'partner-id': 'pk_test_demo',
      'success-path': '/success',
      locale,
    });
    await page.goto(url);
    await waitForWidgetState(page, 'waiting');
    await expect(widget(page).getByTestId('svc-card')).toContainText(words);
  }
});
