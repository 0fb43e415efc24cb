import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { makeTestApp, makeTestDeps, type TestApp } from '../test/helpers.ts';
import { PAGE_CSP } from './assets.ts';

const LOADER = '(function(){/* loader */})();';
const UI = '(function(){/* ui */})();';
const PHONE_HTML = '<!doctype html><title>phone</title><script type="module" src="/m/assets/index-abc123.js"></script>';

let dist: string;
let t: TestApp | undefined;

function makeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-dist-'));
  mkdirSync(join(dir, 'v4'));
  mkdirSync(join(dir, 'phone', 'assets'), { recursive: true });
  mkdirSync(join(dir, 'demo', 'assets'), { recursive: true });
  writeFileSync(join(dir, 'v4', 'loader.min.js'), LOADER);
  writeFileSync(join(dir, 'v4', 'ui.AbC123_x.js'), UI);
  writeFileSync(join(dir, 'phone', 'index.html'), PHONE_HTML);
  writeFileSync(join(dir, 'phone', 'assets', 'index-abc123.js'), 'console.log("phone")');
  writeFileSync(join(dir, 'demo', 'index.html'), '<!doctype html><title>demo</title>');
  writeFileSync(join(dir, 'demo', 'assets', 'index-def456.css'), 'body{}');
  // something outside the served folders that traversal must never reach
  writeFileSync(join(dir, 'secret.txt'), 'do not serve');
  return dir;
}

beforeAll(() => {
  dist = makeDist();
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('widget scripts', () => {
  it('serves the loader as JavaScript with five minutes of cache, a strong ETag and open CORS', async () => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    const res = await t!.app.inject({ url: '/v4/loader.min.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(LOADER);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers.etag).toMatch(/^"[\w-]{27}"$/);
  });

  it('answers 304 without a body when If-None-Match carries the current ETag', async () => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    const first = await t!.app.inject({ url: '/v4/loader.min.js' });
    const again = await t!.app.inject({
      url: '/v4/loader.min.js',
      headers: { 'if-none-match': `"stale", ${first.headers.etag}` },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const stale = await t!.app.inject({ url: '/v4/loader.min.js', headers: { 'if-none-match': '"stale"' } });
    expect(stale.statusCode).toBe(200);
  });

  it('serves the hashed UI bundle as immutable for a year', async () => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    const res = await t!.app.inject({ url: '/v4/ui.AbC123_x.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(UI);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers NOT_FOUND for a UI bundle that does not exist', async () => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    const res = await t!.app.inject({ url: '/v4/ui.nothere.js' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
  });

  it.each([
    '/v4/..%2fsecret.txt',
    '/v4/%2e%2e%2fsecret.txt',
    '/v4/..%5csecret.txt',
    '/v4/ui.x.js%00.txt',
    '/m/assets/..%2f..%2fsecret.txt',
    '/demo/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/m/assets/index.html',
    '/v4/../secret.txt',
  ])('never serves a file outside its folder: %s', async (url) => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    const res = await t!.app.inject({ url });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('do not serve');
  });

  it('answers NOT_FOUND when the widget is not built, and logs it only once', async () => {
    const lines: string[] = [];
    const { deps, store } = await makeTestDeps({ env: { SVC_DIST_DIR: join(dist, 'does-not-exist') } });
    const app = await createApp(deps, {
      logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await app.inject({ url: i === 1 ? '/v4/ui.abc.js' : '/v4/loader.min.js' });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
      }
      expect(lines.filter((line) => line.includes('widget not built'))).toHaveLength(1);
    } finally {
      await app.close();
      await store.close();
    }
  });
});

describe('sandbox pages', () => {
  it('serves the phone page for any request id, never cached, under a strict CSP', async () => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    const res = await t!.app.inject({ url: '/m/v/vr_abc123' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(PHONE_HTML);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(PAGE_CSP).not.toContain('unsafe-inline');
    expect(PAGE_CSP).toContain("frame-ancestors 'none'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('serves the phone page assets it references, immutable', async () => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    const res = await t!.app.inject({ url: '/m/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves the demo page and its assets', async () => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    const page = await t!.app.inject({ url: '/demo' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toBe(PAGE_CSP);
    const css = await t!.app.inject({ url: '/demo/assets/index-def456.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('tells the demo page where the example partner runs, from PARTNER_PORT', async () => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist, PARTNER_PORT: '9123' } });
    const res = await t!.app.inject({ url: '/demo/config.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ partnerUrl: 'http://localhost:9123' });
    await t.close();
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    expect((await t!.app.inject({ url: '/demo/config.json' })).json()).toEqual({ partnerUrl: 'http://localhost:8788' });
  });

  it('answers NOT_FOUND for the phone and demo pages in production, but still serves the loader', async () => {
    const sandbox = await makeTestDeps({ env: { SVC_DIST_DIR: dist } });
    t = await makeTestApp({ deps: { ...sandbox.deps, config: { ...sandbox.deps.config, mode: 'production' } } });
    for (const url of [
      '/m/v/vr_abc123',
      '/m/assets/index-abc123.js',
      '/demo',
      '/demo/assets/index-def456.css',
      '/demo/config.json',
    ]) {
      const res = await t!.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
    }
    expect((await t!.app.inject({ url: '/v4/loader.min.js' })).statusCode).toBe(200);
  });
});

describe('public/', () => {
  it('serves the favicon at the root in both forms, cached for a day, in every mode', async () => {
    const sandbox = await makeTestDeps({ env: { SVC_DIST_DIR: dist } });
    for (const mode of ['sandbox', 'production'] as const) {
      t = await makeTestApp({ deps: { ...sandbox.deps, config: { ...sandbox.deps.config, mode } } });
      const ico = await t!.app.inject({ url: '/favicon.ico' });
      expect(ico.statusCode, mode).toBe(200);
      expect(ico.headers['content-type']).toBe('image/x-icon');
      expect(ico.headers['cache-control']).toBe('public, max-age=86400');
      expect(ico.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0])); // an ICO header
      const svg = await t!.app.inject({ url: '/favicon.svg' });
      expect(svg.headers['content-type']).toBe('image/svg+xml');
      expect(svg.body).toMatch(/^<svg /);
      await t!.close();
      t = undefined;
    }
  });

  it('names nothing else at the root', async () => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    for (const url of ['/favicon.png', '/public/favicon.ico', '/..%2fpackage.json', '/secret.txt']) {
      expect((await t!.app.inject({ url })).statusCode, url).toBe(404);
    }
  });
});
