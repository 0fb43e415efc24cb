/**
 * The EU PID as an SD-JWT VC (design.md §15) on a running service: the sandbox wallet presents it
 * through the openid4vp:// link (`svc wallet present --credential pid-sd-jwt`) and Chromium's
 * virtual wallet through the Digital Credentials API (openid4vp-v1-unsigned); a revoked one, on the
 * service's own status list (`/sandbox/status/1`), is refused and the widget keeps waiting.
 */
import { expect, test, type Page } from '@playwright/test';
import { runWalletCommand } from '../server/cli/wallet.ts';
import { loadSandboxIssuer } from '../server/sandbox/wallet/sandbox-issuer.ts';
import { createDcApiCredential } from '../server/sandbox/wallet/sandbox-wallet.ts';
import type { VerifyRequestCreated } from '../src/protocol/wire.ts';
import { waitForWidgetState, widget } from './support/qa.ts';
import { PARTNER_URL, SERVICE_URL } from './support/urls.ts';

const FRENCH = '/standard?proof=1&locale=en&scopes=isAdult,isFrench';

async function createdRequest(page: Page): Promise<VerifyRequestCreated> {
  const created = page.waitForResponse((r) => r.url() === `${SERVICE_URL}/api/w/verify-request`);
  await page.goto(FRENCH);
  return (await (await created).json()) as VerifyRequestCreated;
}

/** `svc wallet present '<link>' --persona fr-adult-f --credential pid-sd-jwt [flags]`, in process. */
async function presentSdJwt(link: string, flags: string[] = []): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const args = ['present', link, '--persona', 'fr-adult-f', '--credential', 'pid-sd-jwt', ...flags];
  const code = await runWalletCommand(args, { out: (l) => out.push(l), err: (l) => out.push(l) });
  return { code, out: out.join('\n') };
}

test('isAdult and isFrench from an SD-JWT VC PID through the openid4vp:// link: its birthdate proves isAdult', async ({
  page,
}) => {
  const { wallet_link: link } = await createdRequest(page);
  expect(decodeURIComponent(link!)).toContain('"id":"pid_sd","format":"dc+sd-jwt"');
  await waitForWidgetState(page, 'waiting');
  const presented = await presentSdJwt(link!);
  expect(presented.out).toContain(
    'presenting pid_sd as pid_sd, disclosing {"birthdate":"1998-07-02","nationalities":["FR"]}',
  );
  expect(presented.out).toMatch(/→ 200 \{"redirect_uri":"[^"]+\/done#response_code=[\w-]{43}"\}/);
  await page.waitForURL('**/success');
  await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('yes');
  await expect(page.locator('dd[data-attribute="is_french"]')).toHaveText('yes');
  await expect(page.getByTestId('result')).not.toContainText('1998');
});

test('a wallet on the same phone follows redirect_uri to the done view, and the page that asked delivers once (design.md §19)', async ({
  page,
  context,
}) => {
  let successes = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && frame.url().endsWith('/success')) successes++;
  });
  const { wallet_link: link, request_id: id } = await createdRequest(page);
  await waitForWidgetState(page, 'waiting');
  const presented = await presentSdJwt(link!);
  const redirect = /"redirect_uri":"([^"]+)"/.exec(presented.out)![1]!;
  expect(redirect).toMatch(new RegExp(`^${SERVICE_URL}/m/v/${id}/done#response_code=[\\w-]{43}$`));
  // the page that asked completes by itself (long poll), whatever the phone does next
  await page.waitForURL('**/success');
  // the wallet app hands the visitor to the browser: the done view, in the request's language (en)
  const phone = await context.newPage();
  await phone.goto(redirect);
  await expect(phone.getByTestId('phone-done')).toContainText('Proof shared');
  expect(new URL(phone.url()).hash).toBe('');
  await phone.screenshot({ path: test.info().outputPath('done-view.png') });
  // opened again (the code is used): a neutral page that says nothing of the request
  await phone.goto('about:blank');
  await phone.goto(redirect);
  await expect(phone.getByTestId('phone-done')).toContainText('Nothing to show here');
  await expect(page.locator('dd[data-attribute="is_french"]')).toHaveText('yes');
  expect(successes).toBe(1);
});

test('a revoked SD-JWT VC PID is refused ("credential revoked"): the widget keeps waiting', async ({ page }) => {
  const created = await createdRequest(page);
  await waitForWidgetState(page, 'waiting');
  const presented = await presentSdJwt(created.wallet_link!, ['--revoked']);
  expect(presented.code).toBe(1);
  expect(presented.out).toContain('→ 400 {"error":"invalid_request","error_description":"credential revoked"}');
  const status = await page.request.get(
    `${SERVICE_URL}/api/w/verify-status/${created.request_id}?pt=${created.poll_token}`,
  );
  expect(((await status.json()) as { status: string }).status).toBe('pending');
  await waitForWidgetState(page, 'waiting');
});

test('isAdult and isFrench from an SD-JWT VC PID on this device (Digital Credentials API, openid4vp-v1-unsigned)', async ({
  page,
  browserName,
}) => {
  test.skip(browserName !== 'chromium', 'the virtual wallet is a Chromium DevTools Protocol feature');
  const created = await createdRequest(page);
  const credential = await createDcApiCredential({
    dcRequest: created.dc_requests!.find((r) => r.protocol === 'openid4vp-v1-unsigned')!,
    origin: PARTNER_URL,
    issuer: loadSandboxIssuer(),
    persona: { id: 'x', label: 'x', birth_date: '2000-02-29', sex: 'F', nationality: 'FRA' },
    now: Date.now(),
    credential: 'pid-sd-jwt',
    statusList: `${SERVICE_URL}/sandbox/status/1`,
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send(
    'DigitalCredentials.setVirtualWalletBehavior' as never,
    { action: 'respond', protocol: credential.protocol, response: credential.data } as never,
  );
  await waitForWidgetState(page, 'waiting');
  await widget(page).getByTestId('svc-use-wallet').click();
  await page.waitForURL('**/success');
  await expect(page.locator('dd[data-attribute="age_over_18"]')).toHaveText('yes');
  await expect(page.locator('dd[data-attribute="is_french"]')).toHaveText('yes');
});
