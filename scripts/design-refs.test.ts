import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDesignCitations, DESIGN_PATH, findCitations, readDesignSections } from './design-refs.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The subjects code cites by number: renumbering or reordering them would change what a citation means. */
const SECTIONS = [
  'Parts and processes',
  'Fixtures',
  'Widget-internal API (the browser calls these; CORS open, no cookies)',
  'Phone API (the persona picker in sandbox only)',
  'Tokens and crypto',
  'Signing and request checks',
  'Loader contract',
  'Privacy boundaries',
  'A worked signing example (checked with openssl and an independent client)',
  'Several instances (Redis)',
  'EUDI wallet path (EU age-verification profile)',
  'Identity providers (OpenID Connect) and the phone page in production',
  "More credentials for client proof mode, and every browser's wallet API",
  "The widget survives the phone's tab lifecycle",
  'Credentials as the EU issues them in 2026',
  'The verifier signs its requests (OpenID4VP 1.0 + HAIP 1.0)',
  'Operating it: metrics, traces, readiness, Redis that fails over',
  'ADULT_BLIND without linkage: private attestations (Privacy Pass)',
  'Certification-ready wallet requests (OpenID Foundation verifier plans)',
  "The EU's 24 official languages",
  'Partner SDKs beyond TypeScript',
  'Evidence: non-retention, no third party, compliance map',
  'Day two: rules, rolling restarts, restores',
];

// Built, not written out, so that this file holds no citation of its own for the check to find.
const cite = (sections: string): string => `design.md ${sections}`;
const OLD = 'DESIGN';

describe('docs/design.md', () => {
  const page = readFileSync(join(ROOT, DESIGN_PATH), 'utf8');

  it('has its sections in order from 1, each on the subject its number has always meant', () => {
    expect([...readDesignSections(page)]).toEqual(SECTIONS.map((title, i) => [i + 1, title]));
  });

  it('shows the worked signing example (§9) exactly as fixtures/hmac/worked-example.json holds it', () => {
    const example = JSON.parse(readFileSync(join(ROOT, 'fixtures/hmac/worked-example.json'), 'utf8')) as Record<
      string,
      string
    >;
    const section = page.slice(page.indexOf('## 9. '), page.indexOf('## 10. '));
    for (const field of ['secret', 'partner_id', 'timestamp', 'nonce', 'body', 'body_hash', 'canonical', 'signature'])
      expect(section).toContain(example[field]);
  });
});

describe('citations of the design in the repository', () => {
  const problems = checkDesignCitations(ROOT);

  it('name only sections docs/design.md has', () => {
    expect(problems.unknown).toEqual([]);
  });

  it(`are all in the form design.md §N, none left in the old ${OLD} §N form`, () => {
    expect(problems.oldForm).toEqual([]);
  });
});

describe('the citation check', () => {
  let root = '';
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = '';
  });

  function tree(files: Record<string, string>): string {
    root = mkdtempSync(join(tmpdir(), 'design-refs-'));
    const design = SECTIONS.map((title, i) => `## ${i + 1}. ${title}\n\ntext\n`).join('\n');
    for (const [path, text] of Object.entries({ [DESIGN_PATH]: design, ...files })) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }

  it('reads one section, lists, ranges and the docs/ path', () => {
    const text = [
      `/** ${cite('§3')}: */`,
      `// (${cite('§4, §12')}) and docs/${cite('§5–6')}`,
      `see ${cite('§11 and §13')}, ${cite('§3-§5')}`,
    ].join('\n');
    expect(findCitations(text).map(({ line, sections }) => [line, sections])).toEqual([
      [1, [3]],
      [2, [4, 12]],
      [2, [5, 6]],
      [3, [11, 13]],
      [3, [3, 4, 5]],
    ]);
  });

  it('passes a tree whose citations all name sections that exist', () => {
    const problems = checkDesignCitations(
      tree({
        'server/a.ts': `/** The status body (${cite('§3')}). */\n`,
        'docs/b.md': `As [${cite('§12')}](design.md#12-identity-providers) says, and ${cite('§1, §7')}.\n`,
        'README.md': `Code cites ${cite('§N')} (a placeholder, not a citation).\n`,
      }),
    );
    expect(problems).toEqual({ unknown: [], oldForm: [] });
  });

  it('names the file and line of a citation of a section that does not exist', () => {
    const problems = checkDesignCitations(
      tree({
        'server/a.ts': `// fine: ${cite('§3')}\n// wrong: ${cite('§99')}\n`,
        'e2e/b.spec.ts': `it('says so (${cite('§2, §0')})', () => {});\n`,
        'docs/c.md': `a backwards range: ${cite('§6–5')}\n`,
      }),
    );
    expect(problems.unknown).toEqual([
      `docs/c.md:1: ${cite('§6–5')} names no section of docs/design.md`,
      `e2e/b.spec.ts:1: ${cite('§2, §0')} names no section of docs/design.md`,
      `server/a.ts:2: ${cite('§99')} names no section of docs/design.md`,
    ]);
  });

  it('names the file and line of every citation left in the old form, in code and in Markdown', () => {
    const problems = checkDesignCitations(
      tree({
        'src/a.ts': `/**\n * Wire shapes (${OLD}.md §3–5).\n */\n`,
        'docs/b.md': `Added by ${OLD} §11.\n`,
        'deploy/compose.yaml': `# Several instances (${OLD} §10)\n`,
      }),
    );
    expect(problems.oldForm).toEqual([
      `deploy/compose.yaml:1: ${OLD} §10)`,
      `docs/b.md:1: ${OLD} §11.`,
      `src/a.ts:2: ${OLD}.md §3–5).`,
    ]);
  });

  it('checks a section sign inside the design page against the page itself', () => {
    const problems = checkDesignCitations(tree({}));
    expect(problems.unknown).toEqual([]);
    writeFileSync(join(root, DESIGN_PATH), '## 1. Parts and processes\n\nAs §2 says.\n');
    expect(checkDesignCitations(root).unknown).toEqual([`${DESIGN_PATH}:3: §2 names no section of docs/design.md`]);
  });

  it('reads no dependencies or build output, and no name that merely ends in design.md', () => {
    const problems = checkDesignCitations(
      tree({
        'node_modules/x/index.js': `// ${OLD} §3 ${cite('§99')}\n`,
        'dist/v4/ui.js': `// ${OLD} §3 ${cite('§99')}\n`,
        'docs/a.md': `our-${cite('§99')} and re${cite('§99')} are other files; RFC 9207 §2, spec §3.\n`,
      }),
    );
    expect(problems).toEqual({ unknown: [], oldForm: [] });
  });
});
