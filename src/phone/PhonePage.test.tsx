import { act } from 'preact/test-utils';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale, LoginResult } from '../protocol/wire.ts';
import { createPhoneApi } from './phone-client.ts';
import { PHONE_COPY } from './copy/all.ts';
import { createPhoneModel, type PhoneEntry, type PhoneEnvironment } from './model.ts';
import { mountPhonePage } from './mount.tsx';
import {
  AUTHORIZATION_URL,
  BASE,
  createFakePhoneApi,
  fakeRequest,
  PROVIDER_METHOD,
  WALLET_LINK,
  WALLET_METHOD,
  type FakeRequest,
} from './test-support/fake-phone-api.ts';
import { sandboxEnvironment } from './test-support/sandbox.ts';
import { DEMO_AUDIENCE_LABEL } from './words.ts';

const request: { current: FakeRequest } = { current: fakeRequest() };
const server = createFakePhoneApi(request);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

let host: HTMLElement;
let unmount = () => {};
beforeEach(() => {
  request.current = fakeRequest();
  host = document.createElement('div');
  document.body.append(host);
});
afterEach(() => {
  unmount();
  host.remove();
});

async function mount(
  h = 'h_good',
  locale: Locale = 'en',
  options: { login?: LoginResult; entry?: PhoneEntry; env?: PhoneEnvironment; back?: () => void } = {},
) {
  const entry = options.entry === undefined ? { requestId: 'vr_1', h, login: options.login ?? null } : options.entry;
  const model = createPhoneModel(createPhoneApi(undefined, BASE), entry, sandboxEnvironment(locale, options.env));
  await act(async () => {
    unmount = mountPhonePage(host, model, PHONE_COPY[locale], options.back ?? null);
    await model.load();
  });
  return model;
}

const text = () => host.textContent ?? '';
const settle = () => act(() => new Promise((r) => setTimeout(r, 50)));
/** The buttons and links of the ways to prove it, as the visitor reads them. */
const methodActions = () =>
  [...host.querySelectorAll<HTMLElement>('[data-testid="methods"] :is(button, a)')].map((el) => [
    el.tagName.toLowerCase(),
    el.textContent,
  ]);
const production = () => fakeRequest({ scopes: ['isAdult'], methods: [WALLET_METHOD, PROVIDER_METHOD] });
const withWallet = (): PhoneEnvironment => ({
  navigate: vi.fn(),
  requestCredential: vi.fn(async () => ({ protocol: 'org-iso-mdoc', data: { response: 'r' } })),
});

