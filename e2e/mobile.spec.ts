import { expect, test } from '@playwright/test';
import { seriousViolations } from './support/axe.ts';
import { PHONE } from './support/browsers.ts';
import { answerOnPhonePage, waitForWidgetState, widget } from './support/qa.ts';
import { box, completeFirst, openBothSizes, openCompact, openWithWalletLink } from './support/sizes.ts';

// A Pixel 7 in Chromium; in Firefox the same screen, touch pointer and a Firefox for Android UA.
test.use(PHONE);

test('a mobile visitor opens the app from the widget and comes back verified', async ({ page, context }) => {
  await page.goto('/standard');
  // What the page sees in either engine: a narrow screen with a coarse touch pointer.
  const screen = await page.evaluate(() => ({
    coarse: matchMedia('(pointer: coarse)').matches,
    touch: navigator.maxTouchPoints > 0,
    width: innerWidth,
  }));
  expect(screen).toEqual({ coarse: true, touch: true, width: 412 });
  await waitForWidgetState(page, 'waiting');
  const openApp = widget(page).getByTestId('svc-open-app');
  await expect(openApp).toBeVisible();
  await expect(widget(page).getByTestId('svc-qr')).toHaveCount(0);
  const href = await openApp.getAttribute('href');
  expect(href).toMatch(/\/m\/v\/vr_[^#]+#h=h_/);

  // The "app" is the sandbox phone page; on a phone it opens beside the shop's tab.
  const app = await context.newPage();
  await app.goto(href!);
  await answerOnPhonePage(app, { persona: 'de-adult' });

  await page.waitForURL('**/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('yes');
});

test('a mobile visitor can ask for the QR code instead', async ({ page }) => {
  await page.goto('/standard');
  await waitForWidgetState(page, 'waiting');
  await widget(page).getByTestId('svc-show-qr').click();
  await expect(widget(page).getByTestId('svc-qr')).toBeVisible();
});

test('the phone page fits a 360 px screen without horizontal scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/standard');
  await waitForWidgetState(page, 'waiting');
  const href = await widget(page).getByTestId('svc-open-app').getAttribute('href');
  const phone = await page.context().newPage();
  await phone.setViewportSize({ width: 360, height: 740 });
  await phone.goto(href!);
  await expect(phone.locator('form.phone-form')).toBeVisible();
  const overflow = await phone.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  for (const name of ['Approve', 'Fail the check', 'Cancel']) {
    const box = await phone.getByRole('button', { name, exact: true }).boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
  }
});

test('the compact card has no icon, its buttons in one row, is shorter, and completes', async ({ page }) => {
  await openBothSizes(page, '/e2e/sizes-mobile');
  const compact = widget(page, 0);
  const openApp = await box(compact.getByTestId('svc-open-app'));
  const showQr = await box(compact.getByTestId('svc-show-qr'));
  expect(Math.abs(openApp.y + openApp.height / 2 - (showQr.y + showQr.height / 2))).toBeLessThan(8);
  expect(showQr.x).toBeGreaterThan(openApp.x + openApp.width);
  await expect(compact.locator('svg.icon')).toBeHidden();
  await expect(widget(page, 1).locator('svg.icon')).toBeVisible();
  const [compactCard, regularCard] = [await box(compact), await box(widget(page, 1))];
  expect(compactCard.height).toBeLessThan(regularCard.height * 0.7);
  await completeFirst(page, (await compact.getByTestId('svc-open-app').getAttribute('href'))!);
});

for (const theme of ['dark', 'light'] as const) {
  test(`the compact widget has no serious accessibility violation on a phone (${theme})`, async ({ page }) => {
    await openCompact(page, theme);
    await expect(widget(page).getByTestId('svc-open-app')).toBeVisible();
    expect(await seriousViolations(page, '[data-testid="svc-widget"]')).toEqual([]);
  });
}

test('in client proof mode the button opens the wallet link, which a phone can open', async ({ page }) => {
  const link = await openWithWalletLink(page, '/standard?proof=1&locale=en');
  const button = widget(page).getByTestId('svc-open-app');
  await expect(button).toHaveText('Open your age-verification app');
  await expect(button).toHaveAttribute('href', link);
});
