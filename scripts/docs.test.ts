import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, retryDelayMs } from '../server/sdk/retry.ts';
import { signRequest } from '../server/sdk/signing.ts';
import { backoffMs } from '../src/widget/net/status.ts';
import { readyBanner } from './start.ts';
import { readAnchors, readMarkdownLinks, slugifyHeading } from './markdown.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const README = join(ROOT, 'README.md');
const DOCS = join(ROOT, 'docs');
const PAGES = [
  README,
  ...readdirSync(DOCS)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(DOCS, name)),
];

function read(path: string): string {
  return readFileSync(path, 'utf8');
}

/** Every link of `page` that leaves the page for a file of the repository (no scheme, no bare anchor). */
function readRelativeLinks(page: string): { target: string; path: string; anchor: string | undefined }[] {
  return readMarkdownLinks(read(page))
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => {
      const [file, anchor] = target.split('#', 2) as [string, string | undefined];
      return { target, path: file === '' ? page : resolve(dirname(page), decodeURIComponent(file)), anchor };
    });
}

describe('the README', () => {
  const lines = read(README).split('\n');

  it('is read in five minutes: under 250 lines', () => {
    expect(lines.length).toBeLessThan(250);
  });

  it('has no line over 140 characters', () => {
    const long = lines.flatMap((line, i) => (line.length > 140 ? [`README.md:${i + 1} (${line.length})`] : []));
    expect(long).toEqual([]);
  });

  it('links every page of docs/', () => {
    const linked = new Set(readRelativeLinks(README).map((link) => link.path));
    const orphans = PAGES.filter((page) => page !== README && !linked.has(page)).map((page) => relative(ROOT, page));
    expect(orphans).toEqual([]);
  });
});

describe('links in README.md and docs/*.md', () => {
  it.each(PAGES.map((page) => [relative(ROOT, page), page]))(
    '%s links only to files and folders of the repository',
    (_, page) => {
      const broken = readRelativeLinks(page)
        .filter(({ path }) => relative(ROOT, path).startsWith('..') || !existsSync(path))
        .map(({ target }) => target);
      expect(broken).toEqual([]);
    },
  );

  it.each(PAGES.map((page) => [relative(ROOT, page), page]))('%s links only to headings that exist', (_, page) => {
    const broken = readRelativeLinks(page)
      .filter(
        ({ path, anchor }) =>
          anchor !== undefined && path.endsWith('.md') && existsSync(path) && statSync(path).isFile(),
      )
      .filter(({ path, anchor }) => !readAnchors(read(path)).has(anchor!))
      .map(({ target }) => target);
    expect(broken).toEqual([]);
  });
});

describe('the partner API page', () => {
  it('shows the worked signing example exactly as fixtures/hmac/worked-example.json holds it', () => {
    const example = JSON.parse(read(join(ROOT, 'fixtures/hmac/worked-example.json'))) as {
      secret: string;
      body: string;
      body_hash: string;
      canonical: string;
      signature: string;
      mistakes: Record<string, { signature: string }>;
    };
    const page = read(join(DOCS, 'partner-api.md'));
    const values = [example.secret, example.body, example.body_hash, example.canonical, example.signature];
    for (const value of [...values, ...Object.values(example.mistakes).map((m) => m.signature)])
      expect(page).toContain(value);
  });

  it('has an openssl recipe that signs as the SDK does, for the worked example and for a secret of your own', () => {
    const page = read(join(DOCS, 'partner-api.md'));
    const recipe = /^The same with openssl[\s\S]*?```sh\n([\s\S]*?)```/m.exec(page)?.[1];
    expect(recipe).toBeDefined();
    const run = (script: string) =>
      execFileSync('bash', ['-euo', 'pipefail', '-c', script], { encoding: 'utf8' }).trim();
    expect(run(recipe!)).toBe('RaLhrktuPNtYBXzpl9En_Xmchcg_7ThQ40Pvom0PDSU');

    const own = {
      secret: randomBytes(32).toString('base64'),
      partnerId: 'pk_live_own',
      body: '{"pass_token":"p_é"}',
      timestamp: 1767229200,
      nonce: randomUUID(),
    };
    const values: Record<string, string> = {
      SECRET: own.secret,
      PARTNER: own.partnerId,
      BODY: own.body,
      TIMESTAMP: String(own.timestamp),
      NONCE: own.nonce,
    };
    const edited = recipe!.replace(/^([A-Z]+)='[^']*'$/gm, (line, name: string) =>
      name in values ? `${name}='${values[name]}'` : line,
    );
    expect(edited).not.toContain('BwcHBwcH');
    expect(run(edited)).toBe(signRequest(own)['X-Partner-Signature']);
  });
});

