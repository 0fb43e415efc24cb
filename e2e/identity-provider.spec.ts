/**
 * The production path on the phone page (design.md §12): a desktop visitor scans the QR,
 * the phone page offers the example identity provider (the fixture idp_example, :8789, started by
 * playwright.config.ts), the visitor signs in there as a persona and comes back to the phone page
 * in its finished state; the partner page gets the result. And the wallet on this phone through
 * the Digital Credentials API, posted with the phone's handoff token.
 */
import { expect, test, type Page } from '@playwright/test';
import { loadSandboxIssuer } from '../server/sandbox/wallet/sandbox-issuer.ts';
import { createDcApiCredential } from '../server/sandbox/wallet/sandbox-wallet.ts';
import type { VerifyRequestCreated } from '../src/protocol/wire.ts';
import { deepLinkOf, waitForWidgetState, widget } from './support/qa.ts';
import { PARTNER_URL, SERVICE_URL } from './support/urls.ts';

const PROVIDER_URL = 'http://localhost:8789';

/** On the phone page: "Continue with Example ID", then at the provider: a persona and a decision. */
async function signInWithExampleId(phone: Page, choice: { persona?: string; decision: 'approve' | 'decline' }) {
  await phone.getByRole('button', { name: 'Continue with Example ID' }).click();
  await phone.waitForURL(`${PROVIDER_URL}/**`);
  if (choice.persona) await phone.locator(`input[name="persona"][value="${choice.persona}"]`).check();
  await phone.locator(`button[name="decision"][value="${choice.decision}"]`).click();
  // Back on the phone page, which removed ?login= from the address once read.
  await phone.waitForURL((url) => url.origin === SERVICE_URL && url.pathname.startsWith('/m/v/'));
  await expect.poll(() => new URL(phone.url()).search).toBe('');
}

