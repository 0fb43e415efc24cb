/**
 * No third party on the page (design.md §22, docs/compliance.md): the example partner's index,
 * its page with the widget, the phone page, the success page and the demo request nothing but
 * from the service's origin and their own, the service sets no cookie but `svc_login`, and no
 * script reads a fingerprinting surface. The watch is shown to catch a web font from another
 * origin (127.0.0.2 standing in for a third party), a canvas read-back and a script's cookie.
 */
import { expect, test } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerOnPhonePage, deepLinkOf, waitForWidgetState } from './support/qa.ts';
import { loaderTag, servePartnerPage, STRICT_CSP } from './support/pages.ts';
import { watchThirdParties } from './support/third-party.ts';
import { PARTNER_URL, SERVICE_URL } from './support/urls.ts';

test('the example partner, its widget page, the phone page and the success page reach only their own origin and the service', async ({
  page,
  context,
}) => {
  const watch = await watchThirdParties(context);
  await page.goto('/');
  await page.goto('/standard?scopes=isAdult,isFrench');
  await waitForWidgetState(page, 'waiting');
  const phone = await context.newPage();
  await phone.goto(await deepLinkOf(page));
  await answerOnPhonePage(phone, { persona: 'fr-adult-f', outcome: 'approved' });
  await page.waitForURL('**/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');

  expect(await watch.findings()).toEqual([]);
  // It watched what it claims to: the partner's pages, the service's loader and API, the phone page.
  const origins = new Set(watch.requests.map((line) => new URL(line.split(' → ')[1]!).origin));
  expect(origins).toEqual(new Set([PARTNER_URL, SERVICE_URL]));
  expect(watch.requests.some((line) => line.startsWith(`${SERVICE_URL} → ${SERVICE_URL}/api/m/`))).toBe(true);
  expect(watch.requests.some((line) => line.startsWith(`${PARTNER_URL} → ${SERVICE_URL}/api/w/`))).toBe(true);
  for (const cookie of await context.cookies(SERVICE_URL)) expect(['svc_login', 'shop_session']).toContain(cookie.name);
});

test('the demo page and a live request on it reach only the service', async ({ page, context, browserName }) => {
  // The demo renders the designers' gallery too: slow in Firefox over WebDriver BiDi (demo.spec.ts).
  test.slow(browserName === 'firefox', 'the gallery renders slowly in Firefox over BiDi');
  const watch = await watchThirdParties(context);
  await page.goto(`${SERVICE_URL}/demo`);
  await page.getByRole('button', { name: 'Start a live request' }).click();
  await expect(page.getByTestId('live-widget').getByTestId('svc-widget')).toHaveAttribute('data-state', 'waiting');
  expect(await watch.findings()).toEqual([]);
  expect(new Set(watch.requests.map((line) => new URL(line.split(' → ')[1]!).origin))).toEqual(new Set([SERVICE_URL]));
});

test.describe('the watch itself', () => {
  let elsewhere: Server;
  let fontUrl: string;
  test.beforeAll(async () => {
    // A second origin on this machine standing in for a font CDN: no real internet.
    elsewhere = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'font/woff2', 'access-control-allow-origin': '*' }).end('');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.2', resolve));
    fontUrl = `http://127.0.0.2:${(elsewhere.address() as AddressInfo).port}/fonts/inter.woff2`;
  });
  test.afterAll(() => new Promise<void>((resolve) => elsewhere.close(() => resolve())));

  test('fails a widget page that loads a web font from another origin, reads a canvas back and writes a cookie', async ({
    page,
    context,
  }) => {
    const watch = await watchThirdParties(context);
    const fontOrigin = new URL(fontUrl).origin;
    const script = `
      const canvas = document.createElement('canvas');
      canvas.getContext('2d').fillText('fingerprint', 2, 2);
      window.__print = canvas.toDataURL();
      document.cookie = 'tracker=1';`;
    await page.route(`${PARTNER_URL}/e2e/tracker.js`, (route) =>
      route.fulfill({ contentType: 'text/javascript', body: script }),
    );
    const url = await servePartnerPage(
      page,
      '/e2e/third-party',
      `<style>@font-face { font-family: Tracked; src: url(${fontUrl}); } main { font-family: Tracked; }</style>` +
        `<p>text in a web font</p><script src="/e2e/tracker.js"></script>` +
        `<div id="svc-widget"></div>${loaderTag({ 'partner-id': 'pk_test_demo', 'success-path': '/success', locale: 'en' })}`,
      {
        csp: `${STRICT_CSP}; font-src ${fontOrigin}; style-src 'self' 'unsafe-inline' ${SERVICE_URL}`.replace(
          `style-src 'self' ${SERVICE_URL}; `,
          '',
        ),
      },
    );
    await page.goto(url);
    await waitForWidgetState(page, 'waiting');
    await expect.poll(() => watch.requests.some((line) => line.endsWith(fontUrl))).toBe(true);
    const findings = await watch.findings();
    expect(findings).toContain(`request from ${PARTNER_URL} to a third origin: ${fontUrl}`);
    expect(findings).toContain(`${PARTNER_URL} read canvas toDataURL`);
    expect(findings).toContain(`${PARTNER_URL} read document.cookie write tracker`);
  });
});
