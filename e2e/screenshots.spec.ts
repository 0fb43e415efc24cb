/**
 * Writes docs/screenshots/*.png: the designers' gallery (and its waiting row in German with an
 * accent), the waiting widget in both themes × fr, en and de on the example partner page, the
 * compact card in fr, de and en, two
 * accents in both themes, both sizes (regular and compact) waiting on a computer and on a phone
 * and failed, client proof mode on a computer, in both themes, the sandbox phone page at 360 px,
 * the example shop's STANDARD page on a phone (Pixel 7),
 * and the phone page's ways to prove it (the wallet, the example identity provider, the personas),
 * its refused and finished states in both schemes × en and fr.
 * Run with `npm run screenshots` (it rewrites the files; the normal e2e run leaves them alone).
 */
import { devices, expect, test, type Page } from '@playwright/test';
import { mkdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { VerifyRequestCreated } from '../src/protocol/wire.ts';
import { loaderTag, servePartnerPage } from './support/pages.ts';
import { completeThroughApi, deepLinkOf, waitForWidgetState, widget } from './support/qa.ts';
import { SERVICE_URL } from './support/urls.ts';

const DIR = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
mkdirSync(DIR, { recursive: true });

test('the designers’ gallery', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto('http://localhost:8787/demo');
  await expect(page.getByTestId('gallery-row-waiting-mobile').getByTestId('svc-widget')).toHaveCount(2);
  await page.getByRole('heading', { name: 'Every state × theme' }).waitFor();
  await page.locator('.gallery').screenshot({ path: `${DIR}demo-gallery.png`, animations: 'disabled' });
  await page
    .getByTestId('gallery-row-waiting')
    .screenshot({ path: `${DIR}demo-gallery-waiting.png`, animations: 'disabled' });
  expect(statSync(`${DIR}demo-gallery.png`).size).toBeGreaterThan(20_000);
  await page.getByRole('radio', { name: 'Deutsch de' }).check();
  await page.getByRole('radio', { name: 'Forest #0a7d4f' }).check();
  await expect(page.getByTestId('gallery-row-waiting-mobile').locator('figcaption').first()).toHaveText(
    'Dark · Deutsch · #0a7d4f',
  );
  await page
    .getByTestId('gallery-pickers')
    .screenshot({ path: `${DIR}demo-gallery-pickers.png`, animations: 'disabled' });
  const mobileRow = page.getByTestId('gallery-row-waiting-mobile');
  await mobileRow.screenshot({ path: `${DIR}demo-gallery-mobile-de-accent.png`, animations: 'disabled' });
});

for (const theme of ['dark', 'light'] as const) {
  test(`two accents, ${theme}: a dark one with white text, a light one with black text`, async ({ page }) => {
    await page.setViewportSize({ width: 900, height: 1100 });
    const tag = loaderTag({ 'partner-id': 'pk_test_demo', 'success-path': '/success', render: 'explicit' });
    const body = `<div id="green"></div><p>&nbsp;</p><div id="gold"></div>${tag}`;
    await page.goto(await servePartnerPage(page, `/e2e/accents-${theme}`, body));
    await page.waitForFunction(() => 'SVC' in window);
    await page.evaluate((t) => {
      const svc = (window as unknown as { SVC: { render(id: string, o: object): unknown } }).SVC;
      svc.render('green', { theme: t, accent: '#0a7d4f', layout: 'mobile', locale: 'en' });
      svc.render('gold', { theme: t, accent: '#ffc72c', layout: 'mobile', locale: 'en' });
    }, theme);
    await waitForWidgetState(page, 'waiting', { index: 0 });
    await waitForWidgetState(page, 'waiting', { index: 1 });
    await page.locator('main').screenshot({ path: `${DIR}accent-${theme}.png`, animations: 'disabled' });
  });
}

for (const theme of ['dark', 'light'] as const) {
  for (const locale of ['fr', 'en', 'de'] as const) {
    test(`the waiting widget, ${theme}, ${locale}`, async ({ page }) => {
      await page.setViewportSize({ width: 900, height: 900 });
      await page.goto(`/standard?theme=${theme}&locale=${locale}`);
      await waitForWidgetState(page, 'waiting');
      await expect(widget(page).getByTestId('svc-qr')).toBeVisible();
      await page.locator('main').screenshot({ path: `${DIR}waiting-${theme}-${locale}.png`, animations: 'disabled' });
    });
  }
}

/** The card alone (inside the widget's shadow root), as a partner's visitor sees it. */
const shootCard = (page: Page, name: string) =>
  widget(page)
    .getByTestId('svc-card')
    .screenshot({ path: `${DIR}${name}.png`, animations: 'disabled' });

for (const locale of ['fr', 'de', 'en'] as const) {
  test(`the compact card waiting on a computer, ${locale}: the countdown in words beside the QR code, titles balanced`, async ({
    page,
  }) => {
    const tag = loaderTag({ 'partner-id': 'pk_test_demo', 'success-path': '/success', size: 'compact', locale });
    await page.setViewportSize({ width: 900, height: 700 });
    await page.goto(await servePartnerPage(page, `/e2e/shot-compact-${locale}`, `<div id="svc-widget"></div>${tag}`));
    await waitForWidgetState(page, 'waiting');
    await shootCard(page, `compact-${locale}`);
  });
}

