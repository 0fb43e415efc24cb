import { describe, expect, it } from 'vitest';
import partners from '../../../fixtures/partners.json' with { type: 'json' };
import { LOCALES } from '../../protocol/wire.ts';
import { SCOPES } from '../../protocol/scopes.ts';
import { DEMO_AUDIENCE_LABEL } from '../words.ts';
import { en } from './en.ts';
import { PHONE_COPY } from './all.ts';
import { loadPhoneCopy, type PhoneCopy } from './index.ts';

/** Every string of a copy, functions called with a marker so their text is checked too. */
function strings(copy: PhoneCopy): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') out.push([path, value]);
    else if (typeof value === 'function') out.push([path, (value as (x: string) => string)('⟨X⟩')]);
    else for (const [key, inner] of Object.entries(value as object)) walk(inner, path ? `${path}.${key}` : key);
  };
  walk(copy, '');
  return out;
}

const KEYS = strings(en).map(([path]) => path);

describe('phone page copy', () => {
  it('covers every locale the protocol names', () => {
    expect(Object.keys(PHONE_COPY).sort()).toEqual([...LOCALES].sort());
  });

  it.each(LOCALES)('loads %s alone, as its own chunk, the same copy', async (locale) => {
    expect(await loadPhoneCopy(locale)).toBe(PHONE_COPY[locale]);
  });

  it.each(LOCALES)('writes %s in its own script (Greek in el, Cyrillic in bg), no other', (locale) => {
    const own = locale === 'el' ? 'Greek' : locale === 'bg' ? 'Cyrillic' : 'Latin';
    for (const [path, value] of strings(PHONE_COPY[locale])) {
      const letters = value.replace(/⟨X⟩|\b(QR|EUDI|EU|UE|PID)\b/g, '');
      if (/\p{L}/u.test(letters)) expect(letters, `${locale}.${path}`).toMatch(new RegExp(`\\p{Script=${own}}`, 'u'));
      for (const other of ['Greek', 'Cyrillic'].filter((s) => s !== own))
        expect(value, `${locale}.${path}`).not.toMatch(new RegExp(`\\p{Script=${other}}`, 'u'));
    }
  });

  it('states every scope as a fact', () => {
    expect(Object.keys(en.scopes).sort()).toEqual([...SCOPES].sort());
  });

  it.each(LOCALES)('has exactly the strings of the English page in %s', (locale) => {
    expect(strings(PHONE_COPY[locale]).map(([path]) => path)).toEqual(KEYS);
  });

  it.each(LOCALES)('has no empty or untrimmed string in %s, and every template keeps its value', (locale) => {
    for (const [path, value] of strings(PHONE_COPY[locale])) {
      expect(value.trim(), `${locale}.${path}`).not.toBe('');
      expect(value, `${locale}.${path}`).toBe(value.trim());
    }
    const copy = PHONE_COPY[locale];
    for (const text of [
      copy.askedBy('⟨X⟩'),
      copy.blindNote('⟨X⟩'),
      copy.expiresIn('⟨X⟩'),
      copy.continueWith('⟨X⟩'),
      copy.opening('⟨X⟩'),
    ])
      expect(text).toContain('⟨X⟩');
  });

  it('knows the designers’ demo partner by the name fixtures/partners.json gives it', () => {
    expect(partners.find((p) => p.id === 'pk_test_designer')?.name).toBe(DEMO_AUDIENCE_LABEL);
  });

  it.each(LOCALES.filter((l) => l !== 'en'))('leaves no sentence of %s in English', (locale) => {
    const english = new Map(strings(en));
    // proper names and labels that read the same in both may match; sentences may not
    const same = strings(PHONE_COPY[locale]).filter(
      ([path, value]) => value === english.get(path) && value.includes(' '),
    );
    expect(same).toEqual([]);
  });

  // design.md §20: a count takes every plural category its language has, each a whole sentence
  it.each(LOCALES)('writes a sentence for every plural form %s gives a whole number of minutes', (locale) => {
    const rules = new Intl.PluralRules(locale);
    const byCategory = new Map<string, string>();
    for (let n = 0; n <= 200; n++) {
      const text = PHONE_COPY[locale].minutesLeft(n);
      expect(text, `${locale} ${n}`).toContain(new Intl.NumberFormat(locale).format(n));
      expect(text, `${locale} ${n}`).not.toMatch(/\{n\}|NaN/);
      const category = rules.select(n);
      // one sentence per category: 2 and 22 in Polish read alike, 2 and 5 do not
      if (byCategory.has(category)) expect(text.replace(/\d+/, '#')).toBe(byCategory.get(category));
      else byCategory.set(category, text.replace(/\d+/, '#'));
    }
    expect(byCategory.size).toBeGreaterThanOrEqual(locale === 'hu' ? 1 : 2);
  });

  it.each<[string, number, string]>([
    ['pl', 1, 'Żądanie wygaśnie za 1 minutę'],
    ['pl', 2, 'Żądanie wygaśnie za 2 minuty'],
    ['pl', 5, 'Żądanie wygaśnie za 5 minut'],
    ['pl', 22, 'Żądanie wygaśnie za 22 minuty'],
    ['pl', 12, 'Żądanie wygaśnie za 12 minut'],
    ['cs', 1, 'Platnost žádosti vyprší za 1 minutu'],
    ['cs', 3, 'Platnost žádosti vyprší za 3 minuty'],
    ['cs', 5, 'Platnost žádosti vyprší za 5 minut'],
    ['sk', 4, 'Žiadosť je platná ešte 4 minúty'],
    ['sk', 5, 'Žiadosť je platná ešte 5 minút'],
    ['hr', 21, 'Zahtjev vrijedi još 21 minutu'],
    ['hr', 3, 'Zahtjev vrijedi još 3 minute'],
    ['hr', 11, 'Zahtjev vrijedi još 11 minuta'],
    ['sl', 1, 'Zahteva velja še 1 minuto'],
    ['sl', 2, 'Zahteva velja še 2 minuti'],
    ['sl', 3, 'Zahteva velja še 3 minute'],
    ['sl', 5, 'Zahteva velja še 5 minut'],
    ['lt', 1, 'Užklausa galioja dar 1 minutę'],
    ['lt', 2, 'Užklausa galioja dar 2 minutes'],
    ['lt', 10, 'Užklausa galioja dar 10 minučių'],
    ['lt', 21, 'Užklausa galioja dar 21 minutę'],
    ['lv', 0, 'Pieprasījums derīgs vēl 0 minūšu'],
    ['lv', 1, 'Pieprasījums derīgs vēl 1 minūti'],
    ['lv', 21, 'Pieprasījums derīgs vēl 21 minūti'],
    ['lv', 5, 'Pieprasījums derīgs vēl 5 minūtes'],
    ['ro', 1, 'Cererea expiră în 1 minut'],
    ['ro', 5, 'Cererea expiră în 5 minute'],
    ['ro', 20, 'Cererea expiră în 20 de minute'],
    ['ga', 1, 'Rachaidh an t-iarratas in éag i gceann 1 nóiméad'],
    ['ga', 2, 'Rachaidh an t-iarratas in éag i gceann 2 nóiméad'],
    ['ga', 3, 'Rachaidh an t-iarratas in éag i gceann 3 nóiméad'],
    ['ga', 7, 'Rachaidh an t-iarratas in éag i gceann 7 nóiméad'],
    ['ga', 11, 'Rachaidh an t-iarratas in éag i gceann 11 nóiméad'],
    ['mt', 2, 'It-talba tiskadi fi żmien 2 minuti'],
    ['mt', 11, 'It-talba tiskadi fi żmien 11-il minuta'],
    ['mt', 20, 'It-talba tiskadi fi żmien 20 minuta'],
    ['fr', 1, 'La demande expire dans 1 minute'],
    ['fr', 2, 'La demande expire dans 2 minutes'],
    ['de', 1, 'Anfrage läuft in 1 Minute ab'],
    ['el', 5, 'Το αίτημα λήγει σε 5 λεπτά'],
    ['bg', 1, 'Заявката изтича след 1 минута'],
    ['fi', 1, 'Pyyntö on voimassa vielä 1 minuutin'],
    ['fi', 5, 'Pyyntö on voimassa vielä 5 minuuttia'],
  ])('counts minutes as %s does: %i → %s', (locale, n, sentence) => {
    expect(PHONE_COPY[locale as keyof typeof PHONE_COPY].minutesLeft(n)).toBe(sentence);
  });
});
