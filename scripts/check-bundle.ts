/**
 * Budgets and forbidden strings for the two scripts partners' pages load
 * (docs/development.md#building-the-widget), and no sandbox persona in the phone page's up-front
 * scripts (docs/design.md §4). scripts/build.ts runs them on every build; they have no side effect
 * beyond running the system's `gzip` to measure and reading the built page.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import personas from '../fixtures/personas.json' with { type: 'json' };
import { LOCALES } from '../src/protocol/wire.ts';
import { SANDBOX_COPY } from '../src/phone/sandbox/copy/all.ts';

/**
 * Bytes after `gzip -9`, measured both ways {@link bundleSize} says. `ui` is the
 * bundle alone (it carries fr); `locale` is each other language's script beside it (English
 * included), on its own (design.md §20, docs/embedding.md#languages), so a visitor in any language
 * downloads at most `ui` + `locale`. The loader's goal is
 * 2,400 B; its budget holds what it weighed with every behaviour it has, 2,822–2,825 B by the
 * UI bundle's name it carries (2,815–2,818 B since createSvc's split paid for itself and more),
 * so that it cannot creep back (docs/bytes.md says what
 * stands between the two, what resume, design.md §14, costs it, and how the 24 languages were
 * paid for). `ui`'s budget is what it weighed before the 24 languages, 12,232 B: it may not grow (the
 * countdown in words was paid for inside it, docs/bytes.md). `private` is the blinding chunk beside the UI bundle
 * (docs/adult-blind.md#private-attestations), loaded only on pages of partners that opted in to
 * private attestations: @cloudflare/privacypass-ts's publicly verifiable tokens and
 * @cloudflare/blindrsa-ts with its sjcl, 30,187 B when it was added, with some room for the
 * libraries' patch releases.
 */
export const BUDGETS = { loader: 2828, ui: 12232, locale: 900, private: 32768 } as const;
export type BundleName = 'loader' | 'ui' | 'private';

/** The names the bundles are served under, for callers that do not give one (the UI's hash is ten characters). */
export const DEFAULT_FILE_NAMES: Readonly<Record<BundleName, string>> = {
  loader: 'loader.min.js',
  ui: 'ui.0123456789.js',
  private: 'ui.0123456789-private.js',
};

/**
 * Never in a browser bundle: server imports, signing code, secrets and their names, live partner
 * ids, private keys, and the QR encoder (qrcode-generator's own error text: the service encodes,
 * the widget only draws). Matched case-insensitively.
 */
export const FORBIDDEN = [
  'node:',
  'createHmac',
  'secret',
  'SVC_',
  'pk_live_',
  'BEGIN PRIVATE',
  'code length overflow',
] as const;

/**
 * What the blinding chunk may carry that the other bundles may not: its libraries' own words
 * (sjcl's and blindrsa-ts's `secretKey` members, never a value: the browser holds no key, it
 * only blinds for a public one). Their error messages are theirs too, so the chunk has no prose check.
 */
export const ALLOWED_IN_PRIVATE: readonly string[] = ['secret'];

/** A string literal of this many words or more is developer prose that belongs behind import.meta.env.DEV. */
export const MAX_WORDS_IN_A_STRING = 12;

/**
 * Size after Node's zlib at level 9 (no file name in the header).
 *
 * @example gzipSize(readFileSync('dist/v4/loader.min.js')) // 3001
 */
export function gzipSize(code: string | Uint8Array): number {
  return gzipSync(code, { level: 9 }).length;
}

/**
 * Size as `gzip -9c dist/v4/loader.min.js | wc -c` counts it with GNU gzip: its own deflate, which
 * is not zlib's (on the loader some 25 B more), and the header with the file's name (RFC 1952
 * FNAME: the name and a zero byte), which gzip stores for a file but not for its standard input.
 * Null when there is no `gzip` on PATH.
 *
 * @example systemGzipSize(readFileSync('dist/v4/loader.min.js'), 'loader.min.js') // 3040
 */
export function systemGzipSize(code: string | Uint8Array, fileName: string): number | null {
  const run = spawnSync('gzip', ['-9c'], { input: code, maxBuffer: 64 * 1024 * 1024 });
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return null;
  if (run.error || run.status !== 0) throw new Error(`gzip -9c failed: ${run.error ?? run.stderr}`);
  return run.stdout.length + Buffer.byteLength(basename(fileName)) + 1;
}

