import { expect, test, type Page, type Request } from '@playwright/test';
import { answerOnPhonePage, completeVerification, deepLinkOf, waitForWidgetState, widget } from './support/qa.ts';

const BLIND_PARTNER_ID = 'pk_test_blind_shop';

/** Every request the visitor's browser sends to another origin than the partner's (the service). */
function watchServiceRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.context().on('request', (request) => {
    if (new URL(request.url()).origin !== new URL(page.url() || 'about:blank').origin) seen.push(request);
  });
  return seen;
}

function expectNoPartnerId(requests: Request[]): void {
  expect(requests.length).toBeGreaterThan(0);
  for (const request of requests) {
    const sent = `${request.url()} ${JSON.stringify(request.headers())} ${request.postData() ?? ''}`;
    expect(sent).not.toContain(BLIND_PARTNER_ID);
  }
}

test('ADULT_BLIND: a desktop visitor scans the QR, approves on the phone, the partner backend verifies offline', async ({
  page,
  context,
}) => {
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });

  await page.goto('/blind?scopes=isAdult,isUnique');
  const serviceRequests = watchServiceRequests(page);
  await waitForWidgetState(page, 'waiting');
  await expect(widget(page).getByTestId('svc-qr')).toBeVisible();

  const phone = await context.newPage();
  await phone.goto(await deepLinkOf(page));
  // The phone names the blind app, never the shop.
  await expect(phone.getByTestId('audience')).toHaveText('An anonymous site asks you to prove:');
  await expect(phone.locator('main')).toContainText('app_blind_shop');
  await expect(phone.locator('body')).not.toContainText('Blind Shop');
  await answerOnPhonePage(phone, { persona: 'fr-adult-m', outcome: 'approved' });
  await expect(phone.getByTestId('outcome')).toContainText('Verification approved');

  // The page tells its success page what it asked for, to tell "no" from "not asked".
  await page.waitForURL((url) => url.pathname === '/blind/success');
  expect(new URL(page.url()).search).toBe('?scopes=isAdult,isUnique');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  await expect(page.locator('dd[data-attribute="adult"]')).toHaveText('yes');
  await expect(page.locator('dd[data-attribute="french"]')).toHaveText('not asked');
  await expect(page.locator('dd[data-attribute="nullifier"]')).toHaveText(/^0x[0-9a-f]{64}$/);
  await expect(page.getByTestId('result')).toContainText('checked this result’s signature itself');
  expect(visited.some((url) => /\/blind\/success\?[^#]*#attestation=ey[\w-]+\.[\w-]+\.[\w-]+/.test(url))).toBe(true);
  // The page removed the attestation from the address bar.
  expect(new URL(page.url()).hash).toBe('');
  // The visitor's browser never told the service which shop it is on.
  expectNoPartnerId(serviceRequests);
});

test('ADULT_BLIND: every page load gets a fresh session token', async ({ page }) => {
  const tokenOf = async () => page.locator('script[data-session-token]').getAttribute('data-session-token');
  await page.goto('/blind');
  const first = await tokenOf();
  await page.reload();
  const second = await tokenOf();
  expect(first).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
  expect(second).not.toBe(first);
});

test('ADULT_BLIND server-verify: the widget waits for the backend to verify the attestation, then lands on success', async ({
  page,
}) => {
  const confirmations: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/blind/confirm')) confirmations.push(request.headers()['x-svc-attestation'] ?? '');
  });
  await page.goto('/blind-server-verify');
  const serviceRequests = watchServiceRequests(page);
  await completeVerification(page, { via: 'api', persona: 'de-adult' });
  await page.waitForURL('**/blind/success');
  expect(confirmations.length).toBeGreaterThan(0);
  expect(confirmations.every((attestation) => attestation.split('.').length === 3)).toBe(true);
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  await expect(page.locator('dd[data-attribute="adult"]')).toHaveText('yes');
  // Only isAdult was asked for: the attestation's clear French bit means "not asked", not "no".
  await expect(page.locator('dd[data-attribute="french"]')).toHaveText('not asked');
  await expect(page.locator('dd[data-attribute="eu"]')).toHaveText('not asked');
  // The confirm endpoint verified it first; the success page gets the same answer from memory.
  await expect(page.getByTestId('result')).toContainText('had already checked this result');
  expectNoPartnerId(serviceRequests);
});

test('ADULT_BLIND: a minor is answered honestly by the offline check', async ({ page }) => {
  await page.goto('/blind');
  await completeVerification(page, { via: 'api', persona: 'fr-minor' });
  await page.waitForURL('**/blind/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'refused');
  await expect(page.locator('dd[data-attribute="adult"]')).toHaveText('no');
});
