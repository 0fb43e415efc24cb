import type { Locale } from '../protocol/wire.ts';
import type { LocaleOption } from './contract.ts';

/**
 * LOCALES as the loader carries them: two letters each, one string, 10 B less gzip than the
 * array (the 17 languages design.md §20 added cost the loader 40 B; docs/bytes.md), in an
 * order that lets gzip find the loader's own words in it (`desl`, `svcs`, `split`, `fin`…: 8 B).
 * locale.test.ts checks it spells LOCALES' 24, each once.
 */
export const SPOKEN = 'frnlfigaromthulteletendeslsvcsplithrdaptbgeslvsk';

/**
 * The first of `tags` (BCP 47 language tags, any case: `pt-BR`, `EL`) whose language is spoken
 * here, by its primary subtag; else `fallback` (design.md §20).
 *
 * @example pickLocale(['en-GB', 'fr']) // 'en'
 * @example pickLocale(['ja', 'nl-BE']) // 'nl'
 * @example pickLocale(['nb', 'ja'], 'en') // 'en'
 */
export function pickLocale(tags: ReadonlyArray<string | undefined>, fallback: Locale = 'fr'): Locale {
  return (
    (tags.map((tag) => tag?.toLowerCase().split('-')[0]).find((primary) => SPOKEN.match(/../g)!.includes(primary!)) as
      Locale | undefined) ?? fallback
  );
}

/**
 * `data-locale` as a BCP 47 tag (design.md §20): `en-GB` → `en`, `de-AT` → `de`; `auto` → the
 * first of the browser's languages spoken here, else English; a language the widget lacks, or
 * none, → French (the service warns about the former: server/rules/loader-warnings.ts).
 *
 * @example resolveLocale('en-GB') // 'en'
 * @example resolveLocale('auto') // 'pl' in a browser set to pl-PL, 'en' in one set to nb-NO
 */
export function resolveLocale(option?: LocaleOption | string): Locale {
  return option == 'auto' ? pickLocale(navigator.languages, 'en') : pickLocale([option]);
}

/**
 * The name of the blinding chunk beside the UI bundle (`ui.<hash>-private.js`,
 * docs/adult-blind.md#private-attestations): the loader adds it like a locale script, with its
 * nonce, for a page with `data-redemption-context`.
 */
export const PRIVATE_CHUNK = 'private';

/** What the loader adds beside the UI bundle: a locale script, or the blinding chunk. */
export type BesideBundle = Locale | typeof PRIVATE_CHUNK;

/**
 * The script of a locale the UI bundle does not carry (all but fr), or the blinding chunk,
 * beside the bundle: `…/v4/ui.<hash>.js` → `…/v4/ui.<hash>-de.js` (scripts/build.ts names them
 * so); null for fr and no locale. The loader adds it: in parallel with the bundle, and when the
 * UI asks for it.
 *
 * @example localeScriptUrl('https://svc.example/v4/ui.Ab12.js', 'nl') // 'https://svc.example/v4/ui.Ab12-nl.js'
 * @example localeScriptUrl('https://svc.example/v4/ui.Ab12.js', 'private') // 'https://svc.example/v4/ui.Ab12-private.js'
 */
export function localeScriptUrl(uiUrl: string, name?: BesideBundle): string | null {
  // every name but fr's has a script: callers pass a locale resolveLocale gave, or the chunk's
  return name && name != 'fr' ? uiUrl.replace(/\.js$/, `-${name}.js`) : null;
}
