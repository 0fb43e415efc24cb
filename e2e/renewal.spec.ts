import { expect, test } from '@playwright/test';
import { loaderTag, servePartnerPage, STRICT_CSP } from './support/pages.ts';
import { completeThroughApi, deepLinkOf, parseDeepLink, waitForWidgetState } from './support/qa.ts';
import { startService, type RunningService } from './support/service.ts';

// A second service whose requests live 3 s, so renewal happens within the test.
let shortLived: RunningService;
test.beforeAll(async () => {
  shortLived = await startService({ SVC_REQUEST_TTL_MS: '3000' });
});
test.afterAll(async () => {
  await shortLived?.stop();
});

test('an expired request is renewed automatically while the page is visible, and the new one completes', async ({
  page,
}) => {
  const csp = STRICT_CSP.replace(/(script-src|style-src|connect-src) ([^;]+)/g, `$1 $2 ${shortLived.url}`);
  const url = await servePartnerPage(
    page,
    '/e2e/renewal',
    `<div id="svc-widget"></div>${loaderTag({ 'partner-id': 'pk_test_demo', 'success-path': '/e2e/renewal-done' }, shortLived.url)}`,
    { csp },
  );
  await servePartnerPage(page, '/e2e/renewal-done', '<h1>done</h1>', { csp });
  const states: string[] = [];
  await page.exposeFunction('e2eState', (state: string) => states.push(state));
  await page.addInitScript(() => {
    document.addEventListener(
      'svc:state',
      (event) => {
        const detail = (event as CustomEvent<string | { state: string }>).detail;
        (window as unknown as { e2eState(s: string): void }).e2eState(
          typeof detail === 'string' ? detail : detail.state,
        );
      },
      true,
    );
  });

  await page.goto(url);
  const first = parseDeepLink(await deepLinkOf(page)).requestId;
  // The card is as tall as its state, but holds still while the QR code renews (docs/decisions.md). Every
  // height the container takes from now on is recorded (a ResizeObserver sees each layout).
  await page.evaluate(() => {
    const heights: number[] = [];
    (window as unknown as { e2eHeights: number[] }).e2eHeights = heights;
    new ResizeObserver((entries) => heights.push(entries[0]!.contentRect.height)).observe(
      document.getElementById('svc-widget')!,
    );
  });
  await expect.poll(async () => parseDeepLink(await deepLinkOf(page)).requestId, { timeout: 15_000 }).not.toBe(first);
  expect(states).toContain('expired');
  await waitForWidgetState(page, 'waiting');
  const heights = await page.evaluate(() => (window as unknown as { e2eHeights: number[] }).e2eHeights);
  expect(heights.length).toBeGreaterThan(0);
  // held to the pixel: the widget reads offsetHeight, which rounds (396.53 px → 397 px)
  expect(Math.max(...heights) - Math.min(...heights), `heights while renewing: ${heights.join(', ')}`).toBeLessThan(1);

  const renewedLink = await deepLinkOf(page);
  await completeThroughApi(page, renewedLink);
  await page.waitForURL(/\/e2e\/renewal-done#grant_code=g_/);
});
