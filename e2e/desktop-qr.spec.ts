import { expect, test } from '@playwright/test';
import { answerOnPhonePage, deepLinkOf, waitForWidgetState, widget } from './support/qa.ts';
import { SERVICE_URL } from './support/urls.ts';

test('a desktop visitor scans the QR code, approves on the phone page and sees the exchanged attributes', async ({
  page,
  context,
}) => {
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });

  await page.goto('/standard?scopes=isAdult,isFrench');
  await waitForWidgetState(page, 'waiting');
  await expect(widget(page).getByTestId('svc-qr')).toBeVisible();
  const deepLink = await deepLinkOf(page);
  expect(deepLink).toMatch(new RegExp(`^${SERVICE_URL}/m/v/vr_[^#]+#h=h_`));

  const phone = await context.newPage();
  await phone.goto(deepLink);
  await expect(phone.getByTestId('sandbox-mark')).toBeVisible();
  // The handoff token leaves the address bar as soon as the page has read it.
  await expect.poll(() => new URL(phone.url()).hash).toBe('');
  await expect(phone.getByTestId('audience')).toHaveText('Demo Shop asks you to prove:');
  await expect(phone.getByTestId('scopes').locator('li')).toHaveText([
    'You are 18 or older',
    'You have French nationality',
  ]);

  await answerOnPhonePage(phone, { persona: 'fr-adult-f', outcome: 'approved' });
  await expect(phone.getByTestId('outcome')).toContainText('Verification approved');

  await page.waitForURL('**/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('yes');
  await expect(page.locator('dd[data-attribute="is_french"]')).toHaveText('yes');
  await expect(page.locator('dd[data-attribute="verification_method"]')).toHaveText('a face check');
  // The visitor reads words, never our identifiers (docs/example-partner.md, "The result in words").
  const shown = await page.getByTestId('result').innerText();
  for (const raw of ['isAdult', 'isFrench', 'age_over_18', 'is_french', 'face_check', 'verification_method'])
    expect(shown).not.toContain(raw);
  expect(visited.some((url) => /\/success#grant_code=g_/.test(url))).toBe(true);
  expect(new URL(page.url()).hash).toBe('');
});

test('a minor is answered honestly: the exchange says not 18 or older', async ({ page }) => {
  await page.goto('/standard');
  const phone = await page.context().newPage();
  await phone.goto(await deepLinkOf(page));
  await answerOnPhonePage(phone, { persona: 'fr-minor' });
  await page.waitForURL('**/success');
  await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('no');
});

test('the phone page explains a request that was already answered', async ({ page, context }) => {
  await page.goto('/standard');
  const deepLink = await deepLinkOf(page);
  const phone = await context.newPage();
  await phone.goto(deepLink);
  await answerOnPhonePage(phone, { outcome: 'cancelled' });
  await waitForWidgetState(page, 'failed');

  const again = await context.newPage();
  await again.goto(deepLink);
  await expect(again.getByTestId('problem')).toContainText('already finished');
});
