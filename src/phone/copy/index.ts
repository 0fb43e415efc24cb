/**
 * Every string the phone page shows up front, in the EU's 24 official languages (design.md §20).
 * The page speaks the request's language (the widget's), else its own browser's (main.tsx); it
 * downloads that one language only: each is a chunk of its own ({@link loadPhoneCopy}). The
 * persona picker's strings are the sandbox wing's (src/phone/sandbox/copy/), loaded only in
 * sandbox. Every language at once, for tests and the build: all.ts.
 */
import type { FailReason, Locale, Outcome } from '../../protocol/wire.ts';
import type { Scope } from '../../protocol/scopes.ts';

/** What can stop the page before or while answering (model.ts picks one). */
export type ProblemKey =
  'MISSING_LINK' | 'NOT_FOUND' | 'ALREADY_FINISHED' | 'REQUEST_EXPIRED' | 'NETWORK_ERROR' | 'OTHER';

/** Why the methods are offered again: the last attempt did not prove anything (the request still waits). */
export type NoticeKey = 'refused' | 'wallet_declined' | 'wallet_refused';

/**
 * How a request ended through an identity provider or the wallet: approved, a failure reason,
 * `ended` (finished or expired meanwhile, by another method) or `link_expired` (a sign-in link the
 * service no longer knows, at /m/callback).
 */
export type EndingKey = 'approved' | FailReason | 'ended' | 'link_expired';

/** A title and one line of help. */
export interface Panel {
  title: string;
  help: string;
}

/**
 * The done view a wallet on this phone sends the visitor back to (design.md §19): its title,
 * while the code is checked, the proof shared, the request ended otherwise, and a neutral page for
 * a link that is not (or no longer) valid, which says nothing of the request.
 */
export interface DoneViewCopy {
  title: string;
  checking: string;
  shared: Panel;
  ended: Panel;
  neutral: Panel;
}

export interface PhoneCopy {
  /** the done view's strings, together (design.md §19) */
  doneView: DoneViewCopy;
  /** the sandbox page's title (it stands in for the mobile app) */
  title: string;
  /** the page's title in production */
  pageTitle: string;
  sandboxMark: string;
  sandboxNote: string;
  loading: string;
  askedBy(audience: string): string;
  askedByBlind: string;
  blindNote(app: string): string;
  minimalNote: string;
  /** `text` is m:ss */
  expiresIn(text: string): string;
  /**
   * the same, in whole minutes counted up, for screen readers (which read m:ss as a time of day):
   * plural.ts, a sentence for each plural category the language has
   */
  minutesLeft(minutes: number): string;
  /** the persona picker's verdict, recorded (sandbox) */
  outcomes: Readonly<Record<Outcome, Panel>>;
  problems: Readonly<Record<ProblemKey, Panel>>;
  retry: string;
  /** the finished view's way back to the page that asked, opened on the same device (way-back.ts) */
  backToSite: string;
  /** what each scope asks the person to prove, as a plain fact */
  scopes: Readonly<Record<Scope, string>>;
  /** above the ways to prove it, when there is more than the persona picker */
  methodsTitle: string;
  /** the Digital Credentials API button, where the browser has it */
  useWalletHere: string;
  /** the wallet link (`av://…`) */
  openWalletApp: string;
  continueWith(provider: string): string;
  opening(provider: string): string;
  walletWaiting: string;
  notices: Readonly<Record<NoticeKey, Panel>>;
  endings: Readonly<Record<EndingKey, Panel>>;
  /** the designers' demo partner (fixtures/partners.json pk_test_designer), as the subject of askedBy */
  demoAudience: string;
}

/** Each language's chunk (Vite splits every import() into one). */
const CHUNKS: Readonly<Record<Locale, () => Promise<PhoneCopy>>> = {
  fr: () => import('./fr.ts').then((m) => m.fr),
  bg: () => import('./bg.ts').then((m) => m.bg),
  cs: () => import('./cs.ts').then((m) => m.cs),
  da: () => import('./da.ts').then((m) => m.da),
  de: () => import('./de.ts').then((m) => m.de),
  el: () => import('./el.ts').then((m) => m.el),
  en: () => import('./en.ts').then((m) => m.en),
  es: () => import('./es.ts').then((m) => m.es),
  et: () => import('./et.ts').then((m) => m.et),
  fi: () => import('./fi.ts').then((m) => m.fi),
  ga: () => import('./ga.ts').then((m) => m.ga),
  hr: () => import('./hr.ts').then((m) => m.hr),
  hu: () => import('./hu.ts').then((m) => m.hu),
  it: () => import('./it.ts').then((m) => m.it),
  lt: () => import('./lt.ts').then((m) => m.lt),
  lv: () => import('./lv.ts').then((m) => m.lv),
  mt: () => import('./mt.ts').then((m) => m.mt),
  nl: () => import('./nl.ts').then((m) => m.nl),
  pl: () => import('./pl.ts').then((m) => m.pl),
  pt: () => import('./pt.ts').then((m) => m.pt),
  ro: () => import('./ro.ts').then((m) => m.ro),
  sk: () => import('./sk.ts').then((m) => m.sk),
  sl: () => import('./sl.ts').then((m) => m.sl),
  sv: () => import('./sv.ts').then((m) => m.sv),
};

/**
 * The copy of `locale`, fetched on first use (the page's one language, or the request's once
 * known). Rejects when its chunk cannot be fetched.
 *
 * @example const copy = await loadPhoneCopy('pl') // copy.retry === 'Spróbuj ponownie'
 */
export function loadPhoneCopy(locale: Locale): Promise<PhoneCopy> {
  return CHUNKS[locale]();
}
