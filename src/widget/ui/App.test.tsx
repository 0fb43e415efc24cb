/**
 * @jsxRuntime classic
 * @jsx h
 */
import { h, render } from 'preact';
import qrcode from 'qrcode-generator';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCALES } from '../../protocol/wire.ts';
import { qrBitsOf, type QrModules } from '../../protocol/qr.ts';
import { ALL_COPY } from '../copy/all.ts';
import { App, type ViewProps } from './App.tsx';

const DEEP_LINK = 'https://svc.example/m/v/vr_1#h=h_1';

/** A QR code as the service encodes it (error correction M). */
function encoded(text: string): QrModules {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  return qrBitsOf(qr.getModuleCount(), (y, x) => qr.isDark(y, x));
}

/**
 * An av:// link as long as the service's on a public host (design.md §11: the DCQL query and the
 * response URI twice; measured on `https://verify.age-service.example.com`: 668 characters, 101
 * modules a side at error correction M).
 */
const WALLET_LINK = (() => {
  const uri = encodeURIComponent('https://verify.age-service.example.com/oid4vp/response/vr_' + 'a'.repeat(22));
  const dcql = encodeURIComponent(
    '{"credentials":[{"id":"proof_of_age","format":"mso_mdoc","meta":{"doctype_value":"eu.europa.ec.av.1"},' +
      '"claims":[{"path":["eu.europa.ec.av.1","age_over_18"]}]}]}',
  );
  const link =
    `av://?response_type=vp_token&response_mode=direct_post&client_id=redirect_uri%3A${uri}&response_uri=${uri}` +
    `&dcql_query=${dcql}&nonce=${'n'.repeat(43)}&state=${'s'.repeat(43)}`;
  return link + '&x=' + 'x'.repeat(668 - link.length - 3);
})();

const host = document.createElement('div');
document.body.append(host);
afterEach(() => render(null, host));

function show(props: Partial<ViewProps> = {}): HTMLElement {
  const noop = () => undefined;
  render(
    <App
      state="waiting"
      copy={ALL_COPY.en}
      lang="en"
      theme="dark"
      layout="desktop"
      size="regular"
      phone={false}
      sandbox
      deepLink={DEEP_LINK}
      qr={encoded(DEEP_LINK)}
      secondsLeft={272}
      qrShown={false}
      onRetry={noop}
      onShowQr={noop}
      {...props}
    />,
    host,
  );
  return host;
}

/** The rendered QR code: its side in CSS pixels and the modules across its viewBox (quiet zone included). */
function qrOf(view: HTMLElement): { pixels: number; modules: number } {
  const svg = view.querySelector('[data-testid="svc-qr"]')!;
  return { pixels: Number(svg.getAttribute('width')), modules: Number(svg.getAttribute('viewBox')!.split(' ')[2]) };
}

/** What the stylesheet leaves for the QR code inside the regular card: 400 px, less 20 px padding and 1 px border each side. */
const REGULAR_CONTENT_WIDTH = 400 - 2 * 20 - 2 * 1;

describe('App: client proof mode on a computer', () => {
  const wallet = { walletLink: WALLET_LINK, qr: encoded(WALLET_LINK) };

  it('offers no link a computer cannot open: “open on this device” is the phone page, never the wallet link', () => {
    const view = show(wallet);
    expect(view.querySelector('[data-testid="svc-qr"]')).not.toBeNull();
    expect(view.querySelector('a[href^="av:"]')).toBeNull();
    expect(view.querySelector('[data-testid="svc-open-here"]')?.getAttribute('href')).toBe(DEEP_LINK);
  });

  it('says what to scan the QR code with', () => {
    const view = show(wallet);
    expect(view.querySelector('h2')?.textContent).toBe('Scan with your EU wallet app');
    expect(view.querySelector('[role="status"]')?.textContent).toBe('Scan with your EU wallet app');
  });

  it.each(LOCALES)('names the wallet app in its %s title, under two lines of the card', (locale) => {
    const view = show({ ...wallet, copy: ALL_COPY[locale], lang: locale });
    const title = view.querySelector('h2')!.textContent!;
    expect(title).toBe(ALL_COPY[locale].walletTitle);
    expect(title).not.toBe(ALL_COPY[locale].waitingTitle);
  });

  it('draws the wallet link’s dense QR code at 3 px a module or more, inside the regular card', () => {
    const { pixels, modules } = qrOf(show(wallet));
    expect(modules).toBe(101 + 8);
    expect(pixels / modules).toBeGreaterThanOrEqual(3);
    expect(pixels).toBeLessThanOrEqual(REGULAR_CONTENT_WIDTH);
  });

  it('keeps 3 px a module in the compact card too, where the words then go under the QR code', () => {
    const { pixels, modules } = qrOf(show({ ...wallet, size: 'compact' }));
    expect(pixels / modules).toBeGreaterThanOrEqual(3);
  });

  it('shows the Digital Credentials button only when the browser has the API (the flow says so)', () => {
    expect(show(wallet).querySelector('[data-testid="svc-use-wallet"]')).toBeNull();
    expect(
      show({ ...wallet, onWallet: () => undefined }).querySelector('[data-testid="svc-use-wallet"]'),
    ).not.toBeNull();
  });

  it('forced into the mobile layout on a computer, opens the phone page rather than the wallet link', () => {
    const button = show({ ...wallet, layout: 'mobile' }).querySelector('[data-testid="svc-open-app"]');
    expect(button?.getAttribute('href')).toBe(DEEP_LINK);
    expect(button?.textContent).toBe('Open the app');
  });
});

