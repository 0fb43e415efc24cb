import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileServer } from './build.ts';

const root = resolve(import.meta.dirname, '..');

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

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
      for (const [, specifier] of source.matchAll(/(?:from |import\()['"]([^'"]+)['"]/g)) {
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

  it('boots with plain node (no TypeScript loader) and answers /healthz', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-node-data-'));
    const child = spawn(process.execPath, [join(outDir, 'server', 'main.js')], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '', SVC_PORT: String(port), SVC_DATA_DIR: dataDir, SVC_LOG_LEVEL: 'silent' },
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
    } finally {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
