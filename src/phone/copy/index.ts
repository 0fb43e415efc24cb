/**
 * Every string the phone page shows up front, in the widget's seven locales (fr and en first;
 * de, es, it, nl and pt are additions: docs/embedding.md#languages). The page stands in for the mobile app, so it
 * speaks the phone's language (its browser languages), not the partner page's. The persona
 * picker's strings are the sandbox wing's (src/phone/sandbox/copy/), loaded only in sandbox.
 */
import type { FailReason, Locale, Outcome } from '../../protocol/api.ts';
import type { Scope } from '../../protocol/scopes.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { it } from './it.ts';
import { nl } from './nl.ts';
import { pt } from './pt.ts';

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

export const PHONE_COPY: Readonly<Record<Locale, PhoneCopy>> = { fr, en, de, es, it, nl, pt };
