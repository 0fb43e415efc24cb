/**
 * Every locale's copy in one object, for what must render any language at once and is not
 * size-budgeted: the designers' preview (preview.ts), the build (one script per locale) and the
 * tests. The UI bundle never imports this file (it loads locales one by one, see index.ts).
 */
import type { Locale } from '../../protocol/wire.ts';
import { bg } from './bg.ts';
import { cs } from './cs.ts';
import { da } from './da.ts';
import { de } from './de.ts';
import { el } from './el.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { et } from './et.ts';
import { fi } from './fi.ts';
import { fr, type Copy } from './fr.ts';
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

export const ALL_COPY: Readonly<Record<Locale, Copy>> = {
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
