import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ISO_CODES_SOURCE,
  readCountryCodes,
  renderCountryCodesModule,
  COUNTRY_CODES_MODULE,
} from '../../scripts/make-country-codes.ts';
import { SCOPES } from '../../src/protocol/scopes.ts';
import { ALPHA2_TO_ALPHA3 } from './country-codes.ts';
import {
  ageOn,
  attributesOf,
  claimsForScopes,
  EU_MEMBER_STATES,
  factsFromClaims,
  InvalidClaimError,
  parseCivilDate,
  pickFacts,
  providerSubject,
  toAlpha3,
  unprovenScopes,
} from './facts.ts';

const at = (iso: string): number => Date.parse(`${iso}T00:00:00Z`);
const adultOn = (birthdate: string, today: string): boolean | undefined =>
  factsFromClaims({ birthdate }, at(today)).isAdult;

describe('facts rule: birthdate', () => {
  it('counts someone whose 18th birthday is today as an adult, and tomorrow as a minor', () => {
    expect(adultOn('2008-06-15', '2026-06-15')).toBe(true);
    expect(adultOn('2008-06-16', '2026-06-15')).toBe(false);
    expect(adultOn('2008-06-14', '2026-06-15')).toBe(true);
  });

  it('reads today as the UTC civil date: one minute before midnight UTC is still the day before', () => {
    expect(factsFromClaims({ birthdate: '2008-06-15' }, Date.UTC(2026, 5, 14, 23, 59)).isAdult).toBe(false);
    expect(factsFromClaims({ birthdate: '2008-06-15' }, Date.UTC(2026, 5, 15, 0, 0)).isAdult).toBe(true);
  });

  it('gives someone born on 29 February their birthday on 1 March in a common year', () => {
    // 18 years after a leap year is always a common year
    expect(adultOn('2008-02-29', '2026-02-28')).toBe(false);
    expect(adultOn('2008-02-29', '2026-03-01')).toBe(true);
    expect(ageOn(parseCivilDate('2008-02-29')!, at('2027-02-28'))).toBe(18);
    expect(ageOn(parseCivilDate('2008-02-29')!, at('2027-03-01'))).toBe(19);
  });

  it('gives someone born on 29 February their birthday on 29 February in a leap year', () => {
    expect(ageOn(parseCivilDate('2008-02-29')!, at('2028-02-28'))).toBe(19);
    expect(ageOn(parseCivilDate('2008-02-29')!, at('2028-02-29'))).toBe(20);
  });

  it('keeps 28 February and 1 March birthdays on their day in common and leap years', () => {
    // 18th birthdays in a leap year (2028)
    expect(adultOn('2010-02-28', '2028-02-27')).toBe(false);
    expect(adultOn('2010-02-28', '2028-02-28')).toBe(true);
    expect(adultOn('2010-03-01', '2028-02-29')).toBe(false);
    expect(adultOn('2010-03-01', '2028-03-01')).toBe(true);
    // 18th birthdays in a common year (2027)
    expect(adultOn('2009-02-28', '2027-02-28')).toBe(true);
    expect(adultOn('2009-03-01', '2027-02-28')).toBe(false);
    expect(adultOn('2009-03-01', '2027-03-01')).toBe(true);
  });

  it('derives the birth year and nothing else from a birthdate', () => {
    expect(factsFromClaims({ birthdate: '1992-03-14' }, at('2026-01-01'))).toEqual({ isAdult: true, birthYear: 1992 });
  });

  it('refuses a birthdate that is not a full YYYY-MM-DD date', () => {
    for (const birthdate of [
      '1992',
      '0000-03-14',
      '1992-3-14',
      '1992-02-30',
      '2007-02-29',
      '1992-13-01',
      ' 1992-03-14',
    ]) {
      expect(() => factsFromClaims({ birthdate }, at('2026-01-01')), birthdate).toThrow(InvalidClaimError);
    }
    expect(() => factsFromClaims({ birthdate: 19920314 as unknown as string }, at('2026-01-01'))).toThrow(
      InvalidClaimError,
    );
  });
});

describe('facts rule: age_over_18', () => {
  it('takes an age_over_18 claim as is when no birthdate is given', () => {
    expect(factsFromClaims({ age_over_18: true }, at('2026-01-01'))).toEqual({ isAdult: true });
    expect(factsFromClaims({ age_over_18: false }, at('2026-01-01'))).toEqual({ isAdult: false });
  });

  it('accepts an age_over_18 claim that agrees with the birthdate and refuses one that contradicts it', () => {
    expect(factsFromClaims({ birthdate: '1990-01-01', age_over_18: true }, at('2026-01-01')).isAdult).toBe(true);
    expect(() => factsFromClaims({ birthdate: '2010-01-01', age_over_18: true }, at('2026-01-01'))).toThrow(
      /contradicts/,
    );
  });

  it('refuses an age_over_18 claim that is not a boolean', () => {
    expect(() => factsFromClaims({ age_over_18: 'true' as unknown as boolean }, at('2026-01-01'))).toThrow(
      InvalidClaimError,
    );
  });
});

