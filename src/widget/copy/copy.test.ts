import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../protocol/api.ts';
import { ALL_COPY } from './all.ts';
import { copyOf } from './index.ts';
import { fr } from './fr.ts';
import { copyFromValues, copyValues } from './order.ts';
import { registerCopy } from './register.ts';

const KEYS = Object.keys(fr).sort();

/** The informal "you" of each language: the widget speaks formally everywhere (docs/embedding.md#languages). */
const INFORMAL: Record<(typeof LOCALES)[number], RegExp | null> = {
  fr: /\b(tu|toi|ton|ta|tes)\b/i,
  en: null,
  de: /\b(du|dich|dir|dein\w*)\b/i,
  es: /(^|[^\p{L}])(tú|tu|tus|te|ti|contigo)(?![\p{L}])/iu,
  // Italian buttons use the imperative as labels ("Riprova"); sentences use "Lei"
  it: /\b(tu|te|ti|tuo|tua|tuoi|tue)\b/i,
  nl: /\b(je|jij|jou|jouw)\b/i,
  pt: /\b(tu|te|ti|teu|tua|teus|tuas|contigo)\b/i,
};

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
      expect(value, `${locale}.${key}`).not.toMatch(/TODO|\{(?!t\})/);
    }
  });

  it.each(LOCALES)('keeps the countdown placeholder, once, in %s', (locale) => {
    expect(ALL_COPY[locale].expiresIn.split('{t}')).toHaveLength(2);
  });

  it.each(LOCALES)('leaves no string of %s in English', (locale) => {
    if (locale === 'en') return;
    const same = Object.entries(ALL_COPY[locale]).filter(
      ([key, value]) => value === ALL_COPY.en[key as keyof typeof fr],
    );
    expect(same, 'strings left in English').toEqual([]);
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
