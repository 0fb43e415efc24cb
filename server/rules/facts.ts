/**
 * Claims → facts → attributes: one rule for every way a person is verified (design.md §12), the
 * sandbox personas, the identity providers (server/providers/) and the wallet, so a fact means the
 * same thing whichever way it was proven.
 *
 * - `birthdate` (YYYY-MM-DD) → `isAdult` (the 18th birthday is on or before today, as civil dates
 *   in UTC) and `birthYear`. Born on 29 February: in a common year the birthday is 1 March (the
 *   day after 28 February), so an 18th birthday, always in a common year, is reached on 1 March.
 * - `age_over_18` (boolean) → `isAdult` as is, when no birthdate was given; with a birthdate it must
 *   agree with it.
 * - `nationalities` (uppercase ISO 3166-1 alpha-2 or alpha-3 codes) → `isFrench` and `isEU` (any of
 *   them), `nationality` (the first one listed, as alpha-3). A code that is not ISO 3166-1 makes the
 *   whole claim unusable rather than being skipped: skipping it could turn a true `isEU` into false.
 * - `gender` (`male` / `female`) → `isMale` / `isFemale`; another value proves both false.
 * - issuer + `sub` → the nullifier's user id (`providerSubject`).
 */
import type { Attributes } from '../../src/protocol/wire.ts';
import { SCOPE_FIELD, type Scope } from '../../src/protocol/scopes.ts';
import { ALPHA2_TO_ALPHA3 } from './country-codes.ts';

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

const ALPHA3_CODES: ReadonlySet<string> = new Set(Object.values(ALPHA2_TO_ALPHA3));

/**
 * What an identity source says about a person, named as OpenID Connect names the claims (Core §5.1;
 * `nationalities` from OpenID Connect for Identity Assurance). Every member is optional: a source
 * answers what it was asked.
 */
export interface IdentityClaims {
  /** `YYYY-MM-DD`; the year-only and `0000-MM-DD` forms of OpenID Connect are not enough here */
  birthdate?: string;
  /** a source's own answer to "18 or older", taken as is when no birthdate is given */
  age_over_18?: boolean;
  /** uppercase ISO 3166-1 alpha-2 or alpha-3 codes, most relevant first */
  nationalities?: readonly string[];
  /** `male` or `female`; any other value proves neither */
  gender?: string;
}

/** The claims a scope can be proven from. */
export type ClaimName = 'birthdate' | 'nationalities' | 'gender';

/**
 * What was proven about a person: a fact is present only when its claim was given. A persona
 * proves them all, an EUDI wallet of the age-verification profile only `isAdult`, a provider the
 * facts of the scopes it was asked for.
 */
export interface ProvenFacts {
  isAdult?: boolean;
  birthYear?: number;
  isFrench?: boolean;
  isEU?: boolean;
  /** ISO 3166-1 alpha-3 */
  nationality?: string;
  isMale?: boolean;
  isFemale?: boolean;
}

/** A claim whose value the rule cannot read: the source's answer is broken, not missing. */
export class InvalidClaimError extends Error {
  readonly claim: keyof IdentityClaims;
  constructor(claim: keyof IdentityClaims, reason: string) {
    super(`claim ${claim}: ${reason}`);
    this.name = 'InvalidClaimError';
    this.claim = claim;
  }
}

