import {
  MAX_WAIT_SECONDS,
  type RequestStatus,
  type VerifyRequestCreated,
  type VerifyStatus,
} from '../../protocol/api.ts';
import { withTimeout } from '../../shared/timeout.ts';

/** What one status call tells the poll loop. */
export type PollOutcome =
  | { kind: 'status'; status: VerifyStatus }
  /** 429: wait this long before the next call */
  | { kind: 'throttled'; retryAfterMs: number }
  /** 404: the request is unknown to the service (expired and purged, or never existed) */
  | { kind: 'gone' }
  /** network error, timeout or 5xx: back off and try again */
  | { kind: 'unreachable' };

/** The server answers a long poll within `wait` seconds; past this margin the connection is dead. */
const LONG_POLL_MARGIN_MS = 10_000;

/**
 * One long-poll call to `GET /api/w/verify-status/:id?pt=&wait=` (design.md §3). Never throws:
 * every failure is an outcome the poll loop knows how to wait for.
 *
 * @example
 * const outcome = await fetchStatus('https://widget.example', created, signal);
 * if (outcome.kind === 'status') console.log(outcome.status.status);
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
    if (response.ok) return { kind: 'status', status: (await response.json()) as VerifyStatus };
    if (response.status === 404) return { kind: 'gone' };
    if (response.status === 429) {
      const seconds = Number(response.headers.get('Retry-After'));
      // Spec (Limits): the status limit answers Retry-After: 60; without one, wait a full window.
      return { kind: 'throttled', retryAfterMs: (seconds > 0 ? seconds : 60) * 1000 };
    }
    return { kind: 'unreachable' };
  } catch {
    return { kind: 'unreachable' };
  } finally {
    timed.clear();
  }
}

/**
 * Delay before retry number `failures` (1-based) after a network error: 1 s, 2 s, 4 s … 30 s
 * (spec: Retry rules for callers).
 *
 * @example backoffMs(1) // 1000; backoffMs(6) // 30000
 */
export function backoffMs(failures: number): number {
  return Math.min(1000 * 2 ** Math.max(0, failures - 1), 30_000);
}
