/**
 * Scope names and what each one proves (docs/providers.md#what-a-provider-learns-and-what-it-does-not,
 * scope → fact), and pure checks on them (a scope list's problem: design.md §3; the blind rail's
 * scope bits: design.md §5). No DOM and no node: the widget, the server and the SDK all import it.
 */

export const SCOPES = [
  'isAdult',
  'isFrench',
  'isEU',
  'isMale',
  'isFemale',
  'isUnique',
  'revealNationality',
  'revealBirthYear',
] as const;

export type Scope = (typeof SCOPES)[number];

/**
 * Result field in `attributes` for each scope (docs/partner-api.md: `attributes`; the fact column
 * of docs/providers.md#what-a-provider-learns-and-what-it-does-not): the one scope → field rule.
 * The Attributes type (wire.ts), the grant's attributes (server/rules/facts.ts), what an exchange
 * discloses and the partner API's schema are derived from it; the SDK keeps a copy
 * that server/sdk/types.test.ts checks.
 */
export const SCOPE_FIELD = {
  isAdult: 'age_over_18',
  isFrench: 'is_french',
  isEU: 'is_eu',
  isMale: 'is_male',
  isFemale: 'is_female',
  isUnique: 'nullifier',
  revealNationality: 'nationality',
  revealBirthYear: 'birth_year',
} as const satisfies Record<Scope, string>;

/** A field of `attributes` that a scope fills. */
export type AttributeField = (typeof SCOPE_FIELD)[Scope];

/** The JSON type of each attribute's value, every field of SCOPE_FIELD once (the compiler checks). */
export const ATTRIBUTE_TYPE = {
  age_over_18: 'boolean',
  is_male: 'boolean',
  is_female: 'boolean',
  is_french: 'boolean',
  is_eu: 'boolean',
  nationality: 'string',
  birth_year: 'integer',
  nullifier: 'string',
} as const satisfies Record<AttributeField, 'boolean' | 'string' | 'integer'>;

/** Scopes usable when `data-client-proof-mode` is true (EUDI wallet). */
export const WALLET_SCOPES: readonly Scope[] = ['isAdult', 'isFrench', 'isEU', 'isUnique'];

/** Scopes the billing-session endpoint (ADULT_BLIND rail) accepts, in scope_mask bit order. */
export const BLIND_SCOPES = ['isAdult', 'isFrench', 'isEU', 'isUnique'] as const;
export type BlindScope = (typeof BLIND_SCOPES)[number];

/** Attestation / session-token scope_mask bits: bit 0 isAdult, 1 isFrench, 2 isEU, 3 isUnique. */
export const SCOPE_BIT: Readonly<Record<BlindScope, number>> = {
  isAdult: 1,
  isFrench: 2,
  isEU: 4,
  isUnique: 8,
};

export const DEFAULT_SCOPES: readonly Scope[] = ['isAdult'];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** Why a scope list is not acceptable, or null when it is. */
export function findScopeProblem(
  scopes: readonly string[],
  clientProofMode: boolean,
): 'EMPTY' | 'UNKNOWN_SCOPE' | 'DUPLICATE_SCOPE' | 'MALE_AND_FEMALE' | 'NOT_WALLET_COMPATIBLE' | null {
  if (scopes.length === 0) return 'EMPTY';
  if (!scopes.every(isScope)) return 'UNKNOWN_SCOPE';
  if (new Set(scopes).size !== scopes.length) return 'DUPLICATE_SCOPE';
  if (scopes.includes('isMale') && scopes.includes('isFemale')) return 'MALE_AND_FEMALE';
  if (clientProofMode && !scopes.every((s) => WALLET_SCOPES.includes(s as Scope))) {
    return 'NOT_WALLET_COMPATIBLE';
  }
  return null;
}

export function scopeMaskOf(scopes: readonly BlindScope[]): number {
  return scopes.reduce((mask, s) => mask | SCOPE_BIT[s], 0);
}

export function scopesOfMask(mask: number): BlindScope[] {
  return BLIND_SCOPES.filter((s) => (mask & SCOPE_BIT[s]) !== 0);
}
