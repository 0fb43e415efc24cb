/**
 * The persona picker's strings, in the phone page's seven locales: part of the sandbox wing, so
 * production's phone page never downloads them (docs/design.md §4). The rest of the page's copy is
 * src/phone/copy/.
 */
import type { Locale, Method } from '../../../protocol/api.ts';
import type { SandboxWalletChoice } from '../../../protocol/sandbox.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { it } from './it.ts';
import { nl } from './nl.ts';
import { pt } from './pt.ts';

export interface SandboxCopy {
  personaLegend: string;
  methodLegend: string;
  methodOnlyWallet: string;
  methodOnlyFace: string;
  /** the sandbox wallet's choice of credential, when the request accepts more than one (design.md §13) */
  credentialLegend: string;
  credentials: Readonly<Record<SandboxWalletChoice, string>>;
  approve: string;
  fail: string;
  cancel: string;
  sending: string;
  methods: Readonly<Record<Method, string>>;
  /** the persona picker's heading when other ways come first */
  sandboxSection: string;
  /** the sandbox personas' labels by persona id (fixtures/personas.json); an unknown id shows its English label */
  personas: Readonly<Record<string, string>>;
}

export const SANDBOX_COPY: Readonly<Record<Locale, SandboxCopy>> = { fr, en, de, es, it, nl, pt };
