import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileServer, MANGLED_PROPS, precompress } from './build.ts';
import { freePort } from '../server/test/free-port.ts';

const root = resolve(import.meta.dirname, '..');

function listJs(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.js'))
    .map((f) => join(dir, f));
}

describe('the compiled service', () => {
  let outDir: string;
  beforeAll(() => {
    // Inside the project (git-ignored .vite/), so the compiled files resolve node_modules as dist/node/ does.
    outDir = join(root, '.vite', `node-build-test-${process.pid}`);
    expect(compileServer(outDir)).toBeNull();
  }, 60_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('holds plain JavaScript that imports no TypeScript file, no test code and no tsx', () => {
    const files = listJs(outDir);
    expect(files.some((f) => f.endsWith(join('server', 'main.js')))).toBe(true);
    expect(files.some((f) => f.endsWith(join('server', 'cli.js')))).toBe(true);
    expect(files.filter((f) => /\.test\.js$|[/\\]test[/\\]|example-partner/.test(f))).toEqual([]);
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      expect(source, file).not.toMatch(
        /from ['"][^'"]+\.tsx?['"]|import\(['"][^'"]+\.tsx?['"]\)|['"]tsx(\/[^'"]*)?['"]/,
      );
    }
  });

  it('imports only node: built-ins and production dependencies (no pino-pretty, no Playwright)', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const packages = new Set<string>();
    for (const file of listJs(outDir)) {
      const source = readFileSync(file, 'utf8');
      for (const [, specifier] of source.matchAll(/(?:from |import\()['"]([^'"\s]+)['"]/g)) {
        if (specifier!.startsWith('.') || specifier!.startsWith('node:')) continue;
        packages.add(
          specifier!
            .split('/')
            .slice(0, specifier!.startsWith('@') ? 2 : 1)
            .join('/'),
        );
      }
    }
    expect([...packages].filter((name) => !(name in manifest.dependencies))).toEqual([]);
  });

  /** Runs the compiled service with plain node on a fresh data folder until `use` is done with its URL. */
  async function withCompiledService(env: Record<string, string>, use: (url: string) => Promise<void>): Promise<void> {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-node-data-'));
    const child = spawn(process.execPath, [join(outDir, 'server', 'main.js')], {
      cwd: root,
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        SVC_PORT: String(port),
        SVC_DATA_DIR: dataDir,
        SVC_LOG_LEVEL: 'silent',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const exited = new Promise((done) => child.once('exit', done));
    try {
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status, stderr).toBe(200);
      await use(`http://127.0.0.1:${port}`);
    } finally {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  it('boots with plain node (no TypeScript loader) and answers /healthz', async () => {
    await withCompiledService({}, async () => {});
  }, 30_000);

  it('loads the sandbox wing in sandbox mode: the persona picker answers', async () => {
    await withCompiledService({ SVC_MODE: 'sandbox' }, async (url) => {
      const res = await fetch(`${url}/api/m/personas`);
      expect(res.status).toBe(200);
      expect(await res.json()).toContainEqual({ id: 'fr-minor', label: expect.any(String) });
    });
  }, 30_000);
});

describe("the build's precompression", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A dist/ as the build leaves it before precompression, with real text in it. */
  function makeDist(): string {
    const dir = mkdtempSync(join(tmpdir(), 'svc-precompress-'));
    dirs.push(dir);
    const text = readFileSync(join(root, 'scripts', 'build.ts'));
    const files: Record<string, Buffer | string> = {
      'v4/loader.min.js': text,
      'v4/ui.AbC123_x.js': Buffer.concat([text, text]),
      'v4/ui.AbC123_x-de.js': text.subarray(0, 1500),
      'phone/index.html': `<!doctype html><html><head><title>phone</title></head><body>${'<p>x</p>'.repeat(60)}</body></html>`,
      'phone/assets/index-abc.css': 'body{margin:0}'.repeat(100),
      'demo/assets/index-def.js': text,
      'demo/assets/logo-abc.png': text, // not text by its name: never compressed
      'demo/assets/tiny-abc.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>', // would save nothing
      'node/server/main.js': text, // the compiled service: never served
    };
    for (const [file, body] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), body);
    }
    return dir;
  }

  it('writes a brotli and a gzip variant beside each served text file that decompress to its exact bytes', () => {
    const dist = makeDist();
    const results = precompress(dist);
    const compressed = ['v4/loader.min.js', 'v4/ui.AbC123_x.js', 'v4/ui.AbC123_x-de.js', 'phone/index.html'];
    compressed.push('phone/assets/index-abc.css', 'demo/assets/index-def.js');
    expect(results.filter((r) => r.br !== null && r.gzip !== null).map((r) => r.file)).toEqual(
      expect.arrayContaining(compressed),
    );
    for (const file of compressed) {
      const body = readFileSync(join(dist, file));
      const br = readFileSync(join(dist, `${file}.br`));
      const gz = readFileSync(join(dist, `${file}.gz`));
      expect(brotliDecompressSync(br).equals(body), file).toBe(true);
      expect(gunzipSync(gz).equals(body), file).toBe(true);
      expect(br.length).toBeLessThan(body.length);
      expect(results.find((r) => r.file === file)).toEqual({
        file,
        identity: body.length,
        br: br.length,
        gzip: gz.length,
      });
    }
  });

  it('leaves alone files it would not shrink, files that are not text, and the compiled service', () => {
    const dist = makeDist();
    const results = precompress(dist);
    expect(results.find((r) => r.file === 'demo/assets/tiny-abc.svg')).toMatchObject({ br: null, gzip: null });
    for (const file of ['demo/assets/tiny-abc.svg', 'demo/assets/logo-abc.png', 'node/server/main.js']) {
      expect(existsSync(join(dist, `${file}.br`)), file).toBe(false);
      expect(existsSync(join(dist, `${file}.gz`)), file).toBe(false);
    }
    expect(results.map((r) => r.file)).not.toContain('node/server/main.js');
  });

  it('gives the same bytes on every run, at maximum quality (brotli 11, gzip 9) and without a timestamp', () => {
    const first = makeDist();
    const second = makeDist();
    expect(precompress(first)).toEqual(precompress(second));
    // A second pass over its own output compresses nothing new and changes nothing.
    const again = precompress(second);
    expect(again.map((r) => r.file)).toEqual(precompress(first).map((r) => r.file));
    for (const file of readdirSync(first, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(br|gz)$/.test(f))) {
      expect(readFileSync(join(second, file)).equals(readFileSync(join(first, file))), file).toBe(true);
    }
    const body = readFileSync(join(first, 'v4/loader.min.js'));
    const br = readFileSync(join(first, 'v4/loader.min.js.br'));
    const gz = readFileSync(join(first, 'v4/loader.min.js.gz'));
    const q11 = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
    const q9 = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
    expect(br.length).toBeLessThanOrEqual(q11.length);
    expect(br.length).toBeLessThan(q9.length);
    expect(gz.length).toBeLessThanOrEqual(gzipSync(body, { level: 9 }).length);
    expect(gz.length).toBeLessThan(gzipSync(body, { level: 1 }).length);
    expect(gz.readUInt32LE(4)).toBe(0); // MTIME: none
    expect(gz[3]! & 0x08).toBe(0); // FNAME: none
  });
});

