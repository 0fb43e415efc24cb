/**
 * docs/compliance.md (design.md §22): every test or benchmark a row names exists, every source
 * the map promises has rows, the honest gaps stay; and the check itself finds a name that does
 * not exist.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../server/test/helpers.ts';
import { declaredTitles, missingReferences, readComplianceTable, titleExists } from './compliance.ts';

const rows = readComplianceTable(readFileSync(join(REPO_ROOT, 'docs', 'compliance.md'), 'utf8'));

describe('docs/compliance.md', () => {
  it('names only tests and benchmarks that exist', () => {
    expect(rows.flatMap((row) => row.references).length).toBeGreaterThan(40);
    expect(missingReferences(rows, REPO_ROOT)).toEqual([]);
  });

  it('has rows for ARCOM, the EU blueprint, the five ISO/IEC 27566-1 characteristics, WCAG 2.2 AA and OWASP ASVS 5.0 L2', () => {
    const sources = rows.map((row) => row.source).join('\n');
    for (const source of [
      'ARCOM référentiel',
      'EU blueprint threat model',
      'EU blueprint technical spec',
      'ISO/IEC 27566-1 functionality',
      'ISO/IEC 27566-1 privacy',
      'ISO/IEC 27566-1 accessibility',
      'ISO/IEC 27566-1 security',
      'ISO/IEC 27566-1 performance',
      'WCAG 2.2 AA',
      'OWASP ASVS 5.0 L2',
    ])
      expect(sources).toContain(source);
  });

  it('keeps the gaps as rows: zero-knowledge proofs, and a QR code relayed to another phone with its mitigation', () => {
    const gaps = rows.filter((row) => row.gap);
    expect(gaps.map((row) => row.requirement + row.how).join('\n')).toMatch(/ZK proofs/);
    const relay = gaps.find((row) => /relayed/.test(row.requirement))!;
    expect(relay.how).toMatch(/Digital Credentials API/);
    expect(relay.references.length).toBeGreaterThan(0);
    // A row without a named test is a gap, said so.
    for (const row of rows.filter((r) => r.references.length === 0)) expect(row.gap, row.requirement).toBe(true);
  });

  it('finds a named test that does not exist, in a file that does not exist or under a title the file lacks', () => {
    const table = [
      '| source § | requirement | how | shown by |',
      '| --- | --- | --- | --- |',
      '| X | y | z | `server/privacy.test.ts › never logs a nullifier beside the app or origin`<br>' +
        '`server/privacy.test.ts › never logs a nullifier anywhere` |',
      '| X | y | z | `e2e/nowhere.spec.ts › a journey` and `npm run bench:nothing` |',
    ].join('\n');
    expect(missingReferences(readComplianceTable(table), REPO_ROOT)).toEqual([
      'server/privacy.test.ts › never logs a nullifier anywhere',
      'e2e/nowhere.spec.ts › a journey',
      'npm run bench:nothing',
    ]);
  });

  it('reads it.each and template titles, filled in or as written', () => {
    const declared = declaredTitles(
      [
        "it.each(['a', 'b'])('keeps no piece of a %s proof', () => {});",
        'test(`the widget (${theme}, ${locale})`, async () => {});',
        "it('plain', () => {});",
      ].join('\n'),
    );
    expect(declared).toEqual(['the widget (${theme}, ${locale})', 'plain', 'keeps no piece of a %s proof']);
    expect(titleExists('keeps no piece of a PID mdoc proof', declared)).toBe(true);
    expect(titleExists('the widget (dark, en)', declared)).toBe(true);
    expect(titleExists('the widget (${theme}, ${locale})', declared)).toBe(true);
    expect(titleExists('keeps a piece of a PID mdoc proof', declared)).toBe(false);
  });
});
