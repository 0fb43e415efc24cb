/**
 * Caps on concurrent long polls (issue 8): each waiting poll holds a socket and a waiter, so one
 * address may hold `perAddress` at once (default 100: many visitors share one address behind
 * carrier-grade NAT) and the instance `total` (default 20,000). Past a cap a poll is not refused:
 * it is answered at once with the current status, exactly as `wait=0`, and the widget slows its
 * polling to stay inside the spec's 30 a minute.
 *
 * Counted in this process: a long poll is held by the instance that answers it.
 */
export interface LongPollGate {
  /** A release function when the poll may wait, or null when a cap is reached (answer at once). */
  tryEnter(addressKey: string): (() => void) | null;
  /** polls waiting now, in all and for one address */
  readonly waiting: number;
  waitingFor(addressKey: string): number;
}

/**
 * @example const gate = createLongPollGate({ perAddress: 100, total: 20_000 })
 */
export function createLongPollGate(limits: { perAddress: number; total: number }): LongPollGate {
  const byAddress = new Map<string, number>();
  let total = 0;
  return {
    tryEnter(addressKey) {
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
  };
}
