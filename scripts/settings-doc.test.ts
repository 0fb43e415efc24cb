import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTINGS, TOOL_VARIABLES, type Setting } from '../server/config.ts';
import { BEGIN, defaultOf, END, OPERATIONS_DOC, renderOperationsDoc } from './settings-doc.ts';

const page = readFileSync(OPERATIONS_DOC, 'utf8');
const rows = page
  .slice(page.indexOf(BEGIN), page.indexOf(END))
  .split('\n')
  .filter((line) => line.startsWith('| `'));

describe("docs/operations.md's settings tables", () => {
  it('are what SETTINGS says: regenerate them with `npm run docs:settings` when this fails', () => {
    expect(page).toBe(renderOperationsDoc(page));
  });

  it('give every variable one row, with its default, its values and what it does', () => {
    const names = [...Object.values(SETTINGS).map((setting) => setting.env), ...Object.keys(TOOL_VARIABLES)];
    expect(rows.map((row) => /^\| `([A-Z0-9_]+)`/.exec(row)?.[1])).toEqual(names);
    for (const row of rows)
      expect(
        row.split(' | ').every((cell) => cell.trim() !== ''),
        row,
      ).toBe(true);
  });

  it('mark the secrets and the sandbox-only settings, and show each rule beside the values it limits', () => {
    const row = (name: string) => rows.find((line) => line.startsWith(`| \`${name}\``)) ?? '';
    expect(row('SVC_MASTER_KEY')).toContain('`SVC_MASTER_KEY` (secret)');
    expect(row('SVC_REDIS_URL')).toContain('(secret)');
    expect(row('SVC_FIXTURES')).toContain('`SVC_FIXTURES` (sandbox)');
    expect(row('SVC_DRAIN_MS')).toContain('| `10000` | 100–120000 ms |');
    expect(row('SVC_WALLET_FORMATS')).toContain('| `all` | `all`, `mso_mdoc`, `dc+sd-jwt` |');
    expect(row('SVC_HEADERS_TIMEOUT_MS')).toContain('1000–600000 ms; at most `SVC_REQUEST_TIMEOUT_MS`');
  });

  it('refuse a computed default without the words the table shows for it', () => {
    const computed: Setting = { ...SETTINGS.apiUrl, defaultDoc: undefined };
    expect(() => defaultOf(computed)).toThrow('SVC_API_URL: a computed default needs defaultDoc');
  });

  it('refuse a page that lost its markers, rather than append the tables somewhere', () => {
    expect(() => renderOperationsDoc(page.replace(END, ''))).toThrow(/markers/);
  });
});
