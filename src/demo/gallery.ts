/**
 * What the designers' gallery shows: every widget state in every theme × locale, plus the
 * variants a state has (a cancelled failure, a server-verify timeout) and the mobile layout.
 */
import type { LocaleOption, Theme, WidgetState } from '../shared/contract.ts';
import type { PreviewOptions } from '../widget/preview.ts';

export interface GalleryRow {
  id: string;
  title: string;
  /** one line for designers: when a visitor sees this */
  note: string;
  options: Omit<PreviewOptions, 'theme' | 'locale'>;
}

export const THEMES: readonly Theme[] = ['dark', 'light'];
export const LOCALES: readonly LocaleOption[] = ['fr', 'en'];

/** Theme × locale columns, in reading order. */
export const COLUMNS = THEMES.flatMap((theme) => LOCALES.map((locale) => ({ theme, locale, id: `${theme}-${locale}` })));

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

const STATES: readonly WidgetState[] = ['creating', 'waiting', 'scanned', 'completed', 'confirming', 'redirecting', 'failed', 'expired', 'error'];

/** @example GALLERY_ROWS.length // 15: nine states, two variants, mobile waiting, three EUDI wallet states */
export const GALLERY_ROWS: readonly GalleryRow[] = [
  ...STATES.map((state) => ({ id: state, title: state, note: STATE_NOTES[state], options: { state, sandbox: true } })),
  { id: 'failed-cancelled', title: 'failed · cancelled', note: 'The visitor cancelled on the phone.', options: { state: 'failed', reason: 'cancelled', sandbox: true } },
  {
    id: 'error-server-verify-timeout',
    title: 'error · SERVER_VERIFY_TIMEOUT',
    note: 'Server-verify: the partner’s backend did not confirm in time.',
    options: { state: 'error', errorCode: 'SERVER_VERIFY_TIMEOUT', sandbox: true },
  },
  { id: 'waiting-mobile', title: 'waiting · mobile', note: 'On a phone: “open the app” first, the QR code on request.', options: { state: 'waiting', layout: 'mobile', sandbox: true } },
  {
    id: 'waiting-wallet',
    title: 'waiting · EUDI wallet',
    note: 'Client proof mode: the QR opens the age-verification app; “use a wallet on this device” where the browser can.',
    options: { state: 'waiting', wallet: true, walletHere: true, sandbox: true },
  },
  {
    id: 'waiting-wallet-mobile',
    title: 'waiting · EUDI wallet · mobile',
    note: 'Client proof mode on a phone: “open your age-verification app” first.',
    options: { state: 'waiting', layout: 'mobile', wallet: true, walletHere: true, sandbox: true },
  },
  {
    id: 'wallet-failed',
    title: 'waiting · wallet declined',
    note: 'The wallet on this device declined or failed; the QR code is one tap away.',
    options: { state: 'waiting', wallet: true, walletFailed: true, sandbox: true },
  },
];
