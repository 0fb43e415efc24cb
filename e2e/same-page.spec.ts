import { expect, test } from '@playwright/test';
import { completeVerification, waitForWidgetState } from './support/qa.ts';

test('a page that is its own success path gets the result without reloading, and the address keeps no trace of it', async ({
  page,
}) => {
  await page.goto('/same-page');
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.push(frame.url()));
  let documentLoads = 0;
  page.on('load', () => documentLoads++);

  await completeVerification(page, { via: 'api' });
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('yes');
  await expect(page.getByTestId('events')).toContainText('success: grant received');
  expect(documentLoads).toBe(0);
  expect(new URL(page.url()).pathname).toBe('/same-page');
  expect(new URL(page.url()).hash).toBe('');
  expect(navigations.every((url) => !url.includes('grant_code'))).toBe(true);
  // design.md §7: the result also waits for the first consumeResult() call, then is gone.
  const consume = () =>
    page.evaluate(() => (window as unknown as { SVC: { consumeResult(): unknown } }).SVC.consumeResult());
  expect(await consume()).toMatchObject({ grant_code: expect.stringMatching(/^g_/) });
  expect(await consume()).toBeNull();
  await waitForWidgetState(page, ['completed', 'redirecting']);
});
