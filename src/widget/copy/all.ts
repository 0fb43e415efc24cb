/**
 * Every locale's copy in one object, for what must render any language at once and is not
 * size-budgeted: the designers' preview (preview.ts) and the tests. The UI bundle never imports
 * this file (it loads locales one by one, see index.ts).
 */
import type { Locale } from '../../protocol/api.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr, type Copy } from './fr.ts';
import { it } from './it.ts';
import { nl } from './nl.ts';
import { pt } from './pt.ts';

export const ALL_COPY: Readonly<Record<Locale, Copy>> = { fr, en, de, es, it, nl, pt };
