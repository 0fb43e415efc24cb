/**
 * The EUDI wallet path (design.md §11, §13): a partner page in client proof mode
 * completed by a wallet — the EU age-verification profile's proof of age for isAdult, the EU PID
 * or a mobile driving licence for isFrench and isEU. The sandbox wallet
 * (server/sandbox/wallet/sandbox-wallet.ts, as `svc wallet present` runs it) answers the av:// or
 * openid4vp:// link the widget shows, over HTTP, exactly as a phone wallet would; Chromium's
 * virtual wallet answers the Digital Credentials API with either protocol.
 */
import { expect, test, type Page } from '@playwright/test';
import { runWalletCommand } from '../server/cli/wallet.ts';
import { loadSandboxIssuer } from '../server/sandbox/wallet/sandbox-issuer.ts';
import { createDcApiCredential } from '../server/sandbox/wallet/sandbox-wallet.ts';
import type { VerifyRequestCreated } from '../src/protocol/wire.ts';
import { waitForWidgetState, widget } from './support/qa.ts';
import { PARTNER_URL, SERVICE_URL } from './support/urls.ts';

/**
 * Opens `path` and answers the wallet link its request offers (from the create answer: on a
 * computer the widget links no `av://` or `openid4vp://` link, docs/decisions.md), once the widget waits.
 */
async function openWithWalletLink(page: Page, path: string, scheme: 'av' | 'openid4vp' = 'av'): Promise<string> {
  const created = page.waitForResponse((r) => r.url() === `${SERVICE_URL}/api/w/verify-request`);
  await page.goto(path);
  const { wallet_link: link } = (await (await created).json()) as VerifyRequestCreated;
  if (!link?.startsWith(`${scheme}://`)) throw new Error(`the request offers no ${scheme}:// wallet link: ${link}`);
  await waitForWidgetState(page, 'waiting');
  return link;
}

/** `svc wallet present '<link>' --persona <id> [--tamper <what>] [more flags]`, in process; the exit code. */
async function presentWithSandboxWallet(
  link: string,
  persona: string,
  tamper?: string,
  flags: string[] = [],
): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const args = ['present', link, '--persona', persona, ...(tamper ? ['--tamper', tamper] : []), ...flags];
  const code = await runWalletCommand(args, { out: (l) => out.push(l), err: (l) => out.push(l) });
  return { code, out: out.join('\n') };
}

