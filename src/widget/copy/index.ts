/**
 * The widget's copy by locale. French (the default) ships inside the UI bundle; each other
 * locale, English included, is a small script of its own beside it (`ui.<hash>-de.js`, built by
 * scripts/build.ts, registering through register.ts), loaded only when a widget speaks it, so
 * the bundle stays within its budget however many languages exist (issue 11). The loader starts
 * that script in parallel with the UI bundle when it already knows the locale, so it costs no
 * extra round trip.
 */
import type { Locale } from '../../protocol/api.ts';
import { localeScriptUrl } from '../../shared/locale.ts';
import { fr, type Copy } from './fr.ts';
import { copyFromValues } from './order.ts';
import { registeredValues } from './register.ts';

export type { Copy };

const inFlight = new Map<Locale, Promise<Copy>>();
const made: Partial<Record<Locale, Copy>> = { fr };
let source: { src: string; nonce?: string } | undefined;

/** The copy of `locale` if it is already here (always for fr). */
export function copyOf(locale: Locale): Copy | undefined {
  const values = made[locale] ? undefined : registeredValues(locale);
  if (values) made[locale] = copyFromValues(values);
  return made[locale];
}

/**
 * Where the locale scripts live: beside the UI bundle's own script (its `src` and `nonce`, as
 * `document.currentScript` gives them while the bundle runs).
 *
 * @example locateCopy(document.currentScript) // in the UI bundle's entry
 */
export function locateCopy(script: HTMLOrSVGScriptElement | null): void {
  if (script instanceof HTMLScriptElement && script.src) source = { src: script.src, nonce: script.nonce };
}

/**
 * The copy of `locale`, loading its script once (a script the loader already started is joined,
 * not fetched twice). Rejects when the script cannot be loaded; the caller falls back.
 *
 * @example const copy = await loadCopy('nl');
 */
export function loadCopy(locale: Locale): Promise<Copy> {
  const here = copyOf(locale);
  if (here) return Promise.resolve(here);
  let pending = inFlight.get(locale);
  if (!pending) {
    pending = new Promise<Copy>((resolve, reject) => {
      if (!source) return reject(new Error('copy'));
      const url = localeScriptUrl(source.src, locale)!;
      const script = [...document.scripts].find((s) => s.src === url) ?? document.createElement('script');
      if (!script.src) {
        script.src = url;
        script.crossOrigin = 'anonymous';
        if (source.nonce) script.nonce = source.nonce;
        document.head.append(script);
      }
      const settle = (): void => {
        const copy = copyOf(locale);
        if (copy) return resolve(copy);
        script.remove(); // the next call tries again
        reject(new Error('copy'));
      };
      script.addEventListener('load', settle);
      script.addEventListener('error', settle);
    }).finally(() => {
      inFlight.delete(locale);
    });
    inFlight.set(locale, pending);
  }
  return pending;
}
