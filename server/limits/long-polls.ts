/**
 * Caps on concurrent long polls (issue 8): each waiting poll holds a socket and a waiter, so one
 * address may hold `perAddress` at once (default 100: many visitors share one address behind
 * carrier-grade NAT) and the instance `total` (default 20,000). Past a cap a poll is not refused:
 * it is answered at once with the current status, exactly as `wait=0`, and the widget slows its
 * polling to stay inside the spec's 30 a minute.
 *
 * Counted in this process: a long poll is held by the instance that answers it, and what the caps
 * protect (sockets, waiters, memory) is that instance's own. Behind a round-robin proxy an
 * address's polls spread over the instances, so it holds at most `perAddress` on each; the caps
 * are not shared through Redis on purpose (docs/operations.md, "Several instances").
 *
 * On shutdown (`stop()`, SIGTERM) every waiting poll is answered at once with its current status
 * and no new one waits: the widget polls again and reaches another instance.
 */
export interface LongPollGate {
  /** A release function when the poll may wait, or null when a cap is reached (answer at once). */
  tryEnter(addressKey: string): (() => void) | null;
  /** polls waiting now, in all and for one address */
  readonly waiting: number;
  waitingFor(addressKey: string): number;
  /** aborts when the instance stops: every waiting poll answers at once (DESIGN §10, SIGTERM) */
  readonly stopping: AbortSignal;
  /** answers every waiting poll now, and lets no new poll wait */
  stop(): void;
}

/**
 * @example const gate = createLongPollGate({ perAddress: 100, total: 20_000 })
 */
export function createLongPollGate(limits: { perAddress: number; total: number }): LongPollGate {
  const byAddress = new Map<string, number>();
  let total = 0;
  const stopping = new AbortController();
  return {
    tryEnter(addressKey) {
      if (stopping.signal.aborted) return null;
      const mine = byAddress.get(addressKey) ?? 0;
      if (total >= limits.total || mine >= limits.perAddress) return null;
      byAddress.set(addressKey, mine + 1);
      total++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total--;
        const left = (byAddress.get(addressKey) ?? 1) - 1;
        if (left === 0) byAddress.delete(addressKey);
        else byAddress.set(addressKey, left);
      };
    },
    get waiting() {
      return total;
    },
    waitingFor(addressKey) {
      return byAddress.get(addressKey) ?? 0;
    },
    stopping: stopping.signal,
    stop() {
      stopping.abort();
    },
  };
}