test('STANDARD: the desktop QR opens the wallet, the sandbox wallet presents, the partner sees eudi_wallet', async ({
  page,
}) => {
  const link = await openWithWalletLink(page, '/standard?proof=1&locale=en');
  expect(link).toMatch(
    /^av:\/\/\?response_type=vp_token&response_mode=direct_post&client_id=redirect_uri%3Ahttp%3A%2F%2Flocalhost%3A8787%2Foid4vp%2Fresponse%2Fvr_/,
  );
  await expect(widget(page).getByTestId('svc-qr')).toBeVisible();

  const presented = await presentWithSandboxWallet(link, 'fr-adult-f');
  expect(presented.out).toMatch(/→ 200 \{"redirect_uri":"[^"]+\/done#response_code=[\w-]{43}"\}/);
  expect(presented.code).toBe(0);

  await page.waitForURL('**/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('yes');
  await expect(page.locator('dd[data-attribute="verification_method"]')).toHaveText('an EU digital identity wallet');
});

test('ADULT_BLIND: the same through the wallet, with an attestation the partner verifies offline', async ({ page }) => {
  const presented = await presentWithSandboxWallet(await openWithWalletLink(page, '/blind?proof=1'), 'de-adult');
  expect(presented.code).toBe(0);
  await page.waitForURL('**/blind/success');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  await expect(page.locator('dd[data-attribute="adult"]')).toHaveText('yes');
  await expect(page.getByTestId('result')).toContainText('checked this result’s signature itself');
});

test('a tampered presentation is refused: the widget keeps waiting and the request is not completed', async ({
  page,
  request,
}) => {
  const created = page.waitForResponse((r) => r.url() === `${SERVICE_URL}/api/w/verify-request`);
  const link = await openWithWalletLink(page, '/standard?proof=1');
  const { request_id, poll_token } = (await (await created).json()) as VerifyRequestCreated;
  const tampered = await presentWithSandboxWallet(link, 'fr-adult-m', 'digest');
  expect(tampered.code).toBe(1);
  expect(tampered.out).toMatch(/→ 400 .*invalid_request/);
  // The service says the request is still pending (asked now, not after the widget's next long poll).
  const status = await request.get(`${SERVICE_URL}/api/w/verify-status/${request_id}?pt=${poll_token}`);
  expect(((await status.json()) as { status: string }).status).toBe('pending');
  expect(await widget(page).getAttribute('data-state')).toBe('waiting');
  // The genuine wallet can still answer.
  expect((await presentWithSandboxWallet(link, 'fr-adult-m')).code).toBe(0);
  await page.waitForURL('**/success');
});

test('on a computer the widget links no wallet link, draws its QR code at 3 px a module and says to scan it with a wallet app', async ({
  page,
}) => {
  await openWithWalletLink(page, '/standard?proof=1&locale=en');
  const card = widget(page);
  await expect(card.getByRole('heading', { level: 2 })).toHaveText('Scan with your EU wallet app');
  // nothing a computer cannot open: "Open on this device" is the request's phone page
  await expect(card.locator('a[href^="av:"]')).toHaveCount(0);
  await expect(card.getByTestId('svc-open-here')).toHaveAttribute('href', new RegExp(`^${SERVICE_URL}/m/v/vr_`));
  const qr = card.getByTestId('svc-qr');
  const modules = Number((await qr.getAttribute('viewBox'))!.split(' ')[2]);
  const drawn = (await qr.boundingBox())!;
  expect(modules).toBeGreaterThan(90);
  expect(drawn.width / modules).toBeGreaterThanOrEqual(3);
  // the Digital Credentials button only where the browser has the API (Chromium, not Firefox ESR)
  const hasApi = await page.evaluate(() => 'DigitalCredential' in window);
  await expect(card.getByTestId('svc-use-wallet')).toHaveCount(hasApi ? 1 : 0);
});

test('isAdult and isFrench through the openid4vp:// link: the sandbox wallet presents a PID, the partner sees both facts', async ({
  page,
}) => {
  const link = await openWithWalletLink(page, '/standard?proof=1&locale=en&scopes=isAdult,isFrench', 'openid4vp');
  expect(decodeURIComponent(link)).toContain('"credential_sets":[{"options":[["pid"],["mdl"],["pid_sd"]]}]');

  // A nationality rewritten after signing is refused; the request keeps waiting for the genuine one.
  const tampered = await presentWithSandboxWallet(link, 'de-adult', 'nationality', ['--credential', 'pid']);
  expect(tampered.out).toMatch(/→ 400 .*a disclosed value does not match its issuer digest/);
  expect(await widget(page).getAttribute('data-state')).toBe('waiting');

  const presented = await presentWithSandboxWallet(link, 'fr-adult-f', undefined, ['--credential', 'pid']);
  expect(presented.out).toContain('presenting pid as pid, disclosing {"age_over_18":true,"nationality":["FR"]}');
  expect(presented.out).toMatch(/→ 200 \{"redirect_uri":"[^"]+\/done#response_code=[\w-]{43}"\}/);
  await page.waitForURL('**/success');
  await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('yes');
  await expect(page.locator('dd[data-attribute="is_french"]')).toHaveText('yes');
  await expect(page.locator('dd[data-attribute="verification_method"]')).toHaveText('an EU digital identity wallet');
});

test('isAdult and isFrench from a PID without age_over_18 through the openid4vp:// link: its birth date proves isAdult', async ({
  page,
}) => {
  const link = await openWithWalletLink(page, '/standard?proof=1&locale=en&scopes=isAdult,isFrench', 'openid4vp');
  expect(decodeURIComponent(link)).toContain('"claim_sets":[["age","nat"],["bd","nat"]]');
  const presented = await presentWithSandboxWallet(link, 'fr-adult-f', undefined, ['--credential', 'pid-no-age']);
  expect(presented.out).toContain('presenting pid as pid, disclosing {"birth_date":"1998-07-02","nationality":["FR"]}');
  expect(presented.out).toMatch(/→ 200 \{"redirect_uri":"[^"]+\/done#response_code=[\w-]{43}"\}/);
  await page.waitForURL('**/success');
  await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('yes');
  await expect(page.locator('dd[data-attribute="is_french"]')).toHaveText('yes');
  await expect(page.getByTestId('result')).not.toContainText('1998');
});

test('the sandbox phone offers the PID without age_over_18 and presents it: a minor’s birth date fails the request', async ({
  page,
  context,
}) => {
  const created = page.waitForResponse((r) => r.url() === `${SERVICE_URL}/api/w/verify-request`);
  await page.goto('/standard?proof=1&locale=en&scopes=isAdult,isFrench');
  const { deep_link } = (await (await created).json()) as VerifyRequestCreated;
  const phone = await context.newPage();
  await phone.goto(deep_link);
  await phone.locator('input[name="persona"][value="fr-minor"]').check();
  // pid, pid-no-age, mdl, pid-sd-jwt and pid-sd-jwt-revoked (design.md §15)
  await expect(phone.locator('input[name="credential"]')).toHaveCount(5);
  await expect(phone.locator('input[name="credential"][value="pid-sd-jwt-revoked"]')).toHaveCount(1);
  const noAge = phone.locator('input[name="credential"][value="pid-no-age"]');
  await expect(phone.locator('label', { has: noAge })).toContainText('EU PID without age_over_18 (birth date)');
  await noAge.check();
  await phone.locator('[data-outcome="approved"]').click();
  await waitForWidgetState(page, 'failed');
});

test('isFrench answered by a driving licence without nationality: the widget shows the failure, not a wait', async ({
  page,
}) => {
  const link = await openWithWalletLink(page, '/standard?proof=1&locale=en&scopes=isFrench', 'openid4vp');
  const { createDirectPost } = await import('../server/sandbox/wallet/sandbox-wallet.ts');
  const persona = { id: 'x', label: 'x', birth_date: '1990-01-01', sex: 'M' as const, nationality: 'FRA' };
  const { responseUri, body } = await createDirectPost({
    link,
    issuer: loadSandboxIssuer(),
    persona,
    now: Date.now(),
    credential: 'mdl',
    elements: { nationality: undefined },
  });
  const answered = await fetch(responseUri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  expect(answered.status).toBe(200);
  await waitForWidgetState(page, 'failed');
});

test('the sandbox phone presents the credential picked on the page (a driving licence) for isFrench and isEU', async ({
  page,
  context,
}) => {
  const created = page.waitForResponse((r) => r.url() === `${SERVICE_URL}/api/w/verify-request`);
  await page.goto('/standard?proof=1&locale=en&scopes=isFrench,isEU');
  const { deep_link } = (await (await created).json()) as VerifyRequestCreated;
  const phone = await context.newPage();
  await phone.goto(deep_link);
  await phone.locator('input[name="persona"][value="de-adult"]').check();
  const credentials = phone.locator('input[name="credential"]');
  // pid, mdl, then the SD-JWT PID valid and revoked (design.md §15)
  await expect(credentials).toHaveCount(4);
  await expect(phone.locator('input[name="credential"][value="pid"]')).toBeChecked();
  await phone.locator('input[name="credential"][value="mdl"]').check();
  await phone.locator('[data-outcome="approved"]').click();
  await page.waitForURL('**/success');
  await expect(page.locator('dd[data-attribute="is_french"]')).toHaveText('no');
  await expect(page.locator('dd[data-attribute="is_eu"]')).toHaveText('yes');
});

test.describe('Digital Credentials API', () => {
  test.skip(
    ({ browserName }) => browserName !== 'chromium',
    'the virtual wallet is a Chromium DevTools Protocol feature (DigitalCredentials domain)',
  );

  async function virtualWallet(page: Page, behavior: Record<string, unknown>): Promise<void> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('DigitalCredentials.setVirtualWalletBehavior' as never, behavior as never);
  }

  async function createdRequest(page: Page, scopes = 'isAdult'): Promise<VerifyRequestCreated> {
    const created = page.waitForResponse((r) => r.url() === `${SERVICE_URL}/api/w/verify-request`);
    await page.goto(`/standard?proof=1&locale=en&scopes=${scopes}`);
    return (await (await created).json()) as VerifyRequestCreated;
  }

  /** A French adult's PID as the sandbox wallet answers `protocol` of `created`, bound to `origin`. */
  function frenchPid(created: VerifyRequestCreated, protocol: string, origin: string) {
    const persona = { id: 'fr-adult-f', label: 'x', birth_date: '1990-01-01', sex: 'F' as const, nationality: 'FRA' };
    return createDcApiCredential({
      dcRequest: created.dc_requests!.find((r) => r.protocol === protocol)!,
      origin,
      issuer: loadSandboxIssuer(),
      persona,
      now: Date.now(),
      credential: 'pid',
    });
  }

  for (const protocol of ['org-iso-mdoc', 'openid4vp-v1-unsigned'] as const) {
    test(`isAdult and isFrench from a PID on this device over ${protocol}: the page hands every request to the browser`, async ({
      page,
    }) => {
      const asked: unknown[] = [];
      await page.exposeFunction('svcTestRecordRequests', (requests: unknown) => void asked.push(requests));
      await page.addInitScript(() => {
        const get = navigator.credentials.get.bind(navigator.credentials);
        navigator.credentials.get = (options?: CredentialRequestOptions) => {
          const digital = (options as { digital?: { requests?: { protocol: string }[] } } | undefined)?.digital;
          void (window as unknown as { svcTestRecordRequests(r: unknown): void }).svcTestRecordRequests(
            digital?.requests?.map((r) => r.protocol),
          );
          return get(options);
        };
      });
      const created = await createdRequest(page, 'isAdult,isFrench');
      expect(created.dc_requests!.map((r) => r.protocol)).toEqual(['org-iso-mdoc', 'openid4vp-v1-unsigned']);
      const credential = await frenchPid(created, protocol, PARTNER_URL);
      await virtualWallet(page, { action: 'respond', protocol: credential.protocol, response: credential.data });
      await waitForWidgetState(page, 'waiting');
      await widget(page).getByTestId('svc-use-wallet').click();
      await page.waitForURL('**/success');
      expect(asked).toEqual([['org-iso-mdoc', 'openid4vp-v1-unsigned']]);
      await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('yes');
      await expect(page.locator('dd[data-attribute="is_french"]')).toHaveText('yes');
      await expect(page.locator('dd[data-attribute="verification_method"]')).toHaveText(
        'an EU digital identity wallet',
      );
    });
  }

  test('isAdult and isFrench from a PID without age_over_18 on this device (openid4vp-v1-unsigned, claim_sets)', async ({
    page,
  }) => {
    const created = await createdRequest(page, 'isAdult,isFrench');
    const credential = await createDcApiCredential({
      dcRequest: created.dc_requests!.find((r) => r.protocol === 'openid4vp-v1-unsigned')!,
      origin: PARTNER_URL,
      issuer: loadSandboxIssuer(),
      persona: { id: 'x', label: 'x', birth_date: '2000-02-29', sex: 'F', nationality: 'FRA' },
      now: Date.now(),
      credential: 'pid-no-age',
    });
    await virtualWallet(page, { action: 'respond', protocol: credential.protocol, response: credential.data });
    await waitForWidgetState(page, 'waiting');
    await widget(page).getByTestId('svc-use-wallet').click();
    await page.waitForURL('**/success');
    await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('yes');
    await expect(page.locator('dd[data-attribute="is_french"]')).toHaveText('yes');
  });

  for (const protocol of ['org-iso-mdoc', 'openid4vp-v1-unsigned'] as const) {
    test(`a presentation bound to another page's origin is refused over ${protocol}: retryable, the request still waiting`, async ({
      page,
    }) => {
      const created = await createdRequest(page, 'isAdult,isFrench');
      const credential = await frenchPid(created, protocol, 'https://attacker.example');
      await virtualWallet(page, { action: 'respond', protocol: credential.protocol, response: credential.data });
      await waitForWidgetState(page, 'waiting');
      const answered = page.waitForResponse((r) => r.url().includes('/api/w/wallet-response/'));
      await widget(page).getByTestId('svc-use-wallet').click();
      expect((await answered).status()).toBe(400);
      await expect(widget(page).getByRole('heading', { name: 'The wallet did not share a proof' })).toBeVisible();
      const status = await page.request.get(
        `${SERVICE_URL}/api/w/verify-status/${created.request_id}?pt=${created.poll_token}`,
      );
      expect(((await status.json()) as { status: string }).status).toBe('pending');
    });
  }

  test('the wallet on this device answers through navigator.credentials.get and the request completes', async ({
    page,
  }) => {
    const created = await createdRequest(page);
    const persona = { id: 'fr-adult-m', label: 'x', birth_date: '1990-01-01', sex: 'M' as const, nationality: 'FRA' };
    const credential = await createDcApiCredential({
      dcRequest: created.dc_request!,
      origin: PARTNER_URL,
      issuer: loadSandboxIssuer(),
      persona,
      now: Date.now(),
    });
    await virtualWallet(page, { action: 'respond', protocol: credential.protocol, response: credential.data });
    await waitForWidgetState(page, 'waiting');
    await widget(page).getByTestId('svc-use-wallet').click();
    await page.waitForURL('**/success');
    await expect(page.locator('dd[data-attribute="verification_method"]')).toHaveText('an EU digital identity wallet');
  });

  test('a wallet that declines ends as a clear, retryable failure, back to the QR', async ({ page }) => {
    await createdRequest(page);
    await virtualWallet(page, { action: 'decline' });
    await waitForWidgetState(page, 'waiting');
    await widget(page).getByTestId('svc-use-wallet').click();
    await expect(widget(page).getByRole('heading', { name: 'The wallet did not share a proof' })).toBeVisible();
    await widget(page).getByTestId('svc-retry').click();
    await expect(widget(page).getByTestId('svc-qr')).toBeVisible();
  });
});