describe('App: client proof mode on a phone', () => {
  const wallet = { walletLink: WALLET_LINK, qr: encoded(WALLET_LINK), phone: true };

  it('opens the wallet link from the mobile button', () => {
    const button = show({ ...wallet, layout: 'mobile' }).querySelector('[data-testid="svc-open-app"]');
    expect(button?.getAttribute('href')).toBe(WALLET_LINK);
    expect(button?.textContent).toBe('Open your age-verification app');
  });

  it('links the wallet beside the QR code too, when the page forces the desktop layout', () => {
    expect(show(wallet).querySelector('[data-testid="svc-open-here"]')?.getAttribute('href')).toBe(WALLET_LINK);
  });
});

describe('App: the countdown (design.md §20)', () => {
  /** The countdown as a screen reader meets it: its role and what it reads (no part of it hidden from one). */
  function countdown(props: Partial<ViewProps>): { role: string | null; live: Element | null; read: string } {
    const timer = show(props).querySelector('[data-testid="svc-countdown"]')!;
    expect(timer.querySelector('[aria-hidden]')).toBeNull();
    return {
      role: timer.getAttribute('role'),
      live: timer.closest('[aria-live],[role="status"]'),
      read: timer.textContent!.replace(/\u00a0/g, ' '),
    };
  }

  it.each<[string, number, string]>([
    ['pl', 272, 'Kod wygaśnie za 5 minut'],
    ['pl', 150, 'Kod wygaśnie za 3 minuty'],
    ['pl', 61, 'Kod wygaśnie za 2 minuty'],
    ['pl', 60, 'Kod wygaśnie za 1 minutę'],
    ['lv', 45, 'Kods derīgs vēl 1 minūti'],
    ['ga', 130, 'Éagfaidh an cód i gceann 3 nóiméad'],
    ['sl', 100, 'Koda velja še 2 minuti'],
    ['fi', 240, 'Koodi on voimassa vielä 4 minuuttia'],
    ['el', 1, 'Ο κωδικός λήγει σε 1 λεπτό'],
    ['en', 59, 'This code expires in 1 minute'],
  ])('reads in %s, %i seconds left, as a sentence in whole minutes counted up: “%s”', (lang, seconds, sentence) => {
    const locale = lang as (typeof LOCALES)[number];
    expect(countdown({ copy: ALL_COPY[locale], lang: locale, secondsLeft: seconds })).toEqual({
      role: 'timer',
      live: null,
      read: sentence,
    });
  });

  it('says under a minute as one minute, never 0 or a clock time, until the request is renewed', () => {
    for (const seconds of [59, 30, 1, 0])
      expect(countdown({ secondsLeft: seconds }).read).toBe('This code expires in 1 minute');
  });

  it('changes its words once a minute, not every second', () => {
    const said = (seconds: number) => countdown({ secondsLeft: seconds }).read.replace(/\D+/g, '');
    expect([300, 241, 240, 181, 180, 121, 120, 61, 60, 1].map(said)).toEqual([
      '5',
      '5',
      '4',
      '4',
      '3',
      '3',
      '2',
      '2',
      '1',
      '1',
    ]);
  });
});

