/**
 * A verification finished at an identity provider (design.md §12): the phone page starts the login
 * for a request, the provider sends the visitor back to `{app_url}/m/callback`, and the request
 * completes as an approval of §4 with the provider's method, or fails with a reason.
 *
 *   start:    handoff → request open, provider enabled and proving the scopes → login state kept
 *             (digest of the state, sealed PKCE verifier and nonce, digest of the browser's login
 *             cookie, until the request's deadline) → pending → in_progress → authorization URL
 *   callback: state taken once → the same browser (its login cookie's digest) → provider's answer
 *             checked by the relying party →
 *             approved: grant or attestation | failed: cancelled, claims_missing, provider_error |
 *             refused (forged, replayed, mixed up): the request untouched
 *
 * Nothing here logs a code, state, nonce, token or claim; outcomes carry log-safe codes.
 */
import { timingSafeEqual } from 'node:crypto';
import { SealError } from '../crypto/master-key.ts';
import type { AppDeps } from '../deps.ts';
import { enforceRateLimit, RATE_LIMITS } from '../limits/rate-limits.ts';
import { ServiceError } from '../errors.ts';
import type { RelyingParty } from '../providers/relying-party.ts';
import type { Store, VerifyRequestRecord } from '../store/store.ts';
import { findForPhone, type PhoneHandoff } from './phone-handoff.ts';
import { provesAll } from './proving-methods.ts';
import { digestToken } from '../crypto/tokens.ts';
import { isOpenStatus } from '../rules/effective-status.ts';
import { approveRequest, assertActionable, EXPIRED_GRACE_MS, openRequest, settle } from './verify-requests.ts';

/** Where providers send the visitor back; each provider registers `{app_url}` + this. */
export const CALLBACK_PATH = '/m/callback';

/** The longest state a callback may carry; ours are 43 characters. */
const STATE_MAX_LENGTH = 128;

export type ProviderLoginDeps = Pick<AppDeps, 'store' | 'clock' | 'config' | 'nullifierKey' | 'blind'> & {
  relyingParty: RelyingParty;
};

export function callbackUrlOf(config: Pick<AppDeps['config'], 'appUrl'>): string {
  return `${config.appUrl}${CALLBACK_PATH}`;
}

/**
 * The phone chose a provider: keeps the login state, bound to the browser by `browserKey` (the
 * login cookie's value; only its digest is kept), and answers where to send the visitor and until
 * when the cookie must live (the request's deadline).
 * 404 NOT_FOUND (unknown request, wrong h), 409 ALREADY_FINISHED, 410 REQUEST_EXPIRED,
 * 400 INVALID_REQUEST (a provider that is unknown, disabled or does not prove the scopes),
 * 429 with Retry-After past a request's 10 starts (its login states capped), 503
 * SERVICE_UNAVAILABLE (the provider cannot be discovered).
 *
 * @example const { started, deadlineAt } = await startProviderLogin(deps, { requestId, handoffToken: body.h }, 'idp_example', cookie)
 */
export async function startProviderLogin(
  deps: ProviderLoginDeps,
  handoff: PhoneHandoff,
  providerId: string,
  browserKey: string,
): Promise<{ started: { authorization_url: string }; deadlineAt: number }> {
  const now = deps.clock.now();
  const record = await findForPhone(deps, handoff);
  assertActionable(record, now);
  const provider = await deps.store.getProvider(providerId);
  if (!provider || !provesAll(provider, record.scopes))
    throw new ServiceError('INVALID_REQUEST', {
      cause: 'the provider is unknown, disabled or cannot prove the scopes',
    });

  // after the handoff check: only the phone holding h can spend a request's starts
  await enforceRateLimit(deps.store, RATE_LIMITS.providerStartPerRequest, record.id, now);
  const start = await deps.relyingParty.startLogin(provider, {
    redirectUri: callbackUrlOf(deps.config),
    scopes: record.scopes,
    locale: record.locale,
  });
  await deps.store.putLoginState(
    {
      digest: digestToken(start.state),
      requestId: record.id,
      providerId: provider.id,
      codeVerifier: start.codeVerifier,
      nonce: start.nonce,
      browserDigest: digestToken(browserKey),
      expiresAt: record.deadlineAt,
    },
    now,
  );
  await openRequest(deps, record);
  return { started: { authorization_url: start.authorizationUrl }, deadlineAt: record.deadlineAt };
}

