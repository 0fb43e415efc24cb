/**
 * `npm run build`: everything the service serves from dist/ (design.md §1, §7):
 *
 *   dist/v4/ui.<hash>.js      the UI bundle (IIFE), immutable; it carries the fr copy
 *   dist/v4/ui.<hash>-de.js   one small script per other locale (the 23 of design.md §20), loaded only
 *                             when a widget speaks it; <hash> covers the bundle and every locale
 *   dist/v4/loader.min.js     the loader (IIFE), built after the UI because it carries the UI's name
 *   dist/phone/               the phone page (src/phone/index.html), assets under /m/assets/; its
 *                             sandbox wing (the persona picker) a script of its own in phone/sandbox/
 *                             (/m/sandbox/, served in sandbox only), loaded by import() in sandbox
 *                             only: no persona in the scripts it runs up front
 *   dist/demo/                the designers' page (src/demo/index.html), assets under /demo/assets/
 *   dist/node/                the service compiled to plain JavaScript (server/tsconfig.build.json):
 *                             production runs `node dist/node/server/main.js`, with no TypeScript loader
 *   <file>.br, <file>.gz      beside every JS, CSS, HTML, SVG and JSON file the service serves (v4/,
 *                             phone/, demo/): brotli and gzip at maximum quality, deterministic, written
 *                             only where they save bytes; the service picks one by Accept-Encoding
 *                             (server/routes/assets.ts, design.md §1)
 *
 * It builds into a temporary directory and swaps it in only when the size budgets, the
 * forbidden-string scan and the phone page's persona scan pass, so a failed build never leaves a half-written dist/ behind.
 * `--analyze` (npm run analyze) also writes dist/stats.html (UI) and dist/stats-loader.html;
 * `--keep-failed` leaves a build that failed its checks in .vite/ to look at.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { visualizer } from 'rollup-plugin-visualizer';
import { build, type InlineConfig, type Plugin, type Rolldown } from 'vite';
import { LOCALES, type Locale } from '../src/protocol/wire.ts';
import { localeScriptUrl, PRIVATE_CHUNK } from '../src/shared/locale.ts';
import { ALL_COPY } from '../src/widget/copy/all.ts';
import { copyValues } from '../src/widget/copy/order.ts';
import { copyGlobal } from '../src/widget/copy/register.ts';
import { oxc } from '../vite.config.ts';
import {
  BUDGETS,
  checkBundle,
  checkLocaleScript,
  checkPhonePage,
  gzipSize,
  systemGzipSize,
  loadableScripts,
  upFrontScripts,
  type BundleName,
} from './check-bundle.ts';

const root = resolve(import.meta.dirname, '..');
// What ships is the production build, whoever runs it: `npm start` and the cluster's start rebuild
// from a process whose NODE_ENV may be `test` (the journeys'), which Vite would otherwise keep,
// leaving Preact's development code in the bundles and the budgets broken.
process.env.NODE_ENV = 'production';
const analyze = process.argv.includes('--analyze');
/** `--keep-failed`: leave a build that failed its checks in .vite/ for inspection */
const keepFailed = process.argv.includes('--keep-failed');
const distDir = resolve(root, process.env.SVC_DIST_DIR || 'dist');
// Inside the project (same filesystem, so the final rename is atomic) and git-ignored.
const tmpDir = resolve(root, '.vite', `build-${process.pid}`);

/** The pages other areas own; built when their entry exists. */
const PAGES = [
  { name: 'phone', base: '/m/' },
  { name: 'demo', base: '/demo/' },
] as const;

/** The locales the UI bundle loads on demand (fr is inside it: src/widget/copy/index.ts). */
export const LAZY_LOCALES = LOCALES.filter((locale) => locale !== 'fr');

/**
 * A locale script's whole source, as a virtual entry module: `window.__svcCopy_de = [...]`
 * (src/widget/copy/register.ts), the strings in the order of fr.ts's keys
 * (src/widget/copy/order.ts), without the keys.
 */
function localeEntry(locale: Locale): Plugin {
  const id = `\0svc-copy-${locale}`;
  return {
    name: 'svc:locale-entry',
    resolveId: (source) => (source === id ? id : null),
    load: (source) =>
      source === id
        ? `window[${JSON.stringify(copyGlobal(locale))}] = ${JSON.stringify(copyValues(ALL_COPY[locale]))};\n`
        : null,
  };
}

