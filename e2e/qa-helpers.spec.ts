/**
 * The QA helpers (the SDK testing entry, through e2e/support/qa.ts) as a partner's QA team uses them, in each engine the
 * journeys run in: every option of completeVerification, both ways (phone page, phone API).
 */
import { expect, test } from '@playwright/test';
import { completeVerification, waitForWidgetState, widget, widgetState } from './support/qa.ts';

test('completeVerification clicks through the phone page with a chosen persona and can leave it open', async ({
  page,
}) => {
  await page.goto('/standard');
  const options = { persona: 'fr-minor', method: 'face_check', keepPhoneOpen: true } as const;
  const { requestId, deepLink, phone } = await completeVerification(page, options);
  expect(requestId).toMatch(/^vr_/);
  expect(deepLink).toContain(`/m/v/${requestId}#h=`);
  await expect(phone!.getByTestId('outcome')).toContainText('Verification approved');
  await page.waitForURL('**/success');
  await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('no');
  expect(await widgetState(page)).toBeNull();
});

test('completeVerification through the phone API forces a cancellation, then an approval after the retry', async ({
  page,
}) => {
  await page.goto('/standard');
  expect(await widgetState(page)).toMatch(/^(creating|waiting)$/);
  const first = await completeVerification(page, { via: 'api', outcome: 'cancelled' });
  await waitForWidgetState(page, 'failed');
  await widget(page).getByTestId('svc-retry').click();
  const second = await completeVerification(page, { via: 'api', persona: 'de-adult' });
  expect(second.requestId).not.toBe(first.requestId);
  await page.waitForURL('**/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
});
