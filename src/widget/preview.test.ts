import qrcode from 'qrcode-generator';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCALES } from '../protocol/wire.ts';
import { qrBitsOf } from '../protocol/qr.ts';
import type { WidgetState } from '../shared/contract.ts';
import { accentCss } from './accent.ts';
import { ALL_COPY } from './copy/all.ts';
import {
  PREVIEW_DEEP_LINK,
  PREVIEW_OPENID4VP_LINK,
  PREVIEW_OPENID4VP_QR,
  PREVIEW_QR,
  PREVIEW_WALLET_LINK,
  PREVIEW_WALLET_QR,
  renderPreview,
} from './preview.ts';

const STATES: WidgetState[] = [
  'creating',
  'waiting',
  'scanned',
  'completed',
  'confirming',
  'redirecting',
  'failed',
  'expired',
  'error',
];

function shadowOf(host: HTMLElement): ShadowRoot {
  const root = host.querySelector('[data-testid="svc-widget"]')?.shadowRoot;
  if (!root) throw new Error('no widget shadow root');
  return root;
}

describe('renderPreview', () => {
  const host = document.createElement('div');
  document.body.append(host);
  afterEach(() => host.replaceChildren());

  it.each(STATES)('renders the %s state with a title and a polite announcement', (state) => {
    renderPreview(host, { state, theme: 'dark', locale: 'fr' });
    const root = shadowOf(host);
    expect(host.querySelector('[data-testid="svc-widget"]')?.getAttribute('data-state')).toBe(state);
    const title = root.querySelector('h2')?.textContent;
    expect(title).toBeTruthy();
    expect(root.querySelector('[role="status"]')?.textContent).toBe(title);
  });

  it('shows the QR code, a frozen countdown and the deep link while waiting on desktop', () => {
    renderPreview(host, { state: 'waiting', theme: 'light', locale: 'en' });
    const root = shadowOf(host);
    expect(root.querySelector('svg[role="img"]')?.getAttribute('aria-label')).toMatch(/QR code/);
    expect(root.querySelector('[data-testid="svc-countdown"]')?.textContent).toBe(
      'This code expires in 5\u00a0minutes',
    );
    expect(root.querySelector('a')?.getAttribute('href')).toBe(PREVIEW_DEEP_LINK);
  });

  it('shows the open-the-app button first on mobile', () => {
    renderPreview(host, { state: 'waiting', theme: 'dark', locale: 'fr', layout: 'mobile' });
    const root = shadowOf(host);
    expect(root.querySelector('[data-testid="svc-open-app"]')?.textContent).toBe('Ouvrir l’application');
    expect(root.querySelector('[data-testid="svc-qr"]')).toBeNull();
  });

  it('marks test mode only when asked', () => {
    renderPreview(host, { state: 'waiting', theme: 'dark', locale: 'fr', sandbox: true });
    expect(shadowOf(host).querySelector('[data-testid="svc-test-mode"]')?.textContent).toBe('Mode test');
    host.replaceChildren();
    renderPreview(host, { state: 'waiting', theme: 'dark', locale: 'fr' });
    expect(shadowOf(host).querySelector('[data-testid="svc-test-mode"]')).toBeNull();
  });

  it('shows the server-verify timeout copy for SERVER_VERIFY_TIMEOUT', () => {
    renderPreview(host, { state: 'error', theme: 'dark', locale: 'en', errorCode: 'SERVER_VERIFY_TIMEOUT' });
    expect(shadowOf(host).querySelector('h2')?.textContent).toBe('Could not confirm');
  });

  it.each([
    ['deep link', PREVIEW_DEEP_LINK, PREVIEW_QR],
    ['wallet link', PREVIEW_WALLET_LINK, PREVIEW_WALLET_QR],
    ['openid4vp link', PREVIEW_OPENID4VP_LINK, PREVIEW_OPENID4VP_QR],
  ])(
    'draws the QR code of its %s as the service would encode it (no encoder in the preview)',
    (_name, link, modules) => {
      const qr = qrcode(0, 'M');
      qr.addData(link);
      qr.make();
      expect(modules).toEqual(qrBitsOf(qr.getModuleCount(), (y, x) => qr.isDark(y, x)));
    },
  );

  it('shows an isFrench request in client proof mode: the openid4vp link, “open your wallet app” on a phone', () => {
    renderPreview(host, { state: 'waiting', theme: 'dark', locale: 'en', layout: 'mobile', wallet: 'openid4vp' });
    const button = shadowOf(host).querySelector('[data-testid="svc-open-app"]');
    expect(button?.textContent).toBe('Open your wallet app');
    expect(button?.getAttribute('href')).toBe(PREVIEW_OPENID4VP_LINK);
    expect(PREVIEW_OPENID4VP_LINK).toContain(encodeURIComponent('"nationality"'));
    host.replaceChildren();
    renderPreview(host, { state: 'waiting', theme: 'dark', locale: 'en', layout: 'mobile', wallet: true });
    expect(shadowOf(host).querySelector('[data-testid="svc-open-app"]')?.textContent).toBe(
      'Open your age-verification app',
    );
  });

  it.each(LOCALES)('renders every locale at once, here %s, with no script to load', (locale) => {
    renderPreview(host, { state: 'waiting', theme: 'dark', locale });
    const root = shadowOf(host);
    expect(root.querySelector('.card')?.getAttribute('lang')).toBe(locale);
    expect(root.querySelector('h2')?.textContent).toBe(ALL_COPY[locale].waitingTitle);
  });

  it('adopts the accent’s own stylesheet after the shared one', () => {
    renderPreview(host, { state: 'failed', theme: 'light', locale: 'de', accent: '#0a7d4f' });
    const sheets = shadowOf(host).adoptedStyleSheets;
    expect(sheets).toHaveLength(2);
    expect([...sheets[1]!.cssRules].map((rule) => rule.cssText.replace(/\s/g, '')).join('')).toContain('--a:#0a7d4f');
    expect(accentCss('#0a7d4f')).toContain('--on:#fff');
  });

  it('leaves the host empty after unmounting', () => {
    const unmount = renderPreview(host, { state: 'completed', theme: 'auto', locale: 'auto' });
    unmount();
    expect(host.childNodes.length).toBe(0);
  });
});
