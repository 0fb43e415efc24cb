/**
 * The whole flow through two instances behind nginx (design.md §10): the widget's API calls pinned
 * to instance A, the phone's to instance B, so the widget's long poll on A is woken by the phone's
 * completion on B through Redis; the example partner's backend calls (exchange, billing session,
 * the JWKS) go through nginx and reach either instance.
 */
import { expect, test } from '@playwright/test';
import { answerOnPhonePage, deepLinkOf, waitForWidgetState } from '../support/qa.ts';
import { SERVICE_URL } from '../support/urls.ts';
import { CLUSTER_INSTANCE_PORTS, instancePrefixes, pinToInstance, watchInstances } from './instances.ts';

const [PORT_A, PORT_B] = CLUSTER_INSTANCE_PORTS;

test('STANDARD across the cluster: widget on A, phone on B, the exchange through nginx', async ({ page, context }) => {
  const [a, b] = await instancePrefixes(page);
  expect(a).not.toBe(b);
  await pinToInstance(page, PORT_A);
  const widgetCalls = watchInstances(page);

  await page.goto('/standard?scopes=isAdult,isFrench');
  await waitForWidgetState(page, 'waiting');
  const phone = await context.newPage();
  await pinToInstance(phone, PORT_B);
  const phoneCalls = watchInstances(phone);
  await phone.goto(await deepLinkOf(page));
  await answerOnPhonePage(phone, { persona: 'fr-adult-f', outcome: 'approved' });
  await expect(phone.getByTestId('outcome')).toContainText('Verification approved');

  await page.waitForURL('**/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('yes');
  await expect(page.locator('dd[data-attribute="is_french"]')).toHaveText('yes');

  // The widget created and polled on A only; the phone opened and completed on B only.
  expect(widgetCalls.some((c) => c.path === '/api/w/verify-request')).toBe(true);
  expect(widgetCalls.some((c) => c.path.startsWith('/api/w/verify-status/'))).toBe(true);
  expect(new Set(widgetCalls.map((c) => c.instance))).toEqual(new Set([a]));
  expect(phoneCalls.some((c) => c.path.endsWith('/complete'))).toBe(true);
  expect(new Set(phoneCalls.map((c) => c.instance))).toEqual(new Set([b]));
});

test('ADULT_BLIND across the cluster: session from nginx, widget on A, phone on B, the attestation checked offline', async ({
  page,
  context,
}) => {
  const [a, b] = await instancePrefixes(page);
  await pinToInstance(page, PORT_A);
  const widgetCalls = watchInstances(page);

  await page.goto('/blind?scopes=isAdult,isUnique');
  await waitForWidgetState(page, 'waiting');
  const phone = await context.newPage();
  await pinToInstance(phone, PORT_B);
  const phoneCalls = watchInstances(phone);
  await phone.goto(await deepLinkOf(page));
  await expect(phone.getByTestId('audience')).toHaveText('An anonymous site asks you to prove:');
  await answerOnPhonePage(phone, { persona: 'fr-adult-m', outcome: 'approved' });

  await page.waitForURL((url) => url.pathname === '/blind/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  await expect(page.locator('dd[data-attribute="adult"]')).toHaveText('yes');
  await expect(page.locator('dd[data-attribute="nullifier"]')).toHaveText(/^0x[0-9a-f]{64}$/);
  await expect(page.getByTestId('result')).toContainText('checked this result’s signature itself');

  // The session token minted through nginx (either instance) was accepted by A.
  expect(widgetCalls.some((c) => c.path === '/api/w/verify-request')).toBe(true);
  expect(new Set(widgetCalls.map((c) => c.instance))).toEqual(new Set([a]));
  expect(new Set(phoneCalls.map((c) => c.instance))).toEqual(new Set([b]));
});

test('both instances publish the same key set, and nginx spreads calls over both', async ({ request }) => {
  const keys = [];
  for (const port of CLUSTER_INSTANCE_PORTS)
    keys.push(await (await request.get(`http://127.0.0.1:${port}/api/billing/attestation-keys`)).json());
  expect(keys[0]).toEqual(keys[1]);
  const seen = new Set<string>();
  for (let i = 0; i < 4; i++)
    seen.add((await request.get('http://localhost:8787/healthz')).headers()['x-svc-cid']!.slice(0, 8));
  expect(seen.size).toBe(2);
});

test('the example identity provider runs beside the cluster: the phone opened on B signs in there, the widget on A completes', async ({
  page,
  context,
}) => {
  await pinToInstance(page, PORT_A);
  await page.goto('/standard?scopes=isAdult&locale=en');
  await waitForWidgetState(page, 'waiting');
  const phone = await context.newPage();
  await pinToInstance(phone, PORT_B);
  await phone.goto(await deepLinkOf(page));
  // The login starts through nginx, on either instance: the pin rewrites the call's host, and the
  // browser would keep the login cookie for that host, not the one the callback comes back to
  // (docs/providers.md, "One browser"). Opened on B, started anywhere, completed by the callback
  // through nginx: the login state crosses instances through Redis all the same.
  await phone.unroute(`${SERVICE_URL}/api/**`);
  await phone.getByRole('button', { name: 'Continue with Example ID' }).click();
  await phone.waitForURL('http://localhost:8789/**');
  await phone.locator('input[name="persona"][value="de-adult"]').check();
  await phone.locator('button[name="decision"][value="approve"]').click();
  await expect(phone.getByTestId('finished')).toContainText('Done — you can go back to your computer');
  await page.waitForURL('**/success');
  await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('yes');
  await expect(page.locator('dd[data-attribute="verification_method"]')).toHaveText('a face check');
});
