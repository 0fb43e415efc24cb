/**
 * What the example partner backend remembers about grants it exchanged. A grant is single
 * use: when the server-verify endpoint already exchanged it, the success page's POST must be
 * answered from here instead of spending the grant a second time (it would be GRANT_INVALID).
 */
import { createHash } from 'node:crypto';
import type { ExchangeResponse } from '../sdk/index.ts';

export interface ExchangeMemory {
  /**
   * Exchanges `grantCode` once: concurrent and later calls for the same code share the first
   * call's promise (a failed exchange is forgotten so the caller may retry).
   */
  exchangeOnce(grantCode: string, exchange: (grantCode: string) => Promise<ExchangeResponse>): Promise<{ response: ExchangeResponse; remembered: boolean }>;
  /** number of grants remembered right now */
  readonly size: number;
}

/**
 * @example
 * const memory = createExchangeMemory({ now: Date.now });
 * const { response } = await memory.exchangeOnce(grant, (g) => client.exchange(g));
 */
export function createExchangeMemory(options: { now: () => number; ttlMs?: number; maxEntries?: number }): ExchangeMemory {
  // A grant lives 5 minutes (spec: Grant code), so nobody can present it after that.
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const maxEntries = options.maxEntries ?? 1000;
  // Keyed by a digest: the partner holds grant codes no longer than it must.
  const entries = new Map<string, { promise: Promise<ExchangeResponse>; at: number }>();

  // Oldest first (Map keeps insertion order); leaves room for the entry about to be added.
  function prune(now: number): void {
    for (const [key, entry] of entries) {
      if (now - entry.at < ttlMs && entries.size < maxEntries) break;
      entries.delete(key);
    }
  }

  return {
    async exchangeOnce(grantCode, exchange) {
      const now = options.now();
      prune(now);
      const key = createHash('sha256').update(grantCode).digest('base64url');
      const known = entries.get(key);
      if (known) return { response: await known.promise, remembered: true };
      const promise = exchange(grantCode);
      entries.set(key, { promise, at: now });
      try {
        return { response: await promise, remembered: false };
      } catch (error) {
        entries.delete(key);
        throw error;
      }
    },
    get size() {
      return entries.size;
    },
  };
}
