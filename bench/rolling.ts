/**
 * `npm run bench:rolling`: rolling restarts under steady load (design.md §23; docs/operations.md
 * "Rolling restarts"). Runs scripts/rolling-restart.ts's scenario: one redis-server, two instances
 * behind nginx (start:cluster's configuration), every instance in turn sent SIGTERM, waited for,
 * started again and waited for until ready, BENCH_ROUNDS times, while visitors verify (the widget's
 * create and long poll, the phone's open and sandbox approval, with their own retry rules) and the
 * partner's backend exchanges and introspects through the partner SDK. Prints the calls made, the
 * three counts that must be 0, and the drain and restart times; exits 1 when a count is not 0.
 *
 *   BENCH_ROUNDS (3)                       restarts of each instance
 *   BENCH_FLOWS_PER_SECOND (2)             verifications started per second (3 browser writes each)
 *   BENCH_INTROSPECTIONS_PER_SECOND (10)   introspections besides each verification's exchange and introspection
 *   BENCH_SETTLE_MS (5000)                 load before the first restart and after each instance is ready again
 */
import { runRollingRestarts } from '../scripts/rolling-restart.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const flowsPerSecond = Number(process.env.BENCH_FLOWS_PER_SECOND ?? 2);
const introspectionsPerSecond = Number(process.env.BENCH_INTROSPECTIONS_PER_SECOND ?? 10);
const settleMs = Number(process.env.BENCH_SETTLE_MS ?? 5_000);

const f = await runRollingRestarts({
  rounds,
  flowsPerSecond,
  introspectionsPerSecond,
  settleMs,
  log: (line) => console.error(`bench:rolling: ${line}`),
});
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const spread = (values: number[], unit: (v: number) => string) => {
  const s = sorted(values);
  return `${unit(s[0]!)} / ${unit(s[Math.floor(s.length / 2)]!)} / ${unit(s.at(-1)!)}`;
};
const rows: Array<[string, string]> = [
  ['restarts (SIGTERM → exit → ready)', `${f.restarts} (${rounds} per instance, 2 instances)`],
  ['duration', `${f.seconds.toFixed(0)} s`],
  [
    'calls made',
    `${f.calls.widget + f.calls.phone + f.calls.partner} (widget ${f.calls.widget}, phone ${f.calls.phone}, partner ${f.calls.partner})`,
  ],
  ['verifications', `${f.verifications} (approved on the phone: ${f.completions})`],
  ['partner calls failed', String(f.partnerCallsFailed)],
  ['widget calls failed (after its retries)', String(f.widgetCallsFailed)],
  ['completions lost', String(f.completionsLost)],
  ['5xx or network errors met', String(f.retried)],
  ['drain, min / median / max', spread(f.drainsMs, (ms) => `${Math.round(ms)} ms`)],
  ['SIGTERM → ready again, min / median / max', spread(f.restartsMs, (ms) => `${(ms / 1000).toFixed(1)} s`)],
  ['exit codes', f.exitCodes.every((code) => code === 0) ? 'all 0' : f.exitCodes.join(', ')],
];
const width = Math.max(...rows.map(([name]) => name.length));
for (const [name, value] of rows) console.log(`${name.padEnd(width)}  ${value}`);
for (const line of f.failures) console.log(`  ${line}`);
const zeros = f.partnerCallsFailed === 0 && f.widgetCallsFailed === 0 && f.completionsLost === 0;
process.exit(zeros && f.exitCodes.every((code) => code === 0) ? 0 : 1);
