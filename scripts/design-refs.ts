/**
 * Citations of the design (docs/design.md): code comments and docs cite its numbered
 * sections as `design.md §N` (also `docs/design.md §N`, lists `§3, §4`, ranges `§5–6`). This
 * finds, in every text file of a tree, a citation of a section the page does not have, and any
 * citation left in the old form that named a file outside the repository (the word DESIGN, with
 * or without `.md`, before a section sign).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Where the design lives, from the root of the repository. */
export const DESIGN_PATH = 'docs/design.md';

/** Folders never read: dependencies, build output, local data, reports. */
const SKIPPED_DIRS = new Set([
  '.git',
  'node_modules',
  'dist',
  'data',
  'test-results',
  'playwright-report',
  'coverage',
  '.vite',
]);

/** Larger files are data, not prose (package-lock.json is the largest text file, ~0.5 MB). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** One section, a list (`§3, §4`, `§11 and §12`) or ranges (`§5–6`, `§3-§5`) after `design.md`. */
const SECTION = String.raw`§\d+(?:\s*[–-]\s*§?\d+)?`;
const CITATION = new RegExp(
  String.raw`(?<![\w-])design\.md\s+(${SECTION}(?:(?:\s*,\s*|\s+and\s+|\s+or\s+)${SECTION})*)`,
  'g',
);
/** The old form: the word in capitals, `.md` or not, then a section sign. */
const OLD_FORM = /\bDESIGN(?:\.md)?\s*§/g;

/**
 * The numbered sections of the design page (`## 3. Widget-internal API …`), outside fenced code.
 *
 * @example readDesignSections('## 1. Parts and processes\n## 2. Fixtures') // Map { 1 => 'Parts and processes', 2 => 'Fixtures' }
 */
export function readDesignSections(markdown: string): Map<number, string> {
  const sections = new Map<number, string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^## (\d+)\. (.+?)\s*$/.exec(line);
    if (heading) sections.set(Number(heading[1]), heading[2]!);
  }
  return sections;
}

/**
 * The section numbers each citation in `text` names, with its 1-based line.
 *
 * @example findCitations('see design.md §3, §5–6') // [{ line: 1, text: 'design.md §3, §5–6', sections: [3, 5, 6] }]
 */
export function findCitations(text: string): { line: number; text: string; sections: number[] }[] {
  return [...text.matchAll(CITATION)].map((match) => {
    const sections: number[] = [];
    for (const [, from, to] of match[1]!.matchAll(/§(\d+)(?:\s*[–-]\s*§?(\d+))?/g)) {
      const first = Number(from);
      const last = to === undefined ? first : Number(to);
      // A backwards range names nothing: reported as its first number past the page's end.
      if (last < first) sections.push(Number.MAX_SAFE_INTEGER);
      for (let n = first; n <= last; n++) sections.push(n);
    }
    return { line: lineOf(text, match.index), text: match[0].replace(/\s+/g, ' '), sections };
  });
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Every text file under `root`, relative paths with `/`, skipping dependencies and build output. */
export function listTextFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(path);
      } else if (entry.isFile() && statSync(path).size <= MAX_FILE_BYTES) {
        files.push(relative(root, path).split('\\').join('/'));
      }
    }
  };
  walk(root);
  return files.sort();
}

export interface CitationProblems {
  /** `file:line: <the citation> names no section of docs/design.md` */
  unknown: string[];
  /** `file:line: <the old-form citation>` */
  oldForm: string[];
}

/**
 * Reads every text file of the tree at `root` and reports citations of sections that
 * `root/docs/design.md` lacks, and old-form citations. A section sign alone inside the design page
 * cites the page itself and is checked too.
 *
 * @example const { unknown, oldForm } = checkDesignCitations(ROOT) // both [] when all is well
 */
export function checkDesignCitations(root: string): CitationProblems {
  let design = '';
  try {
    design = readFileSync(join(root, DESIGN_PATH), 'utf8');
  } catch {
    // no page: every citation names a missing section
  }
  const sections = readDesignSections(design);
  const problems: CitationProblems = { unknown: [], oldForm: [] };
  for (const file of listTextFiles(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    if (text.includes('\0')) continue;
    const citations =
      file === DESIGN_PATH
        ? [...text.matchAll(/(?<![\w.])§(\d+)(?![\d.])/g)].map((match) => ({
            line: lineOf(text, match.index),
            text: match[0],
            sections: [Number(match[1])],
          }))
        : findCitations(text);
    for (const citation of citations) {
      const missing = citation.sections.filter((n) => !sections.has(n));
      if (missing.length > 0)
        problems.unknown.push(`${file}:${citation.line}: ${citation.text} names no section of ${DESIGN_PATH}`);
    }
    for (const match of text.matchAll(OLD_FORM)) {
      const rest = /^[^\n]{0,20}/.exec(text.slice(match.index))![0];
      problems.oldForm.push(`${file}:${lineOf(text, match.index)}: ${rest.trim()}`);
    }
  }
  return problems;
}
