import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

/** A fresh Node (the module cache empty) that loads oidc-provider as `loadOidcProvider(version)` does; its stderr. */
function loadIn(version: string): { status: number | null; stderr: string } {
  const script = `const { loadOidcProvider } = await import('./server/sandbox/example-idp/provider.ts');
const Provider = await loadOidcProvider(${JSON.stringify(version)});
if (typeof Provider !== 'function') process.exit(3);`;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { status: result.status, stderr: result.stderr };
}

describe('the example identity provider on a supported Node', () => {
  it('loads oidc-provider without its "Unsupported runtime" warning on Node >= 20.19', () => {
    const { status, stderr } = loadIn(process.versions.node);
    expect(status).toBe(0);
    expect(stderr).not.toContain('Unsupported runtime');
  });
});
