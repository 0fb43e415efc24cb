/**
 * `<SvcWidget>` (sdk/react, design.md §1) in a React single-page app: the component injects the
 * loader once, mounts the widget when its route is shown, removes it (DOM, requests) on a route
 * change, mounts a fresh one when the route comes back, and hands the grant code to `onSuccess`.
 * The app (e2e/react/app.ts) is bundled here with Vite, with React in production mode, and served
 * on the example partner's origin under its strict CSP; the loader, the UI bundle and the service
 * are the real ones.
 */
import { expect, test } from '@playwright/test';
import { join, resolve } from 'node:path';
import { build, type Rolldown } from 'vite';
import { servePartnerPage } from './support/pages.ts';
import { completeVerification, widget } from './support/qa.ts';
import { PARTNER_URL, SERVICE_URL } from './support/urls.ts';

const ROOT = resolve(import.meta.dirname, '..');
let bundle = '';

test.beforeAll(async () => {
  const output = (await build({
    configFile: false,
    root: ROOT,
    logLevel: 'silent',
    define: { __SERVICE_URL__: JSON.stringify(SERVICE_URL), 'process.env.NODE_ENV': '"production"' },
    build: {
      write: false,
      minify: false,
      modulePreload: false,
      rolldownOptions: { input: join(ROOT, 'e2e', 'react', 'app.ts') },
    },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) => o.output);
  const entry = chunks.find((chunk): chunk is Rolldown.OutputChunk => chunk.type === 'chunk' && chunk.isEntry);
  if (!entry) throw new Error('the React app built no entry chunk');
  bundle = entry.code;
});

test('SvcWidget mounts with its route, goes with a route change, mounts again and delivers the grant to onSuccess', async ({
  page,
  browserName,
}) => {
  // 27 s warm, 42 s of the 45 s cold in Firefox over WebDriver BiDi on a loaded machine
  test.slow(browserName === 'firefox', 'a whole React app and two widget mounts are slow in Firefox over BiDi');
  await page.route(`${PARTNER_URL}/e2e/react/app.js`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body: bundle }),
  );
  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/w/verify-request')) requests.push(request.url());
  });
  const url = await servePartnerPage(
    page,
    '/e2e/react/verify',
    '<div id="root"></div><script type="module" src="/e2e/react/app.js"></script>',
  );
  await page.goto(url);

  // Mounted: one widget, waiting, in the component's own element; the loader tag added once.
  await expect(widget(page)).toHaveAttribute('data-state', 'waiting');
  await expect(page.locator('.age-check [data-testid="svc-widget"]')).toHaveCount(1);
  await expect(page.locator('script[src$="/v4/loader.min.js"]')).toHaveCount(1);
  await expect(page.locator('script[src$="/v4/loader.min.js"]')).toHaveAttribute('data-render', 'explicit');

  // A route change unmounts the component: the widget and its DOM are gone.
  await page.getByRole('button', { name: 'About' }).click();
  await expect(page.getByText('About us')).toBeVisible();
  await expect(page.getByTestId('svc-widget')).toHaveCount(0);
  await expect(page.locator('.age-check')).toHaveCount(0);

  // Back to the route: a fresh widget, still one loader tag.
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(widget(page)).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('svc-widget')).toHaveCount(1);
  await expect(page.locator('script[src$="/v4/loader.min.js"]')).toHaveCount(1);

  // Success on the same page: no reload, the grant goes to onSuccess.
  await completeVerification(page, { via: 'api' });
  await expect(page.getByTestId('result')).toHaveText(/^g_[A-Za-z0-9_-]+$/);
  const states = await page.evaluate(() => (window as Window & { svcStates?: string[] }).svcStates ?? []);
  expect(states).toContain('waiting');
  expect(states).toContain('completed');
  expect(await page.evaluate(() => (window as Window & { svcErrors?: string[] }).svcErrors)).toEqual([]);
  expect(requests.length).toBeGreaterThanOrEqual(2); // one request per mount: the second mount asked anew
});