describe('pages that show what the code does', () => {
  /** The text of each fenced code block of a page. */
  const codeBlocks = (page: string) => {
    const blocks: string[] = [];
    let open: string[] | null = null;
    for (const line of read(page).split('\n')) {
      if (open === null && line.startsWith('```')) open = [];
      else if (open !== null && line === '```') [blocks[blocks.length], open] = [open.join('\n'), null];
      else open?.push(line);
    }
    return blocks;
  };

  it('show the Ready banner exactly as npm start and npm run start:cluster print it', () => {
    const local = { partnerUrl: 'http://localhost:8788', providerUrl: 'http://localhost:8789' };
    const metricsUrls = ['http://127.0.0.1:9464/metrics'];
    const sandbox = readyBanner({ mode: 'sandbox', serviceUrl: 'http://localhost:8787', ...local, metricsUrls }).trim();
    const production = readyBanner({
      mode: 'production',
      serviceUrl: 'https://verify.example.com',
      partnerUrl: null,
      metricsUrls,
    });
    const cluster = readyBanner({
      mode: 'sandbox',
      serviceUrl: 'http://localhost:8787',
      serviceNote: '(nginx → :8791, :8792)',
      ...local,
      detail: ', 2 instances on Redis',
      metricsUrls: ['http://127.0.0.1:9464/metrics  (:8791)', 'http://127.0.0.1:9465/metrics  (:8792)'],
      extra: ['  Redis            redis://127.0.0.1:6380  (AOF in …/data/cluster/redis)'],
      stops: 'them all',
    });
    const expected = new Set([sandbox, production.trim(), cluster.trim()]);
    const shown = PAGES.flatMap((page) =>
      codeBlocks(page)
        .filter((block) => block.startsWith('Ready ('))
        .map((block) => [relative(ROOT, page), block.trim()] as const),
    );
    expect(shown.map(([page]) => page)).toEqual([
      'README.md',
      'docs/operations.md',
      'docs/operations.md',
      'docs/operations.md',
    ]);
    for (const [, block] of shown) expect(expected).toContain(block);
  });

  it('import relative modules with their extension in TypeScript snippets, as NodeNext resolution needs', () => {
    const bare = PAGES.flatMap((page) =>
      [...read(page).matchAll(/^\s*import\b[^'"\n]*from '(\.{1,2}\/[^']+)'/gm)]
        .map((match) => match[1]!)
        .filter((specifier) => !/\.(js|ts|json)$/.test(specifier))
        .map((specifier) => `${relative(ROOT, page)}: ${specifier}`),
    );
    expect(bare).toEqual([]);
  });

  it("give the SDK's and the widget's retry timings as their code has them", () => {
    const sdk = [1, 2].map((retry) => retryDelayMs(retry, null, DEFAULT_RETRY_POLICY, () => 0.5));
    expect([sdk, DEFAULT_RETRY_POLICY.maxAttempts, DEFAULT_RETRY_POLICY.maxRetryAfterMs]).toEqual([
      [1000, 2000],
      3,
      60_000,
    ]);
    const partnerApi = read(join(DOCS, 'partner-api.md'));
    expect(partnerApi).toContain('at most 3 attempts in all');
    expect(partnerApi).toContain('`Retry-After` is honoured (up to 60 s;');
    expect(partnerApi).toContain('otherwise 1 s then 2 s (±20 % jitter, 30 s cap)');
    expect(partnerApi).not.toMatch(/exponential backoff|retry with backoff/);

    expect([1, 2, 3, 6, 20].map(backoffMs)).toEqual([1000, 2000, 4000, 30_000, 30_000]);
    expect(read(join(DOCS, 'design.md'))).toContain('a network error 1 s, 2 s, 4 s … 30 s; honours `Retry-After`');
  });
});

describe('reading Markdown', () => {
  it('finds links and images outside code, including links whose text is code', () => {
    const text = '![a](x.png) see [`b.ts`](../b.ts) and `[not](a-link)`\n```\n[nor](this)\n```\n[c](d.md#e)';
    expect(readMarkdownLinks(text)).toEqual(['x.png', '../b.ts', 'd.md#e']);
  });

  it('gives headings the anchors GitHub gives them', () => {
    expect(slugifyHeading('1. Create the request (what the loader sends)')).toBe(
      '1-create-the-request-what-the-loader-sends',
    );
    expect(slugifyHeading('`window.SVC`')).toBe('windowsvc');
    expect([...readAnchors('# Errors\n```sh\n# not a heading\n```\n## Errors')]).toEqual(['errors', 'errors-1']);
  });
});
