/**
 * Redis that fails over (design.md §17): two instances through Sentinel with
 * SVC_REDIS_MIN_REPLICAS=1, verifications and exchanges running while the primary is killed or
 * handed over. Counts, not durations: nothing acknowledged is lost, no grant is exchanged twice.
 * `npm run bench:failover` prints the same figures with the seconds without service.
 */
import { describe, expect, it } from 'vitest';
import { runFailover } from './test/failover.ts';

describe('Redis failover through Sentinel', () => {
  it.each(['kill', 'planned'] as const)(
    'loses no acknowledged completion and exchanges no grant twice when the primary is switched (%s)',
    async (kind) => {
      const figures = await runFailover(kind, { flowsBefore: 12, flowsAfter: 12 });
      expect(figures).toMatchObject({ completionsLost: 0, grantsExchangedTwice: 0, passTokensLost: 0 });
      // the switch really happened mid-stream, and service came back
      expect(figures.unavailableAnswers).toBeGreaterThan(0);
      expect(figures.servedAfterSwitch).toBeGreaterThanOrEqual(12);
    },
    60_000,
  );
});
