/**
 * The longest functions of src/ and server/ (tests and server/test/ aside), counted in lines from the first line of
 * the declaration to its closing brace, as the TypeScript parser reads them: function declarations,
 * and functions and arrows assigned to a name (`const createX = (…) => {…}`, an object's methods).
 * docs/development.md lists it with the commands: what to look at first when a function does several jobs.
 *
 * @example npx tsx scripts/function-lengths.ts        # the top 10
 * @example npx tsx scripts/function-lengths.ts 25     # the top 25
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface FunctionLength {
  /** `path:line name` */
  where: string;
  lines: number;
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['node_modules', 'public', 'test'].includes(entry.name)) files.push(...sourceFiles(full));
    } else if (
      /\.tsx?$/.test(entry.name) &&
      !/\.(test|spec|contract)\.tsx?$/.test(entry.name) &&
      !entry.name.endsWith('.d.ts')
    )
      files.push(full);
  }
  return files;
}

/** The name a function goes by: its own, or the variable, property or method it is assigned to. */
function nameOf(node: ts.Node): string | null {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
    const parent = node.parent;
    if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name)
      return parent.name.getText();
  }
  return null;
}

/**
 * Every named function of one file with its length in lines.
 *
 * @example functionLengths('server/a.ts', 'function f() {\n}') // [{ where: 'server/a.ts:1 f', lines: 2 }]
 */
export function functionLengths(path: string, source: string): FunctionLength[] {
  // read as its extension says: in a .ts file `<T>(x: T) => …` is a generic arrow, in a .tsx file JSX
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, kind);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    const name = nameOf(node);
    if (name) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ where: `${path}:${start + 1} ${name}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Every named function of src/ and server/, longest first. */
export function allFunctionLengths(): FunctionLength[] {
  return ['src', 'server']
    .flatMap((dir) => sourceFiles(join(ROOT, dir)))
    .flatMap((full) => functionLengths(relative(ROOT, full).split('\\').join('/'), readFileSync(full, 'utf8')))
    .sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const top = Number(process.argv[2] ?? 10);
  for (const { where, lines } of allFunctionLengths().slice(0, top))
    console.log(`${String(lines).padStart(4)}  ${where}`);
}
