import { expect, test } from '@playwright/test';
import { watchConsole } from './support/pages.ts';
import { answerOnPhonePage } from './support/qa.ts';
import { SERVICE_URL } from './support/urls.ts';

test('the demo page and the phone page it links to load clean: no console error, no 404, a favicon', async ({
  page,
  context,
}) => {
  const demoProblems = watchConsole(page);
  await page.goto(`${SERVICE_URL}/demo`, { waitUntil: 'load' });
  await expect(page.getByTestId('gallery-row-waiting').getByTestId('svc-widget')).toHaveCount(2);
  await page.getByRole('button', { name: 'Start a live request' }).click();
  await expect(page.getByTestId('live-widget').getByTestId('svc-widget')).toHaveAttribute('data-state', 'waiting');

  const phone = await context.newPage();
  const phoneProblems = watchConsole(phone);
  await phone.goto((await page.getByTestId('live-phone-link').getAttribute('href'))!, { waitUntil: 'load' });
  await answerOnPhonePage(phone);
  await expect(page.getByTestId('live-widget').getByTestId('svc-widget')).toHaveAttribute('data-state', 'completed');

  // What a browser asks for at the origin's root when the page names no icon.
  for (const [path, type] of [
    ['/favicon.ico', 'image/x-icon'],
    ['/favicon.svg', 'image/svg+xml'],
  ]) {
    const icon = await page.request.get(`${SERVICE_URL}${path}`);
    expect(icon.status(), path).toBe(200);
    expect(icon.headers()['content-type']).toBe(type);
  }
  expect(demoProblems).toEqual([]);
  expect(phoneProblems).toEqual([]);
});

test('the example partner’s pages load clean too: no console error, no 404, an icon', async ({ page }) => {
  const problems = watchConsole(page);
  for (const path of ['/', '/?locale=fr', '/success']) {
    await page.goto(path, { waitUntil: 'load' });
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/assets/favicon.svg');
  }
  expect((await page.request.get('/assets/favicon.svg')).status()).toBe(200);
  // What a browser asks for on a page that names no icon (a JSON answer): nothing, not a 404.
  expect((await page.request.get('/favicon.ico')).status()).toBe(204);
  expect(problems).toEqual([]);
});
