import { afterEach, describe, expect, it, vi } from 'vitest';
import { localeScriptUrl, pickLocale, resolveLocale } from './locale.ts';

afterEach(() => {
  document.documentElement.lang = '';
  vi.restoreAllMocks();
});

describe('pickLocale', () => {
  it('takes the first tag whose language the widget speaks, region and case aside', () => {
    expect(pickLocale(['ja', 'pt-BR', 'en'])).toBe('pt');
    expect(pickLocale(['NL-be'])).toBe('nl');
    expect(pickLocale([undefined, '', 'es-419'])).toBe('es');
  });

  it('falls back to French, or to what the caller appends', () => {
    expect(pickLocale(['ja', 'zh-Hant'])).toBe('fr');
    expect(pickLocale(['ja', 'en'])).toBe('en');
  });
});

describe('resolveLocale', () => {
  it('keeps an explicit locale', () => {
    expect(resolveLocale('it')).toBe('it');
  });

  it('reads data-locale as a BCP 47 tag: en-GB is English, de-AT German, whatever the case', () => {
    expect(resolveLocale('en-GB')).toBe('en');
    expect(resolveLocale('de-AT')).toBe('de');
    expect(resolveLocale('PT-br')).toBe('pt');
  });

  it('gives French for a language the widget lacks, or for no locale at all', () => {
    expect(resolveLocale('ja')).toBe('fr');
    expect(resolveLocale('')).toBe('fr');
    expect(resolveLocale(undefined)).toBe('fr');
  });

  it('reads <html lang> first for auto, then the browser languages, among all seven locales', () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['es-ES', 'en']);
    document.documentElement.lang = 'de-AT';
    expect(resolveLocale('auto')).toBe('de');
    document.documentElement.lang = 'ja';
    expect(resolveLocale('auto')).toBe('es');
  });

  it('ends in French when nothing matches', () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['ja']);
    expect(resolveLocale('auto')).toBe('fr');
  });
});

describe('localeScriptUrl', () => {
  it('names the script beside the bundle for the six locales the bundle does not carry', () => {
    const ui = 'https://svc.example/v4/ui.Ab-12_x.js';
    const six = ['en', 'de', 'es', 'it', 'nl', 'pt'] as const;
    expect(six.map((l) => localeScriptUrl(ui, l))).toEqual(six.map((l) => `https://svc.example/v4/ui.Ab-12_x-${l}.js`));
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
