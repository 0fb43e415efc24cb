import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOCALES, type VerifyRequestCreated } from '../protocol/wire.ts';
import { qrBitsOf } from '../protocol/qr.ts';
import { parseConfig, type RawConfig } from '../loader/config.ts';
import { createUiLoader } from '../loader/inject.ts';
import { resolveLocale } from '../shared/locale.ts';
import type { MountOptions, WidgetController, WidgetEvent } from '../shared/contract.ts';
import { ALL_COPY } from './copy/all.ts';
import { copyValues } from './copy/order.ts';
import { copyGlobal, registerCopy } from './copy/register.ts';
import { mountWidget } from './mount.tsx';

const REQUEST: VerifyRequestCreated = {
  request_id: 'vr_1',
  poll_token: 'pt_1',
  deep_link: 'https://svc.example/m/v/vr_1#h=h_1',
  expires_at: 0,
  poll_after_ms: 1000,
  sandbox: true,
  qr: qrBitsOf(21, (y, x) => (x * y) % 3 === 0),
};
const UI_URL = 'https://svc.example/v4/ui.Ab12.js';

let container: HTMLElement;
let widget: WidgetController | undefined;
let events: WidgetEvent[];

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
  container = document.createElement('div');
  container.id = 'svc-widget';
  document.body.append(container);
  events = [];
  // English is a locale script too: these tests start with it already run
  registerCopy('en', copyValues(ALL_COPY.en));
  loadCopy = createUiLoader(UI_URL, 'n0nce').loadCopy;
});

afterEach(() => {
  widget?.remove();
  widget = undefined;
  container.remove();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  for (const locale of LOCALES) delete (window as unknown as Record<string, unknown>)[copyGlobal(locale)];
});

/** The loader's script loading, as the widget gets it (MountOptions.loadCopy). */
let loadCopy: MountOptions['loadCopy'];

/** Plays the browser for locale scripts: captured instead of loaded, loading or failing on cue. */
function captureScripts(): { scripts: HTMLScriptElement[]; settle(outcome: 'load' | 'error'): void } {
  const scripts: HTMLScriptElement[] = [];
  vi.spyOn(document.head, 'append').mockImplementation(
    (...nodes) => void scripts.push(...(nodes as HTMLScriptElement[])),
  );
  return {
    scripts,
    settle(outcome) {
      const script = scripts.at(-1)!;
      const locale = script.src.match(/-(\w+)\.js$/)![1] as 'de';
      if (outcome === 'load') registerCopy(locale, copyValues(ALL_COPY[locale]));
      script.dispatchEvent(new Event(outcome));
    },
  };
}

/** Status calls hang until aborted, as a long poll does. */
function hangingFetch(_url: unknown, init?: RequestInit): Promise<Response> {
  return new Promise((_resolve, reject) =>
    init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
  );
}

function mount(raw: RawConfig = {}, options: Partial<MountOptions> = {}): ShadowRoot {
  vi.stubGlobal('fetch', hangingFetch);
  const { config } = parseConfig({ partnerId: 'pk_test_demo', successPath: '/done', ...raw }, 'https://svc.example');
  widget = mountWidget(container, {
    config,
    storageKey: 'svc:v1:test',
    send: () => Promise.resolve([201, { ...REQUEST, expires_at: Date.now() + 300_000 }]),
    emit: (...event) => events.push(event),
    keepResult: () => {},
    loadCopy,
    resolveLocale,
    ...options,
  });
  return container.querySelector('[data-testid="svc-widget"]')!.shadowRoot!;
}

