/**
 * Every string the sandbox phone page shows, in the widget's seven locales (the spec names fr
 * and en; de, es, it, nl and pt are additions, issue 11). The page stands in for the mobile app,
 * so it speaks the phone's language (its browser languages), not the partner page's.
 */
import type { Locale, Method, Outcome } from '../../protocol/api.ts';
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

/** A title and one line of help. */
export interface Panel {
  title: string;
  help: string;
}

export interface PhoneCopy {
  title: string;
  sandboxMark: string;
  sandboxNote: string;
  loading: string;
  askedBy(audience: string): string;
  askedByBlind: string;
  blindNote(app: string): string;
  minimalNote: string;
  /** `text` is m:ss */
  expiresIn(text: string): string;
  personaLegend: string;
  methodLegend: string;
  methodOnlyWallet: string;
  methodOnlyFace: string;
  approve: string;
  fail: string;
  cancel: string;
  sending: string;
  outcomes: Readonly<Record<Outcome, Panel>>;
  problems: Readonly<Record<ProblemKey, Panel>>;
  retry: string;
  /** what each scope asks the person to prove, as a plain fact */
  scopes: Readonly<Record<Scope, string>>;
  methods: Readonly<Record<Method, string>>;
}

export const PHONE_COPY: Readonly<Record<Locale, PhoneCopy>> = { fr, en, de, es, it, nl, pt };