/**
 * The size a budget holds: the larger of zlib's ({@link gzipSize}, what the build used to
 * measure) and GNU gzip's with the file's name ({@link systemGzipSize}, what people measure).
 *
 * @example bundleSize(readFileSync('dist/v4/loader.min.js'), 'loader.min.js') // 3040
 */
export function bundleSize(code: string | Uint8Array, fileName: string): number {
  return Math.max(gzipSize(code), systemGzipSize(code, fileName) ?? 0);
}

/**
 * Everything wrong with one built bundle, as one line each; empty when it passes. `fileName`
 * is the name it is served under (its length counts in gzip's header).
 *
 * @example
 * checkBundle('loader', code) // ['loader: 3040 bytes gzip, over its 2816 budget']
 */
export function checkBundle(name: BundleName, code: string, fileName = DEFAULT_FILE_NAMES[name]): string[] {
  const problems: string[] = [];
  const size = bundleSize(code, fileName);
  if (size > BUDGETS[name]) problems.push(`${name}: ${size} bytes gzip, over its ${BUDGETS[name]} budget`);
  const lower = code.toLowerCase();
  const library = name === 'private';
  for (const forbidden of FORBIDDEN) {
    if (library && ALLOWED_IN_PRIVATE.includes(forbidden)) continue;
    if (lower.includes(forbidden.toLowerCase())) problems.push(`${name}: contains forbidden string "${forbidden}"`);
  }
  for (const prose of library ? [] : findProse(code))
    problems.push(`${name}: developer prose in the bundle: "${prose.slice(0, 60)}…"`);
  return problems;
}

/**
 * Everything wrong with one locale script (`ui.<hash>-de.js`): over its own 900 B budget
 * (design.md §20), or a forbidden string. Its copy is user-facing by design, so no prose check.
 *
 * @example checkLocaleScript('de', deCode, 'ui.Ab12.js') // [] when the script fits 900 bytes
 */
export function checkLocaleScript(locale: string, code: string, uiFileName = DEFAULT_FILE_NAMES.ui): string[] {
  const problems: string[] = [];
  const size = bundleSize(code, uiFileName.replace(/\.js$/, `-${locale}.js`));
  if (size > BUDGETS.locale) problems.push(`ui-${locale}: ${size} bytes gzip, over its ${BUDGETS.locale} budget`);
  const lower = code.toLowerCase();
  for (const forbidden of FORBIDDEN) {
    if (lower.includes(forbidden.toLowerCase()))
      problems.push(`ui-${locale}: contains forbidden string "${forbidden}"`);
  }
  return problems;
}

/**
 * String literals that read like sentences (long developer messages). User-facing copy is short
 * by design (one-line titles and help), so a long sentence is a leak. Minifiers quote with
 * backticks too, so a "literal" that contains code punctuation is the code between two strings,
 * not a string.
 *
 * @example findProse('x("Please check that the data-partner-id attribute is set on the script tag, then reload")') // [that string]
 */
