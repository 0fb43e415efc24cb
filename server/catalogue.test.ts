import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../src/protocol/errors.ts';

const START = '<!-- errors:start -->';
const END = '<!-- errors:end -->';

/** The one page among README.md and docs/*.md that holds the error table, wherever it lands. */
function findErrorTablePage(): { name: string; text: string } {
  const docs = new URL('../docs/', import.meta.url);
  const pages = [
    { name: 'README.md', url: new URL('../README.md', import.meta.url) },
    ...readdirSync(docs)
      .filter((f) => f.endsWith('.md'))
      .map((f) => ({ name: `docs/${f}`, url: new URL(f, docs) })),
  ].map(({ name, url }) => ({ name, text: readFileSync(url, 'utf8') }));
  const holders = pages.filter((page) => page.text.includes(START));
  if (holders.length !== 1) throw new Error(`expected one page with ${START} … ${END}, found ${holders.length}`);
  return holders[0]!;
}

/** Rows of the error table: `| \`CODE\` | status | where | meaning |`. */
function readErrorRows(): Map<string, string> {
  const page = findErrorTablePage();
  const table = page.text.split(START)[1]?.split(END)[0];
  if (!table) throw new Error(`${page.name} has no ${START} … ${END} table`);
  const rows = new Map<string, string>();
  for (const line of table.split('\n')) {
    const match = /^\|\s*`([A-Z_]+)`\s*\|\s*([^|]+?)\s*\|/.exec(line);
    if (match) rows.set(match[1]!, match[2]!);
  }
  return rows;
}

describe('the error catalogue and the documented error table', () => {
  const rows = readErrorRows();

  it('documents every catalogue code with its HTTP status', () => {
    for (const [code, entry] of Object.entries(ERRORS)) {
      expect(rows.has(code), `the error table is missing ${code}`).toBe(true);
      expect(rows.get(code), `documented status of ${code}`).toBe(entry.status === 0 ? '—' : String(entry.status));
    }
  });

  it('documents no code the catalogue does not have', () => {
    for (const code of rows.keys()) expect(Object.hasOwn(ERRORS, code), `${code} is not in the catalogue`).toBe(true);
  });

  it('keeps messages short enough to ship in the widget bundle', () => {
    for (const entry of Object.values(ERRORS)) expect(entry.message.length).toBeLessThanOrEqual(80);
  });
});
