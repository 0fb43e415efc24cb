/**
 * The import rules between the browser folders. The loader and the widget are two
 * bundles: what both need lives in src/shared/ (and src/protocol/), and neither imports the other,
 * so each bundle holds only its own code and a change in one never reaches into the other.
 *
 * scripts/check-boundaries.test.ts runs the check on the tree with every unit run;
 * `npx tsx scripts/check-boundaries.ts` prints each broken rule and exits 1.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Folder (from the project root) → the folders its files never import. */
export const BOUNDARIES: Readonly<Record<string, readonly string[]>> = {
  'src/loader': ['src/widget'],
  'src/widget': ['src/loader'],
  // both bundles import it: whatever it pulled in would land in both
  'src/shared': ['src/loader', 'src/widget', 'src/phone', 'src/demo'],
  // the server compiles it too (server/tsconfig.build.json): no browser code in it
  'src/protocol': ['src/loader', 'src/widget', 'src/shared', 'src/phone', 'src/demo'],
};

/**
 * Tests are exempt: they ship in neither bundle, and some play the page that hosts both (the flow
 * test drives the UI with the loader's real config parser and create call).
 */
const EXEMPT = /\.test\.tsx?$/;

function sourceFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(m?ts|tsx)$/.test(name) && !EXEMPT.test(name) ? [path] : [];
  });
}

/**
 * Every import that breaks a rule, one line each (`file imports specifier: from must not import to`);
 * empty when the tree keeps them. Reads `import`, `import type`, `export … from`, `import()` and
 * `import('…').T`, not comments or strings.
 *
 * @example
 * findBoundaryViolations(process.cwd())
 * // ['src/widget/model/flow.ts imports ../../loader/result.ts: src/widget must not import src/loader']
 */
export function findBoundaryViolations(
  root: string,
  boundaries: Readonly<Record<string, readonly string[]>> = BOUNDARIES,
): string[] {
  const violations: string[] = [];
  const posix = (path: string): string => path.split(sep).join('/');
  for (const [from, forbidden] of Object.entries(boundaries)) {
    for (const file of sourceFiles(join(root, from))) {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      for (const { fileName: specifier } of importedFiles) {
        if (!specifier.startsWith('.')) continue; // a package, not a folder of ours
        const target = posix(relative(root, resolve(dirname(file), specifier)));
        const to = forbidden.find((folder) => target === folder || target.startsWith(folder + '/'));
        if (to) violations.push(`${posix(relative(root, file))} imports ${specifier}: ${from} must not import ${to}`);
      }
    }
  }
  return violations.sort();
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, 'check-boundaries.ts')) {
  const violations = findBoundaryViolations(resolve(import.meta.dirname, '..'));
  if (violations.length) {
    console.error(`check-boundaries: FAILED\n  ${violations.join('\n  ')}`);
    process.exitCode = 1;
  } else console.log('check-boundaries: loader, widget, shared and protocol keep their import rules');
}