export function findProse(code: string): string[] {
  const found: string[] = [];
  for (const match of code.matchAll(/(["'`])((?:(?!\1)[^\\\n]|\\.){40,}?)\1/g)) {
    const text = match[2] ?? '';
    if (/[{}=;<>`]/.test(text)) continue;
    const words = text.split(/\s+/).filter((w) => /^[\p{L}'’,.:!?-]+$/u.test(w));
    if (words.length >= MAX_WORDS_IN_A_STRING) found.push(text);
  }
  return found;
}

/**
 * What gives a sandbox persona away (fixtures/personas.json, the persona picker's copy in every
 * locale): its id, its name, each of its labels, its birth date.
 *
 * @example personaMarks().includes('fr-adult-f') // true
 */
export function personaMarks(): string[] {
  const marks = personas.flatMap((persona) => [
    persona.id,
    persona.label,
    persona.label.split(' — ')[0]!,
    ...(persona.birth_date ? [persona.birth_date] : []),
  ]);
  for (const copy of Object.values(SANDBOX_COPY)) marks.push(...Object.values(copy.personas));
  return [...new Set(marks)];
}

/** A module's static imports and re-exports (`import{a}from"./x.js"`, `import"./x.js"`), not its import() calls. */
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[^"'`();]*?\bfrom\s*)?["']([^"']+\.js)["']/g;
/** Where a page's sandbox-only scripts are built (build.ts SANDBOX_ASSETS); production serves none of it. */
const SANDBOX_DIR = 'sandbox';
/** A module's import() calls of a sibling (`import("./fr-Ab12.js")`, or in backquotes). */
const DYNAMIC_IMPORT = /\bimport\(\s*["'`]([^"'`]+\.js)["'`]\s*\)/g;

function entryScripts(pageDir: string, base: string): string[] {
  const html = readFileSync(join(pageDir, 'index.html'), 'utf8');
  return [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="([^"]+\.js)"/g)].map(
    ([, url]) => posix.normalize(url!.startsWith(base) ? url!.slice(base.length) : url!.replace(/^\//, '')),
  );
}

/** A language's chunk of a page (design.md §20: `pl-Cd34.js`), the one thing a page loads by import() in production. */
const LANGUAGE_CHUNK = new RegExp(`^(?:${LOCALES.join('|')})-[\\w-]+\\.js$`);

/**
 * What `queue` loads, transitively: static imports always, import() of a language's chunk when
 * `languages`; nothing in sandbox/ (production never serves it).
 */
function closure(pageDir: string, queue: string[], languages: boolean): string[] {
  const found = new Set<string>();
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (found.has(file) || file.startsWith(`${SANDBOX_DIR}/`) || !existsSync(join(pageDir, file))) continue;
    found.add(file);
    const code = readFileSync(join(pageDir, file), 'utf8');
    for (const [, specifier] of code.matchAll(STATIC_IMPORT))
      if (specifier!.startsWith('.')) queue.push(posix.join(dirname(file), specifier!));
    if (languages)
      for (const [, specifier] of code.matchAll(DYNAMIC_IMPORT))
        if (specifier!.startsWith('./') && LANGUAGE_CHUNK.test(basename(specifier!)))
          queue.push(posix.join(dirname(file), specifier!));
  }
  return [...found];
}

/**
 * The scripts a built page runs up front, as paths under `pageDir`: its module scripts and
 * modulepreload links in index.html, and every module those import statically, transitively.
 * What they load with import() (the phone's language, its sandbox wing) is not among them.
 *
 * @example upFrontScripts('dist/phone', '/m/') // ['assets/index-Ab12.js']
 */
export function upFrontScripts(pageDir: string, base: string): string[] {
  return closure(pageDir, entryScripts(pageDir, base), false);
}

/**
 * Every script a built page may run in production: the up-front ones and the languages it loads by
 * import() (design.md §20: one a visitor); not the sandbox wing, nor what only the wing imports.
 *
 * @example loadableScripts('dist/phone', '/m/') // ['assets/index-Ab12.js', 'assets/pl-Cd34.js', …]
 */
export function loadableScripts(pageDir: string, base: string): string[] {
  return closure(pageDir, entryScripts(pageDir, base), true);
}

/**
 * The built phone page's problems, one line each: a sandbox persona ({@link personaMarks}) in a
 * script it runs up front. The persona picker is the sandbox wing, loaded with import() only when
 * the service says sandbox (src/phone/main.tsx), so production's visitors never download it.
 *
 * @example checkPhonePage('dist/phone', '/m/') // ['phone: assets/index-Ab12.js carries the persona "fr-adult-f"']
 */
export function checkPhonePage(pageDir: string, base: string, marks: readonly string[] = personaMarks()): string[] {
  const scripts = upFrontScripts(pageDir, base);
  if (scripts.length === 0) return [`phone: no script found in ${join(pageDir, 'index.html')}`];
  const personas = scripts.flatMap((file) => {
    const code = readFileSync(join(pageDir, file), 'utf8');
    return marks.filter((mark) => code.includes(mark)).map((mark) => `phone: ${file} carries the persona "${mark}"`);
  });
  // Production serves assets/ only: a script there that the page neither runs up front nor loads as
  // its language is the sandbox's, and would answer anyone who asks for it by name.
  const loadable = new Set(loadableScripts(pageDir, base));
  const stray = readdirSync(join(pageDir, 'assets'))
    .filter((name) => name.endsWith('.js') && !loadable.has(`assets/${name}`))
    .map(
      (name) => `phone: assets/${name} is loaded only in sandbox, yet production serves assets/ (move it to sandbox/)`,
    );
  return [...personas, ...stray];
}
