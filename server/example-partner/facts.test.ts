import { describe, expect, it } from 'vitest';
import { SCOPES } from '../sdk/index.ts';
import { PAGE_LOCALES, readPageLocale, WORDS, type Words } from './copy.ts';
import { countryName, describeAttestation, describeExchange, describeScopes, type Fact } from './facts.ts';

/** What a shopper must never read: our scope names, attribute keys and method identifiers. */
const RAW_IDENTIFIERS = [
  ...SCOPES,
  'age_over_18',
  'is_french',
  'is_eu',
  'is_male',
  'is_female',
  'birth_year',
  'verification_method',
  'face_check',
  'eudi_wallet',
  'scope_mask',
];

const shown = (facts: Fact[]) => facts.map((f) => `${f.label}: ${f.value}`).join('\n');

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('example partner words', () => {
  it('has every word in each of the seven languages, none empty and none a raw identifier', () => {
    expect(PAGE_LOCALES).toEqual(['en', 'fr', 'de', 'es', 'it', 'nl', 'pt']);
    for (const locale of PAGE_LOCALES) {
      const all = strings(WORDS[locale]);
      expect(all.length, locale).toBe(strings(WORDS.en).length);
      for (const text of all) {
        expect(text.trim(), locale).not.toBe('');
        for (const raw of RAW_IDENTIFIERS) expect(text, `${locale}: ${text}`).not.toContain(raw);
      }
    }
  });

  it('translates every shopper sentence: no language but English repeats an English heading or fact', () => {
    const english = (w: Words) => [w.index.heading, w.leads.standard, w.result.welcome, w.facts.age_over_18];
    for (const locale of PAGE_LOCALES.filter((l) => l !== 'en')) {
      for (const text of english(WORDS[locale])) expect(english(WORDS.en), locale).not.toContain(text);
    }
  });

  it('words the page leads for a phone as for a computer: nothing to scan, no QR code (the widget says which)', () => {
    for (const locale of PAGE_LOCALES)
      for (const lead of Object.values(WORDS[locale].leads)) {
        expect(lead, locale).not.toMatch(/\bQR\b|scan|escane|inquadri|leia o/i);
        expect(lead, locale).toMatch(/phone|téléphone|Smartphone|móvil|smartphone|telefoon|telemóvel/);
      }
  });

  it('reads the page language from ?locale=, English for anything else', () => {
    expect(readPageLocale('de')).toBe('de');
    for (const other of [undefined, '', 'auto', 'DE', 'xx', ['fr']]) expect(readPageLocale(other)).toBe('en');
  });
});

describe('a STANDARD result in words', () => {
  it('states each fact asked for, in the order asked, then how the visitor was verified', () => {
    const facts = describeExchange(
      {
        scopes: ['isFrench', 'isAdult'],
        attributes: { age_over_18: true, is_french: false, verification_method: 'face_check' },
      },
      'en',
    );
    expect(facts).toEqual([
      { name: 'is_french', label: 'French nationality', value: 'no' },
      { name: 'age_over_18', label: '18 or older', value: 'yes' },
      { name: 'verification_method', label: 'Verified with', value: 'a face check' },
    ]);
  });

  it('says "an EU digital identity wallet", names the country and shows the birth year', () => {
    const facts = describeExchange(
      {
        scopes: ['revealNationality', 'revealBirthYear'],
        attributes: { nationality: 'DEU', birth_year: 1981, verification_method: 'eudi_wallet' },
      },
      'en',
    );
    expect(shown(facts)).toBe('Nationality: Germany\nBirth year: 1981\nVerified with: an EU digital identity wallet');
  });

  it('writes the facts in the page language', () => {
    const facts = describeExchange(
      {
        scopes: ['isAdult', 'revealNationality'],
        attributes: { age_over_18: true, nationality: 'FRA', verification_method: 'face_check' },
      },
      'de',
    );
    expect(shown(facts)).toBe(
      '18 oder älter: ja\nStaatsangehörigkeit: Frankreich\nGeprüft mit: einem Gesichtsabgleich',
    );
  });

  it('leaves out an attribute the answer lacks, and names an identity provider’s own method in plain words, never raw', () => {
    const facts = describeExchange(
      { scopes: ['isAdult', 'isEU'], attributes: { age_over_18: true, verification_method: 'bank_id' } },
      'en',
    );
    expect(facts).toEqual([
      { name: 'age_over_18', label: '18 or older', value: 'yes' },
      { name: 'verification_method', label: expect.any(String), value: 'an identity provider' },
    ]);
    expect(JSON.stringify(facts)).not.toContain('bank_id');
  });

  it('never shows a raw identifier, whatever was asked, in any language', () => {
    for (const locale of PAGE_LOCALES) {
      const facts = describeExchange(
        {
          scopes: ['isAdult', 'isFrench', 'isEU', 'isMale', 'isUnique', 'revealNationality', 'revealBirthYear'],
          attributes: {
            age_over_18: true,
            is_french: true,
            is_eu: true,
            is_male: false,
            nullifier: '0x' + 'ab'.repeat(32),
            nationality: 'FRA',
            birth_year: 1992,
            verification_method: 'eudi_wallet',
          },
        },
        locale,
      );
      expect(facts).toHaveLength(8);
      for (const raw of RAW_IDENTIFIERS) expect(shown(facts), locale).not.toContain(raw);
    }
  });

  it('names a country from its alpha-3 or alpha-2 code, and keeps a code it cannot name', () => {
    expect(countryName('FRA', 'fr')).toBe('France');
    expect(countryName('deu', 'es')).toBe('Alemania');
    expect(countryName('NL', 'nl')).toBe('Nederland');
    expect(countryName('USA', 'it')).toBe('Stati Uniti');
    expect(countryName('XYZ', 'en')).toBe('XYZ');
  });

  it('lists what a page asks for in words', () => {
    expect(describeScopes(['isAdult', 'isFrench', 'isUnique'], 'en')).toBe(
      '18 or older · French nationality · Your anonymous ID for this shop',
    );
    expect(describeScopes(['isAdult'], 'pt')).toBe('18 anos ou mais');
  });
});

describe('an ADULT_BLIND attestation in words', () => {
  it('says "not asked" for the facts the shop did not ask for, not "no"', () => {
    const facts = describeAttestation({ adult: true, french: false, eu: false }, ['isAdult'], 'en');
    expect(facts).toEqual([
      { name: 'adult', label: '18 or older', value: 'yes' },
      { name: 'french', label: 'French nationality', value: 'not asked' },
      { name: 'eu', label: 'EU citizen', value: 'not asked' },
      { name: 'nullifier', label: 'Your anonymous ID for this shop', value: 'not asked' },
    ]);
  });

  it('says "no" for a fact asked for and not proven, and shows the anonymous ID when asked', () => {
    const nullifier = '0x' + '1f'.repeat(32);
    const facts = describeAttestation(
      { adult: false, french: false, eu: true, nullifier },
      ['isAdult', 'isFrench', 'isEU', 'isUnique'],
      'fr',
    );
    expect(facts.map((f) => [f.name, f.value])).toEqual([
      ['adult', 'non'],
      ['french', 'non'],
      ['eu', 'oui'],
      ['nullifier', nullifier],
    ]);
  });

  it('reads a set bit as yes even when the page did not say it asked for it', () => {
    const facts = describeAttestation({ adult: true, french: true, eu: false }, ['isAdult'], 'en');
    expect(facts.find((f) => f.name === 'french')?.value).toBe('yes');
  });
});
