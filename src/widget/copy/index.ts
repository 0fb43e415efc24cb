import type { Locale } from '../../protocol/api.ts';
import { en } from './en.ts';
import { fr, type Copy } from './fr.ts';

export type { Copy };

/** Both locales, by code. */
export const COPY: Readonly<Record<Locale, Copy>> = { fr, en };
