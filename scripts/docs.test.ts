import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { signRequest } from '../server/sdk/signing.ts';
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