/**
 * Property names that only the loader and the UI bundle use between themselves (the mount
 * contract of src/shared/contract.ts, the loader's own wiring), written as one letter by this one
 * table in both builds so that the two keep agreeing (55 B off the loader's gzip,
 * docs/bytes.md); and names the UI bundle alone uses inside itself (its
 * signals, the flow, the long poll's outcome, the view's props, copy keys read by name only), which
 * paid for resume (design.md §14: about 110 B off the UI, docs/bytes.md). Never a name that
 * the page, the DOM, the wire (src/protocol/wire.ts: `result`, `error`, `request`) or a `data-*`
 * attribute uses, nor one read through a computed key (the icons by name, the copy's
 * `<state>Title`): `config.successPath` keeps its name, it is read from `dataset` under it. The
 * letters are the minifier's own first picks for variables (gzip finds them nearby), then capitals,
 * and none is a property name anywhere in src/ (scripts/build.test.ts checks both).
 */
export const MANGLED_PROPS: Readonly<Record<string, string>> = {
  // between the two scripts
  config: 'e',
  send: 't',
  sent: 'n',
  emit: 'r',
  keepResult: 'i',
  loadCopy: 'a',
  resolveLocale: 'o',
  navigate: 's',
  apiOrigin: 'c',
  serverVerifyTimeoutSeconds: 'l',
  loadUi: 'u',
  raw: 'f',
  problem: 'g',
  storageKey: 'v',
  stored: 'w',
  sentController: 'Y',
  // inside the UI bundle: signals, flow, long poll
  peek: 'M',
  subscribers: 'N',
  sources: 'O',
  create: 'P',
  created: 'Q',
  dispose: 'R',
  retryAfterMs: 'k',
  secondsLeft: 'q',
  onStatus: 'j',
  walletFailed: 'z',
  canUseWallet: 'A',
  useWallet: 'B',
  qrShown: 'D',
  // inside the UI bundle: the view's props and the copy keys it reads by name
  onBackToQr: 'C',
  onShowQr: 'E',
  onRetry: 'F',
  deepLink: 'G',
  walletLink: 'H',
  onWallet: 'I',
  drawing: 'J',
  drawn: 'K',
  sameTab: 'S',
  useWalletHere: 'U',
  mobileTitle: 'V',
  openWalletApp: 'W',
  waitingTitle: 'X',
  mobileHelp: 'Z',
  // inside the UI bundle, from the honest-errors and no-layout-shift change (design.md §14); the
  // last free letters (h, m, x and y are property names in src/, `phone` is an icon's name), then
  // `_` and two characters: the copy keys read by name only and the view's other props
  backToQr: 'b',
  least: 'L',
  retry: 'T',
  copy: '_',
  showQr: '_a',
  help: '_b',
  action: '_c',
  onAction: '_d',
  compact: '_e',
  mark: '_f',
  brand: '_g',
  testMode: '_h',
  expiresIn: '_i',
  qrLabel: '_j',
  openHere: '_k',
  openApp: '_l',
  openWallet: '_m',
  walletTitle: '_n',
  configHelp: '_o',
  icon: '_p',
  wallet: '_q',
  title: '_r',
};

/** The minifier's settings for the widget's scripts: rolldown's defaults, and {@link MANGLED_PROPS}. */
const minify = {
  compress: true,
  mangle: true,
  codegen: true,
  mangleProps: {
    include: new RegExp(`^(${Object.keys(MANGLED_PROPS).join('|')})$`),
    cache: { ...MANGLED_PROPS },
  },
} as const;

function common(): InlineConfig {
  return { root, configFile: false, logLevel: 'warn', mode: 'production', oxc, publicDir: false };
}

/**
 * `require('crypto')` in @cloudflare/blindrsa-ts's copy of sjcl resolved to an empty module, as Vite
 * would for a browser build, but said here instead of warned about on every build: sjcl asks for
 * Node's module only to seed its generator with `randomBytes`, finds none, and seeds from
 * `window.crypto.getRandomValues`, its browser branch (the private chunk runs in a browser).
 */
function noNodeCrypto(): Plugin {
  const id = '\0svc-no-node-crypto';
  return {
    name: 'svc-no-node-crypto',
    enforce: 'pre',
    resolveId: (source) => (source === 'crypto' ? id : null),
    load: (loaded) => (loaded === id ? 'export default {};' : null),
  };
}

/**
 * One IIFE script, minified, named `fileName` under tmpDir; returns the name it got.
 * `inlineConst`: every imported constant is written where it is used (rolldown's
 * optimization.inlineConst in its `all` mode), not only in conditions (its default).
 */
