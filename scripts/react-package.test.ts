/**
 * `@svc/react` (sdk/react, design.md §1) as partners get it: packed from a copy of its folder,
 * linted by publint (strict), its built entry a client module that imports React alone; its props
 * one to one with `SVC.render`'s options (src/shared/contract.ts). The component's behaviour in
 * a browser is e2e/react-widget.spec.ts.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenderOptions } from '../src/shared/contract.ts';
import type { SvcWidgetOptions, SvcWidgetProps } from '../sdk/react/src/index.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const NPM_ENV = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

// Compile-time: every render option is a prop (the three global-name callbacks as functions),
// and every prop but the component's own (widgetUrl, nonce, id, className, style) is a render option.
type Missing = Exclude<keyof RenderOptions, keyof SvcWidgetProps>;
type Extra = Exclude<keyof SvcWidgetOptions, keyof RenderOptions>;
const oneToOne: [Missing, Extra] extends [never, never] ? true : false = true;

let work: string;
let tarball: Buffer;
let files: string[];

beforeAll(async () => {
  mkdirSync(join(ROOT, '.vite'), { recursive: true });
  work = mkdtempSync(join(ROOT, '.vite', 'react-package-'));
  const pkg = join(work, 'package');
  cpSync(join(ROOT, 'sdk', 'react'), pkg, { recursive: true, filter: (s) => !/[/\\](dist|node_modules)$/.test(s) });
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  const packed = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: pkg, env: NPM_ENV });
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  files = info!.files.map((f) => f.path).sort();
  tarball = readFileSync(join(work, info!.filename));
}, 60_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the @svc/react package', () => {
  it('maps its props one to one onto SVC.render’s options', () => {
    expect(oneToOne).toBe(true);
  });

  it('packs the built module, its declarations, the manifest, the README and the changelog', () => {
    expect(files).toEqual(['CHANGELOG.md', 'README.md', 'dist/index.d.ts', 'dist/index.js', 'package.json']);
  });

  it('passes publint (strict)', async () => {
    const { messages, pkg } = await publint({
      pack: { tarball: new Uint8Array(tarball).buffer },
      strict: true,
    });
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`)).toEqual([]);
  });

  it('is a client module that imports React alone, with React ≥ 18 as its only (peer) dependency', () => {
    const built = readFileSync(join(work, 'package', 'dist', 'index.js'), 'utf8');
    expect(built.startsWith("'use client';")).toBe(true);
    expect([...built.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1])).toEqual(['react']);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'sdk', 'react', 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: '@svc/react', license: 'UNLICENSED', peerDependencies: { react: '>=18' } });
    expect(manifest.dependencies).toBeUndefined();
  });
});
