import { expect, test, type Page, type Request } from '@playwright/test';
import { watchCspViolations } from './support/pages.ts';
import { completeVerification, waitForWidgetState, widget } from './support/qa.ts';

/** Every request the visitor's browser sends to the service (another origin than the partner's). */
function watchServiceRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.context().on('request', (request) => {
    if (new URL(request.url()).port === '8787') seen.push(request);
  });
  return seen;
}

test('private attestation: the widget blinds a token for the page, the partner verifies it offline once', async ({
  page,
}) => {
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });
  const violations = await watchCspViolations(page);
  const serviceRequests = watchServiceRequests(page);

  await page.goto('/private');
  const context = await page.locator('script[data-redemption-context]').getAttribute('data-redemption-context');
  expect(context).toMatch(/^[\w-]{43}$/);
  await waitForWidgetState(page, 'waiting');
  await expect(widget(page).getByTestId('svc-qr')).toBeVisible();
  await completeVerification(page, { via: 'api', persona: 'fr-adult-m' });

  await page.waitForURL((url) => url.pathname === '/private/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  await expect(page.locator('dd[data-attribute="adult"]')).toHaveText('yes');
  await expect(page.locator('dd[data-attribute="french"]')).toHaveText('not asked');
  // `<base64url token>.<base64url metadata>`: a type 2 token (2+32+32+32+256 bytes: 472 characters)
  const arrived = visited.find((url) => url.includes('#attestation='))!;
  const attestation = decodeURIComponent(/#attestation=([^&]+)/.exec(arrived)![1]!);
  expect(attestation).toMatch(/^AA[I-L][\w-]{469}\.[\w-]+$/);
  expect(new URL(page.url()).hash).toBe('');

  // The blinding chunk came from the service beside the UI bundle, under the page's CSP; the
  // service was sent one blinded token request, never the redemption context or the token.
  const urls = serviceRequests.map((r) => new URL(r.url()).pathname);
  expect(urls.some((u) => /^\/v4\/ui\.[\w-]+-private\.js$/.test(u))).toBe(true);
  expect(urls.filter((u) => u.startsWith('/api/w/private-attestation/'))).toHaveLength(1);
  for (const request of serviceRequests) {
    const sent = `${request.url()} ${JSON.stringify(request.headers())} ${request.postData() ?? ''}`;
    expect(sent).not.toContain(context!);
    expect(sent).not.toContain(attestation.split('.')[0]!);
  }
  expect(await violations()).toEqual([]);
  // after the CSP check: Firefox counts the style Playwright adds for a screenshot
  await page.screenshot({ path: test.info().outputPath('private-success.png'), fullPage: true });

  // The same token again (the success page loaded anew with it): the context is used up.
  await page.goto('about:blank');
  await page.goto(arrived);
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'used');
  await expect(page.locator('dd[data-attribute="error"]')).toHaveText('REUSED');
});
