/**
 * The server's layers (issue 7), checked on the imports of every source file (tests aside):
 * - routes/ parse and answer: no store implementation, from store/ at most the interface's types,
 *   and no store call of their own (`deps.store.getX(…)`): use cases do that, in domain/;
 * - domain/ holds the use cases over the Store interface: no Fastify, nothing from routes/ or
 *   http/, from store/ only the interface (store.ts);
 * - http/ is the edge: nothing from routes/, from store/ only the interface (store.ts, whose
 *   StoreUnavailableError it answers with 503);
 * - outside store/, nothing names a store implementation (store/open.ts chooses one; the sealing
 *   wrapper, store/sealed.ts, works over any), so a second store needs no change elsewhere;
 * - sandbox/ is what production never runs (issue 17: the personas, the persona picker, the sandbox
 *   wallet and issuer, the example identity provider). Only these import it: sandbox/ itself, the
 *   CLI (cli/: `svc wallet present`), test support (test/, wallet/test-helpers.ts) and tests, and
 *   the app wiring (app.ts, boot.ts) through a dynamic `import()` taken in sandbox mode only, so a
 *   production process never loads it. Nothing in domain/, routes/, wallet/, http/ or any other
 *   folder does. (scripts/ and e2e/, outside server/, may: they are not the service.)
 * - no import cycle at load time (type-only and dynamic imports aside).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SERVER_DIR = dirname(fileURLToPath(import.meta.url));

interface SourceFile {
  /** relative to server/, with forward slashes: "routes/widget.ts" */
  path: string;
  source: string;
}

interface Import {
  /** relative to server/ for a relative specifier ("store/store.ts", "../src/…"), the package name otherwise */
  target: string;
  typeOnly: boolean;
  /** an `import('…')` expression, loaded when the code runs, not when the module is */
  dynamic: boolean;
}

