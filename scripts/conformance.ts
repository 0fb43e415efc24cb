/**
 * `npm run conformance`: runs the conformance twin (server/test/conformance/, design.md §19) and
 * prints the module × variant table of the OpenID Foundation's verifier plans it mirrors, pass or
 * fail per cell (`—`: the suite has no such combination). Exits 1 when any cell failed.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const out = join(tmpdir(), `conformance-${process.pid}.json`);
const run = spawnSync('npx', ['vitest', 'run', 'server/test/conformance/', '--reporter=json', `--outputFile=${out}`], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, NODE_ENV: 'test' },
});
const report = JSON.parse(readFileSync(out, 'utf8')) as {
  testResults: { assertionResults: { title: string; status: string }[] }[];
};
rmSync(out, { force: true });

const cells = new Map<string, Map<string, string>>();
const variants: string[] = [];
const others: [string, string][] = [];
for (const { title, status } of report.testResults.flatMap((file) => file.assertionResults)) {
  const match = /^oid4vp-1final-verifier-(\S+) \[(.+)\]$/.exec(title);
  if (!match) {
    others.push([title, status]);
    continue;
  }
  const [, module, variant] = match as unknown as [string, string, string];
  if (!variants.includes(variant)) variants.push(variant);
  if (!cells.has(module)) cells.set(module, new Map());
  cells.get(module)!.set(variant, status === 'passed' ? 'pass' : 'FAIL');
}
const width = Math.max(...[...cells.keys()].map((m) => m.length)) + 2;
console.log('Suite mirrored: openid/conformance-suite release-v5.2.3 (snapshot 12f2a4d), oid4vp-1final-verifier-*');
variants.forEach((variant, i) => console.log(`  [${i + 1}] ${variant}`));
console.log(`\n${'module'.padEnd(width)}${variants.map((_, i) => `[${i + 1}]`.padEnd(6)).join('')}`);
for (const [module, row] of cells)
  console.log(`${module.padEnd(width)}${variants.map((v) => (row.get(v) ?? '—').padEnd(6)).join('')}`);
if (others.length > 0) console.log('\nchecks on every request:');
for (const [title, status] of others) console.log(`  ${status === 'passed' ? 'pass' : 'FAIL'}  ${title}`);
const failed =
  [...cells.values()].some((row) => [...row.values()].includes('FAIL')) || others.some(([, s]) => s !== 'passed');
process.exit(failed || run.status !== 0 ? 1 : 0);
