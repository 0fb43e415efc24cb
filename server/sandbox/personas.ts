/**
 * Sandbox personas (fixtures/personas.json): the facts the phone "proves" about a test identity,
 * computed against the service clock so that "turns 18 today" stays true every day. Loaded in
 * sandbox mode only (deps.ts, which app.ts loads with import()); the facts rule itself is
 * rules/facts.ts.
 *
 * Dates are civil dates in UTC: a persona turns 18 at 00:00 UTC on their birthday.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Persona, PersonaSummary } from '../../src/protocol/sandbox.ts';
import {
  ageOn,
  civilDateOf,
  daysInMonth,
  factsFromClaims,
  formatCivilDate,
  parseCivilDate,
  type CivilDate,
  type IdentityClaims,
  type ProvenFacts,
} from '../rules/facts.ts';
import { PROJECT_ROOT } from '../paths.ts';

const PERSONAS_PATH = join(PROJECT_ROOT, 'fixtures', 'personas.json');

/** @example const personas = loadPersonas() */
export function loadPersonas(): Persona[] {
  return JSON.parse(readFileSync(PERSONAS_PATH, 'utf8')) as Persona[];
}

/** What a persona can prove, at one moment: every fact, and its age. */
export type PersonaFacts = Required<ProvenFacts> & { ageYears: number };

/**
 * The persona's birth date: `birth_date`, or `age_years` before today shifted by
 * `birthday_offset_days` (1: they turn that age tomorrow). Feb 29 in a common year becomes Feb 28.
 *
 * @example birthDateOf({ age_years: 18, birthday_offset_days: 1, … }, Date.UTC(2026, 0, 1)) // 2008-01-02
 */
export function birthDateOf(persona: Persona, now: number): CivilDate {
  if (persona.birth_date !== undefined) {
    const parsed = parseCivilDate(persona.birth_date);
    if (!parsed) throw new Error(`persona ${persona.id}: birth_date must be YYYY-MM-DD`);
    return parsed;
  }
  if (persona.age_years === undefined) throw new Error(`persona ${persona.id}: needs birth_date or age_years`);
  const today = civilDateOf(now);
  const year = today.year - persona.age_years;
  const anniversary = Date.UTC(year, today.month - 1, Math.min(today.day, daysInMonth(year, today.month)));
  return civilDateOf(anniversary + (persona.birthday_offset_days ?? 0) * 86_400_000);
}

/**
 * What a persona says about themselves at `now`, as an identity provider would say it: the same
 * claims the example provider serves, read by the same rule (rules/facts.ts).
 *
 * @example personaClaims(persona, now) // { birthdate: '1992-03-14', nationalities: ['FRA'], gender: 'male' }
 */
export function personaClaims(persona: Persona, now: number): Required<Omit<IdentityClaims, 'age_over_18'>> {
  return {
    birthdate: formatCivilDate(birthDateOf(persona, now)),
    nationalities: [persona.nationality],
    gender: persona.sex === 'M' ? 'male' : 'female',
  };
}

/**
 * Everything a persona proves at `now`, through the one facts rule.
 *
 * @example personaFacts(persona, deps.clock.now()).isAdult
 */
export function personaFacts(persona: Persona, now: number): PersonaFacts {
  const facts = factsFromClaims(personaClaims(persona, now), now);
  if (!provesEverything(facts)) throw new Error(`persona ${persona.id}: the facts rule left a fact unproven`);
  return { ...facts, ageYears: ageOn(birthDateOf(persona, now), now) };
}

const EVERY_FACT = ['isAdult', 'birthYear', 'isFrench', 'isEU', 'nationality', 'isMale', 'isFemale'] as const;

function provesEverything(facts: ProvenFacts): facts is Required<ProvenFacts> {
  return EVERY_FACT.every((fact) => facts[fact] !== undefined);
}

/** @example findPersona(deps.personas, 'fr-minor')?.label */
export function findPersona(personas: readonly Persona[], id: unknown): Persona | null {
  return typeof id === 'string' ? (personas.find((p) => p.id === id) ?? null) : null;
}

/** What the phone page lists: id and label, nothing else. */
export function summarizePersonas(personas: readonly Persona[]): PersonaSummary[] {
  return personas.map(({ id, label }) => ({ id, label }));
}
