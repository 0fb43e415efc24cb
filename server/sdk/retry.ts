/**
 * The retry rules for callers: 429 is transient; honour
 * Retry-After, else back off exponentially with jitter (doubling from 1 s, never above 30 s); at
 * most 3 attempts, so 1 s then 2 s by default (docs/partner-api.md#the-partner-sdk-serversdk);
 * never retry 400, 401 or 403.
 */

export interface RetryPolicy {
  /** attempts in all, first included; at most 3 */
  readonly maxAttempts: number;
  /** delay before the first retry, doubled for each next one */
  readonly baseDelayMs: number;
  /** no computed delay exceeds this */
  readonly maxDelayMs: number;
  /** a Retry-After longer than this is not waited for: the call fails at once instead */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxAttempts: 3,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
});

/** How far jitter moves a backoff delay either way (±20 %), so that clients spread out. */
const JITTER = 0.2;

/**
 * Parses Retry-After (delta seconds or an HTTP date) into ms from `nowMs`; null when absent or
 * unreadable.
 *
 * @example parseRetryAfterMs('2', Date.now()) // 2000
 */
export function parseRetryAfterMs(value: string | null | undefined, nowMs: number): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its day and month; Date.parse alone would read "-5" as a year.
  const date = /^[A-Za-z]{3}, /.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

/**
 * The wait before retry number `retry` (1 for the first retry): Retry-After when the server
 * sent one, else `baseDelayMs · 2^(retry-1)` ± 20 % jitter, capped at `maxDelayMs`.
 * null means "do not retry" (Retry-After beyond `maxRetryAfterMs`).
 *
 * @example retryDelayMs(1, null, DEFAULT_RETRY_POLICY, () => 0.5) // 1000
 */
export function retryDelayMs(
  retry: number,
  retryAfterMs: number | null,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  random: () => number = Math.random,
): number | null {
  if (retryAfterMs !== null) return retryAfterMs > policy.maxRetryAfterMs ? null : retryAfterMs;
  const exponential = policy.baseDelayMs * 2 ** (retry - 1);
  const jittered = exponential * (1 - JITTER + 2 * JITTER * random());
  return Math.round(Math.min(policy.maxDelayMs, jittered));
}

/** A promise-returning sleep; tests inject one that records the delays and returns at once. */
export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
