import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** `node --import <root>/scripts/preflight.mjs <entry>` as the npm scripts run it, from `root`. */
function run(root: string, entry: string) {
  return spawnSync(process.execPath, ['--import', join(root, 'scripts/preflight.mjs'), join(root, entry)], {
    cwd: root,
    encoding: 'utf8',
  });
}

describe('scripts/preflight.mjs', () => {
  it('stops a command run before `npm ci` with one line naming it, not a stack trace', () => {
    // A checkout without node_modules (nor any above it in the temporary directory)
    const fresh = mkdtempSync(join(tmpdir(), 'svc-fresh-'));
    try {
      mkdirSync(join(fresh, 'scripts'));
      copyFileSync(join(ROOT, 'scripts/preflight.mjs'), join(fresh, 'scripts/preflight.mjs'));
      writeFileSync(join(fresh, 'scripts/start.mjs'), 'console.log("started")');
      const result = run(fresh, 'scripts/start.mjs');
      expect(result.status).toBe(1);
      expect(result.stderr).toBe('svc: the dependencies are not installed: run `npm ci` first\n');
      expect(result.stdout).toBe('');
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('stops the compiled service run before the build with one line naming `npm run build`', () => {
    const result = run(ROOT, 'dist/node/server/not-built-main.js');
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('svc: dist/node/server/not-built-main.js is not built yet: run `npm run build` first\n');
  });

  it('lets an installed checkout through', () => {
    const result = spawnSync(process.execPath, ['--import', './scripts/preflight.mjs', '-e', 'console.log("ran")'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(result.stdout).toBe('ran\n');
    expect(result.status).toBe(0);
  });
});
