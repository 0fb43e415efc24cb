/**
 * Creating a verification request (design.md §3), for its three callers: the loader with a partner
 * ID (STANDARD), the loader with a session token (ADULT_BLIND), and a signed partner call (the
 * /api/partner/* variant). The route has read the body's shape; these make the checks that need
 * the partner, the token, the Origin or the store, each in the order its comment lists.
 */
import type { Locale } from '../../src/protocol/wire.ts';
import { findScopeProblem, scopesOfMask } from '../../src/protocol/scopes.ts';
import { originHash } from '../crypto/blind.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError, TooManyRequestsError } from '../errors.ts';
import { SESSION_TOKEN_LIMIT } from '../limits/rate-limits.ts';
import type { PartnerRecord } from '../store/store.ts';
import { PARTNER_ID_PATTERN } from './partners.ts';
import { requireProvingMethod } from './proving-methods.ts';
import { readRequestScopes } from './scopes.ts';
import { createVerifyRequest, type CreatedRequest } from './verify-requests.ts';

/** What the caller chose besides who it is. */
export interface RequestChoices {
  clientProofMode: boolean;
  locale: Locale;
}

/** The console line of a private partner's page without its context (docs/embedding.md#warnings). */
export const MISSING_REDEMPTION_CONTEXT =
  'data-redemption-context is missing: this partner takes private attestations, ' +
  'each page needs a fresh context (docs/adult-blind.md#private-attestations)';

/**
 * The commands that register a page's origin, as printed in its console (docs/embedding.md#warnings):
 * run from a checkout as written (`npm run svc --`; `svc` itself is on PATH only once installed).
 *
 * @example updateDomainCommand('pk_test_demo', 'https://shop.example')
 * // 'npm run svc -- partners update pk_test_demo --domain https://shop.example'
 */
export const updateDomainCommand = (partnerId: string, origin: string): string =>
  `npm run svc -- partners update ${partnerId} --domain ${origin}`;

/** @example addPartnerCommand('https://shop.example') // 'npm run svc -- partners add --domain https://shop.example --rail standard' */
export const addPartnerCommand = (origin: string): string =>
  `npm run svc -- partners add --domain ${origin} --rail standard`;

/** The Origin header when it is an http(s) origin worth echoing into a command, else null. */
function pageOrigin(origin: string | null): string | null {
  if (!origin) return null;
  try {
    const url = new URL(origin);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === origin ? origin : null;
  } catch {
    return null;
  }
}

/** A partner on the STANDARD rail, the only one that may name itself by partner ID. */
export type StandardPartner = PartnerRecord & { rail: 'standard' };

type CreateDeps = Pick<AppDeps, 'store' | 'clock' | 'config' | 'wallet'>;

/**
 * The partner itself when it is on the STANDARD rail; 403 FORBIDDEN_RAIL otherwise (an
 * ADULT_BLIND partner must use a session token: a partner ID would put it on the verifier path).
 *
 * @example const partner = standardPartnerOf(request.partner)
 */
export function standardPartnerOf(partner: PartnerRecord): StandardPartner {
  if (partner.rail !== 'standard') {
    throw new ServiceError('FORBIDDEN_RAIL', {
      message: 'This partner is on the ADULT_BLIND rail: use a session token, not a partner ID.',
      cause: 'adult_blind partner used a partner id',
    });
  }
  return partner as StandardPartner;
}

/**
 * The loader's STANDARD request: the scope list is checked first, then the partner (403
 * INVALID_PARTNER, FORBIDDEN_RAIL), the Origin (403 ORIGIN_NOT_ALLOWED), the partner's
 * allowed_scopes (400 INVALID_SCOPES), and last whether an enabled method can prove the scopes
 * (400 NO_METHOD, proving-methods.ts).
 *
 * @example await createWithPartnerId(deps, { partnerId: 'pk_test_demo', origin, scopes: body.scopes, clientProofMode, locale })
 */
export async function createWithPartnerId(
  deps: CreateDeps,
  input: RequestChoices & { partnerId: string; origin: string | null; scopes: unknown },
): Promise<CreatedRequest> {
  const requested = readRequestScopes(input.scopes, input.clientProofMode, null);
  const found = PARTNER_ID_PATTERN.test(input.partnerId) ? await deps.store.getPartner(input.partnerId) : null;
  if (!found) {
    const error = new ServiceError('INVALID_PARTNER', { cause: 'unknown partner id' });
    const origin = pageOrigin(input.origin);
    if (origin) error.warnings = [`no partner has this id: ${addPartnerCommand(origin)}`];
    throw error;
  }
  const partner = standardPartnerOf(found);
  if (input.origin !== partner.domain) {
    const error = new ServiceError('ORIGIN_NOT_ALLOWED', {
      cause: 'origin is not the registered domain',
      origin: input.origin,
    });
    const origin = pageOrigin(input.origin);
    if (origin)
      error.warnings = [`${origin} is not ${partner.id}'s domain: ${updateDomainCommand(partner.id, origin)}`];
    throw error;
  }
  const scopes = readRequestScopes(requested, input.clientProofMode, partner.allowedScopes);
  const { clientProofMode, locale } = input;
  const walletFormats = partner.walletFormats ?? null;
  const methods = await requireProvingMethod(deps, { scopes, clientProofMode, channel: 'widget', walletFormats });
  return createVerifyRequest(
    deps,
    {
      rail: 'standard',
      partnerId: partner.id,
      scopes,
      clientProofMode,
      locale,
      methods,
      walletFormats,
      audienceLabel: partner.name,
    },
    { channel: 'widget', pageOrigin: partner.domain },
  );
}