describe('the property names the two widget scripts shorten', () => {
  /** The sources of the loader and the UI bundle, without comments (the phone and demo pages are built unshortened). */
  const sources = (...dirs: string[]): string[] =>
    dirs.flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
        .map((f) => readFileSync(join(root, dir, f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')),
    );

  it('gives each name its own letter, one that no property of the two scripts is named', () => {
    const letters = Object.values(MANGLED_PROPS);
    expect(new Set(letters).size).toBe(letters.length);
    for (const code of sources('src/loader', 'src/shared', 'src/widget', 'src/protocol'))
      for (const letter of letters)
        expect(code).not.toMatch(new RegExp(`(?<!\\.)\\.${letter}\\b|[{,;\\s]${letter}\\??:`));
  });

  it('shortens no name read through a computed key: the icons by name', () => {
    const icon = readFileSync(join(root, 'src/widget/ui/Icon.tsx'), 'utf8');
    const names = [...icon.slice(icon.indexOf('const STROKES')).matchAll(/^\s+(\w+):/gm)].map((m) => m[1]!);
    expect(names).toContain('phone');
    for (const name of names) expect(MANGLED_PROPS).not.toHaveProperty(name);
  });

  it('shortens no name of the wire, the page or a data-* attribute', () => {
    // LIMITS holds the service's time constants, not a shape on the wire
    const wire = sources('src/protocol')
      .join('\n')
      .replace(/export const LIMITS = \{[^}]*\}/, '');
    const contract = readFileSync(join(root, 'src/shared/contract.ts'), 'utf8');
    const publicShapes = contract.slice(contract.indexOf('// ---- window.SVC'));
    for (const name of Object.keys(MANGLED_PROPS)) {
      expect(wire).not.toMatch(new RegExp(`\\b${name}\\??:`));
      expect(publicShapes).not.toMatch(new RegExp(`\\b${name}\\??[:(]`));
    }
  });
});
