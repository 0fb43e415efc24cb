/**
 * The published rate limits (docs/sandbox-flow.md#lifetimes-and-limits), plus design.md §3's cap on unauthenticated
 * creates, counted in the store so that they hold across instances and restarts.
 */
import { ServiceError, TooManyRequestsError } from '../errors.ts';
import type { Store } from '../store/store.ts';

export interface RateLimitRule {
  readonly name: string;
  readonly max: number;
  readonly windowMs: number;
}

const MINUTE = 60_000;

export const RATE_LIMITS = {
  /** per request id, polls with the right poll token only; 429 RATE_LIMITED with Retry-After: 60 */
  verifyStatus: { name: 'verify-status', max: 30, windowMs: MINUTE },
  /**
   * per client address: status polls with a wrong token or an unknown id (an addition:
   * docs/operations.md#running-the-service, "Status polls")
   */
  verifyStatusMiss: { name: 'verify-status-miss', max: 60, windowMs: MINUTE },
  /** per client address (design.md §3, an addition: docs/decisions.md); every per-address rule keys by `addressKey` */
  widgetCreate: { name: 'widget-create', max: 120, windowMs: MINUTE },
  /**
   * per client address, the wallet routes together, the phone page's wallet-response included (design.md
   * §11, an addition: docs/decisions.md): a wallet answers once per verification, so this only stops one
   * address from making the service read and verify presentations without end; as many as widget
   * creates, for carrier-grade NAT
   */
  walletResponse: { name: 'wallet-response', max: 120, windowMs: MINUTE },
  /**
   * per client address: fetches of signed request objects (`GET /oid4vp/request/:id`, docs/design.md
   * §16): a wallet fetches once per verification; its own budget, so fetching never uses up answers
   */
  walletRequestObject: { name: 'wallet-request-object', max: 120, windowMs: MINUTE },
  /**
   * per client address: the done view's response_code redemptions (design.md §19); a visitor
   * redeems once per verification, and a 256-bit code cannot be guessed
   */
  phoneDone: { name: 'phone-done', max: 60, windowMs: MINUTE },
  /**
   * per client address: identity provider starts (docs/providers.md, "Limits"); each writes a
   * login state, so one address cannot fill the store with them
   */
  providerStart: { name: 'provider-start', max: 30, windowMs: MINUTE },
  /**
   * per verification request: its login states, capped. The window (5 minutes) is at least the
   * longest request lifetime (SVC_REQUEST_TTL_MS ≤ 300 s), so a request never holds more than 10;
   * the 11th start is refused (429), none dropped (docs/providers.md, "Limits")
   */
  providerStartPerRequest: { name: 'provider-start-request', max: 10, windowMs: 5 * MINUTE },
  /** per client address */
  partnerVerifyRequest: { name: 'partner-verify-request', max: 60, windowMs: MINUTE },
  partnerVerifyStatus: { name: 'partner-verify-status', max: 60, windowMs: MINUTE },
  /** before authentication, per client address */
  billingPreAuth: { name: 'billing-pre-auth', max: 30, windowMs: MINUTE },
  /** after authentication, per partner ID */
  billingPostAuth: { name: 'billing-post-auth', max: 100, windowMs: MINUTE },
} as const satisfies Record<string, RateLimitRule>;

/**
 * per session token: the requests one token may create within its 300 s life, the first and its
 * renewals (design.md §3); domain/create-request.ts counts it after its other checks, so a refused
 * create spends nothing, and telemetry/observed-store.ts counts its refusals as every rule's
 */
export const SESSION_TOKEN_LIMIT = {
  name: 'widget-create-session',
  max: 20,
  windowMs: 5 * MINUTE,
} as const satisfies RateLimitRule;

/**
 * Counts one hit of `key` under `rule`; over the limit throws the 429 of docs/sandbox-flow.md#lifetimes-and-limits:
 * `{error: "Too many requests"}` with Retry-After (seconds to the window's end).
 *
 * @example await enforceRateLimit(store, RATE_LIMITS.billingPreAuth, addressKey(request.ip), clock.now())
 */
export async function enforceRateLimit(store: Store, rule: RateLimitRule, key: string, now: number): Promise<void> {
  const hit = await store.hitCounter(`${rule.name}:${key}`, rule.windowMs, now);
  if (hit.count > rule.max) throw new TooManyRequestsError(Math.max(1, Math.ceil((hit.resetAt - now) / 1000)));
}

/**
 * verify-status's own 429 shape (RATE_LIMITED, Retry-After: 60; docs/sandbox-flow.md#lifetimes-and-limits),
 * per request.
 */
export async function enforceStatusRateLimit(store: Store, requestId: string, now: number): Promise<void> {
  const rule = RATE_LIMITS.verifyStatus;
  const hit = await store.hitCounter(`${rule.name}:${requestId}`, rule.windowMs, now);
  if (hit.count > rule.max) throw new ServiceError('RATE_LIMITED', { headers: { 'Retry-After': '60' } });
}

/** The same 429 for a client address that keeps presenting wrong poll tokens or unknown ids. */
export async function enforceStatusMissLimit(store: Store, addressKey: string, now: number): Promise<void> {
  const rule = RATE_LIMITS.verifyStatusMiss;
  const hit = await store.hitCounter(`${rule.name}:${addressKey}`, rule.windowMs, now);
  if (hit.count > rule.max) {
    throw new ServiceError('RATE_LIMITED', {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil((hit.resetAt - now) / 1000))) },
    });
  }
}