/** What the callback page shows; `code` is log-safe and never shown to the visitor. */
export type CallbackResult =
  | { kind: 'approved'; requestId: string; provider: string }
  | { kind: 'failed'; requestId: string; provider: string; reason: 'cancelled' | 'claims_missing' | 'provider_error' }
  /** unknown, used or expired state: nothing was touched */
  | { kind: 'unknown_state' }
  /** a state of ours, in a browser without the login cookie of the start: spent, nothing else touched */
  | { kind: 'other_browser' }
  /** a callback that fails a check: the request is left as it was */
  | { kind: 'refused'; requestId: string; provider: string; code: string }
  /** the request ended or expired meanwhile (another method finished it) */
  | { kind: 'finished'; requestId: string };

/** The one `state` of a callback URL, or null (absent, repeated or not a state of ours). */
function readState(callbackUrl: URL): string | null {
  const states = callbackUrl.searchParams.getAll('state');
  const state = states.length === 1 ? states[0]! : '';
  return state.length > 0 && state.length <= STATE_MAX_LENGTH ? state : null;
}

function isActionable(record: VerifyRequestRecord | null, now: number): record is VerifyRequestRecord {
  return record !== null && isOpenStatus(record.status) && now < record.deadlineAt;
}

/** True when `browserKey` is the login cookie whose digest the start kept. */
function isSameBrowser(browserDigest: string | undefined, browserKey: string | null): boolean {
  // a state kept before login cookies existed has no digest: it counts as another browser's
  if (browserKey === null || typeof browserDigest !== 'string') return false;
  const [kept, given] = [Buffer.from(browserDigest), Buffer.from(digestToken(browserKey))];
  return kept.length === given.length && timingSafeEqual(kept, given);
}

/**
 * The provider sent the visitor back: takes the login state once, checks the browser brought the
 * login cookie of the start (`browserKey`, null when absent), lets the relying party check the
 * answer, then completes or fails the request. Never throws for anything the caller sent.
 *
 * A state brought by another browser is spent all the same: the link a phone was given cannot be
 * finished elsewhere and then carried back.
 *
 * @example const result = await finishProviderLogin(deps, new URL(request.url, deps.config.appUrl), cookie)
 */
export async function finishProviderLogin(
  deps: ProviderLoginDeps,
  callbackUrl: URL,
  browserKey: string | null,
): Promise<CallbackResult> {
  const now = deps.clock.now();
  const state = readState(callbackUrl);
  const login = state === null ? null : await takeLoginState(deps.store, state, now);
  if (!login) return { kind: 'unknown_state' };
  if (!isSameBrowser(login.browserDigest, browserKey)) return { kind: 'other_browser' };

  const [record, provider] = await Promise.all([
    deps.store.getRequest(login.requestId, now),
    deps.store.getProvider(login.providerId),
  ]);
  if (!isActionable(record, now)) return { kind: 'finished', requestId: login.requestId };
  const at = { requestId: record.id, provider: provider?.name ?? login.providerId };
  if (!provider || !provesAll(provider, record.scopes)) {
    return { kind: 'refused', ...at, code: 'provider_withdrawn' };
  }

  const outcome = await deps.relyingParty.finishLogin(provider, {
    callbackUrl,
    redirectUri: callbackUrlOf(deps.config),
    expected: { state: state!, nonce: login.nonce, codeVerifier: login.codeVerifier },
    scopes: record.scopes,
    now,
  });
  try {
    if (outcome.outcome === 'approved') {
      await approveRequest(deps, record, { method: provider.method, subject: outcome.subject, facts: outcome.facts });
      return { kind: 'approved', ...at };
    }
    if (outcome.outcome === 'refused') return { kind: 'refused', ...at, code: outcome.code };
    await settle(deps.store, record, now, {
      status: 'failed',
      reason: outcome.reason,
      method: provider.method,
      expiresAt: now + EXPIRED_GRACE_MS,
    });
    return { kind: 'failed', ...at, reason: outcome.reason };
  } catch (error) {
    // Another method (a second phone, the wallet) finished the request meanwhile.
    if (error instanceof ServiceError && (error.code === 'ALREADY_FINISHED' || error.code === 'REQUEST_EXPIRED'))
      return { kind: 'finished', requestId: record.id };
    throw error;
  }
}

/** The login state, once; a state that cannot be opened (sealed under a retired key) reads as unknown. */
async function takeLoginState(store: Store, state: string, now: number) {
  try {
    return await store.takeLoginState(digestToken(state), now);
  } catch (error) {
    if (error instanceof SealError) return null;
    throw error;
  }
}
