/**
 * `npm run conformance`: runs the conformance twin (server/test/conformance/, design.md §19) and
 * prints the module × variant table of the OpenID Foundation's verifier plans it mirrors, pass or
 * fail per cell (`—`: the suite has no such combination), the `sd_jwt_vc` columns first, then
 * `iso_mdl`, then the Digital Credentials API variants the suite lacks. Exits 1 when any cell failed.
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
// columns: sd_jwt_vc, iso_mdl, then the DC API; rows in the plans' order (file order may vary)
const rank = (variant: string) => (variant.startsWith('DC API') ? 2 : 0) + (variant.includes('iso_mdl') ? 1 : 0);
variants.sort((a, b) => rank(a) - rank(b));
const MODULE_ORDER = [
  'happy-flow',
  'minimal-cnf-jwk',
  'invalid-session-transcript',
  'invalid-kb-jwt-signature',
  'invalid-credential-signature',
  'invalid-sd-hash',
  'invalid-kb-jwt-nonce',
  'invalid-kb-jwt-aud',
  'kb-jwt-iat-in-past',
  'kb-jwt-iat-in-future',
  'request-uri-method-post',
  'request-uri-fetched-twice',
];
const modules = [...cells.keys()].sort(
  (a, b) => (MODULE_ORDER.indexOf(a) + 1 || 99) - (MODULE_ORDER.indexOf(b) + 1 || 99),
);
const width = Math.max(...[...cells.keys()].map((m) => m.length)) + 2;
console.log('Suite mirrored: openid/conformance-suite release-v5.2.3 (snapshot 12f2a4d), oid4vp-1final-verifier-*');
variants.forEach((variant, i) =>
  console.log(`  [${i + 1}] ${variant}${variant.startsWith('DC API') ? ' (not in the suite)' : ''}`),
);
console.log(`\n${'module'.padEnd(width)}${variants.map((_, i) => `[${i + 1}]`.padEnd(6)).join('')}`.trimEnd());
for (const module of modules) {
  const row = cells.get(module)!;
  console.log(`${module.padEnd(width)}${variants.map((v) => (row.get(v) ?? '—').padEnd(6)).join('')}`.trimEnd());
}
if (others.length > 0) console.log('\nother checks:');
for (const [title, status] of others) console.log(`  ${status === 'passed' ? 'pass' : 'FAIL'}  ${title}`);
const failed =
  [...cells.values()].some((row) => [...row.values()].includes('FAIL')) || others.some(([, s]) => s !== 'passed');
process.exit(failed || run.status !== 0 ? 1 : 0);
