/**
 * What the designers' gallery shows: every widget state in both themes, plus the variants a
 * state has (a cancelled failure, a server-verify timeout) and the mobile layout, in the locale
 * and with the accent the page's pickers choose (one grid, not one per locale).
 */
import { signal } from '@preact/signals';
import { LOCALES, type Locale } from '../protocol/wire.ts';
import { ACCENT_PATTERN, type Theme, type WidgetState } from '../shared/contract.ts';
import type { PreviewOptions } from '../widget/preview.ts';

export interface GalleryRow {
  id: string;
  title: string;
  /** one line for designers: when a visitor sees this */
  note: string;
  options: Omit<PreviewOptions, 'theme' | 'locale' | 'accent'>;
}

/** One column per theme. */
export const THEMES: readonly Theme[] = ['dark', 'light'];

/** Each locale by its own name, as a picker lists it, in the order of LOCALES (fr first, the bundle's own). */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = {
  fr: 'français',
  bg: 'български',
  cs: 'čeština',
  da: 'dansk',
  de: 'Deutsch',
  el: 'ελληνικά',
  en: 'English',
  es: 'español',
  et: 'eesti',
  fi: 'suomi',
  ga: 'Gaeilge',
  hr: 'hrvatski',
  hu: 'magyar',
  it: 'italiano',
  lt: 'lietuvių',
  lv: 'latviešu',
  mt: 'Malti',
  nl: 'Nederlands',
  pl: 'polski',
  pt: 'português',
  ro: 'română',
  sk: 'slovenčina',
  sl: 'slovenščina',
  sv: 'svenska',
};

/**
 * Accents to try, light and dark ones (the widget picks black or white text on each), beside
 * the default and a free colour input.
 */
export const ACCENTS: ReadonlyArray<{ name: string; value: string }> = [
  { name: 'Forest', value: '#0a7d4f' },
  { name: 'Plum', value: '#6b2c91' },
  { name: 'Crimson', value: '#c8102e' },
  { name: 'Sunflower', value: '#ffc72c' },
  { name: 'Mint', value: '#7fe0b8' },
];

/**
 * The gallery's pickers, English first as the page around them (one language per view until a
 * designer picks another). The address can preset them (`/demo?locale=de&accent=%230a7d4f`), so a
 * designer can share what they look at.
 *
 * @example const gallery = createGalleryModel(location.search); gallery.locale.value = 'nl';
 */
export function createGalleryModel(search = '') {
  const query = new URLSearchParams(search);
  const wanted = query.get('locale') as Locale;
  const accent = query.get('accent') ?? '';
  return {
    locale: signal<Locale>(LOCALES.includes(wanted) ? wanted : 'en'),
    /** `#rgb` / `#rrggbb`, or null for the widget's default */
    accent: signal<string | null>(ACCENT_PATTERN.test(accent) ? accent : null),
  };
}

export type GalleryModel = ReturnType<typeof createGalleryModel>;

const STATE_NOTES: Record<WidgetState, string> = {
  creating: 'The request is being created (usually shorter than a frame or two).',
  waiting: 'QR code with its countdown, and the “open on this device” link.',
  scanned: 'The phone opened the request; the visitor is answering there.',
  completed: 'The phone approved; about to hand over the result.',
  confirming: 'Server-verify: waiting for the partner’s backend to confirm.',
  redirecting: 'Leaving for the partner’s success page.',
  failed: 'The check did not succeed; the visitor can try again.',
  expired: 'The QR code expired; a new one replaces it while the page is visible.',
  error: 'INIT_FAILED: the widget could not start (configuration or network).',
};