describe('mountWidget', () => {
  it('renders into an open shadow root with an adopted stylesheet and no style attribute anywhere', async () => {
    const root = mount();
    await vi.advanceTimersByTimeAsync(0);
    expect(root.adoptedStyleSheets).toHaveLength(1);
    expect(root.querySelector('style')).toBeNull();
    expect(root.querySelectorAll('[style]')).toHaveLength(0);
    expect(root.querySelector('[data-testid="svc-qr"]')).not.toBeNull();
  });

  it('reflects the state on the host element', async () => {
    mount();
    const host = container.querySelector('[data-testid="svc-widget"]')!;
    expect(host.getAttribute('data-state')).toBe('creating');
    await vi.advanceTimersByTimeAsync(0);
    expect(host.getAttribute('data-state')).toBe('waiting');
    expect(widget!.state).toBe('waiting');
  });

  it('shows the test-mode mark for a sandbox request', async () => {
    const root = mount();
    await vi.advanceTimersByTimeAsync(0);
    expect(root.querySelector('[data-testid="svc-test-mode"]')?.textContent).toBe('Mode test');
  });

  it('switches theme and locale live, and ignores values it does not know', async () => {
    const root = mount({ theme: 'dark', locale: 'fr' });
    await vi.advanceTimersByTimeAsync(0);
    widget!.update({ theme: 'light', locale: 'en' });
    await vi.advanceTimersByTimeAsync(0);
    expect(root.querySelector('.card')?.classList.contains('light')).toBe(true);
    expect(root.querySelector('h2')?.textContent).toBe('Scan this QR code with your phone');
    widget!.update({ theme: 'neon' as never, locale: 'ja' as never });
    await vi.advanceTimersByTimeAsync(0);
    expect(root.querySelector('.card')?.classList.contains('light')).toBe(true);
  });

  it('loads a locale the bundle does not carry from the script beside it, and shows the card once it can speak it', async () => {
    const browser = captureScripts();
    const root = mount({ locale: 'de' });
    await vi.advanceTimersByTimeAsync(0);
    expect(browser.scripts.map((s) => [s.src, s.nonce, s.crossOrigin])).toEqual([
      ['https://svc.example/v4/ui.Ab12-de.js', 'n0nce', 'anonymous'],
    ]);
    expect(root.querySelector('.card')).toBeNull();
    browser.settle('load');
    await vi.advanceTimersByTimeAsync(0);
    expect(root.querySelector('.card')?.getAttribute('lang')).toBe('de');
    expect(root.querySelector('h2')?.textContent).toBe('Scannen Sie den QR-Code mit Ihrem Smartphone');
  });

  it('joins the locale script the loader already started instead of fetching it twice', async () => {
    const browser = captureScripts();
    const started = loadCopy('nl');
    const root = mount({ locale: 'nl' });
    await vi.advanceTimersByTimeAsync(0);
    expect(browser.scripts).toHaveLength(1);
    browser.settle('load');
    await started;
    await vi.advanceTimersByTimeAsync(0);
    expect(root.querySelector('h2')?.textContent).toBe(ALL_COPY.nl.waitingTitle);
  });

  it('falls back to French, the bundle’s own, when the locale script cannot be loaded', async () => {
    const browser = captureScripts();
    const root = mount({ locale: 'pt' });
    await vi.advanceTimersByTimeAsync(0);
    browser.settle('error');
    await vi.advanceTimersByTimeAsync(0);
    expect(root.querySelector('h2')?.textContent).toBe('Scannez ce QR code avec votre téléphone');
  });

  it('keeps speaking the current language while update() loads another, then switches', async () => {
    const browser = captureScripts();
    const root = mount({ locale: 'fr' });
    await vi.advanceTimersByTimeAsync(0);
    widget!.update({ locale: 'it' });
    await vi.advanceTimersByTimeAsync(0);
    expect(root.querySelector('h2')?.textContent).toBe('Scannez ce QR code avec votre téléphone');
    browser.settle('load');
    await vi.advanceTimersByTimeAsync(0);
    expect(root.querySelector('h2')?.textContent).toBe(ALL_COPY.it.waitingTitle);
    expect(root.querySelector('.card')?.getAttribute('lang')).toBe('it');
  });

  it('applies a brand accent through a stylesheet of its own, switches it live and ignores a malformed one', async () => {
    const root = mount({ accent: '#0a7d4f' });
    await vi.advanceTimersByTimeAsync(0);
    const css = () =>
      [...(root.adoptedStyleSheets[1]?.cssRules ?? [])].map((rule) => rule.cssText.replace(/\s/g, '')).join('');
    expect(root.adoptedStyleSheets).toHaveLength(2);
    expect(css()).toContain('--a:#0a7d4f');
    expect(css()).toContain('--on:#fff');
    widget!.update({ accent: '#ffc72c' });
    await vi.advanceTimersByTimeAsync(0);
    expect(css()).toContain('--on:#000');
    for (const bad of ['red', '#12345', 'url(x)', '#fff;}*{display:none']) widget!.update({ accent: bad });
    await vi.advanceTimersByTimeAsync(0);
    expect(css()).toContain('--a:#ffc72c');
    expect(css()).not.toMatch(/red|#12345|url|display/);
    expect(root.querySelectorAll('[style]')).toHaveLength(0);
  });

  it('never puts an accent the loader refused into a stylesheet', async () => {
    const { config } = parseConfig(
      { partnerId: 'pk_test_demo', successPath: '/done', accent: '#0a7d4f}*{display:none' },
      'https://svc.example',
    );
    vi.stubGlobal('fetch', hangingFetch);
    const noop = () => {};
    widget = mountWidget(container, {
      config,
      storageKey: 'svc:v1:test',
      send: () => new Promise(() => {}),
      emit: noop,
      keepResult: noop,
      loadCopy,
      resolveLocale,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(container.querySelector('[data-testid="svc-widget"]')!.shadowRoot!.adoptedStyleSheets).toHaveLength(1);
  });

  it('offers the link instead of a QR code when the service sent no modules', async () => {
    const root = mount(
      {},
      { send: () => Promise.resolve([201, { ...REQUEST, qr: undefined, expires_at: Date.now() + 300_000 }]) },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(root.querySelector('[data-testid="svc-qr"]')).toBeNull();
    expect(root.querySelector('[data-testid="svc-open-app"]')?.getAttribute('href')).toBe(REQUEST.deep_link);
    expect(root.querySelector('[data-testid="svc-show-qr"]')).toBeNull();
  });

  it('offers the app button first on mobile and the QR code on request', async () => {
    const root = mount({ layout: 'mobile' });
    await vi.advanceTimersByTimeAsync(0);
    expect(root.querySelector('[data-testid="svc-open-app"]')?.getAttribute('href')).toBe(REQUEST.deep_link);
    (root.querySelector('[data-testid="svc-show-qr"]') as HTMLButtonElement).click();
    await vi.advanceTimersByTimeAsync(0);
    expect(root.querySelector('[data-testid="svc-qr"]')).not.toBeNull();
    expect(root.querySelector('[data-testid="svc-open-here"]')?.getAttribute('href')).toBe(REQUEST.deep_link);
  });

  it('announces state changes in the polite live region but not the countdown ticks', async () => {
    const root = mount({ locale: 'en' });
    await vi.advanceTimersByTimeAsync(0);
    const live = root.querySelector('[role="status"]')!;
    expect(live.textContent).toBe('Scan this QR code with your phone');
    const countdown = root.querySelector('[data-testid="svc-countdown"]')!;
    expect(countdown.textContent).toBe('This code expires in 5\u00a0minutes');
    await vi.advanceTimersByTimeAsync(59_000);
    expect(countdown.textContent).toBe('This code expires in 5\u00a0minutes');
    await vi.advanceTimersByTimeAsync(1000);
    expect(countdown.textContent).toBe('This code expires in 4\u00a0minutes');
    expect(countdown.closest('[aria-live],[role="status"]')).toBeNull();
    expect(live.textContent).toBe('Scan this QR code with your phone');
  });

  it('shows a retry button for a retryable error and none for a configuration error', async () => {
    const root = mount({}, { send: () => Promise.resolve([503]) });
    await vi.advanceTimersByTimeAsync(0);
    expect(root.querySelector('[data-testid="svc-retry"]')).not.toBeNull();
    widget!.remove();
    const again = mount({}, { error: { code: 'INIT_FAILED', message: 'data-partner-id missing', retryable: false } });
    await vi.advanceTimersByTimeAsync(0);
    expect(again.querySelector('h2')?.textContent).toBe('Vérification indisponible');
    expect(again.querySelector('[data-testid="svc-retry"]')).toBeNull();
  });

  it('lays the card out compact with data-size="compact"', async () => {
    const root = mount({ size: 'compact' });
    await vi.advanceTimersByTimeAsync(0);
    expect(root.querySelector('.card')?.classList.contains('compact')).toBe(true);
    expect(root.querySelector('[data-testid="svc-qr"]')?.getAttribute('width')).toBe('160');
  });

  it.each([
    ['a phone', 'Mozilla/5.0 (Linux; Android 14; Pixel 7) Mobile', 'svc-open-app', 'av://?x=1'],
    ['a computer', 'Mozilla/5.0 (X11; Linux x86_64)', 'svc-open-here', REQUEST.deep_link],
  ])('links the wallet only where it can open it: on %s', async (_device, userAgent, testId, href) => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(userAgent);
    const root = mount(
      { clientProofMode: 'true' },
      {
        send: () => Promise.resolve([201, { ...REQUEST, wallet_link: 'av://?x=1', expires_at: Date.now() + 300_000 }]),
      },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(root.querySelector(`[data-testid="${testId}"]`)?.getAttribute('href')).toBe(href);
    expect(root.querySelectorAll('a[href^="av:"]')).toHaveLength(href === REQUEST.deep_link ? 0 : 1);
  });

  it('leaves the container exactly as it was after remove(), with no timer left', async () => {
    container.innerHTML = '<p>partner content</p>';
    mount();
    await vi.advanceTimersByTimeAsync(0);
    widget!.remove();
    widget = undefined;
    expect(container.innerHTML).toBe('<p>partner content</p>');
    expect(vi.getTimerCount()).toBe(0);
  });
});
