import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findBoundaryViolations } from './check-boundaries.ts';

const root = resolve(import.meta.dirname, '..');
let fixture: string | undefined;

afterEach(() => {
  if (fixture) rmSync(fixture, { recursive: true, force: true });
  fixture = undefined;
});

/** A throwaway project holding `files` (path from the root → source). */
function tree(files: Record<string, string>): string {
  fixture = mkdtempSync(join(tmpdir(), 'boundaries-'));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(fixture, path)), { recursive: true });
    writeFileSync(join(fixture, path), source);
  }
  return fixture;
}

describe('findBoundaryViolations', () => {
  it('finds nothing in this tree: the loader and the widget never import each other', () => {
    expect(findBoundaryViolations(root)).toEqual([]);
  });

  it('reports the loader importing the widget and the widget importing the loader, in every import form', () => {
    const dir = tree({
      'src/loader/svc-global.ts': "import type { MountWidget } from '../widget/contract.ts';\n",
      'src/widget/model/flow.ts': "export { resultUrl } from '../../loader/result.ts';\n",
      'src/widget/lazy.ts': "export const load = () => import('../loader/main.ts');\n",
      'src/widget/ui/App.tsx': "type C = import('../../loader/config.ts').RawConfig;\nexport const c: C = {};\n",
    });
    expect(findBoundaryViolations(dir)).toEqual([
      'src/loader/svc-global.ts imports ../widget/contract.ts: src/loader must not import src/widget',
      'src/widget/lazy.ts imports ../loader/main.ts: src/widget must not import src/loader',
      'src/widget/model/flow.ts imports ../../loader/result.ts: src/widget must not import src/loader',
      'src/widget/ui/App.tsx imports ../../loader/config.ts: src/widget must not import src/loader',
    ]);
  });

  it('keeps src/shared free of both bundles and src/protocol free of browser code', () => {
    const dir = tree({
      'src/shared/contract.ts': "import { mountWidget } from '../widget/mount.tsx';\n",
      'src/protocol/wire.ts': "import type { SvcResult } from '../shared/contract.ts';\n",
    });
    expect(findBoundaryViolations(dir)).toEqual([
      'src/protocol/wire.ts imports ../shared/contract.ts: src/protocol must not import src/shared',
      'src/shared/contract.ts imports ../widget/mount.tsx: src/shared must not import src/widget',
    ]);
  });

  it('allows shared, protocol and package imports, and ignores comments, strings and tests', () => {
    const dir = tree({
      'src/widget/mount.tsx': [
        "import { render } from 'preact';",
        "import type { Scope } from '../protocol/scopes.ts';",
        "import { resolveLocale } from '../shared/locale.ts';",
        "// import { parseConfig } from '../loader/config.ts';",
        'export const hint = "import x from \'../loader/main.ts\'";',
      ].join('\n'),
      'src/widget/model/flow.test.ts': "import { parseConfig } from '../../loader/config.ts';\n",
      'src/loader/widgets.ts': "import { x } from './widget/local.ts';\n",
    });
    expect(findBoundaryViolations(dir)).toEqual([]);
  });
});
