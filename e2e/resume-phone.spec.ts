/**
 * Resume (design.md §14) on a phone, where the widget's deep link opens in the same tab: the
 * visitor leaves the shop for the phone page and comes Back to it. On a desktop: resume.spec.ts.
 */
import { expect, test } from '@playwright/test';
import { PHONE } from './support/browsers.ts';
import { answerOnPhonePage, waitForWidgetState, widget } from './support/qa.ts';
import { countCreates } from './support/wire.ts';

test.use(PHONE);

test('the visitor opens the app in the same tab, approves, presses Back and lands on the success page', async ({
  page,
}) => {
  const creates = countCreates(page);
  await page.goto('/standard');
  await waitForWidgetState(page, 'waiting');
  const open = widget(page).getByTestId('svc-open-app');
  await expect(open).not.toHaveAttribute('target', /./);
  await open.click();
  await page.waitForURL(/\/m\/v\/vr_/);
  await answerOnPhonePage(page, { persona: 'fr-adult-f' });

  await page.goBack();
  await page.waitForURL('**/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  expect(creates.count).toBe(1);
  // delivered once: Back from the success page is a new verification, not the old result again
  await page.goBack();
  await waitForWidgetState(page, 'waiting');
  expect(creates.count).toBe(2);
  expect(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('svc:v1:')))).toEqual([
    'svc:v1:pk_test_demo:isAdult:/standard',
  ]);
});
