/**
 * Signed Digital Credentials API requests (docs/design.md §16) in a real browser: a service with
 * the sandbox access certificate (SVC_WALLET_ACCESS_CERT / SVC_WALLET_ACCESS_KEY, as an operator
 * sets them), a partner page in client proof mode asking [isAdult, isFrench]. The widget hands the
 * browser all three requests, openid4vp-v1-signed first; Chromium's virtual wallet answers the
 * signed one with the sandbox wallet's presentation, made after it checked the request object's
 * signature and that expected_origins names this page.
 */
import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { loadSandboxIssuer } from '../server/sandbox/wallet/sandbox-issuer.ts';
import { createDcApiCredential } from '../server/sandbox/wallet/sandbox-wallet.ts';
import type { VerifyRequestCreated, WidgetVerifyStatus } from '../src/protocol/wire.ts';
import { loaderTag, servePartnerPage, STRICT_CSP } from './support/pages.ts';
import { waitForWidgetState, widget } from './support/qa.ts';
import { startService, type RunningService } from './support/service.ts';
import { PARTNER_URL } from './support/urls.ts';

test.skip(
  ({ browserName }) => browserName !== 'chromium',
  'the virtual wallet is a Chromium DevTools Protocol feature (DigitalCredentials domain)',
);

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'wallet');
let signing: RunningService;
test.beforeAll(async () => {
  signing = await startService({
    SVC_MODE: 'sandbox',
    SVC_WALLET_ACCESS_CERT: join(FIXTURES, 'sandbox-access.pem'),
    SVC_WALLET_ACCESS_KEY: join(FIXTURES, 'sandbox-access.key.pem'),
  });
});
test.afterAll(async () => {
  await signing?.stop();
});

test('[isAdult, isFrench] completes through openid4vp-v1-signed, answered by the virtual wallet', async ({ page }) => {
  const csp = STRICT_CSP.replace(/(script-src|style-src|connect-src) ([^;]+)/g, `$1 $2 ${signing.url}`);
  const attributes = {
    'partner-id': 'pk_test_demo',
    'success-path': '/e2e/signed-done',
    scopes: 'isAdult,isFrench',
    'client-proof-mode': 'true',
    locale: 'en',
  };
  const url = await servePartnerPage(
    page,
    '/e2e/signed',
    `<div id="svc-widget"></div>${loaderTag(attributes, signing.url)}`,
    {
      csp,
    },
  );
  await servePartnerPage(page, '/e2e/signed-done', '<h1>done</h1>', { csp });

  // What the page hands to the browser, as the browser receives it.
  const handed: string[][] = [];
  await page.exposeFunction('svcTestRecordRequests', (protocols: string[]) => void handed.push(protocols));
  await page.addInitScript(() => {
    const get = navigator.credentials.get.bind(navigator.credentials);
    navigator.credentials.get = (options?: CredentialRequestOptions) => {
      const digital = (options as { digital?: { requests?: { protocol: string }[] } } | undefined)?.digital;
      void (window as unknown as { svcTestRecordRequests(p: string[]): void }).svcTestRecordRequests(
        digital?.requests?.map((r) => r.protocol) ?? [],
      );
      return get(options);
    };
  });

  const createdResponse = page.waitForResponse((r) => r.url() === `${signing.url}/api/w/verify-request`);
  await page.goto(url);
  const created = (await (await createdResponse).json()) as VerifyRequestCreated;
  const requests = created.dc_requests!;
  expect(requests.map((r) => r.protocol)).toEqual(['openid4vp-v1-signed', 'org-iso-mdoc', 'openid4vp-v1-unsigned']);

  // The wallet: verifies the request object (x5c, x509_hash, expected_origins ∋ this page) and answers.
  const credential = await createDcApiCredential({
    dcRequest: requests[0]!,
    origin: PARTNER_URL,
    issuer: loadSandboxIssuer(),
    persona: { id: 'fr-adult-f', label: 'x', birth_date: '1990-01-01', sex: 'F', nationality: 'FRA' },
    now: Date.now(),
    credential: 'pid',
  });
  expect(credential.protocol).toBe('openid4vp-v1-signed');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send(
    'DigitalCredentials.setVirtualWalletBehavior' as never,
    { action: 'respond', protocol: credential.protocol, response: credential.data } as never,
  );

  await waitForWidgetState(page, 'waiting');
  const answered = page.waitForResponse((r) => r.url().includes('/api/w/wallet-response/'));
  await widget(page).getByTestId('svc-use-wallet').click();
  expect((await answered).status()).toBe(200);
  await page.waitForURL(/\/e2e\/signed-done#grant_code=g_/);
  expect(handed).toEqual([['openid4vp-v1-signed', 'org-iso-mdoc', 'openid4vp-v1-unsigned']]);
  const status = await page.request.get(
    `${signing.url}/api/w/verify-status/${created.request_id}?pt=${created.poll_token}`,
  );
  expect(((await status.json()) as WidgetVerifyStatus).status).toBe('completed');
});

test('an answer to the signed request bound to another page’s origin is refused; the request still waits', async ({
  page,
}) => {
  const csp = STRICT_CSP.replace(/(script-src|style-src|connect-src) ([^;]+)/g, `$1 $2 ${signing.url}`);
  const attributes = {
    'partner-id': 'pk_test_demo',
    'success-path': '/e2e/signed-done',
    scopes: 'isFrench',
    'client-proof-mode': 'true',
    locale: 'en',
  };
  const url = await servePartnerPage(
    page,
    '/e2e/signed-forged',
    `<div id="svc-widget"></div>${loaderTag(attributes, signing.url)}`,
    {
      csp,
    },
  );
  const createdResponse = page.waitForResponse((r) => r.url() === `${signing.url}/api/w/verify-request`);
  await page.goto(url);
  const created = (await (await createdResponse).json()) as VerifyRequestCreated;
  const credential = await createDcApiCredential({
    dcRequest: created.dc_requests![0]!,
    origin: PARTNER_URL,
    issuer: loadSandboxIssuer(),
    persona: { id: 'fr-adult-f', label: 'x', birth_date: '1990-01-01', sex: 'F', nationality: 'FRA' },
    now: Date.now(),
    credential: 'pid',
    tamper: 'origin',
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send(
    'DigitalCredentials.setVirtualWalletBehavior' as never,
    { action: 'respond', protocol: credential.protocol, response: credential.data } as never,
  );
  await waitForWidgetState(page, 'waiting');
  const answered = page.waitForResponse((r) => r.url().includes('/api/w/wallet-response/'));
  await widget(page).getByTestId('svc-use-wallet').click();
  expect((await answered).status()).toBe(400);
  await expect(widget(page).getByRole('heading', { name: 'The wallet did not share a proof' })).toBeVisible();
  const status = await page.request.get(
    `${signing.url}/api/w/verify-status/${created.request_id}?pt=${created.poll_token}`,
  );
  expect(((await status.json()) as WidgetVerifyStatus).status).toBe('pending');
});
