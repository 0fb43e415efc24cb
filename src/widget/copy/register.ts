/**
 * The meeting point of the UI bundle and the locale scripts beside it (index.ts): a locale
 * script's only statement is `registerCopy('de', de)`. Nothing else here, so a locale script
 * carries its copy and these few bytes.
 */
import type { Locale } from '../../protocol/api.ts';
import type { Copy } from './fr.ts';

/** Where a locale script puts its copy: `window.__svcCopy.de`. */
export const COPY_GLOBAL = '__svcCopy';

type CopyWindow = Window & { [COPY_GLOBAL]?: Partial<Record<Locale, Copy>> };

/**
 * Hands a locale's copy to the UI bundle.
 *
 * @example registerCopy('de', de) // then copyOf('de') === de
 */
export function registerCopy(locale: Locale, copy: Copy): void {
  ((window as CopyWindow)[COPY_GLOBAL] ??= {})[locale] = copy;
}

/** A locale's copy if its script has run. */
export function registeredCopy(locale: Locale): Copy | undefined {
  return (window as CopyWindow)[COPY_GLOBAL]?.[locale];
}
