import { describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '../../protocol/wire.ts';
import { ALL_COPY } from './all.ts';
import { plural } from './plural.ts';

/** The countdown's sentence in `locale` for `n` minutes, from the copy the widget ships (a no-break space as a space). */
const countdown = (locale: Locale, n: number): string =>
  plural(locale, ALL_COPY[locale].expiresIn, n).replace(/\u00a0/g, ' ');

describe('plural: the countdown in words (design.md §20)', () => {
  it('takes the sentence of the category Intl.PluralRules gives, else the last one', () => {
    const forms = 'one={n} minute|few={n} minuty|{n} minut';
    expect(plural('pl', forms, 1)).toBe('1 minute');
    expect(plural('pl', forms, 3)).toBe('3 minuty');
    expect(plural('pl', forms, 5)).toBe('5 minut');
    expect(plural('en', '{n} minutes', 1)).toBe('1 minutes');
  });

  it.each<[Locale, number, string]>([
    // Polish: one, few (2–4, 22–24 …), many (5–21, 25 …), each its own ending after "za"
    ['pl', 1, 'Kod wygaśnie za 1 minutę'],
    ['pl', 2, 'Kod wygaśnie za 2 minuty'],
    ['pl', 5, 'Kod wygaśnie za 5 minut'],
    ['pl', 12, 'Kod wygaśnie za 12 minut'],
    ['pl', 22, 'Kod wygaśnie za 22 minuty'],
    // Lithuanian: 1 and 21 one, 2–9 few, 10–20 the genitive plural
    ['lt', 1, 'Kodas galioja dar 1 minutę'],
    ['lt', 2, 'Kodas galioja dar 2 minutes'],
    ['lt', 10, 'Kodas galioja dar 10 minučių'],
    ['lt', 21, 'Kodas galioja dar 21 minutę'],
    // Latvian: zero (0, 10–20, 30 …), one (1, 21 …), other
    ['lv', 0, 'Kods derīgs vēl 0 minūšu'],
    ['lv', 1, 'Kods derīgs vēl 1 minūti'],
    ['lv', 21, 'Kods derīgs vēl 21 minūti'],
    ['lv', 2, 'Kods derīgs vēl 2 minūtes'],
    // Irish: five categories, and after a number "nóiméad" does not change
    ['ga', 1, 'Éagfaidh an cód i gceann 1 nóiméad'],
    ['ga', 2, 'Éagfaidh an cód i gceann 2 nóiméad'],
    ['ga', 3, 'Éagfaidh an cód i gceann 3 nóiméad'],
    ['ga', 7, 'Éagfaidh an cód i gceann 7 nóiméad'],
    ['ga', 11, 'Éagfaidh an cód i gceann 11 nóiméad'],
    // Slovenian: one, two (the dual), few, other
    ['sl', 1, 'Koda velja še 1 minuto'],
    ['sl', 2, 'Koda velja še 2 minuti'],
    ['sl', 3, 'Koda velja še 3 minute'],
    ['sl', 5, 'Koda velja še 5 minut'],
    ['sl', 101, 'Koda velja še 101 minuto'],
    // Finnish: the genitive for one, the partitive for more
    ['fi', 1, 'Koodi on voimassa vielä 1 minuutin'],
    ['fi', 5, 'Koodi on voimassa vielä 5 minuuttia'],
    ['el', 1, 'Ο κωδικός λήγει σε 1 λεπτό'],
    ['el', 5, 'Ο κωδικός λήγει σε 5 λεπτά'],
    ['cs', 3, 'Kód vyprší za 3 minuty'],
    ['hr', 21, 'Kôd vrijedi još 21 minutu'],
    ['ro', 20, 'Codul expiră în 20 de minute'],
    ['mt', 11, 'Jiskadi fi żmien 11-il minuta'],
    ['fr', 1, 'Ce code expire dans 1 minute'],
    ['en', 5, 'This code expires in 5 minutes'],
  ])('says the countdown in %s for %i minutes as a native speaker does', (locale, n, sentence) => {
    expect(countdown(locale, n)).toBe(sentence);
  });

  it.each(LOCALES)('keeps the number and its word on one line in %s (a no-break space)', (locale) => {
    expect(plural(locale, ALL_COPY[locale].expiresIn, 5)).toMatch(/(^|\s)5\u00a0\p{L}/u);
  });
});
