/**
 * `npm run build`: everything the service serves from dist/ (DESIGN §1, §7):
 *
 *   dist/v4/ui.<hash>.js      the UI bundle (IIFE), immutable
 *   dist/v4/loader.min.js     the loader (IIFE), built after the UI because it carries the UI's name
 *   dist/phone/               the sandbox phone page (src/phone/index.html), assets under /m/assets/
 *   dist/demo/                the designers' page (src/demo/index.html), assets under /demo/assets/
 *   dist/node/                the service compiled to plain JavaScript (server/tsconfig.build.json):
 *                             production runs `node dist/node/server/main.js`, with no TypeScript loader
 *
 * It builds into a temporary directory and swaps it in only when the size budgets and the
 * forbidden-string scan pass, so a failed build never leaves a half-written dist/ behind.
 * `--analyze` (npm run analyze) also writes dist/stats.html (UI) and dist/stats-loader.html;
 * `--keep-failed` leaves a build that failed its checks in .vite/ to look at.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';
import { visualizer } from 'rollup-plugin-visualizer';
import { build, type InlineConfig, type Rolldown } from 'vite';
import { moduleSideEffects, oxc, trimQrcode } from '../vite.config.ts';
import { BUDGETS, checkBundle, gzipSize, type BundleName } from './check-bundle.ts';

const root = resolve(import.meta.dirname, '..');
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

function common(): InlineConfig {
  return { root, configFile: false, logLevel: 'warn', mode: 'production', oxc, publicDir: false };
}

/** One IIFE script, minified, named `fileName` under tmpDir; returns the name it got. */
async function buildScript(entry: string, fileName: string, options: { define?: Record<string, string>; stats?: string } = {}): Promise<string> {
  const output = await build({
    ...common(),
    define: options.define,
    plugins: [trimQrcode(), ...(options.stats ? [visualizer({ filename: join(tmpDir, options.stats), gzipSize: true, template: 'treemap' })] : [])],
    build: {
      outDir: tmpDir,
      emptyOutDir: false,
      target: 'es2020',
      minify: true,
      modulePreload: false,
      reportCompressedSize: false,
      rolldownOptions: {
        input: resolve(root, entry),
        treeshake: { moduleSideEffects },
        output: { format: 'iife', entryFileNames: fileName, comments: { legal: false } },
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
      // No moduleSideEffects override here: pages may use the @preact/signals integration
      // (auto-subscribing components), which that size trick would drop.
    },
    plugins: [trimQrcode()],
  });
  return true;
}

/**
 * Compiles the service (server/, src/protocol/) with tsc into `outDir`; returns tsc's output
 * when it fails, null when it succeeds.
 *
 * @example compileServer(join(tmpDir, 'node')) // null: dist/node/server/main.js runs with plain node
 */
export function compileServer(outDir: string): string | null {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', join(root, 'server', 'tsconfig.build.json'), '--outDir', outDir], {
    cwd: root,
    encoding: 'utf8',
  });
  return run.status === 0 ? null : `${run.stdout}${run.stderr}`.trim() || `tsc exited with ${run.status}`;
}

async function main(): Promise<void> {
  rmSync(tmpDir, { recursive: true, force: true });
  const started = Date.now();
  try {
    const uiFile = await buildScript('src/widget/main.ts', 'v4/ui.[hash].js', { stats: analyze ? 'stats.html' : undefined });
    const loaderFile = await buildScript('src/loader/main.ts', 'v4/loader.min.js', {
      define: { __UI_FILE__: JSON.stringify(basename(uiFile)) },
      stats: analyze ? 'stats-loader.html' : undefined,
    });
    const built: string[] = [];
    for (const page of PAGES) {
      if (await buildPage(page.name, page.base)) built.push(`${page.name}/`);
      else console.warn(`build: src/${page.name}/index.html not found, ${page.name} page skipped`);
    }

    const problems: string[] = [];
    const tscErrors = compileServer(join(tmpDir, 'node'));
    if (tscErrors) problems.push(`the service did not compile:\n${tscErrors}`);
    else built.push('node/');
    const sizes: string[] = [];
    for (const [name, file] of [['loader', loaderFile], ['ui', uiFile]] as Array<[BundleName, string]>) {
      const code = readFileSync(join(tmpDir, file), 'utf8');
      sizes.push(`  ${file.padEnd(24)} ${String(code.length).padStart(6)} B, ${String(gzipSize(code)).padStart(5)} B gzip -9 (budget ${BUDGETS[name]})`);
      problems.push(...checkBundle(name, code));
    }
    console.log(`build: widget sizes\n${sizes.join('\n')}`);
    if (built.length) console.log(`build: ${built.join(', ')}`);
    if (problems.length) {
      console.error(`build: FAILED\n  ${problems.join('\n  ')}`);
      if (keepFailed) console.error(`build: failed output kept in ${tmpDir}`);
      else rmSync(tmpDir, { recursive: true, force: true });
      process.exitCode = 1;
      return;
    }

    const oldDir = `${distDir}.old-${process.pid}`;
    if (existsSync(distDir)) renameSync(distDir, oldDir);
    renameSync(tmpDir, distDir);
    rmSync(oldDir, { recursive: true, force: true });
    console.log(`build: dist/ ready in ${((Date.now() - started) / 1000).toFixed(1)} s${analyze ? ' (stats.html written)' : ''}`);
  } catch (error) {
    rmSync(tmpDir, { recursive: true, force: true });
    throw error;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, 'build.ts')) await main();
