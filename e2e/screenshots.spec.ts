/**
 * Writes docs/screenshots/*.png: the designers' gallery, the waiting widget in both themes ×
 * both locales on the example partner page, and the sandbox phone page at 360 px.
 * Run with `npm run screenshots` (it rewrites the files; the normal e2e run leaves them alone).
 */
import { expect, test } from '@playwright/test';
import { mkdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deepLinkOf, waitForWidgetState, widget } from './support/qa.ts';

const DIR = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
mkdirSync(DIR, { recursive: true });

test('the designers’ gallery', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto('http://localhost:8787/demo');
  await expect(page.getByTestId('gallery-row-waiting-mobile').getByTestId('svc-widget')).toHaveCount(4);
  await page.getByRole('heading', { name: 'Every state × theme × locale' }).waitFor();
  await page.locator('.gallery').screenshot({ path: `${DIR}demo-gallery.png`, animations: 'disabled' });
  await page.getByTestId('gallery-row-waiting').screenshot({ path: `${DIR}demo-gallery-waiting.png`, animations: 'disabled' });
  expect(statSync(`${DIR}demo-gallery.png`).size).toBeGreaterThan(20_000);
});

for (const theme of ['dark', 'light'] as const) {
  for (const locale of ['fr', 'en'] as const) {
    test(`the waiting widget, ${theme}, ${locale}`, async ({ page }) => {
      await page.setViewportSize({ width: 900, height: 900 });
      await page.goto(`/standard?theme=${theme}&locale=${locale}`);
      await waitForWidgetState(page, 'waiting');
      await expect(widget(page).getByTestId('svc-qr')).toBeVisible();
      await page.locator('main').screenshot({ path: `${DIR}waiting-${theme}-${locale}.png`, animations: 'disabled' });
    });
  }
}

test('the sandbox phone page at 360 px', async ({ page, context }) => {
  await page.goto('/standard?scopes=isAdult,isFrench,isUnique');
  const phone = await context.newPage();
  await phone.setViewportSize({ width: 360, height: 800 });
  await phone.goto(await deepLinkOf(page));
  await expect(phone.locator('form.phone-form')).toBeVisible();
  await phone.screenshot({ path: `${DIR}phone-page.png`, fullPage: true, animations: 'disabled' });
  await phone.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(phone.getByTestId('outcome')).toBeVisible();
  await phone.screenshot({ path: `${DIR}phone-page-approved.png`, animations: 'disabled' });
  await page.waitForURL('**/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  await page.locator('main').screenshot({ path: `${DIR}partner-success.png`, animations: 'disabled' });
});
