/**
 * What the visitor downloads (design.md §1, the edge): every file of the build, fetched from the running service
 * with brotli, gzip and neither, is the build's own bytes (the identity answer exactly, the others
 * once decompressed), and weighs what the build wrote; the API documentation and the example
 * partner's pages, compressed as they are sent, decompress to the uncompressed answer. The sizes on
 * the wire go to the report as annotations. Plain HTTP requests (no browser decompression in the
 * way), then a browser.
 */
import { expect, test } from '@playwright/test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { waitForWidgetState } from './support/qa.ts';
import { PARTNER_URL, SERVICE_URL } from './support/urls.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = resolve(ROOT, process.env.SVC_DIST_DIR || 'dist');

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET without any decompression, so the bytes are those on the wire. */
function fetchRaw(url: string, acceptEncoding?: string): Promise<RawAnswer> {
  return new Promise((done, fail) => {
    const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    }).on('error', fail);
  });
}

function decode(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return gunzipSync(answer.body);
  expect(encoding).toBeUndefined();
  return answer.body;
}

/** Every file the service serves from dist/: [URL, file under dist/]. */
function servedFiles(): Array<[string, string]> {
  const list = (dir: string) => (existsSync(join(DIST, dir)) ? readdirSync(join(DIST, dir)).sort() : []);
  const scripts = list('v4').filter((name) => name.endsWith('.js'));
  return [
    ...scripts.map((name): [string, string] => [`/v4/${name}`, `v4/${name}`]),
    ['/m/v/vr_e2e_wire', 'phone/index.html'],
    ...list('phone/assets')
      .filter((name) => /\.(js|css)$/.test(name))
      .map((name): [string, string] => [`/m/assets/${name}`, `phone/assets/${name}`]),
    ...list('phone/sandbox')
      .filter((name) => name.endsWith('.js'))
      .map((name): [string, string] => [`/m/sandbox/${name}`, `phone/sandbox/${name}`]),
    ['/demo', 'demo/index.html'],
    ...list('demo/assets')
      .filter((name) => /\.(js|css)$/.test(name))
      .map((name): [string, string] => [`/demo/assets/${name}`, `demo/assets/${name}`]),
  ];
}

test.describe('on the wire', () => {
  // Plain HTTP: once is enough, whichever browser project runs the suite.
  test.skip(({ browserName }) => browserName !== 'chromium', 'no browser involved');

  test("the service sends each built file as brotli, gzip or as it is, the build's bytes each way", async () => {
    const rows: string[] = [];
    const total = { none: 0, br: 0, gzip: 0 };
    for (const [url, file] of servedFiles()) {
      const identity = readFileSync(join(DIST, file));
      const sizes: Record<string, number> = {};
      for (const [accept, encoding, suffix] of [
        ['br, gzip, deflate', 'br', '.br'],
        ['gzip, deflate', 'gzip', '.gz'],
        [undefined, undefined, ''],
      ] as const) {
        const answer = await fetchRaw(`${SERVICE_URL}${url}`, accept);
        expect(answer.status, url).toBe(200);
        expect(answer.headers.vary, url).toMatch(/accept-encoding/i);
        const variant = join(DIST, file + suffix);
        // The build writes a variant only where it saves bytes; otherwise the file goes as it is.
        const expected = existsSync(variant) ? readFileSync(variant) : identity;
        expect(answer.headers['content-encoding'], `${url} ${accept}`).toBe(existsSync(variant) ? encoding : undefined);
        expect(answer.body.equals(expected), `${url} ${accept}: the bytes on disk`).toBe(true);
        expect(decode(answer).equals(identity), `${url} ${accept}: the build's file`).toBe(true);
        sizes[encoding ?? 'none'] = answer.body.length;
      }
      total.none += sizes.none!;
      total.br += sizes.br!;
      total.gzip += sizes.gzip!;
      rows.push(`${file}: none ${sizes.none} B, br ${sizes.br} B, gzip ${sizes.gzip} B`);
    }
    rows.push(`total: none ${total.none} B, br ${total.br} B, gzip ${total.gzip} B`);
    test.info().annotations.push({ type: 'wire sizes', description: rows.join('\n') });
    console.log(rows.join('\n'));
    expect(total.br).toBeLessThan(total.none / 2.5);
  });

  test('the API documentation and the example partner pages are compressed on the fly', async () => {
    const rows: string[] = [];
    for (const url of [
      `${SERVICE_URL}/docs/static/swagger-ui-bundle.js`,
      `${SERVICE_URL}/docs/static/swagger-ui.css`,
      `${SERVICE_URL}/docs/json`,
      `${PARTNER_URL}/`,
      `${PARTNER_URL}/standard`,
      `${PARTNER_URL}/assets/exchange.js`,
    ]) {
      const plain = await fetchRaw(url);
      const br = await fetchRaw(url, 'br, gzip');
      const gzip = await fetchRaw(url, 'gzip');
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(gzip.headers['content-encoding'], url).toBe('gzip');
      expect(decode(br).equals(plain.body), url).toBe(true);
      expect(decode(gzip).equals(plain.body), url).toBe(true);
      expect(br.body.length, url).toBeLessThan(plain.body.length);
      rows.push(`${url}: none ${plain.body.length} B, br ${br.body.length} B, gzip ${gzip.body.length} B`);
    }
    test.info().annotations.push({ type: 'wire sizes', description: rows.join('\n') });
    console.log(rows.join('\n'));
  });
});

test('a browser gets the loader and the UI bundle compressed and the widget still runs', async ({ page }) => {
  const scripts: Array<{ url: string; encoding: string | undefined }> = [];
  page.on('response', async (response) => {
    if (/\/v4\/(loader\.min|ui\.[\w-]+)\.js$/.test(response.url())) {
      scripts.push({ url: response.url(), encoding: (await response.allHeaders())['content-encoding'] });
    }
  });
  await page.goto('/standard');
  await waitForWidgetState(page, 'waiting');
  expect(scripts.map((s) => s.url.replace(/^.*\/v4\//, ''))).toEqual(
    expect.arrayContaining(['loader.min.js', expect.stringMatching(/^ui\./)]),
  );
  // Browsers offer brotli over HTTPS only: over http://localhost they take gzip.
  for (const script of scripts) expect(['br', 'gzip'], script.url).toContain(script.encoding);
});
