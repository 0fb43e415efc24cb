/**
 * The billing session (design.md §5, §8; docs/adult-blind.md#getting-a-session-token-every-page-load):
 * an ADULT_BLIND partner's backend asks for a session token the widget then presents. This is the
 * only use case that reads the partner → blind_app_id mapping: the token names the app and the
 * origin hash, never the partner.
 */
import { LIMITS, type BillingSessionCreated } from '../../src/protocol/wire.ts';
import { BLIND_SCOPES, scopeMaskOf, type BlindScope } from '../../src/protocol/scopes.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import type { PartnerRecord } from '../store/store.ts';
import { isOrigin } from '../rules/urls.ts';

/** A partner that may open billing sessions, with the blind app its tokens name. */
export interface BillingApp {
  partner: PartnerRecord;
  blindAppId: string;
}

/**
 * The partner's billing app: 403 FORBIDDEN_RAIL off the ADULT_BLIND rail, 400
 * MISSING_BLIND_APP_ID without a blind app. Checked before the body, so a misconfigured
 * organization learns that first, whatever it sent.
 *
 * @example const app = billingAppOf(request.partner!)
 */
export function billingAppOf(partner: PartnerRecord): BillingApp {
  if (partner.rail !== 'adult_blind') throw new ServiceError('FORBIDDEN_RAIL', { cause: `rail ${partner.rail}` });
  if (!partner.blindAppId) throw new ServiceError('MISSING_BLIND_APP_ID');
  return { partner, blindAppId: partner.blindAppId };
}

/**
 * The scopes a billing session asks for, validated; throws INVALID_SCOPES.
 *
 * @example readBlindScopes(undefined, partner) // ['isAdult']
 */
export function readBlindScopes(value: unknown, partner: Pick<PartnerRecord, 'allowedScopes'>): BlindScope[] {
  if (value === undefined) return ['isAdult'];
  if (!Array.isArray(value) || value.length === 0)
    throw new ServiceError('INVALID_SCOPES', { cause: 'scopes must be a non-empty array' });
  if (!value.every((s): s is BlindScope => typeof s === 'string' && (BLIND_SCOPES as readonly string[]).includes(s))) {
    throw new ServiceError('INVALID_SCOPES', { cause: 'a scope is not one of isAdult, isFrench, isEU, isUnique' });
  }
  if (new Set(value).size !== value.length) throw new ServiceError('INVALID_SCOPES', { cause: 'duplicate scope' });
  if (partner.allowedScopes && !value.every((s) => partner.allowedScopes!.includes(s))) {
    throw new ServiceError('INVALID_SCOPES', { cause: 'scope outside the partner allowed_scopes' });
  }
  return value;
}

/**
 * Issues a session token (300 s) for the body's `origin` and `scopes`: 400 MISSING_ORIGIN when
 * the origin is absent, null or ""; 403 ORIGIN_NOT_ALLOWED when it is not an origin or not the
 * partner's registered domain; 400 INVALID_SCOPES (absent: [isAdult]).
 *
 * @example await createBillingSession(deps, billingAppOf(partner), { origin: 'https://shop.example', scopes: ['isAdult'] })
 */
export async function createBillingSession(
  deps: Pick<AppDeps, 'blind'>,
  app: BillingApp,
  input: { origin: unknown; scopes: unknown },
): Promise<BillingSessionCreated> {
  const { origin } = input;
  if (origin === undefined || origin === null || origin === '') throw new ServiceError('MISSING_ORIGIN');
  if (typeof origin !== 'string' || !isOrigin(origin))
    throw new ServiceError('ORIGIN_NOT_ALLOWED', { cause: 'origin is not an origin' });
  if (origin !== app.partner.domain)
    throw new ServiceError('ORIGIN_NOT_ALLOWED', { cause: 'origin differs from the registered domain' });
  const scopes = readBlindScopes(input.scopes, app.partner);
  const attestation = app.partner.attestation ?? null;
  // A private attestation is issued only for a proven isAdult and carries no nullifier, which
  // would link the visits it is meant to keep apart (docs/adult-blind.md#private-attestations, docs/privacy.md).
  if (attestation === 'private' && (!scopes.includes('isAdult') || scopes.includes('isUnique')))
    throw new ServiceError('INVALID_SCOPES', { cause: 'private attestations need isAdult and cannot carry isUnique' });
  const scopeMask = scopeMaskOf(scopes);
  const { token } = await deps.blind.issueSessionToken({ appId: app.blindAppId, origin, scopeMask, attestation });
  return { token, expires_in: LIMITS.sessionTokenTtlSeconds };
}
