/**
 * The SDK's testing entry (`@svc/partner-sdk/testing`): helpers for a QA team's Playwright
 * journeys that need a verified visitor. Find the widget (it lives in an open shadow root;
 * Playwright's CSS locators pierce it), read its state, and complete the verification either by
 * clicking through the sandbox phone page or by calling its API. Works in Chromium and Firefox.
 *
 * Playwright is a peer dependency of this entry only (`@playwright/test`, the QA team's own);
 * the main entry never loads it. The repository's journeys import these helpers through
 * e2e/support/qa.ts.
 *
 * @example
 * await page.goto('/standard');
 * await completeVerification(page, { persona: 'fr-adult-m', method: 'face_check', outcome: 'approved' });
 * await page.waitForURL('**\/success');
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { Method } from './types.ts';

export type { Method } from './types.ts';

/** What the sandbox phone answers for a request; `failed` and `cancelled` fail the verification. */
export type Outcome = 'approved' | 'failed' | 'cancelled';

/** What the widget shows; `data-state` on its host element reflects it (the widget's own list). */
export type WidgetState =
  'creating' | 'waiting' | 'scanned' | 'completed' | 'confirming' | 'redirecting' | 'failed' | 'expired' | 'error';

/** The part of the phone API's `open` answer the helpers read. */
interface PhoneOpened {
  client_proof_mode: boolean;
}

export interface VerificationOptions {
  /** a persona id from fixtures/personas.json; default fr-adult-m */
  persona?: string;
  /** default: the method the request accepts (eudi_wallet in client proof mode, else face_check) */
  method?: Method;
  /** default approved */
  outcome?: Outcome;
  /** `phone-page` (default) clicks through /m/v/… in a new page; `api` calls the phone API directly */
  via?: 'phone-page' | 'api';
  /** which widget on the page, when there are several; default the first */
  widgetIndex?: number;
  /** leave the phone page open (phone-page only); it is returned */
  keepPhoneOpen?: boolean;
}

export interface VerificationDone {
  requestId: string;
  deepLink: string;
  /** the phone page, when `keepPhoneOpen` */
  phone?: Page;
}

/** The widget host element (`data-testid="svc-widget"`, `data-state` reflects its state). */
export function widget(page: Page, index = 0): Locator {
  return page.getByTestId('svc-widget').nth(index);
}

/** The widget's current state, or null while there is no widget on the page. */
export async function widgetState(page: Page, index = 0): Promise<WidgetState | null> {
  const host = widget(page, index);
  if ((await host.count()) === 0) return null;
  return (await host.getAttribute('data-state')) as WidgetState | null;
}

/**
 * Waits until the widget shows `state` (or one of `states`).
 *
 * @example await waitForWidgetState(page, ['completed', 'redirecting']);
 */
export async function waitForWidgetState(
  page: Page,
  state: WidgetState | readonly WidgetState[],
  options: { index?: number; timeout?: number } = {},
): Promise<WidgetState> {
  const wanted = typeof state === 'string' ? [state] : state;
  const pattern = new RegExp(`^(${wanted.join('|')})$`);
  const host = widget(page, options.index ?? 0);
  await expect(host, `widget state should become ${wanted.join(' or ')}`).toHaveAttribute(
    'data-state',
    pattern,
    options.timeout === undefined ? {} : { timeout: options.timeout },
  );
  return (await host.getAttribute('data-state')) as WidgetState;
}

/**
 * The deep link of the request the widget is waiting on: the "open on this device" link on
 * desktop, the "open the app" button on mobile. Both are plain `<a href>` in the shadow root.
 */
export async function deepLinkOf(page: Page, index = 0): Promise<string> {
  await waitForWidgetState(page, 'waiting', { index });
  const link = widget(page, index).locator('a[href*="/m/v/"]').first();
  const href = await link.getAttribute('href');
  if (!href) throw new Error('the waiting widget shows no deep link');
  return href;
}

/** `{requestId, h}` out of `{app_url}/m/v/<request_id>#h=<handoff_token>`. */
export function parseDeepLink(deepLink: string): { origin: string; requestId: string; h: string } {
  const url = new URL(deepLink);
  const requestId = /^\/m\/v\/([^/]+)$/.exec(url.pathname)?.[1];
  const h = new URLSearchParams(url.hash.slice(1)).get('h');
  if (!requestId || !h) throw new Error(`not a deep link: ${deepLink}`);
  return { origin: url.origin, requestId, h };
}

/**
 * On an open sandbox phone page: picks the persona and method, presses the outcome's button
 * and waits for the final state.
 */
export async function answerOnPhonePage(
  phone: Page,
  options: Pick<VerificationOptions, 'persona' | 'method' | 'outcome'> = {},
): Promise<void> {
  const form = phone.locator('form.phone-form');
  await expect(form, 'the phone page should show the request').toBeVisible();
  await phone.locator(`input[name="persona"][value="${options.persona ?? 'fr-adult-m'}"]`).check();
  if (options.method) {
    const radio = phone.locator(`input[name="method"][value="${options.method}"]`);
    if (await radio.isDisabled()) throw new Error(`this request does not accept the method ${options.method}`);
    await radio.check();
  }
  // by its outcome, not its label: the phone page speaks the browser's language (seven locales)
  await phone.locator(`button[data-outcome="${options.outcome ?? 'approved'}"]`).click();
  await expect(phone.getByTestId('outcome')).toBeVisible();
}

/**
 * Completes the verification the widget on `page` is waiting for, as a tester on a phone would.
 *
 * @example
 * const { requestId } = await completeVerification(page, { persona: 'fr-minor', outcome: 'approved', via: 'api' });
 */
export async function completeVerification(page: Page, options: VerificationOptions = {}): Promise<VerificationDone> {
  const deepLink = await deepLinkOf(page, options.widgetIndex ?? 0);
  const { requestId } = parseDeepLink(deepLink);
  if (options.via === 'api') {
    await completeThroughApi(page, deepLink, options);
    return { requestId, deepLink };
  }
  const phone = await page.context().newPage();
  await phone.goto(deepLink);
  await answerOnPhonePage(phone, options);
  if (options.keepPhoneOpen) return { requestId, deepLink, phone };
  await phone.close();
  return { requestId, deepLink };
}

/**
 * The same through the sandbox phone API (design.md §4): open, then complete. Faster, and usable
 * when the journey is not about the phone page.
 */
export async function completeThroughApi(
  page: Page,
  deepLink: string,
  options: Pick<VerificationOptions, 'persona' | 'method' | 'outcome'> = {},
): Promise<{ status: string }> {
  const { origin, requestId, h } = parseDeepLink(deepLink);
  const base = `${origin}/api/m/requests/${requestId}`;
  const opened = await page.request.post(`${base}/open`, { data: { h } });
  if (!opened.ok()) throw new Error(`open answered ${opened.status()}: ${await opened.text()}`);
  const request = (await opened.json()) as PhoneOpened;
  const method = options.method ?? (request.client_proof_mode ? 'eudi_wallet' : 'face_check');
  const completed = await page.request.post(`${base}/complete`, {
    data: { h, persona: options.persona ?? 'fr-adult-m', method, outcome: options.outcome ?? 'approved' },
  });
  if (!completed.ok()) throw new Error(`complete answered ${completed.status()}: ${await completed.text()}`);
  return (await completed.json()) as { status: string };
}