describe('App: sizes', () => {
  it('draws the deep link’s QR code at 200 px in the regular card and 160 px in the compact one', () => {
    expect(qrOf(show()).pixels).toBe(200);
    expect(qrOf(show({ size: 'compact' })).pixels).toBe(160);
    expect(qrOf(show({ size: 'compact' })).pixels / qrOf(show({ size: 'compact' })).modules).toBeGreaterThanOrEqual(3);
  });

  it('names the size on the card, where the stylesheet lays the compact card out', () => {
    expect(show({ size: 'compact' }).querySelector('.card')?.className).toBe('card dark compact');
    expect(show().querySelector('.card')?.className).toBe('card dark regular');
  });

  it.each(['waiting', 'scanned', 'failed'] as const)(
    'keeps the words of the %s state together, beside the QR code or the icon in the compact card',
    (state) => {
      const text = show({ state, size: 'compact' }).querySelector('.state > .text')!;
      expect(text.querySelector('h2')).not.toBeNull();
      expect(text.querySelector('p')).not.toBeNull();
    },
  );

  it.each(LOCALES)('says the same words in the compact card as in the regular one, in %s', (locale) => {
    for (const props of [{ layout: 'desktop' }, { layout: 'mobile' }, { state: 'failed' }] as const) {
      const words = (size: 'regular' | 'compact') =>
        show({ ...props, size, copy: ALL_COPY[locale], lang: locale }).textContent!.replace(/\s+/g, ' ');
      const regular = words('regular');
      expect(regular, JSON.stringify(props)).not.toMatch(/undefined|null/);
      expect(words('compact'), JSON.stringify(props)).toBe(regular);
    }
    const buttons = show({ layout: 'mobile', size: 'compact', copy: ALL_COPY[locale], lang: locale }).querySelector(
      '.row',
    )!;
    expect([...buttons.children].map((child) => child.textContent)).toEqual([
      ALL_COPY[locale].openApp,
      ALL_COPY[locale].showQr,
    ]);
  });

  it('puts the mobile buttons in one row', () => {
    const row = show({ layout: 'mobile', size: 'compact' }).querySelector('.row')!;
    expect([...row.children].map((child) => child.getAttribute('data-testid'))).toEqual([
      'svc-open-app',
      'svc-show-qr',
    ]);
  });
});

describe('App: whose problem an error is', () => {
  const setup = { code: 'INIT_FAILED', message: 'create failed: ORIGIN_NOT_ALLOWED', retryable: false } as const;
  const outage = { code: 'INIT_FAILED', message: 'create failed: HTTP_503', retryable: true } as const;

  it('tells a configuration error as the site’s, in every locale, with no retry', () => {
    for (const locale of LOCALES) {
      const copy = ALL_COPY[locale];
      const view = show({ state: 'error', error: setup, copy, lang: locale });
      expect(view.querySelector('.help')?.textContent).toBe(copy.configHelp);
      expect(view.textContent).not.toContain(copy.errorHelp);
      expect(view.querySelector('[data-testid="svc-retry"]')).toBeNull();
    }
    expect(ALL_COPY.en.configHelp).toBe('This site’s age check is not set up correctly.');
  });

  it('tells a network error or a 5xx as the service being unavailable, with a retry', () => {
    const view = show({ state: 'error', error: outage, copy: ALL_COPY.en, lang: 'en' });
    expect(view.querySelector('.help')?.textContent).toBe('The service is not responding right now.');
    expect(view.querySelector('[data-testid="svc-retry"]')).not.toBeNull();
  });

  it('tells INIT_FAILED that retrying cannot mend as the site’s, and nothing else', () => {
    const help = (error: ViewProps['error']): string | null | undefined =>
      show({ state: 'error', error, copy: ALL_COPY.en, lang: 'en' }).querySelector('.help')?.textContent;
    expect(help(setup)).toBe(ALL_COPY.en.configHelp);
    expect(help({ ...setup, message: 'data-scopes invalid' })).toBe(ALL_COPY.en.configHelp);
    expect(help(outage)).toBe(ALL_COPY.en.errorHelp);
    expect(help({ code: 'SERVER_VERIFY_TIMEOUT', message: 'no verified:true in time', retryable: true })).toBe(
      ALL_COPY.en.timeoutHelp,
    );
    expect(show({ state: 'failed', error: setup, copy: ALL_COPY.en, lang: 'en' }).textContent).not.toContain(
      ALL_COPY.en.configHelp,
    );
  });
});
