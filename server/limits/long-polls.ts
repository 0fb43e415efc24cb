/**
 * Caps on concurrent long polls (docs/operations.md#several-instances-redis, "The long-poll caps"):
 * each waiting poll holds a socket and a waiter. Past a cap a poll is not refused: it is answered
 * at once with the current status, exactly as `wait=0`, and the widget slows its polling to stay
 * inside its 30 a minute (docs/sandbox-flow.md#lifetimes-and-limits).
 *
 * - Per address (`perAddress`, default 100: many visitors share one address behind carrier-grade
 *   NAT): one budget across every instance on the store, like the rate limits (design.md §10). Each
 *   waiting poll holds a slot in the store until it is answered; a slot an instance never gave
 *   back (it crashed) stops counting when the longest wait it covered is over.
 * - Per instance (`total`, default 20,000): counted in this process, because what it protects
 *   (this instance's sockets and memory) is its own, whatever the others hold.
 *
 * On shutdown (`stop()`, SIGTERM) every waiting poll is answered at once with its current status
 * and no new one waits: the widget polls again and reaches another instance.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Clock } from '../clock.ts';
import type { Store } from '../store/store.ts';

/**
 * How long past its wait a slot is held at most: the poll's own re-read and answer after the
 * wait. A slot is given back as soon as the poll is answered; this margin only matters when the
 * instance died holding it.
 */
export const SLOT_MARGIN_MS = 5_000;

export interface LongPollGate {
  /**
   * A release function when a poll from `addressKey` may wait up to `waitMs`, or null when a cap
   * is reached (answer at once). Rejects as the store does (StoreUnavailableError: 503).
   */
  enter(addressKey: string, waitMs: number): Promise<(() => void) | null>;
  /** polls this instance holds now */
  readonly waiting: number;
  /** aborts when the instance stops: every waiting poll answers at once (design.md §10, SIGTERM) */
  readonly stopping: AbortSignal;
  /** answers every waiting poll now, and lets no new poll wait */
  stop(): void;
}

/**
 * @example const gate = createLongPollGate({ perAddress: 100, total: 20_000 }, { store, clock })
 */
export function createLongPollGate(
  limits: { perAddress: number; total: number },
  deps: { store: Store; clock: Clock },
): LongPollGate {
  let total = 0;
  const stopping = new AbortController();
  // Every waiting poll listens to it: as many listeners as the instance cap allows, no leak.
  setMaxListeners(0, stopping.signal);
  return {
    async enter(addressKey, waitMs) {
      if (stopping.signal.aborted || total >= limits.total) return null;
      total++; // counted before the store answers, so racing polls cannot overshoot the instance cap
      const key = `long-poll:${addressKey}`;
      const slot = randomUUID();
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        total--;
        // A release that fails (Redis gone) is not the poll's concern: the slot lapses at its expiry.
        void deps.store.releaseSlot(key, slot).catch(() => {});
      };
      const now = deps.clock.now();
      let held: boolean;
      try {
        held = await deps.store.holdSlot(key, slot, limits.perAddress, now + waitMs + SLOT_MARGIN_MS, now);
      } catch (error) {
        total--;
        throw error;
      }
      if (held && !stopping.signal.aborted) return release;
      if (held) release();
      else total--;
      return null;
    },
    get waiting() {
      return total;
    },
    stopping: stopping.signal,
    stop() {
      stopping.abort();
    },
  };
}
