import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VerifyRequestCreated } from '../protocol/api.ts';
import { parseConfig, type RawConfig } from '../loader/config.ts';
import type { MountOptions, WidgetController, WidgetEvent } from '../shared/contract.ts';
import { mountWidget } from './mount.tsx';

const REQUEST: VerifyRequestCreated = {
  request_id: 'vr_1',
  poll_token: 'pt_1',
  deep_link: 'https://svc.example/m/v/vr_1#h=h_1',
  expires_at: 0,
  poll_after_ms: 1000,
  sandbox: true,
};

let container: HTMLElement;
let widget: WidgetController | undefined;
let events: WidgetEvent[];

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
  container = document.createElement('div');
  container.id = 'svc-widget';
  document.body.append(container);
  events = [];
});

afterEach(() => {
  widget?.remove();
  widget = undefined;
  container.remove();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** Status calls hang until aborted, as a long poll does. */
function hangingFetch(_url: unknown, init?: RequestInit): Promise<Response> {
  return new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
}

function mount(raw: RawConfig = {}, options: Partial<MountOptions> = {}): ShadowRoot {
  vi.stubGlobal('fetch', hangingFetch);
  const { config } = parseConfig({ partnerId: 'pk_test_demo', successPath: '/done', ...raw }, 'https://svc.example');
  widget = mountWidget(container, {
    config,
    create: () => Promise.resolve({ ...REQUEST, expires_at: Date.now() + 300_000 }),
    emit: (event) => events.push(event),
    keepResult: () => {},
    navigate: () => {},
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
    widget!.update({ theme: 'neon' as never, locale: 'de' as never });
    await vi.advanceTimersByTimeAsync(0);
    expect(root.querySelector('.card')?.classList.contains('light')).toBe(true);
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
    expect(countdown.textContent).toBe('This code expires in 5:00');
    await vi.advanceTimersByTimeAsync(3000);
    expect(countdown.textContent).toBe('This code expires in 4:57');
    expect(countdown.closest('[aria-live],[role="status"]')).toBeNull();
    expect(live.textContent).toBe('Scan this QR code with your phone');
  });

  it('shows a retry button for a retryable error and none for a configuration error', async () => {
    const root = mount({}, { create: () => Promise.reject(Object.assign(new Error('HTTP_503'), { retryable: true })) });
    await vi.advanceTimersByTimeAsync(0);
    expect(root.querySelector('[data-testid="svc-retry"]')).not.toBeNull();
    widget!.remove();
    const again = mount({}, { error: { code: 'INIT_FAILED', message: 'data-partner-id missing', retryable: false } });
    await vi.advanceTimersByTimeAsync(0);
    expect(again.querySelector('h2')?.textContent).toBe('Vérification indisponible');
    expect(again.querySelector('[data-testid="svc-retry"]')).toBeNull();
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
