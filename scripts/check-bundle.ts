/**
 * Budgets and forbidden strings for the two scripts partners' pages load (issue 3: size
 * acceptance; STYLE.md: size and docs). Pure functions: scripts/build.ts runs them on every build.
 */
import { gzipSync } from 'node:zlib';

/**
 * Bytes after `gzip -9`. The UI's budget holds for what a visitor downloads in any of the seven
 * locales: the bundle (with fr and en) plus, for the others, that locale's script (issue 11).
 */
export const BUDGETS = { loader: 3072, ui: 14336 } as const;
export type BundleName = keyof typeof BUDGETS;

/**
 * Never in a browser bundle: server imports, signing code, secrets and their names, live partner
 * ids, private keys, and the QR encoder (qrcode-generator's own error text: the service encodes,
 * the widget only draws, issue 11). Matched case-insensitively.
 */
export const FORBIDDEN = [
  'node:',
  'createHmac',
  'secret',
  'SVC_',
  'pk_live_',
  'BEGIN PRIVATE',
  'code length overflow',
] as const;

/** A string literal of this many words or more is developer prose that belongs behind import.meta.env.DEV. */
export const MAX_WORDS_IN_A_STRING = 12;

/**
 * Size after gzip at level 9, as the budget measures it.
 *
 * @example gzipSize(readFileSync('dist/v4/loader.min.js')) // 2816
 */
export function gzipSize(code: string | Uint8Array): number {
  return gzipSync(code, { level: 9 }).length;
}

/**
 * Everything wrong with one built bundle, as one line each; empty when it passes.
 *
 * @example
 * checkBundle('loader', code) // ['loader: 3190 bytes gzip, over its 3072 budget']
 */
export function checkBundle(name: BundleName, code: string): string[] {
  const problems: string[] = [];
  const size = gzipSize(code);
  if (size > BUDGETS[name]) problems.push(`${name}: ${size} bytes gzip, over its ${BUDGETS[name]} budget`);
  const lower = code.toLowerCase();
  for (const forbidden of FORBIDDEN) {
    if (lower.includes(forbidden.toLowerCase())) problems.push(`${name}: contains forbidden string "${forbidden}"`);
  }
  for (const prose of findProse(code))
    problems.push(`${name}: developer prose in the bundle: "${prose.slice(0, 60)}…"`);
  return problems;
}

/**
 * Everything wrong with one locale script (`ui.<hash>-de.js`): the UI budget counted with the
 * bundle it completes, and the same forbidden strings. Its copy is user-facing by design, so no
 * prose check.
 *
 * @example checkLocaleScript('de', deCode, uiCode) // [] when bundle + script fit 14336 bytes
 */
export function checkLocaleScript(locale: string, code: string, uiCode: string): string[] {
  const problems: string[] = [];
  const size = gzipSize(uiCode) + gzipSize(code);
  if (size > BUDGETS.ui) problems.push(`ui with ${locale}: ${size} bytes gzip, over its ${BUDGETS.ui} budget`);
  const lower = code.toLowerCase();
  for (const forbidden of FORBIDDEN) {
    if (lower.includes(forbidden.toLowerCase()))
      problems.push(`ui-${locale}: contains forbidden string "${forbidden}"`);
  }
  return problems;
}

/**
 * String literals that read like sentences (long developer messages). User-facing copy is short
 * by design (one-line titles and help), so a long sentence is a leak. Minifiers quote with
 * backticks too, so a "literal" that contains code punctuation is the code between two strings,
 * not a string.
 *
 * @example findProse('x("Please check that the data-partner-id attribute is set on the script tag, then reload")') // [that string]
 */
export function findProse(code: string): string[] {
  const found: string[] = [];
  for (const match of code.matchAll(/(["'`])((?:(?!\1)[^\\\n]|\\.){40,}?)\1/g)) {
    const text = match[2] ?? '';
    if (/[{}=;<>`]/.test(text)) continue;
    const words = text.split(/\s+/).filter((w) => /^[\p{L}'’,.:!?-]+$/u.test(w));
    if (words.length >= MAX_WORDS_IN_A_STRING) found.push(text);
  }
  return found;
}
