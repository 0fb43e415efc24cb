import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The SDK is published alone (server/sdk/package.json): its code imports node: built-ins and its
// own files only (no package, nothing elsewhere in the repository). The one exception is the
// testing entry, which drives the QA team's own Playwright (a peer dependency of that entry
// alone). Its tests may use the service.
const HERE = dirname(fileURLToPath(import.meta.url));
const SOURCES = readdirSync(HERE).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
const PEERS: Readonly<Record<string, readonly string[]>> = { 'testing.ts': ['@playwright/test'] };

function importsOf(name: string): string[] {
  return ts.preProcessFile(readFileSync(join(HERE, name), 'utf8'), true, true).importedFiles.map((i) => i.fileName);
}

describe('SDK imports', () => {
  it('checks every source file of the SDK', () => {
    expect(SOURCES).toEqual(
      expect.arrayContaining(['index.ts', 'client.ts', 'billing.ts', 'request.ts', 'types.ts', 'testing.ts']),
    );
  });

  it.each(SOURCES)('%s imports only node: built-ins and files of this directory', (name) => {
    const allowed = PEERS[name] ?? [];
    expect(
      importsOf(name).filter((s) => !s.startsWith('node:') && !/^\.\/[\w.-]+\.ts$/.test(s) && !allowed.includes(s)),
    ).toEqual([]);
  });

  it('keeps Playwright out of the main entry: index.ts never reaches testing.ts', () => {
    const reached = new Set<string>();
    const visit = (name: string): void => {
      if (reached.has(name)) return;
      reached.add(name);
      for (const s of importsOf(name)) if (s.startsWith('./')) visit(s.slice(2));
    };
    visit('index.ts');
    expect(reached).not.toContain('testing.ts');
    expect([...reached].filter((name) => !SOURCES.includes(name))).toEqual([]);
  });
});
