/**
 * The meeting point of the UI bundle and the locale scripts beside it (index.ts): a locale
 * script's only statement is `window.__svcCopy_de = [...]` (scripts/build.ts writes it with
 * {@link copyGlobal}), its strings in the order of fr.ts's keys (order.ts), which spares every
 * script the keys. One global a language, so that a script is one assignment and no function:
 * it carries its strings and a few bytes more.
 */
import type { Locale } from '../../protocol/wire.ts';

/** Where a locale script puts its strings: `window.__svcCopy_de`. */
export const copyGlobal = (locale: Locale): string => `__svcCopy_${locale}`;

type CopyWindow = Window & Record<string, readonly string[] | undefined>;

/**
 * Hands a locale's strings to the UI bundle, as its script does.
 *
 * @example registerCopy('de', copyValues(de)) // then copyOf('de') deep-equals de
 */
export function registerCopy(locale: Locale, values: readonly string[]): void {
  (window as unknown as CopyWindow)[copyGlobal(locale)] = values;
}

/** A locale's strings if its script has run. */
export function registeredValues(locale: Locale): readonly string[] | undefined {
  return (window as unknown as CopyWindow)[copyGlobal(locale)];
}
