/**
 * Sandbox personas (fixtures/personas.json): the facts the phone "proves" about a test identity,
 * computed against the service clock so that "turns 18 today" stays true every day.
 *
 * Dates are civil dates in UTC: a persona turns 18 at 00:00 UTC on their birthday.
 */
import type { Attributes, Persona, PersonaSummary } from '../../src/protocol/api.ts';
import type { Scope } from '../../src/protocol/scopes.ts';

/** The 27 EU member states, ISO 3166-1 alpha-3. */
export const EU_MEMBER_STATES: ReadonlySet<string> = new Set([
  'AUT',
  'BEL',
  'BGR',
  'HRV',
  'CYP',
  'CZE',
  'DNK',
  'EST',
  'FIN',
  'FRA',
  'DEU',
  'GRC',
  'HUN',
  'IRL',
  'ITA',
  'LVA',
  'LTU',
  'LUX',
  'MLT',
  'NLD',
  'POL',
  'PRT',
  'ROU',
  'SVK',
  'SVN',
  'ESP',
  'SWE',
]);

export const ADULT_AGE = 18;

export interface CivilDate {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

/** What a persona can prove, at one moment. */
export interface PersonaFacts {
  ageYears: number;
  birthYear: number;
  isAdult: boolean;
  isFrench: boolean;
  isEU: boolean;
  isMale: boolean;
  isFemale: boolean;
  nationality: string;
}

function civilDateOf(ms: number): CivilDate {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function parseIsoDate(value: string): CivilDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/**
 * The persona's birth date: `birth_date`, or `age_years` before today shifted by
 * `birthday_offset_days` (1: they turn that age tomorrow). Feb 29 in a common year becomes Feb 28.
 *
 * @example birthDateOf({ age_years: 18, birthday_offset_days: 1, … }, Date.UTC(2026, 0, 1)) // 2008-01-02
 */
export function birthDateOf(persona: Persona, now: number): CivilDate {
  if (persona.birth_date !== undefined) {
    const parsed = parseIsoDate(persona.birth_date);
    if (!parsed) throw new Error(`persona ${persona.id}: birth_date must be YYYY-MM-DD`);
    return parsed;
  }
  if (persona.age_years === undefined) throw new Error(`persona ${persona.id}: needs birth_date or age_years`);
  const today = civilDateOf(now);
  const year = today.year - persona.age_years;
  const anniversary = Date.UTC(year, today.month - 1, Math.min(today.day, daysInMonth(year, today.month)));
  return civilDateOf(anniversary + (persona.birthday_offset_days ?? 0) * 86_400_000);
}

/** Completed years between a birth date and the civil date of `now` (UTC). */
export function ageOn(birth: CivilDate, now: number): number {
  const today = civilDateOf(now);
  const hadBirthday = today.month > birth.month || (today.month === birth.month && today.day >= birth.day);
  return today.year - birth.year - (hadBirthday ? 0 : 1);
}

/**
 * Everything a persona proves at `now`.
 *
 * @example personaFacts(persona, deps.clock.now()).isAdult
 */
export function personaFacts(persona: Persona, now: number): PersonaFacts {
  const birth = birthDateOf(persona, now);
  const ageYears = ageOn(birth, now);
  return {
    ageYears,
    birthYear: birth.year,
    isAdult: ageYears >= ADULT_AGE,
    isFrench: persona.nationality === 'FRA',
    isEU: EU_MEMBER_STATES.has(persona.nationality),
    isMale: persona.sex === 'M',
    isFemale: persona.sex === 'F',
    nationality: persona.nationality,
  };
}

/**
 * What an approval proved: a persona proves every fact, an EUDI wallet of the age-verification
 * profile only isAdult (it is offered only for scopes exactly [isAdult], DESIGN §11).
 */
export type ProvenFacts = Pick<PersonaFacts, 'isAdult'> & Partial<PersonaFacts>;

function known<T>(value: T | undefined, scope: Scope): T {
  if (value === undefined) throw new Error(`${scope} requested but not proven`);
  return value;
}

/**
 * The attributes of the requested scopes only (minimal disclosure, DESIGN §5). The nullifier is
 * computed by the caller, and only when isUnique was requested.
 *
 * @example attributesOf(facts, ['isAdult', 'isUnique'], nullifier) // { age_over_18: true, nullifier: '0x…' }
 */
export function attributesOf(facts: ProvenFacts, scopes: readonly Scope[], nullifier: string | null): Attributes {
  const attributes: Attributes = {};
  for (const scope of scopes) {
    switch (scope) {
      case 'isAdult':
        attributes.age_over_18 = facts.isAdult;
        break;
      case 'isFrench':
        attributes.is_french = known(facts.isFrench, scope);
        break;
      case 'isEU':
        attributes.is_eu = known(facts.isEU, scope);
        break;
      case 'isMale':
        attributes.is_male = known(facts.isMale, scope);
        break;
      case 'isFemale':
        attributes.is_female = known(facts.isFemale, scope);
        break;
      case 'revealNationality':
        attributes.nationality = known(facts.nationality, scope);
        break;
      case 'revealBirthYear':
        attributes.birth_year = known(facts.birthYear, scope);
        break;
      case 'isUnique':
        if (nullifier === null) throw new Error('isUnique requested without a nullifier');
        attributes.nullifier = nullifier;
        break;
    }
  }
  return attributes;
}

/** @example findPersona(deps.personas, 'fr-minor')?.label */
export function findPersona(personas: readonly Persona[], id: unknown): Persona | null {
  return typeof id === 'string' ? (personas.find((p) => p.id === id) ?? null) : null;
}

/** What the phone page lists: id and label, nothing else. */
export function summarizePersonas(personas: readonly Persona[]): PersonaSummary[] {
  return personas.map(({ id, label }) => ({ id, label }));
}
