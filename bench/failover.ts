/**
 * `npm run bench:failover`: what a Redis failover costs the service (design.md §17). Runs
 * server/test/failover.ts's scenario (two instances through Sentinel, SVC_REDIS_MIN_REPLICAS=1,
 * verifications and racing exchanges while the primary is switched) for a SIGKILL of the primary
 * and for `SENTINEL FAILOVER`, in three layouts: replicas/SVC_REDIS_MIN_REPLICAS 1/1 and 2/2 (the
 * strict ones) and 2/1 (to show why it is not), and prints the counts and the seconds without
 * service. Sentinel runs with down-after-milliseconds 400.
 *
 *   BENCH_FLOWS (30)                  verifications before the switch, and again after it
 *   BENCH_LAYOUTS ("1/1,2/2,2/1")     replicas/SVC_REDIS_MIN_REPLICAS to run
 */
import { runFailover, type Switch } from '../server/test/failover.ts';

const FLOWS = Number(process.env.BENCH_FLOWS ?? 30);
const LAYOUTS = (process.env.BENCH_LAYOUTS ?? '1/1,2/2,2/1').split(',').map((layout) => layout.split('/').map(Number));

const rows: string[][] = [
  [
    'switch',
    'replicas/min',
    'flows',
    'completions acked',
    'lost',
    'grants exchanged',
    'twice',
    'pass tokens lost',
    'grants burnt',
    '503s',
    'to switch (s)',
    'without service (s)',
  ],
];
for (const [replicas, minReplicas] of LAYOUTS) {
  for (const kind of ['kill', 'planned'] as Switch[]) {
    const f = await runFailover(kind, { flowsBefore: FLOWS, flowsAfter: FLOWS, replicas, minReplicas });
    rows.push([
      kind === 'kill' ? 'SIGKILL' : 'SENTINEL FAILOVER',
      `${replicas}/${minReplicas}`,
      String(f.flows),
      String(f.completionsAcknowledged),
      String(f.completionsLost),
      String(f.grantsExchanged),
      String(f.grantsExchangedTwice),
      String(f.passTokensLost),
      String(f.grantsBurnt),
      String(f.unavailableAnswers),
      f.secondsToSwitch.toFixed(1),
      f.secondsWithoutService.toFixed(1),
    ]);
    console.error(`bench:failover: ${kind}, ${replicas}/${minReplicas} done`);
  }
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
for (const row of rows) console.log(row.map((cell, i) => cell.padStart(widths[i]!)).join('  '));
console.log(
  [
    '',
    'lost, twice and pass tokens lost must be 0 where min = replicas. grants burnt: an exchange cut between taking the',
    'grant and storing its pass token (the partner meets 503, then GRANT_INVALID; the visitor verifies again).',
    'SIGKILL with min = replicas: the killed primary is restarted as a replica once the sentinels name the new one',
    '(until then too few replicas acknowledge). SENTINEL FAILOVER: Sentinel demotes the old primary ~10 s after the',
    'switch; until then it is missing from the replicas of the new primary.',
  ].join('\n'),
);
process.exit(0);