export interface CivilDate {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

/** The civil date (UTC) of an instant. */
export function civilDateOf(ms: number): CivilDate {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * A strict `YYYY-MM-DD` civil date, or null (no other form, no 31 April, no 29 February of a
 * common year).
 *
 * @example parseCivilDate('2008-02-29') // { year: 2008, month: 2, day: 29 }
 */
export function parseCivilDate(value: string): CivilDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/** @example formatCivilDate({ year: 2008, month: 2, day: 9 }) // '2008-02-09' */
export function formatCivilDate({ year, month, day }: CivilDate): string {
  const pad = (n: number, width: number): string => String(n).padStart(width, '0');
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/**
 * Completed years between a birth date and the civil date of `now` (UTC). A 29 February birthday
 * is reached on 1 March in a common year.
 *
 * @example ageOn({ year: 2008, month: 2, day: 29 }, Date.UTC(2026, 2, 1)) // 18
 */
export function ageOn(birth: CivilDate, now: number): number {
  const today = civilDateOf(now);
  const hadBirthday = today.month > birth.month || (today.month === birth.month && today.day >= birth.day);
  return today.year - birth.year - (hadBirthday ? 0 : 1);
}

/**
 * The alpha-3 code of an uppercase ISO 3166-1 alpha-2 or alpha-3 code, or null for anything else
 * (lower case, ICAO-only codes such as `D`, codes ISO never assigned).
 *
 * @example toAlpha3('FR') // 'FRA'
 */
export function toAlpha3(code: string): string | null {
  if (/^[A-Z]{2}$/.test(code)) return ALPHA2_TO_ALPHA3[code] ?? null;
  if (/^[A-Z]{3}$/.test(code)) return ALPHA3_CODES.has(code) ? code : null;
  return null;
}

function birthFacts(claims: IdentityClaims, now: number): Pick<ProvenFacts, 'isAdult' | 'birthYear'> {
  const { birthdate, age_over_18: ageOver18 } = claims;
  if (ageOver18 !== undefined && typeof ageOver18 !== 'boolean')
    throw new InvalidClaimError('age_over_18', 'not a boolean');
  if (birthdate === undefined) return ageOver18 === undefined ? {} : { isAdult: ageOver18 };
  const birth = typeof birthdate === 'string' ? parseCivilDate(birthdate) : null;
  if (birth === null) throw new InvalidClaimError('birthdate', 'not a YYYY-MM-DD date');
  const isAdult = ageOn(birth, now) >= ADULT_AGE;
  if (ageOver18 !== undefined && ageOver18 !== isAdult)
    throw new InvalidClaimError('age_over_18', 'contradicts the birthdate');
  return { isAdult, birthYear: birth.year };
}

function nationalityFacts(claims: IdentityClaims): Pick<ProvenFacts, 'isFrench' | 'isEU' | 'nationality'> {
  const { nationalities } = claims;
  if (nationalities === undefined) return {};
  if (!Array.isArray(nationalities)) throw new InvalidClaimError('nationalities', 'not an array');
  const codes = nationalities.map((code: unknown) => (typeof code === 'string' ? toAlpha3(code) : null));
  if (codes.includes(null)) throw new InvalidClaimError('nationalities', 'not ISO 3166-1 codes');
  const [first] = codes as string[];
  // An empty list says nothing: the facts stay unknown, as when the claim is absent.
  if (first === undefined) return {};
  return {
    isFrench: codes.includes('FRA'),
    isEU: codes.some((code) => EU_MEMBER_STATES.has(code!)),
    nationality: first,
  };
}

function genderFacts(claims: IdentityClaims): Pick<ProvenFacts, 'isMale' | 'isFemale'> {
  const { gender } = claims;
  if (gender === undefined) return {};
  if (typeof gender !== 'string') throw new InvalidClaimError('gender', 'not a string');
  return { isMale: gender === 'male', isFemale: gender === 'female' };
}

/**
 * The facts the given claims prove at `now`; a claim not given leaves its facts out. Throws
 * InvalidClaimError when a claim is given but unreadable.
 *
 * @example factsFromClaims({ birthdate: '1992-03-14', nationalities: ['FR'] }, now)
 * // { isAdult: true, birthYear: 1992, isFrench: true, isEU: true, nationality: 'FRA' }
 */
export function factsFromClaims(claims: IdentityClaims, now: number): ProvenFacts {
  return { ...birthFacts(claims, now), ...nationalityFacts(claims), ...genderFacts(claims) };
}

/** The fact each scope discloses (isUnique is a value computed from the subject, not a fact). */
export const FACT_OF_SCOPE: Readonly<Record<Scope, keyof ProvenFacts | null>> = {
  isAdult: 'isAdult',
  isFrench: 'isFrench',
  isEU: 'isEU',
  isMale: 'isMale',
  isFemale: 'isFemale',
  revealNationality: 'nationality',
  revealBirthYear: 'birthYear',
  isUnique: null,
};

/**
 * The claim each scope is proven from. isAdult asks for the birthdate (an `age_over_18` answer is
 * accepted in its place); isUnique needs only the subject, which every ID token carries.
 */
const CLAIM_OF_SCOPE: Readonly<Record<Scope, ClaimName | null>> = {
  isAdult: 'birthdate',
  revealBirthYear: 'birthdate',
  isFrench: 'nationalities',
  isEU: 'nationalities',
  revealNationality: 'nationalities',
  isMale: 'gender',
  isFemale: 'gender',
  isUnique: null,
};

/**
 * The claims to ask a source for, to prove these scopes and nothing more.
 *
 * @example claimsForScopes(['isAdult', 'isEU', 'isUnique']) // ['birthdate', 'nationalities']
 */
export function claimsForScopes(scopes: readonly Scope[]): ClaimName[] {
  const claims = new Set<ClaimName>();
  for (const scope of scopes) {
    const claim = CLAIM_OF_SCOPE[scope];
    if (claim !== null) claims.add(claim);
  }
  return [...claims];
}

/**
 * The requested scopes these facts leave unproven (isUnique never: it needs only a subject).
 *
 * @example unprovenScopes({ isAdult: true }, ['isAdult', 'isFrench']) // ['isFrench']
 */
export function unprovenScopes(facts: ProvenFacts, scopes: readonly Scope[]): Scope[] {
  return scopes.filter((scope) => {
    const fact = FACT_OF_SCOPE[scope];
    return fact !== null && facts[fact] === undefined;
  });
}

/**
 * Only the facts the requested scopes disclose: what a source said beyond them is dropped before
 * anything is stored (minimal disclosure, design.md §8).
 *
 * @example pickFacts({ isAdult: true, birthYear: 1992 }, ['isAdult']) // { isAdult: true }
 */
export function pickFacts(facts: ProvenFacts, scopes: readonly Scope[]): ProvenFacts {
  const picked: Record<string, unknown> = {};
  for (const scope of scopes) {
    const fact = FACT_OF_SCOPE[scope];
    if (fact !== null && facts[fact] !== undefined) picked[fact] = facts[fact];
  }
  return picked as ProvenFacts;
}

/**
 * The nullifier's user id (design.md §5) of a person an identity provider knows as `sub`: the issuer
 * is percent-encoded (so it holds no `|`) and comes first, so two providers' subjects never give
 * the same id, and none looks like a sandbox persona id.
 *
 * @example providerSubject('https://id.example', '248289761001') // 'oidc|https%3A%2F%2Fid.example|248289761001'
 */
export function providerSubject(issuer: string, sub: string): string {
  return `oidc|${encodeURIComponent(issuer)}|${sub}`;
}

/**
 * The attributes of the requested scopes only (minimal disclosure, design.md §5), each scope's fact
 * under its field (src/protocol/scopes.ts SCOPE_FIELD). The nullifier is computed by the caller,
 * and only when isUnique was requested.
 *
 * @example attributesOf(facts, ['isAdult', 'isUnique'], nullifier) // { age_over_18: true, nullifier: '0x…' }
 */
export function attributesOf(facts: ProvenFacts, scopes: readonly Scope[], nullifier: string | null): Attributes {
  const attributes: Record<string, unknown> = {};
  for (const scope of scopes) {
    const fact = FACT_OF_SCOPE[scope];
    const value = fact === null ? nullifier : facts[fact];
    if (value === undefined || value === null)
      throw new Error(fact === null ? `${scope} requested without a nullifier` : `${scope} requested but not proven`);
    attributes[SCOPE_FIELD[scope]] = value;
  }
  return attributes as Attributes;
}
