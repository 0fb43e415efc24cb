/**
 * No layout shift (design.md §7, docs/embedding.md): on a phone, from navigation to the widget's
 * waiting state, the page's layout-shift entries sum to 0.02 or less, in both sizes. The loader
 * reserves the card's size in its container through the CSSOM, the card keeps it in every state,
 * and the example partner's stylesheet reserves it before the async loader runs.
 */
import { expect, test, type Page } from '@playwright/test';
import { PHONE } from './support/browsers.ts';
import { loaderTag, servePartnerPage } from './support/pages.ts';
import { waitForWidgetState } from './support/qa.ts';

test.use(PHONE);

/** Sums the page's layout-shift entries (buffered: from navigation on), as CLS counts them. */
async function layoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let sum = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>)
            if (!entry.hadRecentInput) sum += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(sum), 300);
      }),
  );
}

test.beforeEach(({ browserName }) => {
  test.skip(browserName !== 'chromium', 'Layout Instability (layout-shift entries) is Chromium-only');
});

test('the example partner page does not move when the regular card arrives on a phone', async ({ page }) => {
  await page.goto('/standard?locale=en');
  await waitForWidgetState(page, 'waiting');
  expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);
});

test('a page with the compact card and text below it does not move on a phone', async ({ page }) => {
  const tag = loaderTag({ 'partner-id': 'pk_test_demo', 'success-path': '/success', size: 'compact', locale: 'en' });
  const text = '<p>' + 'Delivery, returns and the rest of the checkout. '.repeat(12) + '</p>';
  const body = `<h1>Checkout</h1><p>Confirm your age to continue.</p><div id="svc-widget"></div>${tag}${text}`;
  await page.goto(await servePartnerPage(page, '/e2e/layout-shift-compact', body));
  await waitForWidgetState(page, 'waiting');
  expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);
});
