import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOCALES } from '../protocol/wire.ts';
import { localeScriptUrl, pickLocale, resolveLocale, SPOKEN } from './locale.ts';

afterEach(() => {
  document.documentElement.lang = '';
  vi.restoreAllMocks();
});

describe('pickLocale', () => {
  it('knows the languages LOCALES names, no more', () => {
    expect(SPOKEN.match(/../g)!.sort()).toEqual([...LOCALES].sort());
    expect(pickLocale(['ro-MD'])).toBe('ro');
    expect(pickLocale(['fil', 'o', 'rb'], 'en')).toBe('en');
  });

  it('takes the first tag whose language the widget speaks, region and case aside', () => {
    expect(pickLocale(['ja', 'pt-BR', 'en'])).toBe('pt');
    expect(pickLocale(['NL-be'])).toBe('nl');
    expect(pickLocale([undefined, '', 'es-419'])).toBe('es');
  });

  it('falls back to French, or to the fallback the caller gives', () => {
    expect(pickLocale(['ja', 'zh-Hant'])).toBe('fr');
    expect(pickLocale(['ja', 'zh-Hant'], 'en')).toBe('en');
  });
});

describe('resolveLocale', () => {
  it.each(LOCALES)('keeps %s, any of the 24, with a region or without, in any case', (locale) => {
    expect(resolveLocale(locale)).toBe(locale);
    expect(resolveLocale(`${locale}-XX`)).toBe(locale);
    expect(resolveLocale(locale.toUpperCase())).toBe(locale);
  });

  // design.md §20: data-locale as written → the language shown
  it.each([
    ['pt-BR', 'pt'],
    ['pt-PT', 'pt'],
    ['de-AT', 'de'],
    ['sv-FI', 'sv'],
    ['el-CY', 'el'],
    ['EL', 'el'],
    ['ga-IE', 'ga'],
    ['mt-MT', 'mt'],
    ['en-GB', 'en'],
    ['xx', 'fr'],
    ['ja', 'fr'],
    ['nb', 'fr'],
    ['', 'fr'],
    [undefined, 'fr'],
  ])('reads data-locale="%s" as %s', (tag, locale) => {
    expect(resolveLocale(tag)).toBe(locale);
  });

  // design.md §20: navigator.languages → what auto shows
  it.each([
    [['pl-PL', 'en'], 'pl'],
    [['nb-NO', 'sv'], 'sv'],
    [['nb', 'ja'], 'en'],
    [['ja', 'EL'], 'el'],
    [['fi'], 'fi'],
    [[], 'en'],
  ])('reads auto in a browser set to %j as %s', (languages, locale) => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
    expect(resolveLocale('auto')).toBe(locale);
  });

  it('does not read <html lang> for auto: the visitor’s browser speaks for the visitor', () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['hu-HU']);
    document.documentElement.lang = 'de-AT';
    expect(resolveLocale('auto')).toBe('hu');
  });
});

describe('localeScriptUrl', () => {
  it('names the script beside the bundle for the 23 locales the bundle does not carry', () => {
    const ui = 'https://svc.example/v4/ui.Ab-12_x.js';
    const others = LOCALES.filter((l) => l !== 'fr');
    expect(others).toHaveLength(23);
    expect(others.map((l) => localeScriptUrl(ui, l))).toEqual(
      others.map((l) => `https://svc.example/v4/ui.Ab-12_x-${l}.js`),
    );
  });

  it('names the blinding chunk beside the bundle too', () => {
    expect(localeScriptUrl('https://svc.example/v4/ui.Ab.js', 'private')).toBe(
      'https://svc.example/v4/ui.Ab-private.js',
    );
  });

  it('has no script for French or no locale', () => {
    expect(localeScriptUrl('https://svc.example/v4/ui.x.js', 'fr')).toBeNull();
    expect(localeScriptUrl('https://svc.example/v4/ui.x.js')).toBeNull();
  });
});
