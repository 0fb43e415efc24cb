/**
 * The long poll of one verification request (design.md §3, §7): asks the service until the request
 * settles, never more than once a second, and at most 30 times a minute while nothing changes (a
 * service at its long-poll cap answers at once, as wait=0: the widget then short-polls); backs off
 * after network errors (1 s, 2 s, 4 s … 30 s) and polls again at once when the page comes back; honours Retry-After; pauses while the page
 * is hidden.
 */
import { effect, type ReadonlySignal } from '../model/signals.ts';
import {
  MAX_WAIT_SECONDS,
  type FailReason,
  type RequestStatus,
  type VerifyRequestCreated,
  type VerifyResult,
} from '../../protocol/wire.ts';
import { sleep } from '../../shared/timeout.ts';
import { backoffMs, fetchStatus } from './status.ts';

/** The gap after an answer that changed nothing: 30 polls a minute (docs/sandbox-flow.md#lifetimes-and-limits). */
const UNCHANGED_GAP_MS = 2000;

/** How a request's long poll ended. */
export type Settled =
  | { status: 'completed'; result: VerifyResult }
  /** without a reason when the service gave none: failed, not cancelled */
  | { status: 'failed'; reason?: FailReason }
  /** expired on the service, unknown to it (404), or out of time on this device's clock */
  | { status: 'expired' };

export interface PollOptions {
  apiOrigin: string;
  /** whole seconds until the request expires, on this device's clock */
  secondsLeft(): number;
  /** true while the page is hidden */
  hidden: ReadonlySignal<boolean>;
  /** the request moved on without settling: `in_progress` once the visitor has opened it */
  onStatus(status: 'pending' | 'in_progress'): void;
}

/**
 * Polls `created` until it settles; undefined when `signal` aborted first.
 *
 * @example
 * const settled = await pollUntilSettled(created, signal, { apiOrigin, secondsLeft, hidden, onStatus });
 * if (settled?.status === 'completed') deliver(settled.result);
 */
export async function pollUntilSettled(
  created: VerifyRequestCreated,
  signal: AbortSignal,
  { apiOrigin, secondsLeft, hidden, onStatus }: PollOptions,
): Promise<Settled | undefined> {
  /** Wakes a sleep when the page comes back after having been hidden. */
  const whenShownAgain = (done: () => void): (() => void) => {
    let wasHidden = false;
    return effect(() => {
      if (hidden.value) wasHidden = true;
      else if (wasHidden) done();
    });
  };
  const whenVisible = (done: () => void): (() => void) =>
    effect(() => {
      if (!hidden.value) done();
    });

  const minGapMs = Math.max(1000, created.poll_after_ms || 0);
  let failures = 0;
  let lastPollAt = 0;
  let gapMs = minGapMs;
  let pauseMs = 0;
  let wakeOnShow = false;
  // Sent as `known`, so a change made during the one-second gap between polls is answered at once.
  let known: RequestStatus = 'pending';
  while (!signal.aborted) {
    await sleep(pauseMs, signal, wakeOnShow ? whenShownAgain : undefined);
    await sleep(lastPollAt + gapMs - Date.now(), signal); // never more than once a second
    await sleep(Infinity, signal, whenVisible); // paused while the page is hidden
    if (signal.aborted) return;
    if (secondsLeft() <= 0) return { status: 'expired' };
    lastPollAt = Date.now();
    const outcome = await fetchStatus(apiOrigin, created, signal, Math.min(MAX_WAIT_SECONDS, secondsLeft()), known);
    if (signal.aborted) return;
    pauseMs = outcome.retryAfterMs ?? 0;
    wakeOnShow = false;
    if (!outcome.status) {
      // a 429 waits as long as it says; a network error backs off, and the page coming back wakes it
      if (!pauseMs) {
        pauseMs = backoffMs(++failures);
        wakeOnShow = true;
      }
      continue;
    }
    failures = 0;
    const status = outcome.status;
    gapMs = status === known ? Math.max(minGapMs, UNCHANGED_GAP_MS) : minGapMs;
    known = status;
    if (status === 'pending' || status === 'in_progress') onStatus(status);
    // settled: completed (with its result), failed or expired
    else if (status !== 'completed' || outcome.result) return outcome as Settled;
  }
}
