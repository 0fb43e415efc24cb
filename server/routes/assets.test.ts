import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { makeTestApp, makeTestDeps, type TestApp } from '../test/helpers.ts';
import { PAGE_CSP } from './assets.ts';

const LOADER = '(function(){/* loader */})();';
const UI = '(function(){/* ui */})();';
const PHONE_HTML = '<!doctype html><title>phone</title><script type="module" src="/m/assets/index-abc123.js"></script>';
const PRECOMPRESSED = [
  'v4/loader.min.js',
  'v4/ui.Big_1.js',
  'phone/index.html',
  'phone/assets/index-abc123.js',
  'demo/index.html',
  'demo/assets/index-def456.css',
];
/** Text long enough to compress, as the build's files are. */
const BIG_UI = `(function(){${Array.from({ length: 400 }, (_, i) => `var v${i}="ui ${i}";`).join('')}})();`;
const BIG_HTML = `<!doctype html><title>demo</title>${'<p class="demo">demo</p>'.repeat(80)}`;

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
  // The sandbox wing where the build puts it (scripts/build.ts SANDBOX_ASSETS)
  mkdirSync(join(dir, 'phone', 'sandbox'));
  writeFileSync(join(dir, 'phone', 'sandbox', 'wing-Wg7Hash.js'), 'export const personas = ["fr-adult-f"];');
  writeFileSync(join(dir, 'demo', 'assets', 'index-def456.css'), 'body{}');
  writeFileSync(join(dir, 'v4', 'ui.Big_1.js'), BIG_UI);
  writeFileSync(join(dir, 'demo', 'index.html'), BIG_HTML);
  // What the build writes beside them (scripts/build.ts precompress); ui.AbC123_x.js has none.
  for (const file of PRECOMPRESSED) {
    const body = readFileSync(join(dir, file));
    writeFileSync(join(dir, `${file}.br`), brotliCompressSync(body));
    writeFileSync(join(dir, `${file}.gz`), gzipSync(body));
  }
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
  it('serves the loader as JavaScript with five minutes of cache, validators and open CORS', async () => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    const res = await t!.app.inject({ url: '/v4/loader.min.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(LOADER);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers.etag).toMatch(/^W\/"[\da-f]+-[\da-f]+"$/);
    expect(Date.parse(String(res.headers['last-modified']))).not.toBeNaN();
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

  it('serves the phone page’s sandbox wing in sandbox, immutable', async () => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    const res = await t!.app.inject({ url: '/m/sandbox/wing-Wg7Hash.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('fr-adult-f');
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

  it('answers NOT_FOUND for the demo page in production, but serves the phone page and the loader', async () => {
    const sandbox = await makeTestDeps({ env: { SVC_DIST_DIR: dist } });
    t = await makeTestApp({ deps: { ...sandbox.deps, config: { ...sandbox.deps.config, mode: 'production' } } });
    expect((await t!.app.inject({ url: '/m/v/vr_abc123' })).statusCode).toBe(200);
    for (const url of ['/demo', '/demo/assets/index-def456.css', '/demo/config.json']) {
      const res = await t!.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
    }
    expect((await t!.app.inject({ url: '/v4/loader.min.js' })).statusCode).toBe(200);
  });

  it('answers NOT_FOUND in production for the sandbox wing asked for by name, wherever it is asked for', async () => {
    const sandbox = await makeTestDeps({ env: { SVC_DIST_DIR: dist } });
    t = await makeTestApp({ deps: { ...sandbox.deps, config: { ...sandbox.deps.config, mode: 'production' } } });
    for (const url of [
      '/m/sandbox/wing-Wg7Hash.js',
      '/m/assets/wing-Wg7Hash.js',
      '/m/assets/..%2fsandbox%2fwing-Wg7Hash.js',
      '/m/sandbox/wing-Wg7Hash.js.br',
    ]) {
      const res = await t!.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
      expect(res.body).not.toContain('fr-adult-f');
    }
    expect((await t!.app.inject({ url: '/m/assets/index-abc123.js' })).statusCode).toBe(200);
  });
});

/** The body as the client reads it: decompressed by its Content-Encoding. */
function decoded(res: { rawPayload: Buffer; headers: Record<string, unknown> }): Buffer {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload);
  if (encoding === 'gzip') return gunzipSync(res.rawPayload);
  expect(encoding).toBeUndefined();
  return res.rawPayload;
}

describe('compression on the wire', () => {
  const served: Array<[url: string, file: string, cache: string]> = [
    ['/v4/loader.min.js', 'v4/loader.min.js', 'public, max-age=300'],
    ['/v4/ui.Big_1.js', 'v4/ui.Big_1.js', 'public, max-age=31536000, immutable'],
    ['/m/v/vr_abc123', 'phone/index.html', 'no-store'],
    ['/m/assets/index-abc123.js', 'phone/assets/index-abc123.js', 'public, max-age=31536000, immutable'],
    ['/demo', 'demo/index.html', 'no-cache'],
    ['/demo/assets/index-def456.css', 'demo/assets/index-def456.css', 'public, max-age=31536000, immutable'],
  ];

  it.each(served)(
    'sends %s as brotli, gzip or as it is by what the request accepts, the same bytes and headers each way',
    async (url, file, cache) => {
      t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
      const identity = readFileSync(join(dist, file));
      const types = new Set<unknown>();
      for (const [accept, encoding, suffix] of [
        ['br, gzip, deflate', 'br', '.br'],
        ['gzip, deflate', 'gzip', '.gz'],
        [undefined, undefined, ''],
        ['identity', undefined, ''],
      ] as const) {
        const res = await t!.app.inject({ url, headers: accept ? { 'accept-encoding': accept } : {} });
        expect(res.statusCode, `${url} ${accept}`).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(res.rawPayload.equals(readFileSync(join(dist, file + suffix))), `${url} ${accept}`).toBe(true);
        expect(decoded(res).equals(identity)).toBe(true);
        expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
        expect(res.headers['cache-control']).toBe(cache);
        expect(res.headers.pragma).toBe(cache === 'no-store' ? 'no-cache' : undefined);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        if (file.endsWith('.html')) expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
        else if (file.startsWith('v4/')) expect(res.headers['access-control-allow-origin']).toBe('*');
        types.add(res.headers['content-type']);
      }
      expect(types.size).toBe(1);
    },
  );

  it.each([
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0.1, gzip;q=0.05', 'br'],
    ['br;q=0, gzip;q=0', undefined],
    ['*', 'gzip'],
    ['deflate', undefined],
    ['compress, x-unknown', undefined],
    ['GZIP', 'gzip'],
  ])('honours Accept-Encoding: %s (sends %s)', async (accept, encoding) => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    const res = await t!.app.inject({ url: '/v4/ui.Big_1.js', headers: { 'accept-encoding': accept } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(decoded(res).toString()).toBe(BIG_UI);
  });

  it('sends a file the build did not compress as it is (no compression per request), still varying by Accept-Encoding', async () => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    const res = await t!.app.inject({ url: '/v4/ui.AbC123_x.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.body).toBe(UI);
  });

  it('answers HEAD with the headers GET would send for that encoding and no body', async () => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    for (const accept of ['br', 'gzip', 'identity']) {
      const get = await t!.app.inject({ url: '/v4/loader.min.js', headers: { 'accept-encoding': accept } });
      const head = await t!.app.inject({
        method: 'HEAD',
        url: '/v4/loader.min.js',
        headers: { 'accept-encoding': accept },
      });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      for (const name of ['content-encoding', 'content-length', 'content-type', 'etag', 'last-modified', 'vary']) {
        expect(head.headers[name], `${accept} ${name}`).toEqual(get.headers[name]);
      }
      expect(head.headers['cache-control']).toBe('public, max-age=300');
    }
  });

  it('gives each encoding its own ETag and answers 304 only to a revalidation of the same one', async () => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    const url = '/v4/ui.Big_1.js';
    const tags = new Map<string, string>();
    for (const accept of ['br', 'gzip', 'identity']) {
      const res = await t!.app.inject({ url, headers: { 'accept-encoding': accept } });
      tags.set(accept, String(res.headers.etag));
    }
    expect(new Set(tags.values()).size).toBe(3);

    const again = await t!.app.inject({ url, headers: { 'accept-encoding': 'br', 'if-none-match': tags.get('br') } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(tags.get('br'));
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(again.headers.vary).toMatch(/accept-encoding/i);

    // A cache that holds the brotli variant asks on behalf of a gzip-only client: a full answer.
    const other = await t!.app.inject({ url, headers: { 'accept-encoding': 'gzip', 'if-none-match': tags.get('br') } });
    expect(other.statusCode).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
    expect(decoded(other).toString()).toBe(BIG_UI);

    const since = await t!.app.inject({
      url,
      headers: { 'accept-encoding': 'gzip', 'if-modified-since': String(other.headers['last-modified']) },
    });
    expect(since.statusCode).toBe(304);
  });

  it('keeps a 404 free of the headers a found file gets (a miss is never cached, let alone for a year)', async () => {
    t = await makeTestApp({ env: { SVC_DIST_DIR: dist } });
    const res = await t!.app.inject({ url: '/v4/ui.nothere.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-encoding']).toBeUndefined();
    // open to every origin as the route's policy (http/cors.ts), errors included: a page can read why
    expect(res.headers['access-control-allow-origin']).toBe('*');
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