describe('phone page', () => {
  it('is marked as a sandbox phone', async () => {
    await mount();
    expect(host.querySelector('[data-testid="sandbox-mark"]')?.textContent).toContain('Test mode');
    expect(host.querySelector('h1')?.textContent).toBe('Sandbox phone');
  });

  it('looks as it always did with the persona picker alone: no heading for the ways to prove it', async () => {
    await mount();
    expect(host.querySelector('[data-testid="methods"]')).toBeNull();
    expect(host.querySelector('#methods-title')).toBeNull();
    expect(host.querySelector('form.phone-form h3')).toBeNull();
  });

  it('takes the focus to the request’s heading when it appears', async () => {
    await mount();
    expect(document.activeElement).toBe(host.querySelector('[data-testid="audience"]'));
  });

  it('states who asks and each scope as a plain fact', async () => {
    await mount();
    expect(host.querySelector('[data-testid="audience"]')?.textContent).toBe('Demo Shop asks you to prove:');
    const facts = [...host.querySelectorAll('[data-testid="scopes"] li')].map((li) => li.textContent);
    expect(facts).toEqual(['You are 18 or older', 'You have French nationality']);
  });

  it('speaks the language it is given, every part of the page included', async () => {
    await mount('h_good', 'de');
    expect(host.querySelector('[data-testid="audience"]')?.textContent).toBe(
      'Demo Shop bittet Sie um folgenden Nachweis:',
    );
    const facts = [...host.querySelectorAll('[data-testid="scopes"] li')].map((li) => li.textContent);
    expect(facts).toEqual(['Sie sind 18 Jahre oder älter', 'Sie haben die französische Staatsangehörigkeit']);
    expect(text()).toContain('Testperson');
    expect(text()).toContain('Gesichtsprüfung');
    const countdown = host.querySelector('[data-testid="countdown"]')!;
    expect(countdown.querySelector('[aria-hidden="true"]')?.textContent).toMatch(/^Anfrage läuft in \d+:\d\d ab$/);
    // a screen reader hears minutes in words, not a time of day (design.md §20)
    expect(countdown.querySelector('.phone-sr')?.textContent).toMatch(/^Anfrage läuft in \d+ Minuten? ab$/);
    expect(text()).not.toMatch(/\b(You|Approve|Cancel|Test persona)\b/);
    // test tools find the buttons by outcome whatever the language
    const buttons = [...host.querySelectorAll('button[data-outcome]')];
    expect(buttons.map((b) => [b.getAttribute('data-outcome'), b.textContent])).toEqual([
      ['approved', 'Bestätigen'],
      ['failed', 'Prüfung scheitern lassen'],
      ['cancelled', 'Abbrechen'],
    ]);
  });

  it('names only the blind app on the ADULT_BLIND rail', async () => {
    request.current = fakeRequest({ rail: 'adult_blind', audience_label: 'app_blind_shop', scopes: ['isAdult'] });
    await mount();
    expect(host.querySelector('[data-testid="audience"]')?.textContent).toBe('An anonymous site asks you to prove:');
    expect(text()).toContain('“app_blind_shop”');
  });

  it('labels every control and groups the choices in fieldsets with legends', async () => {
    await mount();
    const radios = [...host.querySelectorAll<HTMLInputElement>('input[type="radio"]')];
    expect(radios.length).toBe(4);
    for (const radio of radios) expect(radio.closest('label')?.textContent?.trim()).not.toBe('');
    expect([...host.querySelectorAll('legend')].map((l) => l.textContent)).toEqual([
      'Test persona',
      'Verification method',
    ]);
    expect(host.querySelector<HTMLInputElement>('input[value="eudi_wallet"]')?.disabled).toBe(true);
    expect(host.querySelector<HTMLInputElement>('input[value="face_check"]')?.checked).toBe(true);
  });

  it('approves with the persona picked and shows the final state', async () => {
    await mount();
    await act(async () => {
      host.querySelector<HTMLInputElement>('input[value="fr-minor"]')!.click();
    });
    await act(async () => {
      host.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(request.current.completions[0]).toMatchObject({ persona: 'fr-minor', outcome: 'approved' });
    expect(host.querySelector('[data-testid="outcome"] h2')?.textContent).toBe('Verification approved');
    expect(document.activeElement?.textContent).toBe('Verification approved');
  });

  it('drops the sandbox intro ("pick a test persona…") once the outcome shows, and keeps the test mark', async () => {
    await mount();
    expect(host.querySelector('[data-testid="sandbox-note"]')?.textContent).toContain('pick a test persona');
    await act(async () => {
      host.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(host.querySelector('[data-testid="outcome"]')).not.toBeNull();
    expect(host.querySelector('[data-testid="sandbox-note"]')).toBeNull();
    expect(host.textContent).not.toContain('pick a test persona');
    expect(host.querySelector('[data-testid="sandbox-mark"]')).not.toBeNull();
  });

  it('cancels through its own button', async () => {
    await mount();
    const cancel = [...host.querySelectorAll('button')].find((b) => b.textContent === 'Cancel')!;
    await act(async () => {
      cancel.click();
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(request.current.completions[0]?.outcome).toBe('cancelled');
    expect(text()).toContain('Verification cancelled');
  });

  it('explains an expired request instead of showing the form', async () => {
    request.current.failNext = { status: 410, error: 'REQUEST_EXPIRED' };
    await mount();
    expect(host.querySelector('form')).toBeNull();
    expect(host.querySelector('[data-testid="problem"] h2')?.textContent).toBe('This verification request has expired');
  });
});

describe('phone page: the ways to prove it (design.md §12)', () => {
  it('in production: the title without a test mark, then the wallet on this phone, its link and each provider, in order', async () => {
    request.current = production();
    await mount('h_good', 'en', { env: withWallet() });
    expect(host.querySelector('h1')?.textContent).toBe('Identity check');
    expect(host.querySelector('[data-testid="sandbox-mark"]')).toBeNull();
    expect(host.querySelector('#methods-title')?.textContent).toBe('How do you want to prove it?');
    expect(methodActions()).toEqual([
      ['button', 'Use a wallet on this phone'],
      ['a', 'Open your wallet app'],
      ['button', 'Continue with Example ID'],
    ]);
    expect(host.querySelector('a[data-method="eudi_wallet_link"]')?.getAttribute('href')).toBe(WALLET_LINK);
    // the first way is the primary one
    expect(host.querySelector('[data-method="eudi_wallet"]')?.classList.contains('phone-button-primary')).toBe(true);
    expect(host.querySelector('form')).toBeNull();
  });

  it('offers only the wallet link where the browser has no Digital Credentials API', async () => {
    request.current = production();
    await mount();
    expect(methodActions()).toEqual([
      ['a', 'Open your wallet app'],
      ['button', 'Continue with Example ID'],
    ]);
  });

  it('in sandbox: the test mark, the provider first and the persona picker last under its own heading', async () => {
    request.current = fakeRequest({ methods: [PROVIDER_METHOD, { id: 'sandbox' }] });
    await mount();
    expect(host.querySelector('[data-testid="sandbox-mark"]')).not.toBeNull();
    expect(methodActions()).toEqual([['button', 'Continue with Example ID']]);
    expect(host.querySelector('form.phone-form h3')?.textContent).toBe('Or answer here as a test persona');
    const order = [...host.querySelectorAll('[data-testid="methods"], form.phone-form')];
    expect(order.map((el) => el.tagName.toLowerCase())).toEqual(['div', 'form']);
  });

  it('starts the provider named on the button and leaves for it, the button saying so', async () => {
    request.current = production();
    const env = withWallet();
    await mount('h_good', 'en', { env });
    const button = host.querySelector<HTMLButtonElement>('button[data-method="idp_example"]')!;
    await act(async () => button.click());
    await settle();
    expect(request.current.starts).toEqual(['idp_example']);
    expect(env.navigate).toHaveBeenCalledWith(AUTHORIZATION_URL);
    expect(button.textContent).toBe('Opening Example ID…');
    expect(button.disabled).toBe(true);
  });

  it('uses the wallet on this phone and shows the finished state, its heading focused', async () => {
    request.current = production();
    const env = withWallet();
    await mount('h_good', 'en', { env });
    await act(async () => host.querySelector<HTMLButtonElement>('button[data-method="eudi_wallet"]')!.click());
    await settle();
    expect(env.requestCredential).toHaveBeenCalledTimes(1);
    const heading = host.querySelector('[data-testid="finished"] h2');
    expect(heading?.textContent).toBe('Done — you can go back to your computer');
    expect(document.activeElement).toBe(heading);
  });

  it('back from the provider approved: the finished state', async () => {
    request.current = fakeRequest({ status: 'completed', methods: [PROVIDER_METHOD] });
    await mount('h_good', 'en', { login: 'approved' });
    expect(host.querySelector('[data-testid="finished"] h2')?.textContent).toBe(
      'Done — you can go back to your computer',
    );
  });

  it('offers the way back to the site on an approved finish opened on the same device, and takes it', async () => {
    request.current = fakeRequest({ status: 'completed', methods: [PROVIDER_METHOD] });
    const back = vi.fn();
    await mount('h_good', 'fr', { login: 'approved', back });
    const button = host.querySelector<HTMLButtonElement>('[data-testid="finished"] button')!;
    expect(button.textContent).toBe('Revenir au site');
    await act(async () => button.click());
    expect(back).toHaveBeenCalledTimes(1);
  });

  it('offers no way back where the page cannot know the site (scanned on another device), nor on a failure', async () => {
    request.current = fakeRequest({ status: 'completed', methods: [PROVIDER_METHOD] });
    await mount('h_good', 'en', { login: 'approved' });
    expect(host.querySelector('[data-testid="finished"] button')).toBeNull();
    unmount();
    request.current = fakeRequest({ status: 'failed', methods: [PROVIDER_METHOD] });
    await mount('h_good', 'en', { login: 'failed', back: vi.fn() });
    expect(host.querySelector('[data-testid="finished"] button')).toBeNull();
  });

  it('keeps the test mark once the request is finished, in sandbox', async () => {
    request.current = fakeRequest({ status: 'completed', methods: [PROVIDER_METHOD], sandbox: true });
    await mount('h_good', 'en', { login: 'approved' });
    expect(host.querySelector('[data-testid="sandbox-mark"]')).not.toBeNull();
    expect(host.querySelector('[data-testid="finished"]')).not.toBeNull();
    expect(host.querySelector('[data-testid="sandbox-note"]')).toBeNull();
  });

  it('back from the provider failed: says why, from the request’s reason', async () => {
    request.current = fakeRequest({ status: 'failed', reason: 'claims_missing', methods: [PROVIDER_METHOD] });
    await mount('h_good', 'en', { login: 'failed' });
    expect(host.querySelector('[data-testid="finished"] h2')?.textContent).toBe(
      'Your identity provider did not share what was asked',
    );
  });

  it('back from the provider refused: a notice, its heading focused, and the ways to prove it still offered', async () => {
    request.current = fakeRequest({ status: 'in_progress', methods: [PROVIDER_METHOD, { id: 'sandbox' }] });
    await mount('h_good', 'en', { login: 'refused' });
    const heading = host.querySelector('[data-testid="notice"] h2');
    expect(heading?.textContent).toBe('We could not confirm this sign-in');
    expect(document.activeElement).toBe(heading);
    expect(methodActions()).toEqual([['button', 'Continue with Example ID']]);
    expect(host.querySelector('form.phone-form')).not.toBeNull();
  });

  it('at /m/callback: the sign-in link has expired or was already used', async () => {
    await mount('h_good', 'en', { entry: 'unknown_sign_in' });
    expect(host.querySelector('[data-testid="finished"] h2')?.textContent).toBe(
      'This sign-in link has expired or was already used',
    );
  });

  it('speaks French: the ways to prove it, the personas’ labels and the designers’ demo page', async () => {
    request.current = fakeRequest({
      audience_label: DEMO_AUDIENCE_LABEL,
      methods: [PROVIDER_METHOD, { id: 'sandbox' }],
    });
    await mount('h_good', 'fr');
    expect(host.querySelector('[data-testid="audience"]')?.textContent).toBe(
      'La page de démonstration des designers vous demande de prouver\u00a0:',
    );
    expect(methodActions()).toEqual([['button', 'Continuer avec Example ID']]);
    const labels = [...host.querySelectorAll('input[name="persona"]')].map((i) => i.closest('label')?.textContent);
    expect(labels).toEqual(['Lucas Martin — Français, 34 ans, homme', 'Léa Petit — Française, 16 ans, femme']);
  });

  it('shows every other partner’s name as the partner wrote it, and the demo name as is in production', async () => {
    request.current = fakeRequest({ audience_label: 'Boutique Démo', methods: [PROVIDER_METHOD, { id: 'sandbox' }] });
    await mount('h_good', 'de');
    expect(host.querySelector('[data-testid="audience"]')?.textContent).toMatch(/^Boutique Démo bittet/);
    unmount();
    request.current = fakeRequest({ audience_label: DEMO_AUDIENCE_LABEL, methods: [PROVIDER_METHOD] });
    await mount('h_good', 'fr');
    expect(host.querySelector('[data-testid="audience"]')?.textContent).toMatch(/^Designers' demo page vous/);
  });
});
