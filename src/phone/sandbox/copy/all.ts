/** The persona picker's copy in every language at once, for the tests and the build's persona scan (scripts/check-bundle.ts). */
import type { Locale } from '../../../protocol/wire.ts';
import type { SandboxCopy } from './index.ts';
import { bg } from './bg.ts';
import { cs } from './cs.ts';
import { da } from './da.ts';
import { de } from './de.ts';
import { el } from './el.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { et } from './et.ts';
import { fi } from './fi.ts';
import { fr } from './fr.ts';
import { ga } from './ga.ts';
import { hr } from './hr.ts';
import { hu } from './hu.ts';
import { it } from './it.ts';
import { lt } from './lt.ts';
import { lv } from './lv.ts';
import { mt } from './mt.ts';
import { nl } from './nl.ts';
import { pl } from './pl.ts';
import { pt } from './pt.ts';
import { ro } from './ro.ts';
import { sk } from './sk.ts';
import { sl } from './sl.ts';
import { sv } from './sv.ts';

export const SANDBOX_COPY: Readonly<Record<Locale, SandboxCopy>> = {
  fr,
  bg,
  cs,
  da,
  de,
  el,
  en,
  es,
  et,
  fi,
  ga,
  hr,
  hu,
  it,
  lt,
  lv,
  mt,
  nl,
  pl,
  pt,
  ro,
  sk,
  sl,
  sv,
};