async function buildScript(
  entry: string,
  fileName: string,
  options: {
    define?: Record<string, string>;
    stats?: string;
    plugins?: Plugin[];
    inlineConst?: boolean;
    /** false: no {@link MANGLED_PROPS} (a library's `Object.create` is not the UI's `create`) */
    mangleProps?: boolean;
  } = {},
): Promise<string> {
  const output = await build({
    ...common(),
    define: options.define,
    plugins: [
      ...(options.plugins ?? []),
      ...(options.stats
        ? [visualizer({ filename: join(tmpDir, options.stats), gzipSize: true, template: 'treemap' })]
        : []),
    ],
    build: {
      outDir: tmpDir,
      emptyOutDir: false,
      target: 'es2020',
      minify: true,
      modulePreload: false,
      reportCompressedSize: false,
      rolldownOptions: {
        input: entry.startsWith('\0') ? entry : resolve(root, entry),
        optimization: options.inlineConst ? { inlineConst: true } : undefined,
        output: {
          format: 'iife',
          entryFileNames: fileName,
          comments: { legal: false },
          minify: options.mangleProps === false ? { compress: true, mangle: true, codegen: true } : minify,
        },
      },
    },
  });
  const outputs = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
  const chunk = outputs.flatMap((o) => o.output).find((o) => o.type === 'chunk' && o.isEntry);
  if (!chunk) throw new Error(`build of ${entry} produced no entry chunk`);
  return chunk.fileName;
}

async function buildPage(name: string, base: string): Promise<boolean> {
  const pageRoot = resolve(root, 'src', name);
  if (!existsSync(join(pageRoot, 'index.html'))) return false;
  await build({
    ...common(),
    root: pageRoot,
    base,
    build: {
      outDir: join(tmpDir, name),
      emptyOutDir: true,
      target: 'es2020',
      assetsDir: 'assets',
      reportCompressedSize: false,
      rolldownOptions: {
        // The phone page's sandbox wing (src/phone/sandbox/) goes to sandbox/, a folder production
        // has no route for (server/routes/assets.ts): asked for by name, production answers 404.
        output: {
          chunkFileNames: (chunk) =>
            isSandboxModule(chunk.facadeModuleId ?? '') ||
            (chunk.moduleIds.length > 0 && chunk.moduleIds.every(isSandboxModule))
              ? `${SANDBOX_ASSETS}/[name]-[hash].js`
              : 'assets/[name]-[hash].js',
        },
      },
    },
  });
  return true;
}

/** Where a page's sandbox-only chunks go, beside assets/ (phone/sandbox/ is served at /m/sandbox/ in sandbox only). */
export const SANDBOX_ASSETS = 'sandbox';

/** A module of a page's sandbox wing: under src/<page>/sandbox/. */
function isSandboxModule(id: string): boolean {
  return /[\\/]src[\\/]\w+[\\/]sandbox[\\/]/.test(id);
}

/**
 * Compiles the service (server/, src/protocol/) with tsc into `outDir`; returns tsc's output
 * when it fails, null when it succeeds.
 *
 * @example compileServer(join(tmpDir, 'node')) // null: dist/node/server/main.js runs with plain node
 */