test('STANDARD: the phone signs in at the identity provider, the partner shows the attributes', async ({
  page,
  context,
}) => {
  await page.goto('/standard?scopes=isAdult,isFrench&locale=en');
  const phone = await context.newPage();
  await phone.goto(await deepLinkOf(page));
  await expect(phone.getByTestId('audience')).toHaveText('Demo Shop asks you to prove:');
  await expect(phone.getByTestId('methods').getByRole('button')).toHaveText(['Continue with Example ID']);
  // the persona picker stays below, in sandbox
  await expect(phone.locator('form.phone-form')).toBeVisible();

  await signInWithExampleId(phone, { persona: 'fr-adult-f', decision: 'approve' });
  await expect(phone.getByTestId('finished').getByRole('heading')).toHaveText(
    'Done — you can go back to your computer',
  );
  await expect(phone.getByTestId('finished').getByRole('heading')).toBeFocused();

  await page.waitForURL('**/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('yes');
  await expect(page.locator('dd[data-attribute="is_french"]')).toHaveText('yes');
  await expect(page.locator('dd[data-attribute="verification_method"]')).toHaveText('a face check');
});

test('ADULT_BLIND: the phone signs in at the identity provider, the partner verifies the attestation', async ({
  page,
  context,
}) => {
  await page.goto('/blind?scopes=isAdult,isUnique');
  const phone = await context.newPage();
  await phone.goto(await deepLinkOf(page));
  await expect(phone.getByTestId('audience')).toHaveText('An anonymous site asks you to prove:');
  await expect(phone.locator('body')).not.toContainText('Blind Shop');

  await signInWithExampleId(phone, { persona: 'de-adult', decision: 'approve' });
  await expect(phone.getByTestId('finished')).toContainText('Done — you can go back to your computer');

  await page.waitForURL((url) => url.pathname === '/blind/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  await expect(page.locator('dd[data-attribute="adult"]')).toHaveText('yes');
  await expect(page.locator('dd[data-attribute="nullifier"]')).toHaveText(/^0x[0-9a-f]{64}$/);
});

test('a visitor who declines at the identity provider: cancelled on the phone and on the partner page', async ({
  page,
  context,
}) => {
  await page.goto('/standard?locale=en');
  const phone = await context.newPage();
  await phone.goto(await deepLinkOf(page));
  await signInWithExampleId(phone, { decision: 'decline' });
  await expect(phone.getByTestId('finished').getByRole('heading')).toHaveText('Verification cancelled');

  await waitForWidgetState(page, 'failed');
  await expect(widget(page).getByRole('heading', { name: 'Verification cancelled' })).toBeVisible();
});

test('a sign-in link used twice: the phone page explains it, the request untouched', async ({ page, context }) => {
  await page.goto('/standard?locale=en');
  const phone = await context.newPage();
  await phone.goto(await deepLinkOf(page));
  await phone.getByRole('button', { name: 'Continue with Example ID' }).click();
  await phone.waitForURL(`${PROVIDER_URL}/**`);
  await phone.locator('input[name="persona"][value="fr-adult-m"]').check();
  const callback = phone.waitForRequest((r) => r.url().startsWith(`${SERVICE_URL}/m/callback`));
  await phone.locator('button[name="decision"][value="approve"]').click();
  const callbackUrl = (await callback).url();
  await expect(phone.getByTestId('finished')).toBeVisible();

  const replay = await context.newPage();
  const answer = await replay.goto(callbackUrl);
  expect(answer?.status()).toBe(400);
  await expect(replay.getByTestId('finished').getByRole('heading')).toHaveText(
    'This sign-in link has expired or was already used',
  );
  await page.waitForURL('**/success');
});

test.describe('the wallet on this phone (Digital Credentials API)', () => {
  test.skip(
    ({ browserName }) => browserName !== 'chromium',
    'the virtual wallet is a Chromium DevTools Protocol feature (DigitalCredentials domain)',
  );

  test('answers through navigator.credentials.get with the handoff token; the request completes', async ({
    page,
    context,
  }) => {
    // A request in client proof mode, as the loader makes it (the desktop QR then encodes av://).
    const created = (await (
      await page.request.post(`${SERVICE_URL}/api/w/verify-request`, {
        headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_URL },
        data: JSON.stringify({
          partner_id: 'pk_test_demo',
          scopes: ['isAdult'],
          client_proof_mode: true,
          locale: 'en',
        }),
      })
    ).json()) as VerifyRequestCreated;
    const phone = await context.newPage();
    const credential = await createDcApiCredential({
      dcRequest: created.dc_request!,
      origin: SERVICE_URL,
      issuer: loadSandboxIssuer(),
      persona: { id: 'fr-adult-m', label: 'x', birth_date: '1990-01-01', sex: 'M', nationality: 'FRA' },
      now: Date.now(),
    });
    const cdp = await context.newCDPSession(phone);
    await cdp.send(
      'DigitalCredentials.setVirtualWalletBehavior' as never,
      { action: 'respond', protocol: credential.protocol, response: credential.data } as never,
    );
    await phone.goto(created.deep_link);
    await expect(phone.getByTestId('methods').locator('a[href^="av://"]')).toHaveText('Open your wallet app');
    await phone.getByRole('button', { name: 'Use a wallet on this phone' }).click();
    await expect(phone.getByTestId('finished').getByRole('heading')).toHaveText(
      'Done — you can go back to your computer',
    );
    const status = await page.request.get(
      `${SERVICE_URL}/api/w/verify-status/${created.request_id}?pt=${created.poll_token}`,
    );
    expect(await status.json()).toMatchObject({ status: 'completed', result: { grant_code: expect.any(String) } });
  });

  test('isFrench from a PID on this phone over openid4vp-v1-unsigned, bound to the phone page origin', async ({
    page,
    context,
  }) => {
    const created = (await (
      await page.request.post(`${SERVICE_URL}/api/w/verify-request`, {
        headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_URL },
        data: JSON.stringify({
          partner_id: 'pk_test_demo',
          scopes: ['isFrench'],
          client_proof_mode: true,
          locale: 'en',
        }),
      })
    ).json()) as VerifyRequestCreated;
    const phone = await context.newPage();
    const credential = await createDcApiCredential({
      dcRequest: created.dc_requests!.find((r) => r.protocol === 'openid4vp-v1-unsigned')!,
      origin: SERVICE_URL,
      issuer: loadSandboxIssuer(),
      persona: { id: 'fr-adult-f', label: 'x', birth_date: '1990-01-01', sex: 'F', nationality: 'FRA' },
      now: Date.now(),
      credential: 'pid',
    });
    const cdp = await context.newCDPSession(phone);
    await cdp.send(
      'DigitalCredentials.setVirtualWalletBehavior' as never,
      { action: 'respond', protocol: credential.protocol, response: credential.data } as never,
    );
    await phone.goto(created.deep_link);
    await expect(phone.getByTestId('methods').locator('a[href^="openid4vp://"]')).toHaveText('Open your wallet app');
    await phone.getByRole('button', { name: 'Use a wallet on this phone' }).click();
    await expect(phone.getByTestId('finished').getByRole('heading')).toHaveText(
      'Done — you can go back to your computer',
    );
    const status = await page.request.get(
      `${SERVICE_URL}/api/w/verify-status/${created.request_id}?pt=${created.poll_token}`,
    );
    expect(await status.json()).toMatchObject({ status: 'completed' });
  });
});
