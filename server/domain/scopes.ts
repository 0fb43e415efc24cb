/** Scope lists as a verification request accepts them (design.md §3). */
import { DEFAULT_SCOPES, findScopeProblem, type Scope } from '../../src/protocol/scopes.ts';
import { ServiceError } from '../errors.ts';

/**
 * The scopes a verification request asks for, validated; throws 400 INVALID_SCOPES. Absent means
 * [isAdult]; unknown, duplicate, isMale with isFemale, a scope the EUDI wallet can't prove in
 * client proof mode, or one outside the partner's `allowedScopes` (null: no restriction) are refused.
 *
 * @example readRequestScopes(body.scopes, body.client_proof_mode === true, partner.allowedScopes) // ['isAdult']
 */
export function readRequestScopes(
  value: unknown,
  clientProofMode: boolean,
  allowedScopes: readonly Scope[] | null,
): Scope[] {
  const scopes = value === undefined ? [...DEFAULT_SCOPES] : value;
  if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string')) {
    throw new ServiceError('INVALID_SCOPES', { cause: 'scopes must be an array of scope names' });
  }
  const problem = findScopeProblem(scopes, clientProofMode);
  if (problem) throw new ServiceError('INVALID_SCOPES', { cause: problem });
  if (allowedScopes && !scopes.every((s) => allowedScopes.includes(s as Scope))) {
    throw new ServiceError('INVALID_SCOPES', { cause: 'scope outside the partner allowed_scopes' });
  }
  return scopes as Scope[];
}
