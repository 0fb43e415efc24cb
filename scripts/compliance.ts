/**
 * docs/compliance.md read as data (design.md §22): its rows, the tests and benchmarks each names
 * in "shown by", and the test titles a vitest or Playwright file declares, so a name can be
 * checked (scripts/compliance.test.ts) and run (scripts/evidence.ts).
 *
 * @example
 * const rows = readComplianceTable(readFileSync('docs/compliance.md', 'utf8'));
 * missingReferences(rows, REPO_ROOT) // [] when every named test exists
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestReference {
  kind: 'test';
  /** path from the repository root, e.g. e2e/csp.spec.ts */
  file: string;
  /** the title as the table writes it: a title, or an `it.each`/template title filled in or as written */
  title: string;
  runner: 'vitest' | 'playwright';
}

export interface BenchmarkReference {
  kind: 'benchmark';
  /** the package.json script, e.g. bench:widget */
  script: string;
}

export type Reference = TestReference | BenchmarkReference;

export interface ComplianceRow {
  source: string;
  requirement: string;
  how: string;
  /** the "shown by" cell as written */
  shownBy: string;
  references: Reference[];
  gap: boolean;
}

const SEPARATOR = ' › ';

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

function parseReference(code: string): Reference | null {
  const bench = /^npm run ([\w:.-]+)$/.exec(code);
  if (bench) return { kind: 'benchmark', script: bench[1]! };
  const at = code.indexOf(SEPARATOR);
  if (at < 0) return null;
  const file = code.slice(0, at);
  return {
    kind: 'test',
    file,
    title: code.slice(at + SEPARATOR.length),
    runner: file.endsWith('.spec.ts') ? 'playwright' : 'vitest',
  };
}

/** The rows of the `| source § | requirement | how | shown by |` table. */
export function readComplianceTable(markdown: string): ComplianceRow[] {
  const lines = markdown.split('\n');
  const header = lines.findIndex((line) =>
    /^\|\s*source §\s*\|\s*requirement\s*\|\s*how\s*\|\s*shown by\s*\|$/.test(line),
  );
  if (header < 0) throw new Error('docs/compliance.md has no | source § | requirement | how | shown by | table');
  const rows: ComplianceRow[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [source = '', requirement = '', how = '', shownBy = ''] = cells(line);
    const references = [...shownBy.matchAll(/`([^`]+)`/g)]
      .map((match) => parseReference(match[1]!))
      .filter((ref): ref is Reference => ref !== null);
    rows.push({ source, requirement, how, shownBy, references, gap: /\*\*Gap\*\*/.test(requirement + how) });
  }
  return rows;
}

/** A title template (`%s`, `$name`, `${expr}`) as a regular expression over the titles it makes. */
export function titlePattern(template: string): RegExp {
  const parts = template.split(/(%[sdifjoO#%]|\$\{[^}]*\}|\$[A-Za-z_][\w.]*)/);
  const source = parts
    .map((part, i) => (i % 2 === 1 ? (part === '%%' ? '%' : '.+?') : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** Unescapes a JavaScript string literal's body (the quotes already gone). */
function unescape(body: string): string {
  return body.replace(/\\(.)/g, (_m, c: string) => ({ n: '\n', t: '\t' })[c] ?? c);
}

/**
 * The titles a test file declares: the first argument of `it(`, `test(`, `it.each(…)(`,
 * `test.describe(` is not one (describe blocks are not named in the table). Templates stay as
 * written (`%s`, `${theme}`).
 */
export function declaredTitles(source: string): string[] {
  const titles: string[] = [];
  const literal = String.raw`(['"\x60])((?:\\.|(?!\1)[^\\])*)\1`;
  const direct = new RegExp(String.raw`\b(?:it|test)(?:\.(?:only|skip|concurrent|fails))?\(\s*` + literal, 'g');
  for (const match of source.matchAll(direct)) titles.push(unescape(match[2]!));
  const each = new RegExp(String.raw`\b(?:it|test)\.each\b[\s\S]*?\)\(\s*` + literal, 'g');
  for (const match of source.matchAll(each)) titles.push(unescape(match[2]!));
  return titles;
}

/** Whether `title` (as the table writes it) is one `declared` in the file makes. */
export function titleExists(title: string, declared: readonly string[]): boolean {
  return declared.some((template) => template === title || titlePattern(template).test(title));
}

/** Every reference of `rows` that names no existing test or script, as `file › title` or `npm run x`. */
export function missingReferences(rows: readonly ComplianceRow[], root: string): string[] {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const titlesOf = new Map<string, string[] | null>();
  const missing: string[] = [];
  for (const ref of rows.flatMap((row) => row.references)) {
    if (ref.kind === 'benchmark') {
      if (!(ref.script in scripts)) missing.push(`npm run ${ref.script}`);
      continue;
    }
    if (!titlesOf.has(ref.file)) {
      const path = join(root, ref.file);
      titlesOf.set(ref.file, existsSync(path) ? declaredTitles(readFileSync(path, 'utf8')) : null);
    }
    const declared = titlesOf.get(ref.file);
    if (!declared || !titleExists(ref.title, declared)) missing.push(`${ref.file}${SEPARATOR}${ref.title}`);
  }
  return missing;
}

/** A title as a runner's name filter (`vitest -t`, `playwright -g`): its templates as wildcards. */
export function titleFilter(title: string): string {
  return titlePattern(title).source.replace(/^\^|\$$/g, '');
}
