/**
 * The widget's copy by locale. French (the default) ships inside the UI bundle; each other
 * locale, English included, is a small script of its own beside it (`ui.<hash>-de.js`, built by
 * scripts/build.ts, registering through register.ts), loaded only when a widget speaks it, so
 * the bundle stays within its budget however many languages exist (docs/embedding.md#languages). The loader adds
 * those scripts: in parallel with the UI bundle when it already knows the locale, so it costs no
 * extra round trip, and later when the UI asks (src/loader/inject.ts).
 */
import type { Locale } from '../../protocol/wire.ts';
import { fr, type Copy } from './fr.ts';
import { copyFromValues } from './order.ts';
import { registeredValues } from './register.ts';

export type { Copy };

const made: Partial<Record<Locale, Copy>> = { fr };

/** The copy of `locale` if it is already here (always for fr). */
export function copyOf(locale: Locale): Copy | undefined {
  const values = made[locale] ? undefined : registeredValues(locale);
  if (values) made[locale] = copyFromValues(values);
  return made[locale];
}

/**
 * The copy of a `locale` that {@link copyOf} does not have yet, once its script has run (`load`
 * is the loader's, MountOptions.loadCopy: it adds each script once, and again after a failure).
 * Rejects when the script cannot be loaded or did not hand its strings over; the caller falls
 * back.
 *
 * @example const copy = copyOf('nl') ?? (await loadCopy('nl', options.loadCopy));
 */
export function loadCopy(locale: Locale, load: (locale: Locale) => Promise<unknown>): Promise<Copy> {
  return load(locale).then(() => copyOf(locale) ?? Promise.reject(new Error('copy')));
}
