import { expect, test } from '@playwright/test';
import { answerOnPhonePage } from './support/qa.ts';
import { SERVICE_URL } from './support/urls.ts';

test('a designer starts a live request on the demo page, switches theme live and approves it from the phone page', async ({
  page,
  context,
  browserName,
}) => {
  // The page also renders the designers' gallery (some forty widgets): 13 s in Chromium but 41 s of
  // the 45 s in Firefox over WebDriver BiDi at load 12, so Firefox gets three times the timeout.
  test.slow(browserName === 'firefox', 'the gallery renders slowly in Firefox over BiDi');
  await page.goto(`${SERVICE_URL}/demo`);
  await page.getByRole('button', { name: 'Start a live request' }).click();
  const live = page.getByTestId('live-widget');
  await expect(live.getByTestId('svc-widget')).toHaveAttribute('data-state', 'waiting');
  const phoneLink = page.getByTestId('live-phone-link');
  const deepLink = await phoneLink.getAttribute('href');
  expect(deepLink).toMatch(/\/m\/v\/vr_[^#]+#h=h_/);

  // Theme and locale switch in place: same request, same deep link.
  await page.getByRole('radio', { name: 'light', exact: true }).check();
  await page.getByRole('radio', { name: 'de', exact: true }).check();
  await expect(live.getByTestId('svc-widget').getByRole('heading', { level: 2 })).toHaveText(
    'Scannen Sie den QR-Code mit Ihrem Smartphone',
  );
  await expect(live).toHaveAttribute('lang', 'de');
  expect(await phoneLink.getAttribute('href')).toBe(deepLink);

  const phone = await context.newPage();
  await phone.goto(deepLink!);
  await answerOnPhonePage(phone);
  await expect(page.getByTestId('live-events')).toContainText('grant code g_');
  await expect(live.getByTestId('svc-widget')).toHaveAttribute('data-state', 'completed');
  expect(new URL(page.url()).pathname).toBe('/demo');
  expect(new URL(page.url()).hash).toBe('');
  await page.getByRole('button', { name: 'Remove' }).click();
  await expect(live.getByTestId('svc-widget')).toHaveCount(0);
});

test('the demo page explains why the ADULT_BLIND rail is not available there', async ({ page }) => {
  await page.goto(`${SERVICE_URL}/demo`);
  await expect(page.getByRole('radio', { name: 'ADULT_BLIND (data-session-token)' })).toBeDisabled();
  await expect(page.locator('#blind-why')).toContainText('session token');
});

test('the live phone link appears even when the widget’s language arrives after its request', async ({
  page,
  browserName,
}) => {
  // The race is the page's, not the engine's; the journey above runs the demo in Firefox too.
  test.skip(browserName === 'firefox', 'one engine is enough for a race in the demo page’s model');
  // Hold the English copy (a lazily loaded script) until the widget has reported `waiting`: the
  // link is then rendered into the shadow root with no state change left to announce it.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/v4\/ui\.[^/]+-en\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${SERVICE_URL}/demo`);
  await page.getByRole('button', { name: 'Start a live request' }).click();
  await expect(page.getByTestId('live-widget').getByTestId('svc-widget')).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('live-phone-link')).toHaveCount(0);
  release();
  await expect(page.getByTestId('live-phone-link')).toHaveAttribute('href', /\/m\/v\/vr_[^#]+#h=h_/);
});
