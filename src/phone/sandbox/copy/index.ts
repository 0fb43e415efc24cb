/**
 * The persona picker's strings, in the phone page's 24 languages: part of the sandbox wing, so
 * production's phone page never downloads them (docs/design.md §4), and each language a chunk of
 * its own, so the wing downloads the page's language only. The rest of the page's copy is
 * src/phone/copy/; every language at once (tests, the build's persona scan): all.ts.
 */
import type { Locale, Method } from '../../../protocol/wire.ts';
import type { SandboxWalletChoice } from '../../../protocol/sandbox.ts';

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

const CHUNKS: Readonly<Record<Locale, () => Promise<SandboxCopy>>> = {
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

/** The persona picker's copy in `locale`, fetched on first use. */
export function loadSandboxCopy(locale: Locale): Promise<SandboxCopy> {
  return CHUNKS[locale]();
}
