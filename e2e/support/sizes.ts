/**
 * Pages and measures for the journeys of the widget's sizes and of client proof mode on a
 * computer and on a phone (docs/embedding.md#sizes): sizes.spec.ts, wallet.spec.ts, mobile.spec.ts.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { VerifyRequestCreated } from '../../src/protocol/wire.ts';
import { loaderTag, servePartnerPage } from './pages.ts';
import { completeThroughApi, waitForWidgetState } from './qa.ts';
import { SERVICE_URL } from './urls.ts';

/** A shop page with a compact widget (first) and a regular one (second), both in English. */
export async function openBothSizes(page: Page, path: string): Promise<void> {
  const tag = loaderTag({ 'partner-id': 'pk_test_demo', 'success-path': '/success', locale: 'en', render: 'explicit' });
  await page.goto(await servePartnerPage(page, path, `<div id="compact"></div><div id="regular"></div>${tag}`));
  await page.waitForFunction(() => 'SVC' in window);
  await page.evaluate(() => {
    const svc = (window as unknown as { SVC: { render(id: string, o: object): unknown } }).SVC;
    svc.render('compact', { size: 'compact' });
    svc.render('regular', {});
  });
  await waitForWidgetState(page, 'waiting', { index: 0 });
  await waitForWidgetState(page, 'waiting', { index: 1 });
}

export const box = async (locator: Locator) => (await locator.boundingBox())!;

/** Completes the first widget's request through the sandbox phone API and waits for the success page. */
export async function completeFirst(page: Page, deepLink: string): Promise<void> {
  await completeThroughApi(page, deepLink);
  await page.waitForURL('**/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
}

/**
 * Opens `path` and returns the av:// link its widget's QR code encodes: the create answer's
 * `wallet_link` (on a computer the widget links it nowhere: a computer cannot open it, docs/decisions.md).
 */
export async function openWithWalletLink(page: Page, path: string): Promise<string> {
  const created = page.waitForResponse((r) => r.url() === `${SERVICE_URL}/api/w/verify-request`);
  await page.goto(path);
  const { wallet_link: link } = (await (await created).json()) as VerifyRequestCreated;
  if (!link?.startsWith('av://')) throw new Error(`the request offers no wallet link: ${link}`);
  await waitForWidgetState(page, 'waiting');
  return link;
}

/**
 * A shop page with the compact widget (docs/embedding.md#sizes), in `theme`, English (mobile.spec.ts
 * checks it on a phone).
 */
export async function openCompact(page: Page, theme: 'dark' | 'light'): Promise<void> {
  const tag = loaderTag({
    'partner-id': 'pk_test_demo',
    'success-path': '/success',
    size: 'compact',
    theme,
    locale: 'en',
  });
  await page.goto(await servePartnerPage(page, `/e2e/a11y-compact-${theme}`, `<div id="svc-widget"></div>${tag}`));
  await waitForWidgetState(page, 'waiting');
}
