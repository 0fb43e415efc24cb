import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../src/protocol/errors.ts';

/** Rows of the README's error table: `| \`CODE\` | status | where | meaning |`. */
function readmeErrorRows(): Map<string, string> {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const table = readme.split('<!-- errors:start -->')[1]?.split('<!-- errors:end -->')[0];
  if (!table) throw new Error('README.md has no <!-- errors:start --> … <!-- errors:end --> table');
  const rows = new Map<string, string>();
  for (const line of table.split('\n')) {
    const match = /^\|\s*`([A-Z_]+)`\s*\|\s*([^|]+?)\s*\|/.exec(line);
    if (match) rows.set(match[1]!, match[2]!);
  }
  return rows;
}

describe('the error catalogue and the README error table', () => {
  const rows = readmeErrorRows();

  it('documents every catalogue code with its HTTP status', () => {
    for (const [code, entry] of Object.entries(ERRORS)) {
      expect(rows.has(code), `README is missing ${code}`).toBe(true);
      expect(rows.get(code), `README status of ${code}`).toBe(entry.status === 0 ? '—' : String(entry.status));
    }
  });

  it('documents no code the catalogue does not have', () => {
    for (const code of rows.keys()) expect(Object.hasOwn(ERRORS, code), `${code} is not in the catalogue`).toBe(true);
  });

  it('keeps messages short enough to ship in the widget bundle', () => {
    for (const entry of Object.values(ERRORS)) expect(entry.message.length).toBeLessThanOrEqual(80);
  });
});