for (const theme of ['dark', 'light'] as const) {
  for (const size of ['regular', 'compact'] as const) {
    test(`the ${size} widget, ${theme}: waiting on a computer and on a phone, and failed`, async ({
      page,
      browser,
    }) => {
      const tag = loaderTag({ 'partner-id': 'pk_test_demo', 'success-path': '/success', size, theme, locale: 'en' });
      const body = `<div id="svc-widget"></div>${tag}`;
      await page.setViewportSize({ width: 900, height: 900 });
      await page.goto(await servePartnerPage(page, `/e2e/shot-${size}-${theme}`, body));
      await waitForWidgetState(page, 'waiting');
      await shootCard(page, `size-${size}-desktop-${theme}`);
      await completeThroughApi(page, await deepLinkOf(page), { outcome: 'failed' });
      await waitForWidgetState(page, 'failed');
      await shootCard(page, `failed-${size}-${theme}`);

      const context = await browser.newContext({ ...devices['Pixel 7'] });
      const phone = await context.newPage();
      await phone.goto(await servePartnerPage(phone, `/e2e/shot-${size}-${theme}-phone`, body));
      await waitForWidgetState(phone, 'waiting');
      await expect(widget(phone).getByTestId('svc-open-app')).toBeVisible();
      await shootCard(phone, `size-${size}-mobile-${theme}`);
      await context.close();
    });
  }

  test(`client proof mode on a computer, ${theme}: the wallet's QR code, no wallet link`, async ({ page }) => {
    await page.setViewportSize({ width: 900, height: 1000 });
    await page.goto(`/standard?proof=1&theme=${theme}&locale=en`);
    await waitForWidgetState(page, 'waiting');
    await expect(widget(page).getByTestId('svc-qr')).toBeVisible();
    await shootCard(page, `wallet-desktop-${theme}`);
  });
}

test('the example shop on a phone: "confirm it with your phone", the widget\'s "open the app"', async ({ browser }) => {
  const context = await browser.newContext({ ...devices['Pixel 7'] });
  const page = await context.newPage();
  await page.goto('/standard');
  await waitForWidgetState(page, 'waiting');
  await expect(widget(page).getByTestId('svc-open-app')).toBeVisible();
  await expect(page.locator('main')).toContainText('Confirm it with your phone');
  await expect(page.locator('main')).not.toContainText('Scan the QR code');
  await page.screenshot({ path: `${DIR}partner-standard-phone.png`, fullPage: true, animations: 'disabled' });
  await context.close();
});

test('the sandbox phone page at 360 px', async ({ page, context }) => {
  await page.goto('/standard?scopes=isAdult,isFrench,isUnique');
  const phone = await context.newPage();
  await phone.setViewportSize({ width: 360, height: 800 });
  await phone.goto(await deepLinkOf(page));
  await expect(phone.locator('form.phone-form')).toBeVisible();
  await phone.screenshot({ path: `${DIR}phone-page.png`, fullPage: true, animations: 'disabled' });
  await phone.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(phone.getByTestId('outcome')).toBeVisible();
  await expect(phone.getByTestId('sandbox-note')).toHaveCount(0);
  await phone.screenshot({ path: `${DIR}phone-page-approved.png`, animations: 'disabled' });
  await page.waitForURL('**/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  await page.locator('main').screenshot({ path: `${DIR}partner-success.png`, animations: 'disabled' });
});

for (const colorScheme of ['light', 'dark'] as const) {
  for (const locale of ['en', 'fr'] as const) {
    test(`the phone page's ways to prove it, refused and finished, ${colorScheme}, ${locale}`, async ({ browser }) => {
      const context = await browser.newContext({ locale, colorScheme, viewport: { width: 360, height: 800 } });
      const phone = await context.newPage();
      // The designers' demo page (registered on the service's origin) in client proof mode for
      // isAdult: the wallet (on this phone: Chromium has the Digital Credentials API; and its
      // link), the example identity provider, the personas.
      const res = await phone.request.post(`${SERVICE_URL}/api/w/verify-request`, {
        headers: { 'content-type': 'text/plain;charset=UTF-8', origin: SERVICE_URL },
        data: JSON.stringify({
          partner_id: 'pk_test_designer',
          scopes: ['isAdult'],
          client_proof_mode: true,
          locale: 'en',
        }),
      });
      const created = (await res.json()) as VerifyRequestCreated;
      const shot = (name: string) =>
        phone.screenshot({
          path: `${DIR}phone-${name}-${colorScheme}-${locale}.png`,
          fullPage: true,
          animations: 'disabled',
        });

      await phone.goto(created.deep_link);
      await expect(phone.getByTestId('methods').locator('button, a')).toHaveCount(3);
      await shot('methods');
      await phone.goto(created.deep_link.replace('#', '?login=refused#'));
      await expect(phone.getByTestId('notice')).toBeVisible();
      await shot('refused');
      await completeThroughApi(phone, created.deep_link, { persona: 'fr-adult-m' });
      await phone.goto(created.deep_link.replace('#', '?login=approved#'));
      await expect(phone.getByTestId('finished')).toBeVisible();
      await shot('finished');
      await context.close();
    });
  }
}
