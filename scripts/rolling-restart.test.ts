/**
 * Rolling restarts lose nothing (design.md §23; docs/operations.md#rolling-restarts): two real
 * instances on one redis-server behind nginx with start:cluster's configuration, each sent SIGTERM
 * in turn while visitors verify (the widget's own create, long poll and retry rules, the phone's
 * API client) and the partner's backend exchanges and introspects (the partner SDK). The short
 * run of `npm run bench:rolling` (scripts/rolling-restart.ts): free ports, no fixed one.
 */
import { describe, expect, it } from 'vitest';
import { runRollingRestarts } from './rolling-restart.ts';

describe('a rolling restart of both instances behind nginx, under load', () => {
  it('fails no partner call and no widget call, loses no completion, meets no 5xx, and each instance drains and exits 0', async () => {
    const lines: string[] = [];
    const f = await runRollingRestarts({
      rounds: 1,
      settleMs: 1_500,
      flowsPerSecond: 2,
      introspectionsPerSecond: 10,
      log: (line) => lines.push(line),
    });
    expect(f.failures, lines.join('\n')).toEqual([]);
    expect(f.partnerCallsFailed).toBe(0);
    expect(f.widgetCallsFailed).toBe(0);
    expect(f.completionsLost).toBe(0);
    // not even one retried: nginx sent nothing to a stopping instance that it could not answer
    expect(f.retried, lines.join('\n')).toBe(0);
    expect(f.exitCodes).toEqual([0, 0]);
    // under load: calls were waiting on the instance at each SIGTERM, and answered while it was away
    expect(f.inFlightAtStop.every((n) => n > 0)).toBe(true);
    expect(f.answeredDuringRestart.every((n) => n > 0)).toBe(true);
    expect(f.completions).toBeGreaterThan(0);
    expect(f.calls.partner).toBeGreaterThan(f.completions);
  }, 240_000);
});
