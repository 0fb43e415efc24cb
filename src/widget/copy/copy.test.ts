import { describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '../../protocol/wire.ts';
import { ALL_COPY } from './all.ts';
import { copyOf } from './index.ts';
import { fr } from './fr.ts';
import { copyFromValues, copyValues } from './order.ts';
import { plural } from './plural.ts';
import { registerCopy } from './register.ts';

const KEYS = Object.keys(fr).sort();

/** `words` as whole words, in any script (`\b` knows ASCII letters only). */
const words = (...list: string[]): RegExp => new RegExp(`(^|[^\\p{L}])(${list.join('|')})(?![\\p{L}])`, 'iu');

/**
 * The informal "you" of each language that addresses strangers formally: the widget speaks
 * formally there (docs/embedding.md#languages). Null where software says "you" one way only
 * (English, Irish) or where the plain form is what services write (Danish, Finnish, Swedish,
 * Maltese).
 */
const INFORMAL: Record<Locale, RegExp | null> = {
  fr: words('tu', 'toi', 'ton', 'ta', 'tes'),
  bg: words('ти', 'теб', 'твой', 'твоя', 'твоето', 'твоите'),
  cs: words('ty', 'tebe', 'tobě', 'tvůj', 'tvoje', 'tvá', 'tvé', 'tvého'),
  da: null,
  de: words('du', 'dich', 'dir', 'dein\\p{L}*'),
  el: words('εσύ', 'σου', 'εσένα'),
  en: null,
  es: words('tú', 'tu', 'tus', 'te', 'ti', 'contigo'),
  et: words('sina', 'sinu', 'sulle', 'sind'),
  fi: null,
  ga: null,
  hr: words('ti', 'tebe', 'tebi', 'tvoj', 'tvoja', 'tvoje', 'tvog'),
  hu: words('te', 'téged', 'neked', 'tiéd'),
  // Italian buttons use the imperative as labels ("Riprova"); sentences use "Lei"
  it: words('tu', 'te', 'ti', 'tuo', 'tua', 'tuoi', 'tue'),
  lt: words('tu', 'tavo', 'tau', 'tave'),
  lv: words('tu', 'tavs', 'tava', 'tavu', 'tev', 'tevi'),
  mt: null,
  nl: words('je', 'jij', 'jou', 'jouw'),
  // Polish buttons use the imperative as labels ("Otwórz"); sentences are impersonal or "Państwo"
  pl: words('ty', 'ciebie', 'cię', 'tobie', 'twój', 'twoja', 'twoje', 'twojego', 'twoim'),
  pt: words('tu', 'te', 'ti', 'teu', 'tua', 'teus', 'tuas', 'contigo'),
  ro: words('tu', 'tine', 'ție', 'tău', 'ta', 'tale'),
  sk: words('ty', 'teba', 'tebe', 'tvoj', 'tvoja', 'tvoje', 'tvojho'),
  sl: words('ti', 'tebe', 'tebi', 'tvoj', 'tvoja', 'tvoje'),
  sv: null,
};

/** The script each language is written in, and the scripts no string of it may use. */
const SCRIPT: Record<Locale, 'Greek' | 'Cyrillic' | 'Latin'> = Object.fromEntries(
  LOCALES.map((l) => [l, l === 'el' ? 'Greek' : l === 'bg' ? 'Cyrillic' : 'Latin']),
) as Record<Locale, 'Greek' | 'Cyrillic' | 'Latin'>;

describe('copy', () => {
  it('covers every locale the protocol names', () => {
    expect(Object.keys(ALL_COPY).sort()).toEqual([...LOCALES].sort());
  });

  it.each(LOCALES)('has exactly the keys of the French copy in %s', (locale) => {
    expect(Object.keys(ALL_COPY[locale]).sort()).toEqual(KEYS);
  });

  it.each(LOCALES)('has no empty, untrimmed or untranslated-looking string in %s', (locale) => {
    for (const [key, value] of Object.entries(ALL_COPY[locale])) {
      expect(value.trim(), `${locale}.${key}`).not.toBe('');
      expect(value, `${locale}.${key}`).toBe(value.trim());
      // `{n}`, the countdown's number, is the one placeholder (plural.ts)
      expect(value, `${locale}.${key}`).not.toMatch(key == 'expiresIn' ? /TODO|\{(?!n\})/ : /TODO|[{}|=]/);
    }
  });

  // design.md §20: a count takes every plural category its language has, each a whole sentence
  it.each(LOCALES)('writes the countdown as a sentence for every plural form %s gives a whole number', (locale) => {
    const forms = ALL_COPY[locale].expiresIn.split('|');
    const named = forms.slice(0, -1).map((form) => form.split('=')[0]);
    // categories the language has, each once, and a last sentence for the rest
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories as string[];
    for (const category of named) expect(categories, `${locale}: ${category}`).toContain(category);
    expect(new Set(named).size).toBe(named.length);
    expect(forms.at(-1)).not.toContain('=');
    for (const form of forms) expect(form.split('{n}'), `${locale}: ${form}`).toHaveLength(2);
    const rules = new Intl.PluralRules(locale);
    const byCategory = new Map<string, string>();
    for (let n = 0; n <= 200; n++) {
      const text = plural(locale, ALL_COPY[locale].expiresIn, n);
      expect(text, `${locale} ${n}`).toContain(new Intl.NumberFormat(locale).format(n));
      expect(text, `${locale} ${n}`).not.toMatch(/[{}|=]/);
      // one sentence per category: 2 and 22 in Polish read alike, 2 and 5 do not
      const category = rules.select(n);
      if (byCategory.has(category)) expect(text.replace(/\d+/, '#')).toBe(byCategory.get(category));
      else byCategory.set(category, text.replace(/\d+/, '#'));
    }
  });

  it.each(LOCALES)('leaves no string of %s in English', (locale) => {
    if (locale === 'en') return;
    const same = Object.entries(ALL_COPY[locale]).filter(
      ([key, value]) => value === ALL_COPY.en[key as keyof typeof fr],
    );
    expect(same, 'strings left in English').toEqual([]);
  });

  it.each(LOCALES)('writes %s in its own script: every word, no other script', (locale) => {
    const own = new RegExp(`\\p{Script=${SCRIPT[locale]}}`, 'u');
    for (const [key, value] of Object.entries(ALL_COPY[locale])) {
      // proper names and codes (QR, EU, EUDI) may stay Latin inside a Greek or Cyrillic sentence
      const letters = value.replace(/\b(QR|EUDI|EU|UE|PID|SD-JWT|VC)\b/g, '');
      if (/\p{L}/u.test(letters)) expect(letters, `${locale}.${key}`).toMatch(own);
      for (const other of ['Greek', 'Cyrillic'].filter((s) => s !== SCRIPT[locale]))
        expect(value, `${locale}.${key}`).not.toMatch(new RegExp(`\\p{Script=${other}}`, 'u'));
    }
  });

  it.each(LOCALES.filter((l) => INFORMAL[l]))('speaks to the visitor formally in %s', (locale) => {
    expect(Object.values(ALL_COPY[locale]).join(' ')).not.toMatch(INFORMAL[locale]!);
  });

  it.each(LOCALES)('keeps every %s title to two lines of the 320 px card (at most 60 characters)', (locale) => {
    for (const [key, value] of Object.entries(ALL_COPY[locale])) {
      const shortLine = key.endsWith('Title') || key === 'openApp' || key === 'retry' || key === 'openHere';
      if (shortLine) expect(value.length, `${locale}.${key}`).toBeLessThanOrEqual(60);
    }
  });

  it('speaks to the visitor in French with vous', () => {
    expect(Object.values(fr).join(' ')).toMatch(/\bvous\b|\bvotre\b/i);
  });

  it('says what a French product says', () => {
    expect(fr.mobileTitle).toBe('Vérifiez votre âge');
    expect(fr.waitingTitle).toBe('Scannez ce QR code avec votre téléphone');
    expect(fr.testMode).toBe('Mode test');
  });

  it('ships French inside the bundle and every other locale only once its script ran', () => {
    expect(copyOf('fr')).toBe(fr);
    expect(copyOf('en')).toBeUndefined();
    expect(copyOf('pt')).toBeUndefined();
    registerCopy('pt', copyValues(ALL_COPY.pt));
    expect(copyOf('pt')).toEqual(ALL_COPY.pt);
  });

  it.each(LOCALES)('travels as strings in the order of the French keys and comes back whole (%s)', (locale) => {
    const values = copyValues(ALL_COPY[locale]);
    expect(values).toHaveLength(KEYS.length);
    expect(values[0]).toBe(ALL_COPY[locale].brand);
    expect(copyFromValues(values)).toEqual(ALL_COPY[locale]);
  });
});
