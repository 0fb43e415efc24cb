import { expect, test } from '@playwright/test';
import { watchCspViolations } from './support/pages.ts';
import { answerOnPhonePage, deepLinkOf, waitForWidgetState } from './support/qa.ts';

test('the widget, the phone page and the success page run under a CSP without unsafe-inline and violate nothing', async ({
  page,
  context,
}) => {
  const partnerViolations = await watchCspViolations(page);
  const response = await page.goto('/standard');
  const csp = response!.headers()['content-security-policy']!;
  expect(csp).toContain("script-src 'self' http://localhost:8787");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
  await waitForWidgetState(page, 'waiting');
  expect(await partnerViolations()).toEqual([]);

  const phone = await context.newPage();
  const phoneViolations = await watchCspViolations(phone);
  const phoneResponse = await phone.goto(await deepLinkOf(page));
  expect(phoneResponse!.headers()['content-security-policy'] ?? '').not.toContain('unsafe-inline');
  await answerOnPhonePage(phone);
  expect(await phoneViolations()).toEqual([]);

  await page.waitForURL('**/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  expect(await partnerViolations()).toEqual([]);
});

test('the designers’ demo page renders its gallery under its CSP without a violation', async ({ page }) => {
  const violations = await watchCspViolations(page);
  await page.goto('http://localhost:8787/demo');
  await expect(page.getByTestId('gallery-row-waiting').getByTestId('svc-widget')).toHaveCount(2);
  // every picker re-renders the grid: a locale, an accent (an SVG swatch, no style attribute)
  await page.getByRole('radio', { name: 'Deutsch de' }).check();
  await page.getByRole('radio', { name: 'Forest #0a7d4f' }).check();
  await expect(page.getByTestId('gallery-row-waiting').getByTestId('svc-widget').first().locator('h2')).toHaveText(
    'Scannen Sie den QR-Code mit Ihrem Smartphone',
  );
  expect(await violations()).toEqual([]);
});