const FROM = /^(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s*['"]([^'"]+)['"]/gm;
const BARE = /^import\s+['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
const STORE_CALL = /\bdeps\.store\.\w+\s*\(/;

function importsOf(file: SourceFile): Import[] {
  const resolve = (specifier: string): string =>
    specifier.startsWith('.') ? posix.normalize(posix.join(posix.dirname(file.path), specifier)) : specifier;
  const found: Import[] = [];
  for (const [, typeKeyword, names, specifier] of file.source.matchAll(FROM)) {
    const members = names!
      .replace(/^\{|\}$/g, '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);
    const allTypes = names!.trim().startsWith('{') && members.length > 0 && members.every((m) => m.startsWith('type '));
    found.push({ target: resolve(specifier!), typeOnly: Boolean(typeKeyword) || allTypes, dynamic: false });
  }
  for (const [, specifier] of file.source.matchAll(BARE))
    found.push({ target: resolve(specifier!), typeOnly: false, dynamic: false });
  for (const [, specifier] of file.source.matchAll(DYNAMIC))
    found.push({ target: resolve(specifier!), typeOnly: false, dynamic: true });
  return found;
}

const under = (path: string, folder: string): boolean => path.startsWith(`${folder}/`);
const isFastify = (target: string): boolean => target === 'fastify' || target.startsWith('@fastify/');
const STORE_INTERFACE = 'store/store.ts';
/** What outside store/ may import from it: the interface, the opener and the wrapper over any store. */
const STORE_AGNOSTIC = [STORE_INTERFACE, 'store/open.ts', 'store/sealed.ts'];
/** What may import sandbox/ statically: itself, the CLI, test support. */
const SANDBOX_IMPORTERS = ['sandbox', 'cli', 'test'];
const TEST_SUPPORT = ['wallet/test-helpers.ts'];
/** What may load sandbox/ with a dynamic import(), in sandbox mode only: the app wiring. */
const APP_WIRING = ['app.ts', 'boot.ts'];

function mayImportSandbox(path: string, dynamic: boolean): boolean {
  if (SANDBOX_IMPORTERS.some((folder) => under(path, folder)) || TEST_SUPPORT.includes(path)) return true;
  return dynamic && APP_WIRING.includes(path);
}

/** Every breach of the rules above, one line each. */
function findLayerViolations(files: readonly SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    const say = (what: string): number => violations.push(`${file.path}: ${what}`);
    for (const { target, typeOnly, dynamic } of importsOf(file)) {
      if (under(file.path, 'routes') && under(target, 'store') && !(target === STORE_INTERFACE && typeOnly)) {
        say(`a route imports ${target} (only types from ${STORE_INTERFACE})`);
      }
      if (under(file.path, 'domain')) {
        if (isFastify(target)) say(`domain/ imports ${target}`);
        if (under(target, 'routes') || under(target, 'http')) say(`domain/ imports ${target}`);
        if (under(target, 'store') && target !== STORE_INTERFACE)
          say(`domain/ imports ${target} (only ${STORE_INTERFACE})`);
      }
      if (
        under(file.path, 'http') &&
        (under(target, 'routes') || (under(target, 'store') && target !== STORE_INTERFACE))
      )
        say(`http/ imports ${target}`);
      if (!under(file.path, 'store') && under(target, 'store') && !STORE_AGNOSTIC.includes(target)) {
        say(`imports the store implementation ${target} (open stores through store/open.ts)`);
      }
      if (under(target, 'sandbox') && !mayImportSandbox(file.path, dynamic)) {
        say(
          APP_WIRING.includes(file.path)
            ? `imports ${target} statically (load sandbox/ with import() in sandbox mode only)`
            : `imports ${target} (sandbox/ is never run in production)`,
        );
      }
    }
    if (under(file.path, 'routes') && STORE_CALL.test(file.source))
      say('a route calls the store itself (move it into a domain/ use case)');
  }
  return violations;
}

/**
 * Import cycles among the files, each as the files around it. A type-only import is erased and a
 * dynamic one runs later, so neither makes a cycle at load time.
 */
function findImportCycles(files: readonly SourceFile[]): string[][] {
  const paths = new Set(files.map((f) => f.path));
  const edges = new Map(
    files.map((f) => [
      f.path,
      importsOf(f)
        .filter((i) => !i.typeOnly && !i.dynamic && paths.has(i.target))
        .map((i) => i.target),
    ]),
  );
  const cycles: string[][] = [];
  const done = new Set<string>();
  function visit(path: string, trail: string[]): void {
    const start = trail.indexOf(path);
    if (start !== -1) return void cycles.push(trail.slice(start));
    if (done.has(path)) return;
    for (const next of edges.get(path) ?? []) visit(next, [...trail, path]);
    done.add(path);
  }
  for (const file of files) visit(file.path, []);
  return cycles;
}

function readSources(dir: string): SourceFile[] {
  const files: SourceFile[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'public') files.push(...readSources(full));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.contract.ts')) {
      files.push({ path: relative(SERVER_DIR, full).split('\\').join('/'), source: readFileSync(full, 'utf8') });
    }
  }
  return files;
}

describe('server layers', () => {
  it('routes parse and answer, domain/ holds the use cases over the Store, only store/ knows a store, sandbox/ stays apart', () => {
    const files = readSources(SERVER_DIR).filter((f) => !under(f.path, 'test'));
    expect(files.filter((f) => under(f.path, 'routes')).length).toBeGreaterThan(5);
    expect(files.filter((f) => under(f.path, 'domain')).length).toBeGreaterThan(5);
    expect(findLayerViolations(files)).toEqual([]);
  });

  it('has no import cycle (an error class both sides throw lives where both import it: ConfigError in errors.ts)', () => {
    const files = readSources(SERVER_DIR).filter((f) => !under(f.path, 'test'));
    expect(findImportCycles(files)).toEqual([]);
    const cycle = findImportCycles([
      { path: 'config.ts', source: "import { parseMasterKey } from './crypto/master-key.ts';" },
      { path: 'crypto/master-key.ts', source: "import { ConfigError } from '../config.ts';" },
      { path: 'domain/a.ts', source: "import type { B } from './b.ts';" },
      { path: 'domain/b.ts', source: "import { a } from './a.ts';" },
    ]);
    expect(cycle).toEqual([['config.ts', 'crypto/master-key.ts']]);
  });

  it('names each breach: a route reaching into the store, domain/ importing Fastify, sandbox/ imported outside CLI, tests, wiring', () => {
    const violations = findLayerViolations([
      { path: 'routes/a.ts', source: "import { openSqliteStore } from '../store/sqlite.ts';" },
      {
        path: 'routes/b.ts',
        source: "import { getThing } from '../store/store.ts';\nawait deps.store.getPartner(id);",
      },
      {
        path: 'routes/ok.ts',
        source:
          "import type { PartnerRecord } from '../store/store.ts';\nimport { type Store } from '../store/store.ts';",
      },
      {
        path: 'domain/c.ts',
        source: "import type { FastifyRequest } from 'fastify';\nimport {\n  x,\n} from '../routes/widget.ts';",
      },
      {
        path: 'domain/d.ts',
        source: "import '../http/body.ts';\nimport { openConfiguredStore } from '../store/open.ts';",
      },
      {
        path: 'boot.ts',
        source:
          "import { openConfiguredStore } from './store/open.ts';\nimport { sealedStore } from './store/sealed.ts';",
      },
      { path: 'cli/e.ts', source: "export { openSqliteStore } from '../store/sqlite.ts';" },
      { path: 'providers/f.ts', source: "import { startExampleProvider } from '../sandbox/example-idp/provider.ts';" },
      { path: 'sandbox/example-idp/g.ts', source: "import { personaClaims } from '../../domain/personas.ts';" },
      { path: 'domain/h.ts', source: "const { personaFacts } = await import('../sandbox/personas.ts');" },
      { path: 'routes/i.ts', source: "import { registerSandboxPhoneRoutes } from '../sandbox/phone-routes.ts';" },
      { path: 'wallet/j.ts', source: "import type { SandboxIssuer } from '../sandbox/wallet/sandbox-issuer.ts';" },
      { path: 'http/l.ts', source: "import { StoreUnavailableError } from '../store/store.ts';" },
      { path: 'http/m.ts', source: "import { openRedisStore } from '../store/redis.ts';" },
      { path: 'app.ts', source: "import { registerSandboxPhoneRoutes } from './sandbox/phone-routes.ts';" },
      { path: 'boot.ts', source: "const { loadPersonas } = await import('./sandbox/personas.ts');" },
      { path: 'cli/k.ts', source: "import { createDirectPost } from '../sandbox/wallet/sandbox-wallet.ts';" },
      {
        path: 'wallet/test-helpers.ts',
        source: "import { loadSandboxIssuer } from '../sandbox/wallet/sandbox-issuer.ts';",
      },
    ]);
    expect(violations).toEqual([
      'routes/a.ts: a route imports store/sqlite.ts (only types from store/store.ts)',
      'routes/a.ts: imports the store implementation store/sqlite.ts (open stores through store/open.ts)',
      'routes/b.ts: a route imports store/store.ts (only types from store/store.ts)',
      'routes/b.ts: a route calls the store itself (move it into a domain/ use case)',
      'domain/c.ts: domain/ imports fastify',
      'domain/c.ts: domain/ imports routes/widget.ts',
      'domain/d.ts: domain/ imports store/open.ts (only store/store.ts)',
      'domain/d.ts: domain/ imports http/body.ts',
      'cli/e.ts: imports the store implementation store/sqlite.ts (open stores through store/open.ts)',
      'providers/f.ts: imports sandbox/example-idp/provider.ts (sandbox/ is never run in production)',
      'domain/h.ts: imports sandbox/personas.ts (sandbox/ is never run in production)',
      'routes/i.ts: imports sandbox/phone-routes.ts (sandbox/ is never run in production)',
      'wallet/j.ts: imports sandbox/wallet/sandbox-issuer.ts (sandbox/ is never run in production)',
      'http/m.ts: http/ imports store/redis.ts',
      'http/m.ts: imports the store implementation store/redis.ts (open stores through store/open.ts)',
      'app.ts: imports sandbox/phone-routes.ts statically (load sandbox/ with import() in sandbox mode only)',
    ]);
  });
});
