import { act } from 'preact/test-utils';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Locale } from '../protocol/api.ts';
import { createPhoneApi } from './api.ts';
import { PHONE_COPY } from './copy/index.ts';
import { createPhoneModel } from './model.ts';
import { mountPhonePage } from './mount.tsx';
import { BASE, createFakePhoneApi, fakeRequest, type FakeRequest } from './test-support/fake-phone-api.ts';

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

async function mount(h = 'h_good', locale: Locale = 'en') {
  const model = createPhoneModel(createPhoneApi(undefined, BASE), { requestId: 'vr_1', h });
  await act(async () => {
    unmount = mountPhonePage(host, model, PHONE_COPY[locale]);
    await model.load();
  });
  return model;
}

const text = () => host.textContent ?? '';

describe('phone page', () => {
  it('is marked as a sandbox phone', async () => {
    await mount();
    expect(host.querySelector('[data-testid="sandbox-mark"]')?.textContent).toContain('Test mode');
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
    expect(host.querySelector('[data-testid="countdown"]')?.textContent).toMatch(/^Anfrage läuft in \d+:\d\d ab$/);
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
