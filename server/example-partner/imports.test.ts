import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The example partner shows what a partner builds with the SDK alone: its code may import the
// SDK's entry point, node: built-ins, packages and its own files, nothing else. Its tests also
// start the real service, so they may import the service's own code under server/ as well.
const HERE = dirname(fileURLToPath(import.meta.url));
const SERVER = resolve(HERE, '..');
const SDK_ENTRY = join(SERVER, 'sdk', 'index.ts');

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listSources(path);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

function readImports(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((i) => i.fileName);
}

const isOwn = (path: string) => !relative(HERE, path).startsWith('..');
const isTest = (file: string) => file.endsWith('.test.ts');

function findForbiddenImports(file: string): string[] {
  return readImports(file).filter((specifier) => {
    if (!specifier.startsWith('.') && !specifier.startsWith('/')) return false; // node: or a package
    const target = resolve(dirname(file), specifier);
    if (isOwn(target) || target === SDK_ENTRY) return false;
    const isServiceCode =
      !relative(SERVER, target).startsWith('..') && relative(join(SERVER, 'sdk'), target).startsWith('..');
    return !(isTest(file) && isServiceCode);
  });
}

/** Import cycles among the example partner's own files, each as the list of files around it. */
function findCycles(files: readonly string[]): string[][] {
  const ownImports = (file: string) =>
    readImports(file)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolve(dirname(file), s))
      .filter(isOwn);
  const edges = new Map(files.map((file) => [file, ownImports(file)]));
  const cycles: string[][] = [];
  const done = new Set<string>();
  function visit(file: string, path: string[]): void {
    const start = path.indexOf(file);
    if (start !== -1) return void cycles.push(path.slice(start).map((f) => relative(HERE, f)));
    if (done.has(file)) return;
    for (const next of edges.get(file) ?? []) visit(next, [...path, file]);
    done.add(file);
  }
  for (const file of files) visit(file, []);
  return cycles;
}

describe('example partner imports', () => {
  const files = listSources(HERE);

  it('finds the example partner files it checks', () => {
    expect(files.map((f) => relative(HERE, f))).toEqual(
      expect.arrayContaining(['app.ts', 'main.ts', join('routes', 'blind.ts')]),
    );
  });

  const named = files.map((f) => [relative(HERE, f), f]);
  it.each(named)('%s imports only the SDK entry point, node: built-ins, packages and its own files', (_name, file) => {
    expect(findForbiddenImports(file)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(findCycles(files)).toEqual([]);
  });
});
