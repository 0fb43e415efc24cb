import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors.ts';
import { readRequestScopes } from './scopes.ts';

function refusal(run: () => unknown): { code: string; cause: unknown } {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError) return { code: error.code, cause: error.cause };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('readRequestScopes', () => {
  it('defaults to isAdult when no scopes are given', () => {
    expect(readRequestScopes(undefined, false, null)).toEqual(['isAdult']);
  });

  it('accepts every scope outside client proof mode and the wallet scopes inside it', () => {
    expect(readRequestScopes(['isAdult', 'isMale', 'revealNationality', 'revealBirthYear'], false, null)).toHaveLength(
      4,
    );
    expect(readRequestScopes(['isAdult', 'isFrench', 'isEU', 'isUnique'], true, null)).toHaveLength(4);
  });

  it.each([
    ['an unknown scope', ['isAdult', 'isTall'], false, 'UNKNOWN_SCOPE'],
    ['a duplicate', ['isAdult', 'isAdult'], false, 'DUPLICATE_SCOPE'],
    ['isMale with isFemale', ['isMale', 'isFemale'], false, 'MALE_AND_FEMALE'],
    ['a scope the wallet cannot prove', ['isAdult', 'revealBirthYear'], true, 'NOT_WALLET_COMPATIBLE'],
    ['an empty list', [], false, 'EMPTY'],
  ])('refuses %s with INVALID_SCOPES', (_label, scopes, clientProofMode, cause) => {
    expect(refusal(() => readRequestScopes(scopes, clientProofMode, null))).toEqual({ code: 'INVALID_SCOPES', cause });
  });

  it('refuses a list that is not an array of strings with INVALID_SCOPES', () => {
    for (const value of ['isAdult', null, 42, [1], {}])
      expect(refusal(() => readRequestScopes(value, false, null)).code).toBe('INVALID_SCOPES');
  });

  it('restricts to the partner allowed_scopes', () => {
    expect(readRequestScopes(['isAdult'], false, ['isAdult'])).toEqual(['isAdult']);
    expect(refusal(() => readRequestScopes(['isAdult', 'isFrench'], false, ['isAdult'])).code).toBe('INVALID_SCOPES');
  });
});
