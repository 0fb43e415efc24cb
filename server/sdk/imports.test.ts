import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The SDK is published alone later: its code imports node: built-ins and its own files only
// (no package, nothing elsewhere in the repository). Its tests may use the service.
const HERE = dirname(fileURLToPath(import.meta.url));
const SOURCES = readdirSync(HERE).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

describe('SDK imports', () => {
  it('checks every source file of the SDK', () => {
    expect(SOURCES).toEqual(expect.arrayContaining(['index.ts', 'client.ts', 'billing.ts', 'request.ts', 'types.ts']));
  });

  it.each(SOURCES)('%s imports only node: built-ins and files of this directory', (name) => {
    const specifiers = ts.preProcessFile(readFileSync(join(HERE, name), 'utf8'), true, true).importedFiles.map((i) => i.fileName);
    expect(specifiers.filter((s) => !s.startsWith('node:') && !/^\.\/[\w.-]+\.ts$/.test(s))).toEqual([]);
  });
});
