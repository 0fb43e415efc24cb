/**
 * The meeting point of the UI bundle and the locale scripts beside it (index.ts): a locale
 * script's only statement is `registerCopy('de', [...])`, its strings in the order of fr.ts's
 * keys (order.ts; the build writes them so), which spares every script the keys. Nothing else
 * here, so a locale script carries its strings and these few bytes.
 */
import type { Locale } from '../../protocol/wire.ts';

/** Where a locale script puts its strings: `window.__svcCopy.de`. */
export const COPY_GLOBAL = '__svcCopy';

type CopyWindow = Window & { [COPY_GLOBAL]?: Partial<Record<Locale, readonly string[]>> };

/**
 * Hands a locale's strings to the UI bundle.
 *
 * @example registerCopy('de', copyValues(de)) // then copyOf('de') deep-equals de
 */
export function registerCopy(locale: Locale, values: readonly string[]): void {
  ((window as CopyWindow)[COPY_GLOBAL] ??= {})[locale] = values;
}

/** A locale's strings if its script has run. */
export function registeredValues(locale: Locale): readonly string[] | undefined {
  return (window as CopyWindow)[COPY_GLOBAL]?.[locale];
}