export function compileServer(outDir: string): string | null {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const run = spawnSync(
    process.execPath,
    [tsc, '-p', join(root, 'server', 'tsconfig.build.json'), '--outDir', outDir],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  return run.status === 0 ? null : `${run.stdout}${run.stderr}`.trim() || `tsc exited with ${run.status}`;
}

/** The folders of dist/ the service serves (server/routes/assets.ts); dist/node/ is never served. */
export const SERVED_DIRS = ['v4', 'phone', 'demo'] as const;
/** What is worth compressing: text. Images and fonts in these formats are compressed already. */
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;
/** A variant is written only when it saves more than its `Content-Encoding: gzip` header line costs. */
const MIN_SAVING_BYTES = 32;

/** The encodings written beside a file, in the order a client is offered them: file suffix → compressor. */
export const ENCODINGS = {
  br: {
    suffix: '.br',
    compress: (body: Buffer): Buffer =>
      brotliCompressSync(body, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
          [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
  },
  // zlib writes no timestamp and no file name in the gzip header (mtime 0): same input, same bytes.
  gzip: { suffix: '.gz', compress: (body: Buffer): Buffer => gzipSync(body, { level: 9, memLevel: 9 }) },
} as const;
export type Encoding = keyof typeof ENCODINGS;

/** One served file and the sizes of its variants (null: not written, it would not save bytes). */
export interface Precompressed {
  /** path under dist/, with `/` */
  file: string;
  identity: number;
  br: number | null;
  gzip: number | null;
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every JS, CSS,
 * HTML, SVG and JSON file under `dirs` of `root`, so that the service sends them as they are
 * instead of compressing per request. Deterministic: the same files give the same bytes. A
 * variant that would not save more than MIN_SAVING_BYTES is not written (the file goes as it is).
 *
 * @example precompress('dist') // [{ file: 'v4/loader.min.js', identity: 6423, br: 2677, gzip: 3001 }, …]
 */
export function precompress(root: string, dirs: readonly string[] = SERVED_DIRS): Precompressed[] {
  const results: Precompressed[] = [];
  for (const dir of dirs) {
    if (!existsSync(join(root, dir))) continue;
    const names = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .map((name) => `${dir}/${name.split('\\').join('/')}`)
      .filter((file) => COMPRESSIBLE.test(file) && statSync(join(root, file)).isFile())
      .sort();
    for (const file of names) {
      const body = readFileSync(join(root, file));
      const result: Precompressed = { file, identity: body.length, br: null, gzip: null };
      for (const encoding of Object.keys(ENCODINGS) as Encoding[]) {
        const { suffix, compress } = ENCODINGS[encoding];
        const compressed = compress(body);
        if (compressed.length + MIN_SAVING_BYTES > body.length) continue;
        writeFileSync(join(root, file + suffix), compressed);
        result[encoding] = compressed.length;
      }
      results.push(result);
    }
  }
  return results;
}

/** The phone page's scripts in B and B gzip: up front (every visitor), its languages (one a visitor), the sandbox wing. */
function formatPhoneScripts(phoneDir: string): string {
  const upFront = new Set(upFrontScripts(phoneDir, '/m/'));
  const loadable = new Set(loadableScripts(phoneDir, '/m/'));
  const all = ['assets', SANDBOX_ASSETS]
    .filter((dir) => existsSync(join(phoneDir, dir)))
    .flatMap((dir) =>
      readdirSync(join(phoneDir, dir))
        .filter((f) => f.endsWith('.js'))
        .map((f) => `${dir}/${f}`),
    );
  const weigh = (files: string[]): string => {
    const codes = files.map((f) => readFileSync(join(phoneDir, f)));
    const raw = codes.reduce((sum, c) => sum + c.length, 0);
    return `${raw} B, ${codes.reduce((sum, c) => sum + gzipSize(c), 0)} B zlib -9`;
  };
  const languages = all.filter((f) => loadable.has(f) && !upFront.has(f));
  return (
    `phone page scripts: up front ${weigh([...upFront])}; ${languages.length} language scripts ${weigh(languages)}; ` +
    `loaded in sandbox only ${weigh(all.filter((f) => !loadable.has(f)))}`
  );
}

/** The build's table of what each served file weighs on the wire, by encoding, with totals. */
function formatWireSizes(files: readonly Precompressed[]): string {
  const cell = (size: number | null, identity: number): string => String(size ?? identity).padStart(7);
  const total = (key: 'identity' | Encoding): number => files.reduce((sum, f) => sum + (f[key] ?? f.identity), 0);
  const rows = files.map(
    (f) => `  ${f.file.padEnd(36)} ${cell(f.identity, 0)} ${cell(f.br, f.identity)} ${cell(f.gzip, f.identity)}`,
  );
  return [
    `build: on the wire (B; brotli q11 and gzip -9 written beside each file, identity where they save nothing)`,
    `  ${'file'.padEnd(36)} ${'none'.padStart(7)} ${'br'.padStart(7)} ${'gzip'.padStart(7)}`,
    ...rows,
    `  ${'total'.padEnd(36)} ${cell(total('identity'), 0)} ${cell(total('br'), 0)} ${cell(total('gzip'), 0)}`,
  ].join('\n');
}

async function main(): Promise<void> {
  rmSync(tmpDir, { recursive: true, force: true });
  const started = Date.now();
  try {
    const builtUi = await buildScript('src/widget/main.ts', 'v4/ui.[hash].js', {
      stats: analyze ? 'stats.html' : undefined,
    });
    const uiCode = readFileSync(join(tmpDir, builtUi), 'utf8');
    const localeCodes: Record<string, string> = {};
    for (const locale of LAZY_LOCALES) {
      const built = await buildScript(`\0svc-copy-${locale}`, `v4/copy-${locale}.js`, {
        plugins: [localeEntry(locale)],
      });
      localeCodes[locale] = readFileSync(join(tmpDir, built), 'utf8');
      rmSync(join(tmpDir, built));
    }
    // The blinding chunk (docs/adult-blind.md#private-attestations), added beside the bundle
    // like a locale script, for partners that opted in to private attestations only.
    const builtPrivate = await buildScript('src/private/main.ts', 'v4/private.js', {
      mangleProps: false,
      plugins: [noNodeCrypto()],
    });
    const privateCode = readFileSync(join(tmpDir, builtPrivate), 'utf8');
    rmSync(join(tmpDir, builtPrivate));
    // One name for the bundle, its locale scripts and the chunk, from all of their bytes: a changed
    // translation renames the bundle too, so a cached bundle never meets another copy.
    const digest = createHash('sha256').update(uiCode);
    for (const locale of LAZY_LOCALES) digest.update(`\0${locale}\0${localeCodes[locale]}`);
    digest.update(`\0${PRIVATE_CHUNK}\0${privateCode}`);
    const uiFile = `v4/ui.${digest.digest('base64url').slice(0, 10)}.js`;
    rmSync(join(tmpDir, builtUi));
    writeFileSync(join(tmpDir, uiFile), uiCode);
    for (const locale of LAZY_LOCALES)
      writeFileSync(join(tmpDir, localeScriptUrl(uiFile, locale)!), localeCodes[locale]!);
    const privateFile = localeScriptUrl(uiFile, PRIVATE_CHUNK)!;
    writeFileSync(join(tmpDir, privateFile), privateCode);
    const loaderFile = await buildScript('src/loader/main.ts', 'v4/loader.min.js', {
      define: { __UI_FILE__: JSON.stringify(basename(uiFile)) },
      // UI_GLOBAL and VERSION written in place: 13 B less gzip in the loader (the UI bundle would
      // grow 4 B with it, so it keeps rolldown's default)
      inlineConst: true,
      stats: analyze ? 'stats-loader.html' : undefined,
    });
    const built: string[] = [];
    for (const page of PAGES) {
      if (await buildPage(page.name, page.base)) built.push(`${page.name}/`);
      else console.warn(`build: src/${page.name}/index.html not found, ${page.name} page skipped`);
    }

    const problems: string[] = [];
    if (built.includes('phone/')) {
      const phoneDir = join(tmpDir, 'phone');
      problems.push(...checkPhonePage(phoneDir, '/m/'));
      console.log(`build: ${formatPhoneScripts(phoneDir)}`);
    }
    const tscErrors = compileServer(join(tmpDir, 'node'));
    if (tscErrors) problems.push(`the service did not compile:\n${tscErrors}`);
    else built.push('node/');
    const sizes: string[] = [];
    const line = (file: string, code: string, budget: string): string => {
      const gnu = systemGzipSize(code, file);
      const zlib = `${String(gzipSize(code)).padStart(5)} B zlib -9`;
      const named = gnu === null ? 'no gzip on PATH' : `${String(gnu).padStart(5)} B gzip -9c`;
      return `  ${file.padEnd(27)} ${String(code.length).padStart(6)} B, ${zlib}, ${named} ${budget}`;
    };
    for (const [name, file] of [
      ['loader', loaderFile],
      ['ui', uiFile],
      ['private', privateFile],
    ] as Array<[BundleName, string]>) {
      const code = readFileSync(join(tmpDir, file), 'utf8');
      sizes.push(
        line(file, code, `(budget ${BUDGETS[name]}${name === 'ui' ? `, each locale script ${BUDGETS.locale}` : ''})`),
      );
      problems.push(...checkBundle(name, code, file));
    }
    for (const locale of LAZY_LOCALES) {
      const code = localeCodes[locale]!;
      const file = localeScriptUrl(uiFile, locale)!;
      sizes.push(line(file, code, `(budget ${BUDGETS.locale})`));
      problems.push(...checkLocaleScript(locale, code, uiFile));
    }
    // A budget holds the larger of the two measures (scripts/check-bundle.ts bundleSize).
    console.log(`build: widget sizes (zlib level 9; GNU gzip -9c, the file's name in its header)\n${sizes.join('\n')}`);
    if (built.length) console.log(`build: ${built.join(', ')}`);
    if (problems.length) {
      console.error(`build: FAILED\n  ${problems.join('\n  ')}`);
      if (keepFailed) console.error(`build: failed output kept in ${tmpDir}`);
      else rmSync(tmpDir, { recursive: true, force: true });
      process.exitCode = 1;
      return;
    }
    console.log(formatWireSizes(precompress(tmpDir)));

    const oldDir = `${distDir}.old-${process.pid}`;
    if (existsSync(distDir)) renameSync(distDir, oldDir);
    renameSync(tmpDir, distDir);
    rmSync(oldDir, { recursive: true, force: true });
    console.log(
      `build: dist/ ready in ${((Date.now() - started) / 1000).toFixed(1)} s${analyze ? ' (stats.html written)' : ''}`,
    );
  } catch (error) {
    rmSync(tmpDir, { recursive: true, force: true });
    throw error;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, 'build.ts')) await main();
