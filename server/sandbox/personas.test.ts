import { describe, expect, it } from 'vitest';
import type { Persona } from '../../src/protocol/sandbox.ts';
import { attributesOf, EU_MEMBER_STATES } from '../rules/facts.ts';
import { birthDateOf, findPersona, loadPersonas, personaClaims, personaFacts, summarizePersonas } from './personas.ts';

const personas = loadPersonas();
const persona = (id: string): Persona => findPersona(personas, id)!;
const JAN_1 = Date.UTC(2026, 0, 1, 12);

describe('personas', () => {
  it('treats a persona turning 18 today as an adult and one turning 18 tomorrow as a minor', () => {
    for (const now of [JAN_1, Date.UTC(2026, 11, 31, 23, 59), Date.UTC(2028, 1, 29, 0, 0), Date.UTC(2027, 6, 15)]) {
      expect(personaFacts(persona('turns-18-today'), now)).toMatchObject({ ageYears: 18, isAdult: true });
      expect(personaFacts(persona('turns-18-tomorrow'), now)).toMatchObject({ ageYears: 17, isAdult: false });
    }
  });

  it('reads a fixed birth date against the clock', () => {
    const lucas = persona('fr-adult-m');
    expect(birthDateOf(lucas, JAN_1)).toEqual({ year: 1992, month: 3, day: 14 });
    expect(personaFacts(lucas, Date.UTC(2010, 2, 13)).ageYears).toBe(17);
    expect(personaFacts(lucas, Date.UTC(2010, 2, 14)).ageYears).toBe(18);
  });

  it('keeps relative ages relative: the French minor is 16 whatever the date', () => {
    expect(personaFacts(persona('fr-minor'), JAN_1)).toMatchObject({ ageYears: 16, isAdult: false, birthYear: 2010 });
    expect(personaFacts(persona('fr-minor'), Date.UTC(2031, 5, 1)).ageYears).toBe(16);
  });

  it('derives nationality facts from the EU list of 27 member states', () => {
    expect(EU_MEMBER_STATES.size).toBe(27);
    expect(personaFacts(persona('fr-adult-f'), JAN_1)).toMatchObject({
      isFrench: true,
      isEU: true,
      isFemale: true,
      isMale: false,
    });
    expect(personaFacts(persona('de-adult'), JAN_1)).toMatchObject({
      isFrench: false,
      isEU: true,
      isMale: true,
      nationality: 'DEU',
    });
    expect(personaFacts(persona('us-adult'), JAN_1)).toMatchObject({
      isFrench: false,
      isEU: false,
      nationality: 'USA',
    });
  });

  it('proves every fact through the one facts rule, from the claims an identity provider would send', () => {
    expect(personaClaims(persona('fr-adult-m'), JAN_1)).toEqual({
      birthdate: '1992-03-14',
      nationalities: ['FRA'],
      gender: 'male',
    });
    expect(personaClaims(persona('turns-18-tomorrow'), JAN_1)).toMatchObject({
      birthdate: '2008-01-02',
      gender: 'female',
    });
    expect(personaFacts(persona('fr-adult-m'), JAN_1)).toEqual({
      ageYears: 33,
      isAdult: true,
      birthYear: 1992,
      isFrench: true,
      isEU: true,
      nationality: 'FRA',
      isMale: true,
      isFemale: false,
    });
  });

  it('discloses only the attributes of the requested scopes', () => {
    const facts = personaFacts(persona('de-adult'), JAN_1);
    expect(attributesOf(facts, ['isAdult'], null)).toEqual({ age_over_18: true });
    expect(attributesOf(facts, ['isFrench', 'revealNationality', 'revealBirthYear', 'isUnique'], '0xabc')).toEqual({
      is_french: false,
      nationality: 'DEU',
      birth_year: 1981,
      nullifier: '0xabc',
    });
    expect(attributesOf(facts, ['isMale'], null)).toEqual({ is_male: true });
    expect(attributesOf(facts, ['isFemale', 'isEU'], null)).toEqual({ is_female: false, is_eu: true });
  });

  it('refuses to build isUnique without a nullifier', () => {
    expect(() => attributesOf(personaFacts(persona('de-adult'), JAN_1), ['isUnique'], null)).toThrow();
  });

  it('lists personas as id and label only', () => {
    const summaries = summarizePersonas(personas);
    expect(summaries).toHaveLength(personas.length);
    for (const summary of summaries) expect(Object.keys(summary).sort()).toEqual(['id', 'label']);
  });

  it('finds nothing for an unknown or non-string id', () => {
    expect(findPersona(personas, 'nobody')).toBeNull();
    expect(findPersona(personas, 42)).toBeNull();
  });
});
