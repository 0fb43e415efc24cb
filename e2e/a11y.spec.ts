import { expect, test, type Page } from '@playwright/test';
import type { LoginResult, VerifyRequestCreated } from '../src/protocol/wire.ts';
import { seriousViolations } from './support/axe.ts';
import { sweepOnceInFirefox } from './support/engines.ts';
import { completeThroughApi, deepLinkOf, waitForWidgetState } from './support/qa.ts';
import { openCompact } from './support/sizes.ts';
import { PARTNER_URL, SERVICE_URL } from './support/urls.ts';

for (const theme of ['dark', 'light'] as const) {
  for (const locale of ['fr', 'en'] as const) {
    test(`the waiting widget has no serious accessibility violation (${theme}, ${locale})`, async ({
      page,
      browserName,
    }) => {
      sweepOnceInFirefox(browserName, theme === 'dark' && locale === 'fr');
      await page.goto(`/standard?theme=${theme}&locale=${locale}`);
      await waitForWidgetState(page, 'waiting');
      expect(await seriousViolations(page, '[data-testid="svc-widget"]')).toEqual([]);
    });
  }
}

for (const theme of ['dark', 'light'] as const) {
  test(`the compact widget has no serious accessibility violation on a computer (${theme})`, async ({
    page,
    browserName,
  }) => {
    sweepOnceInFirefox(browserName, theme === 'dark');
    await openCompact(page, theme);
    expect(await seriousViolations(page, '[data-testid="svc-widget"]')).toEqual([]);
  });
}

// One axe pass per journey: the form and the outcome in one took 15.3–17.1 s in Firefox (dark) in full runs.
for (const colorScheme of ['light', 'dark'] as const) {
  /** The sandbox phone page of a new request, in `colorScheme`. */
  const openPhone = async (page: Page): Promise<Page> => {
    await page.goto('/standard');
    const phone = await page.context().newPage();
    await phone.emulateMedia({ colorScheme });
    await phone.goto(await deepLinkOf(page));
    await expect(phone.locator('form.phone-form')).toBeVisible();
    return phone;
  };

  test(`the sandbox phone page has no serious accessibility violation (${colorScheme} scheme)`, async ({ page }) => {
    expect(await seriousViolations(await openPhone(page))).toEqual([]);
  });

  test(`the sandbox phone page's outcome has no serious accessibility violation (${colorScheme} scheme)`, async ({
    page,
  }) => {
    const phone = await openPhone(page);
    await phone.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(phone.getByTestId('outcome')).toBeVisible();
    expect(await seriousViolations(phone)).toEqual([]);
  });
}

/** A request in client proof mode for isAdult: the phone offers the wallet, the example provider and the personas. */
async function walletRequest(page: Page): Promise<VerifyRequestCreated> {
  const res = await page.request.post(`${SERVICE_URL}/api/w/verify-request`, {
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_URL },
    data: JSON.stringify({ partner_id: 'pk_test_demo', scopes: ['isAdult'], client_proof_mode: true, locale: 'en' }),
  });
  return (await res.json()) as VerifyRequestCreated;
}

/** The deep link as an identity provider sends the visitor back: `?login=<result>` before the fragment. */
const backFromProvider = (deepLink: string, login: LoginResult) => deepLink.replace('#', `?login=${login}#`);

// One axe pass per journey but the finished states' two: the ways to prove it and the refused
// notice in one took 15.4 s in Firefox in a full run (and all four in one 30.9 s under a CPU hog).
for (const colorScheme of ['light', 'dark'] as const) {
  /** A phone page in `colorScheme`, and a new client-proof request for it (not yet opened). */
  const walletPhone = async (page: Page): Promise<{ phone: Page; created: VerifyRequestCreated }> => {
    const phone = await page.context().newPage();
    await phone.emulateMedia({ colorScheme });
    return { phone, created: await walletRequest(page) };
  };

  test(`the phone page's ways to prove it have no serious accessibility violation (${colorScheme})`, async ({
    page,
  }) => {
    // every kind of way: the wallet link, the provider, the persona picker; the wallet on this phone
    // where the browser has the Digital Credentials API (Chromium)
    const { phone, created } = await walletPhone(page);
    await phone.goto(created.deep_link);
    await expect(phone.getByTestId('methods').getByRole('link', { name: 'Open your wallet app' })).toBeVisible();
    await expect(phone.getByTestId('methods').getByRole('button', { name: 'Continue with Example ID' })).toBeVisible();
    expect(await seriousViolations(phone)).toEqual([]);
  });

  test(`the phone page's refused notice has no serious accessibility violation (${colorScheme})`, async ({ page }) => {
    const { phone, created } = await walletPhone(page);
    await phone.goto(backFromProvider(created.deep_link, 'refused'));
    await expect(phone.getByTestId('notice')).toBeVisible();
    await expect(phone.getByTestId('notice').getByRole('heading')).toBeFocused();
    expect(await seriousViolations(phone)).toEqual([]);
  });

  test(`the phone page's finished states have no serious accessibility violation (${colorScheme})`, async ({
    page,
  }) => {
    const { phone, created } = await walletPhone(page);
    await completeThroughApi(page, created.deep_link, { persona: 'fr-adult-m' });
    await phone.goto(backFromProvider(created.deep_link, 'approved'));
    await expect(phone.getByTestId('finished')).toContainText('Done — you can go back to your computer');
    expect(await seriousViolations(phone)).toEqual([]);

    await phone.goto(`${SERVICE_URL}/m/callback?state=unknown&code=x`);
    await expect(phone.getByTestId('finished')).toContainText('This sign-in link has expired');
    expect(await seriousViolations(phone)).toEqual([]);
  });
}

// One journey per page: each axe pass over a whole page took 15–18 s in Firefox on a busy machine.
for (const path of ['/', '/standard']) {
  test(`the example partner page ${path} has no serious accessibility violation around the widget`, async ({
    page,
  }) => {
    await page.goto(path);
    if (path === '/standard') await waitForWidgetState(page, 'waiting');
    expect(await seriousViolations(page), path).toEqual([]);
  });
}