/**
 * The loader's ADULT_BLIND request: the session token (401 SESSION_INVALID), the Origin against
 * its origin_hash (403 ORIGIN_NOT_ALLOWED), its scopes (400 INVALID_SCOPES), a method that can
 * prove them (400 NO_METHOD), then at most SESSION_TOKEN_LIMIT.max per token (429). The token's scopes apply; the record never names
 * the partner (design.md §8).
 *
 * @example await createWithSessionToken(deps, { sessionToken: body.session_token, origin, clientProofMode, locale })
 */
export async function createWithSessionToken(
  deps: CreateDeps & Pick<AppDeps, 'blind'>,
  input: RequestChoices & {
    sessionToken: string;
    origin: string | null;
    /**
     * whether the page carries data-redemption-context, from the loader's attribute names;
     * undefined when the loader sent none (docs/embedding.md#warnings)
     */
    redemptionContext?: boolean;
  },
): Promise<CreatedRequest> {
  const claims = await deps.blind.verifySessionToken(input.sessionToken);
  // docs/adult-blind.md#private-attestations: a private token is blinded for the page's context;
  // a page without one could only end in a redirect its partner refuses, so it is refused here.
  if (claims.attestation === 'private' && input.redemptionContext === false) {
    const error = new ServiceError('INVALID_REQUEST', {
      cause: 'the partner takes private attestations and the page has no data-redemption-context',
    });
    error.warnings = [MISSING_REDEMPTION_CONTEXT];
    throw error;
  }
  if (input.origin === null || originHash(input.origin) !== claims.origin_hash) {
    throw new ServiceError('ORIGIN_NOT_ALLOWED', {
      cause: 'origin does not hash to the session origin_hash',
      origin: input.origin,
    });
  }
  const scopes = scopesOfMask(claims.scope_mask);
  const problem = findScopeProblem(scopes, input.clientProofMode);
  if (problem) throw new ServiceError('INVALID_SCOPES', { cause: `session token scopes: ${problem}` });
  // Before the token's counter: a refusal stores nothing.
  const methods = await requireProvingMethod(deps, {
    scopes,
    clientProofMode: input.clientProofMode,
    channel: 'widget',
  });
  const uses = await deps.store.hitCounter(
    `${SESSION_TOKEN_LIMIT.name}:${claims.jti}`,
    SESSION_TOKEN_LIMIT.windowMs,
    deps.clock.now(),
  );
  if (uses.count > SESSION_TOKEN_LIMIT.max) {
    const retryAfterSeconds = Math.max(1, Math.ceil((uses.resetAt - deps.clock.now()) / 1000));
    throw new TooManyRequestsError(retryAfterSeconds, { cause: 'session token reused too often' });
  }
  return createVerifyRequest(
    deps,
    {
      rail: 'adult_blind',
      appId: claims.app_id,
      originHash: claims.origin_hash,
      sessionJti: claims.jti,
      privateAttestation: claims.attestation === 'private',
      scopes,
      clientProofMode: input.clientProofMode,
      locale: input.locale,
      methods,
    },
    { channel: 'widget', pageOrigin: input.origin },
  );
}

/**
 * A signed partner's request (400 INVALID_SCOPES outside its allowed_scopes, then 400 NO_METHOD
 * when no enabled method can prove them: the wallet is offered to loader-created requests only).
 * Its result opens with the partner's result-reader key, not a poll token: the partner polls
 * with its signature.
 *
 * @example await createForSignedPartner(deps, standardPartnerOf(request.partner!), { scopes: body.scopes, clientProofMode, locale })
 */
export async function createForSignedPartner(
  deps: CreateDeps & Pick<AppDeps, 'resultReader'>,
  partner: StandardPartner,
  input: RequestChoices & { scopes: unknown },
): Promise<CreatedRequest> {
  const scopes = readRequestScopes(input.scopes, input.clientProofMode, partner.allowedScopes);
  const { clientProofMode, locale } = input;
  const methods = await requireProvingMethod(deps, { scopes, clientProofMode, channel: 'partner' });
  return createVerifyRequest(
    deps,
    {
      rail: 'standard',
      partnerId: partner.id,
      scopes,
      clientProofMode,
      locale,
      methods,
      audienceLabel: partner.name,
    },
    { channel: 'partner', readerKey: deps.resultReader.keyFor(partner.id) },
  );
}
