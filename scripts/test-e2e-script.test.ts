/**
 * `npm run test:e2e` as package.json writes it (docs/development.md): the cluster journeys run even when the
 * main journeys failed, and the command fails if either did. The script's own text runs in a shell
 * whose `playwright` and `npm` are stand-ins that record their call and exit as told.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts['test:e2e']!;
const bin = mkdtempSync(join(tmpdir(), 'svc-test-e2e-'));
for (const name of ['playwright', 'npm']) {
  const rc = name === 'playwright' ? 'MAIN_RC' : 'CLUSTER_RC';
  writeFileSync(join(bin, name), `#!/bin/sh\necho "${name} $*" >> "$CALLS"\nexit "$${rc}"\n`);
  chmodSync(join(bin, name), 0o755);
}
afterAll(() => rmSync(bin, { recursive: true, force: true }));

function run(mainRc: number, clusterRc: number): { status: number | null; calls: string[] } {
  const calls = join(bin, `calls-${mainRc}-${clusterRc}`);
  writeFileSync(calls, '');
  const { status } = spawnSync('sh', ['-c', script], {
    env: { PATH: `${bin}:/usr/bin:/bin`, CALLS: calls, MAIN_RC: String(mainRc), CLUSTER_RC: String(clusterRc) },
  });
  return { status, calls: readFileSync(calls, 'utf8').trim().split('\n') };
}

describe('npm run test:e2e', () => {
  it('runs the cluster journeys after the main ones, and passes when both pass', () => {
    expect(run(0, 0)).toEqual({ status: 0, calls: ['playwright test', 'npm run test:e2e:cluster'] });
  });

  it('still runs the cluster journeys when the main journeys fail, and fails', () => {
    const { status, calls } = run(1, 0);
    expect(calls).toEqual(['playwright test', 'npm run test:e2e:cluster']);
    expect(status).not.toBe(0);
  });

  it('fails when only the cluster journeys fail', () => {
    expect(run(0, 1).status).not.toBe(0);
  });
});
