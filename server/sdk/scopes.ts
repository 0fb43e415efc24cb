/**
 * Scope names and the rules a scope list must follow, as design.md §3 and
 * the service (INVALID_SCOPES, for `data-scopes` too) check them: a partner can refuse a bad list
 * before it reaches a page or `createVerifyRequest`. Copied from the service's protocol; `types.test.ts` keeps them equal.
 */
import type { Attributes, Scope } from './types.ts';

export const SCOPES: readonly Scope[] = [
  'isAdult',
  'isFrench',
  'isEU',
  'isMale',
  'isFemale',
  'isUnique',
  'revealNationality',
  'revealBirthYear',
];

/** The field of `attributes` each scope fills (docs/partner-api.md: `attributes`). */
export const SCOPE_FIELD = {
  isAdult: 'age_over_18',
  isFrench: 'is_french',
  isEU: 'is_eu',
  isMale: 'is_male',
  isFemale: 'is_female',
  isUnique: 'nullifier',
  revealNationality: 'nationality',
  revealBirthYear: 'birth_year',
} as const satisfies Record<Scope, keyof Attributes>;

/** Scopes usable with `clientProofMode` (EUDI wallet). */
export const WALLET_SCOPES: readonly Scope[] = ['isAdult', 'isFrench', 'isEU', 'isUnique'];

export type ScopeProblem = 'EMPTY' | 'UNKNOWN_SCOPE' | 'DUPLICATE_SCOPE' | 'MALE_AND_FEMALE' | 'NOT_WALLET_COMPATIBLE';

/** @example isScope('isAdult') // true; isScope('isOld') // false */
export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/**
 * Why a scope list would be refused, or null when it is acceptable.
 *
 * @example findScopeProblem(['isMale', 'isFemale'], false) // 'MALE_AND_FEMALE'
 */
export function findScopeProblem(scopes: readonly string[], clientProofMode: boolean): ScopeProblem | null {
  if (scopes.length === 0) return 'EMPTY';
  if (!scopes.every(isScope)) return 'UNKNOWN_SCOPE';
  if (new Set(scopes).size !== scopes.length) return 'DUPLICATE_SCOPE';
  if (scopes.includes('isMale') && scopes.includes('isFemale')) return 'MALE_AND_FEMALE';
  if (clientProofMode && !scopes.every((s) => WALLET_SCOPES.includes(s as Scope))) return 'NOT_WALLET_COMPATIBLE';
  return null;
}