describe('facts rule: nationalities', () => {
  const now = at('2026-01-01');

  it('reads alpha-2 and alpha-3 codes alike, and reports the nationality as alpha-3', () => {
    expect(factsFromClaims({ nationalities: ['FR'] }, now)).toEqual({ isFrench: true, isEU: true, nationality: 'FRA' });
    expect(factsFromClaims({ nationalities: ['FRA'] }, now)).toEqual({
      isFrench: true,
      isEU: true,
      nationality: 'FRA',
    });
    expect(factsFromClaims({ nationalities: ['US'] }, now)).toEqual({
      isFrench: false,
      isEU: false,
      nationality: 'USA',
    });
  });

  it('with several nationalities, is French or EU if any one is, and names the first one listed', () => {
    expect(factsFromClaims({ nationalities: ['USA', 'FR'] }, now)).toEqual({
      isFrench: true,
      isEU: true,
      nationality: 'USA',
    });
    expect(factsFromClaims({ nationalities: ['CH', 'DEU'] }, now)).toEqual({
      isFrench: false,
      isEU: true,
      nationality: 'CHE',
    });
  });

  it('refuses the whole claim when one code is not an uppercase ISO 3166-1 code, instead of skipping it', () => {
    for (const nationalities of [['fr'], ['Fra'], ['D'], ['XK'], ['ZZZ'], ['FRA', 'D'], ['FR '], [42]]) {
      expect(() => factsFromClaims({ nationalities: nationalities as string[] }, now), String(nationalities)).toThrow(
        InvalidClaimError,
      );
    }
    expect(() => factsFromClaims({ nationalities: 'FRA' as unknown as string[] }, now)).toThrow(InvalidClaimError);
  });

  it('treats an empty list as no answer: the nationality facts stay unproven', () => {
    expect(factsFromClaims({ nationalities: [] }, now)).toEqual({});
  });

  it('keeps one EU list of the 27 member states, every one an ISO 3166-1 code', () => {
    expect(EU_MEMBER_STATES.size).toBe(27);
    for (const code of EU_MEMBER_STATES) expect(toAlpha3(code)).toBe(code);
    expect(EU_MEMBER_STATES.has('GBR')).toBe(false);
    expect(EU_MEMBER_STATES.has('CHE')).toBe(false);
  });
});

describe('facts rule: gender', () => {
  const now = at('2026-01-01');

  it('maps male and female to isMale and isFemale, and any other value to neither', () => {
    expect(factsFromClaims({ gender: 'male' }, now)).toEqual({ isMale: true, isFemale: false });
    expect(factsFromClaims({ gender: 'female' }, now)).toEqual({ isMale: false, isFemale: true });
    expect(factsFromClaims({ gender: 'diverse' }, now)).toEqual({ isMale: false, isFemale: false });
    expect(factsFromClaims({ gender: 'Male' }, now)).toEqual({ isMale: false, isFemale: false });
  });

  it('refuses a gender that is not a string', () => {
    expect(() => factsFromClaims({ gender: 1 as unknown as string }, now)).toThrow(InvalidClaimError);
  });
});

describe('facts rule: scopes', () => {
  it('asks exactly the claims the requested scopes need', () => {
    expect(claimsForScopes(['isAdult'])).toEqual(['birthdate']);
    expect(claimsForScopes(['isUnique'])).toEqual([]);
    expect(claimsForScopes(['isFrench', 'isEU', 'revealNationality'])).toEqual(['nationalities']);
    expect(claimsForScopes(['isMale'])).toEqual(['gender']);
    expect(claimsForScopes(['isFemale', 'revealBirthYear'])).toEqual(['gender', 'birthdate']);
    expect(claimsForScopes(SCOPES).sort()).toEqual(['birthdate', 'gender', 'nationalities']);
  });

  it('names the scopes the facts leave unproven, never isUnique', () => {
    expect(unprovenScopes({ isAdult: true }, ['isAdult', 'isFrench', 'isUnique'])).toEqual(['isFrench']);
    expect(unprovenScopes({ isAdult: false, isMale: false }, ['isAdult', 'isMale'])).toEqual([]);
  });

  it('keeps only the facts of the requested scopes', () => {
    const facts = factsFromClaims({ birthdate: '1992-03-14', nationalities: ['DE'], gender: 'male' }, at('2026-01-01'));
    expect(pickFacts(facts, ['isAdult'])).toEqual({ isAdult: true });
    expect(pickFacts(facts, ['revealNationality', 'isUnique'])).toEqual({ nationality: 'DEU' });
    expect(attributesOf(pickFacts(facts, ['isEU', 'isMale']), ['isEU', 'isMale'], null)).toEqual({
      is_eu: true,
      is_male: true,
    });
  });

  it('refuses to disclose a requested fact that was not proven', () => {
    expect(() => attributesOf({ isFrench: true }, ['isAdult'], null)).toThrow(/isAdult requested but not proven/);
  });
});

describe('facts rule: subjects', () => {
  it("combines issuer and sub so that two providers' subjects never collide", () => {
    expect(providerSubject('https://id.example', '42')).toBe('oidc|https%3A%2F%2Fid.example|42');
    expect(providerSubject('https://a.example', 'b|c')).not.toBe(providerSubject('https://a.example|b', 'c'));
    expect(providerSubject('https://a.example', '1')).not.toBe(providerSubject('https://b.example', '1'));
  });
});

describe('country codes', () => {
  it('maps every ISO 3166-1 alpha-2 code to its alpha-3 code', () => {
    expect(Object.keys(ALPHA2_TO_ALPHA3)).toHaveLength(249);
    expect(ALPHA2_TO_ALPHA3.FR).toBe('FRA');
    expect(ALPHA2_TO_ALPHA3.DE).toBe('DEU');
    expect(ALPHA2_TO_ALPHA3.GB).toBe('GBR');
    expect(toAlpha3('DEU')).toBe('DEU');
    expect(toAlpha3('fr')).toBeNull();
  });

  it.skipIf(!existsSync(ISO_CODES_SOURCE))('is exactly what the generator writes from Debian iso-codes', () => {
    const expected = renderCountryCodesModule(
      readCountryCodes(readFileSync(ISO_CODES_SOURCE, 'utf8')),
      ISO_CODES_SOURCE,
    );
    expect(readFileSync(COUNTRY_CODES_MODULE, 'utf8')).toBe(expected);
  });
});