const STATES: readonly WidgetState[] = [
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

/** The compact card (`data-size="compact"`), for checkout columns and modals: its own rows. */
const COMPACT_ROWS: ReadonlyArray<[string, string, string, GalleryRow['options']]> = [
  [
    'waiting',
    'waiting',
    'data-size="compact": the QR code beside its words, for a checkout column or a modal.',
    { state: 'waiting' },
  ],
  [
    'waiting-mobile',
    'waiting · mobile',
    'Compact on a phone: the title, one line of help, the buttons in one row.',
    { state: 'waiting', layout: 'mobile' },
  ],
  ['scanned', 'scanned', 'Every other state: the icon beside its words.', { state: 'scanned' }],
  ['failed', 'failed', 'With its retry button under the words.', { state: 'failed' }],
  ['completed', 'completed', 'The phone approved.', { state: 'completed' }],
  ['expired', 'expired', 'The QR code expired.', { state: 'expired' }],
  [
    'error-config',
    'error · configuration',
    'The site’s configuration: no retry.',
    { state: 'error', retryable: false },
  ],
  [
    'waiting-wallet',
    'waiting · EUDI wallet',
    'The wallet’s denser QR code keeps 3 px a module: the words go under it.',
    { state: 'waiting', wallet: true, walletHere: true },
  ],
  [
    'waiting-wallet-mobile',
    'waiting · EUDI wallet · mobile',
    'Client proof mode on a phone, compact.',
    { state: 'waiting', layout: 'mobile', wallet: true, walletHere: true },
  ],
];

/** @example GALLERY_ROWS.length // 27: nine states, three variants, mobile waiting, five EUDI wallet states, nine compact */
export const GALLERY_ROWS: readonly GalleryRow[] = [
  ...STATES.map((state) => ({ id: state, title: state, note: STATE_NOTES[state], options: { state, sandbox: true } })),
  {
    id: 'failed-cancelled',
    title: 'failed · cancelled',
    note: 'The visitor cancelled on the phone.',
    options: { state: 'failed', reason: 'cancelled', sandbox: true },
  },
  {
    id: 'error-config',
    title: 'error · configuration',
    note: 'An error retrying cannot mend (a bad attribute, an unknown partner, a wrong origin): the site’s to fix.',
    options: { state: 'error', retryable: false, sandbox: true },
  },
  {
    id: 'error-server-verify-timeout',
    title: 'error · SERVER_VERIFY_TIMEOUT',
    note: 'Server-verify: the partner’s backend did not confirm in time.',
    options: { state: 'error', errorCode: 'SERVER_VERIFY_TIMEOUT', sandbox: true },
  },
  {
    id: 'waiting-mobile',
    title: 'waiting · mobile',
    note: 'On a phone: “open the app” first, the QR code on request.',
    options: { state: 'waiting', layout: 'mobile', sandbox: true },
  },
  {
    id: 'waiting-wallet',
    title: 'waiting · EUDI wallet',
    note:
      'Client proof mode on a computer: the QR code, drawn at 3 px a module, opens the visitor’s EU wallet app; ' +
      '“use a wallet on this device” where the browser can; “open on this device” is the phone page, never the ' +
      'wallet link, which a computer cannot open.',
    options: { state: 'waiting', wallet: true, walletHere: true, sandbox: true },
  },
  {
    id: 'waiting-wallet-mobile',
    title: 'waiting · EUDI wallet · mobile',
    note: 'Client proof mode on a phone: “open your age-verification app” first.',
    options: { state: 'waiting', layout: 'mobile', wallet: true, walletHere: true, sandbox: true },
  },
  {
    id: 'waiting-wallet-french',
    title: 'waiting · EUDI wallet · isFrench',
    note:
      'Client proof mode for isFrench or isEU: the QR opens any EU wallet holding a PID or a driving licence ' +
      '(an openid4vp:// link, a denser code than the age-verification app’s).',
    options: { state: 'waiting', wallet: 'openid4vp', walletHere: true, sandbox: true },
  },
  {
    id: 'waiting-wallet-french-mobile',
    title: 'waiting · EUDI wallet · isFrench · mobile',
    note: 'Client proof mode for isFrench on a phone: “open your wallet app” first.',
    options: { state: 'waiting', layout: 'mobile', wallet: 'openid4vp', walletHere: true, sandbox: true },
  },
  {
    id: 'wallet-failed',
    title: 'waiting · wallet declined',
    note: 'The wallet on this device declined or failed; the QR code is one tap away.',
    options: { state: 'waiting', wallet: true, walletFailed: true, sandbox: true },
  },
  ...COMPACT_ROWS.map(([id, title, note, options]) => ({
    id: `${id}-compact`,
    title: `${title} · compact`,
    note,
    options: { ...options, size: 'compact' as const, sandbox: true },
  })),
];
