import {
  MAX_WAIT_SECONDS,
  type RequestStatus,
  type VerifyRequestCreated,
  type VerifyStatus,
} from '../../protocol/wire.ts';
import { withTimeout } from '../../shared/timeout.ts';

/**
 * What one status call tells the poll loop: the status as the service sent it (a 404, a request
 * the service no longer knows, expired and purged or never existed, reads as `expired`); or no
 * status, with `retryAfterMs` after a 429 (wait that long), without it after a network error, a
 * timeout or a 5xx (back off and try again).
 */
export type PollOutcome = Partial<VerifyStatus> & { retryAfterMs?: number };

/** The server answers a long poll within `wait` seconds; past this margin the connection is dead. */
const LONG_POLL_MARGIN_MS = 10_000;

/**
 * One long-poll call to `GET /api/w/verify-status/:id?pt=&wait=` (design.md §3). Never throws:
 * every failure is an outcome the poll loop knows how to wait for.
 *
 * @example
 * const outcome = await fetchStatus('https://widget.example', created, signal);
 * if (outcome.status) console.log(outcome.status); // 'pending'
 */
export async function fetchStatus(
  apiOrigin: string,
  request: Pick<VerifyRequestCreated, 'request_id' | 'poll_token'>,
  signal: AbortSignal,
  waitSeconds: number = MAX_WAIT_SECONDS,
  /** the status the widget shows: the server answers at once if it has moved on */
  known?: RequestStatus,
): Promise<PollOutcome> {
  const url =
    `${apiOrigin}/api/w/verify-status/${encodeURIComponent(request.request_id)}` +
    `?pt=${encodeURIComponent(request.poll_token)}&wait=${waitSeconds}${known ? `&known=${known}` : ''}`;
  const timed = withTimeout(signal, waitSeconds * 1000 + LONG_POLL_MARGIN_MS);
  try {
    const response = await fetch(url, { credentials: 'omit', cache: 'no-store', signal: timed.signal });
    if (response.ok) return (await response.json()) as VerifyStatus;
    if (response.status === 404) return { status: 'expired' } as VerifyStatus;
    if (response.status === 429) {
      const seconds = Number(response.headers.get('Retry-After'));
      // The status limit answers Retry-After: 60 (docs/sandbox-flow.md#lifetimes-and-limits); without one, wait a
      // full window.
      return { retryAfterMs: (seconds > 0 ? seconds : 60) * 1000 };
    }
  } catch {
    // a network error or a timeout: unreachable, as a 5xx
  } finally {
    timed.clear();
  }
  return {};
}

/**
 * Delay before retry number `failures` (1-based) after a network error: 1 s, 2 s, 4 s … 30 s
 * (design.md §7).
 *
 * @example backoffMs(1) // 1000; backoffMs(6) // 30000
 */
export function backoffMs(failures: number): number {
  return Math.min(1000 * 2 ** Math.max(0, failures - 1), 30_000);
}
