/**
 * `npm run evidence` (design.md §22): runs the tests and benchmarks docs/compliance.md names —
 * vitest by file and title, Playwright by file and title in both engines, `npm run bench:widget`
 * for a few runs — and prints the table with each row's result, then the ISO/IEC 27566-1 figures
 * we measure: time to the QR code, the journeys' success rate, the accessibility scans. Exits 1
 * when a row fails or names a test that did not run.
 *
 * Builds first (`npm run build`; `--no-build` to skip), and needs ports 8787-8789 free for the
 * journeys, as `npm run test:e2e` does. `--runs N` sets the benchmark's runs (default 5).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  readComplianceTable,
  titleFilter,
  titlePattern,
  type ComplianceRow,
  type Reference,
  type TestReference,
} from './compliance.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

interface Outcome {
  file: string;
  /** the test's own title */
  title: string;
  /** chromium, firefox, or '' for vitest */
  project: string;
  passed: boolean;
  /** passed only on a retry (Playwright's retries) */
  flaky?: boolean;
}

function run(command: string, args: string[], env: Record<string, string> = {}): number {
  console.log(`\n$ ${command} ${args.map((a) => (/[\s|()]/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  const done = spawnSync(command, args, {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...env },
  });
  return done.status ?? 1;
}

function filterOf(refs: readonly TestReference[]): string {
  return `(${[...new Set(refs.map((ref) => titleFilter(ref.title)))].join('|')})`;
}

function runVitest(refs: readonly TestReference[], dir: string): Outcome[] {
  if (refs.length === 0) return [];
  const output = join(dir, 'vitest.json');
  const files = [...new Set(refs.map((ref) => ref.file))];
  run('npx', ['vitest', 'run', ...files, '-t', filterOf(refs), '--reporter=json', `--outputFile=${output}`]);
  const report = JSON.parse(readFileSync(output, 'utf8')) as {
    testResults: { name: string; assertionResults: { title: string; status: string }[] }[];
  };
  return report.testResults.flatMap((file) =>
    file.assertionResults.map((test) => ({
      file: file.name.slice(ROOT.length),
      title: test.title,
      project: '',
      passed: test.status === 'passed',
    })),
  );
}

interface PlaywrightSuite {
  file: string;
  specs?: { title: string; tests: { projectName: string; results: { status: string }[] }[] }[];
  suites?: PlaywrightSuite[];
}

function playwrightOutcomes(suite: PlaywrightSuite): Outcome[] {
  const own = (suite.specs ?? []).flatMap((spec) =>
    spec.tests.map((test) => ({
      file: join('e2e', suite.file),
      title: spec.title,
      project: test.projectName,
      passed: test.results.at(-1)?.status === 'passed',
      flaky: test.results.length > 1 && test.results.at(-1)?.status === 'passed',
    })),
  );
  return [...own, ...(suite.suites ?? []).flatMap(playwrightOutcomes)];
}

function runPlaywright(refs: readonly TestReference[], dir: string): Outcome[] {
  if (refs.length === 0) return [];
  const output = join(dir, 'playwright.json');
  const files = [...new Set(refs.map((ref) => ref.file))];
  run('npx', ['playwright', 'test', ...files, '-g', filterOf(refs), '--reporter=json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: output,
  });
  const report = JSON.parse(readFileSync(output, 'utf8')) as { suites: PlaywrightSuite[] };
  return report.suites.flatMap(playwrightOutcomes);
}

interface Benchmark {
  passed: boolean;
  /** the lines it printed against its targets */
  lines: string[];
}

function runBenchmark(script: string, runs: number): Benchmark {
  console.log(`\n$ npm run ${script} -- --runs ${runs}`);
  const done = spawnSync('npm', ['run', '--silent', script, '--', '--runs', String(runs)], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  process.stdout.write(done.stdout ?? '');
  const lines = (done.stdout ?? '').split('\n').filter((line) => /target ≤/.test(line));
  return { passed: done.status === 0 && lines.length > 0 && lines.every((line) => /✓\)?$/.test(line.trim())), lines };
}

function resultOf(ref: Reference, outcomes: readonly Outcome[], benchmarks: Map<string, Benchmark>): string {
  if (ref.kind === 'benchmark') {
    const bench = benchmarks.get(ref.script);
    return bench === undefined ? 'not run' : bench.passed ? 'pass' : 'FAIL';
  }
  const pattern = titlePattern(ref.title);
  const matched = outcomes.filter((o) => o.file === ref.file && pattern.test(o.title));
  if (matched.length === 0) return 'NOT RUN';
  const failed = matched.filter((o) => !o.passed);
  const runs = matched.length > 1 ? ` ${matched.length - failed.length}/${matched.length}` : '';
  return failed.length === 0 ? `pass${runs}` : `FAIL${runs}`;
}

function rowResult(row: ComplianceRow, results: string[]): string {
  if (row.references.length === 0) return row.gap ? 'gap' : 'no test';
  const bad = results.filter((r) => !r.startsWith('pass')).length;
  const verdict = bad === 0 ? '✓ pass' : `✗ ${bad} of ${results.length} not passed`;
  return row.gap ? `gap (mitigation ${verdict})` : verdict;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function main(): void {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--runs');
  const benchRuns = at >= 0 ? Number(argv[at + 1]) : 5;
  const rows = readComplianceTable(readFileSync(join(ROOT, 'docs', 'compliance.md'), 'utf8'));
  const refs = rows.flatMap((row) => row.references);
  const tests = refs.filter((ref): ref is TestReference => ref.kind === 'test');
  const dir = mkdtempSync(join(tmpdir(), 'svc-evidence-'));
  try {
    if (!argv.includes('--no-build') && run('npm', ['run', 'build']) !== 0) throw new Error('npm run build failed');
    const outcomes = [
      ...runVitest(
        tests.filter((ref) => ref.runner === 'vitest'),
        dir,
      ),
      ...runPlaywright(
        tests.filter((ref) => ref.runner === 'playwright'),
        dir,
      ),
    ];
    const benchmarks = new Map<string, Benchmark>();
    for (const ref of refs) {
      if (ref.kind === 'benchmark' && !benchmarks.has(ref.script))
        benchmarks.set(ref.script, runBenchmark(ref.script, benchRuns));
    }

    const lines = ['', '| source § | requirement | shown by | result |', '| --- | --- | --- | --- |'];
    let failing = 0;
    for (const row of rows) {
      const results = row.references.map((ref) => resultOf(ref, outcomes, benchmarks));
      const verdict = rowResult(row, results);
      if (verdict.includes('✗') || verdict === 'no test') failing++;
      const shown = row.references
        .map((ref, i) => `${ref.kind === 'benchmark' ? `npm run ${ref.script}` : ref.title} (${results[i]})`)
        .join('; ');
      lines.push(`| ${cell(row.source)} | ${cell(row.requirement)} | ${cell(shown || '—')} | ${verdict} |`);
    }

    const journeys = outcomes.filter((o) => o.project !== '');
    const a11y = journeys.filter((o) => o.file === 'e2e/a11y.spec.ts');
    const passed = (list: readonly Outcome[]) => list.filter((o) => o.passed).length;
    const percent = (list: readonly Outcome[]) => {
      if (list.length === 0) return 'none run';
      const retried = list.filter((o) => o.flaky).length;
      const rate = ((100 * passed(list)) / list.length).toFixed(1);
      return `${passed(list)}/${list.length} (${rate} %${retried ? `, ${retried} only on a retry` : ''})`;
    };
    lines.push(
      '',
      'ISO/IEC 27566-1 figures we measure:',
      ...[...benchmarks].flatMap(([script, bench]) =>
        bench.lines.map((line) => `- ${script} (${benchRuns} runs): ${line.trim()}`),
      ),
      `- journeys' success rate (both engines, the journeys the table names): ${percent(journeys)}`,
      `- accessibility scans (axe-core, WCAG 2.2 AA rules, serious or critical violations fail): ${percent(a11y)} scans clean`,
      `- rows: ${rows.length - failing} of ${rows.length} pass or are gaps with a passing mitigation`,
    );
    console.log(lines.join('\n'));
    process.exitCode = failing === 0 ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
