/**
 * The partner SDK as partners get it (server/sdk/package.json): packed from a copy of its folder
 * (so it builds with nothing else of the repository), its content list checked, the tarball
 * linted by publint and by Are the Types Wrong, then installed offline into an empty folder outside
 * the repository and used from plain Node: the design.md §9 signing example, and an attestation
 * made by the service and checked against its published key set over HTTP.
 * `npm run test:sdk` runs this file alone; the unit suite runs it too.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../server/app.ts';
import { originHash } from '../server/crypto/blind.ts';
import { makeTestDeps, type TestDeps } from '../server/test/helpers.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const SDK = join(ROOT, 'server', 'sdk');
const MANIFEST = JSON.parse(readFileSync(join(SDK, 'package.json'), 'utf8')) as Record<string, unknown>;
const WORKED_EXAMPLE = JSON.parse(
  readFileSync(join(ROOT, 'fixtures', 'hmac', 'worked-example.json'), 'utf8'),
) as Record<string, string>;
const SLOW = 120_000;

/** What the tarball must hold: each source's JavaScript and declarations, the manifest, the README. */
const EXPECTED_FILES = [
  'README.md',
  'package.json',
  ...readdirSync(SDK)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .flatMap((name) => [`dist/${name.replace(/\.ts$/, '.js')}`, `dist/${name.replace(/\.ts$/, '.d.ts')}`]),
].sort();

// Offline always: nothing here may reach a registry. Without the npm_* variables of an outer
// `npm test` (its npm_config_local_prefix would make these commands act on the repository).
const NPM_ENV = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

let work: string;
let consumer: string;
let tarball: string;
let packedFiles: string[];

beforeAll(async () => {
  // Inside the repository (git-ignored .vite/), so the package's build finds tsc and the type
  // packages as a developer's checkout of the package would after `npm install`.
  mkdirSync(join(ROOT, '.vite'), { recursive: true });
  work = mkdtempSync(join(ROOT, '.vite', 'sdk-package-'));
  const pkg = join(work, 'package');
  cpSync(SDK, pkg, { recursive: true, filter: (source) => !/[/\\](dist|node_modules)$/.test(source) });

  // The dry run builds (prepack) and lists; the real pack reuses that build.
  const dry = await run('npm', ['pack', '--dry-run', '--json'], { cwd: pkg, env: NPM_ENV });
  packedFiles = (JSON.parse(dry.stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files
    .map((f) => f.path)
    .sort();
  const packed = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
    cwd: pkg,
    env: NPM_ENV,
  });
  tarball = join(work, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);

  // Outside the repository: no node_modules above it to lean on.
  consumer = mkdtempSync(join(tmpdir(), 'svc-sdk-consumer-'));
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], {
    cwd: consumer,
    env: NPM_ENV,
  });
}, SLOW);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
  if (consumer) rmSync(consumer, { recursive: true, force: true });
});

/** Runs an ES module in the consumer folder with plain node; returns what it printed as JSON. */
async function runInConsumer(name: string, source: string, input: unknown = null): Promise<Record<string, unknown>> {
  writeFileSync(join(consumer, name), source);
  writeFileSync(join(consumer, 'input.json'), JSON.stringify(input));
  const { stdout } = await run(process.execPath, [name], { cwd: consumer });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('the SDK package manifest', () => {
  it('is an ES module package for Node ≥ 20.19 with typed entries for the SDK and its testing helpers', () => {
    expect(MANIFEST).toMatchObject({ name: '@svc/partner-sdk', type: 'module', engines: { node: '>=20.19' } });
    expect(MANIFEST.exports).toEqual({
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './testing': { types: './dist/testing.d.ts', default: './dist/testing.js' },
      './package.json': './package.json',
    });
  });

  it('depends on nothing at run time; Playwright is an optional peer, for the testing entry', () => {
    expect(MANIFEST.dependencies).toBeUndefined();
    expect(Object.keys(MANIFEST.peerDependencies as object)).toEqual(['@playwright/test']);
    expect(MANIFEST.peerDependenciesMeta).toEqual({ '@playwright/test': { optional: true } });
  });
});

describe('the packed SDK', () => {
  it('holds the built JavaScript and declarations, the manifest and the README: no source, no test', () => {
    expect(packedFiles).toEqual(EXPECTED_FILES);
  });

  it('passes publint (strict)', async () => {
    const data = readFileSync(tarball);
    const { messages, pkg } = await publint({
      pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
      strict: true,
    });
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`)).toEqual([]);
  });

  it('passes Are the Types Wrong for an ES-module-only package', async () => {
    const attw = join(ROOT, 'node_modules', '.bin', 'attw');
    // --no-definitely-typed: no registry look-up for @types of the package.
    const result = await run(attw, [tarball, '--profile', 'esm-only', '--no-definitely-typed', '--format', 'json'], {
      cwd: work,
    }).then(
      (r) => ({ ok: true, out: r.stdout }),
      (e: { stdout: string }) => ({ ok: false, out: e.stdout }),
    );
    const analysis = JSON.parse(result.out) as {
      analysis: { problems: unknown[]; entrypoints: Record<string, unknown> };
    };
    expect(analysis.analysis.problems.filter((p) => !/node10|node16-cjs/.test(JSON.stringify(p)))).toEqual([]);
    expect(Object.keys(analysis.analysis.entrypoints).sort()).toEqual(['.', './package.json', './testing']);
    expect(result.ok).toBe(true);
  });
});

describe('the installed SDK, from plain Node', () => {
  it('reproduces the design.md §9 worked signing example', async () => {
    const out = await runInConsumer(
      'sign.mjs',
      `import { readFileSync } from 'node:fs';
import { canonicalString, computeSignature, hashBody, signRequest } from '@svc/partner-sdk';
const x = JSON.parse(readFileSync('input.json', 'utf8'));
const headers = signRequest({ partnerId: x.partner_id, secret: x.secret, body: x.body, timestamp: Number(x.timestamp), nonce: x.nonce });
const bodyHash = hashBody(x.body);
const canonical = canonicalString(bodyHash, x.timestamp, x.partner_id, x.nonce);
console.log(JSON.stringify({ bodyHash, canonical, signature: computeSignature(x.secret, canonical), headers }));
`,
      WORKED_EXAMPLE,
    );
    expect(out).toEqual({
      bodyHash: WORKED_EXAMPLE.body_hash,
      canonical: WORKED_EXAMPLE.canonical,
      signature: WORKED_EXAMPLE.signature,
      headers: {
        'Content-Type': 'application/json',
        'X-Partner-ID': WORKED_EXAMPLE.partner_id,
        'X-Partner-Timestamp': WORKED_EXAMPLE.timestamp,
        'X-Partner-Nonce': WORKED_EXAMPLE.nonce,
        'X-Partner-Signature': WORKED_EXAMPLE.signature,
      },
    });
  });

  it('verifies an attestation of the service against the key set it publishes, and refuses a forged or misdirected one', async () => {
    const service: TestDeps = await makeTestDeps();
    const app = await createApp(service.deps, { logger: false });
    try {
      const address = await app.listen({ host: '127.0.0.1', port: 0 });
      const origin = 'https://shop.example';
      const jws = await service.deps.blind.signAttestation({
        appId: 'app_blind_shop',
        originHash: originHash(origin),
        scopeMask: 1,
        nullifier: '0xfeed',
      });
      const [header, payload, signature] = jws.split('.') as [string, string, string];
      const forged = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
      const out = await runInConsumer(
        'attest.mjs',
        `import { readFileSync } from 'node:fs';
import { AttestationError, verifyAttestation } from '@svc/partner-sdk';
const x = JSON.parse(readFileSync('input.json', 'utf8'));
const options = { appId: 'app_blind_shop', origin: x.origin, jwksUrl: x.jwksUrl, now: x.now };
const refusal = (jws, overrides = {}) =>
  verifyAttestation(jws, { ...options, ...overrides }).then(() => 'accepted', (e) => (e instanceof AttestationError ? e.code : String(e)));
const verified = await verifyAttestation(x.jws, options);
console.log(JSON.stringify({
  verified: { adult: verified.adult, unique: verified.unique, nullifier: verified.nullifier },
  forged: await refusal(x.forged),
  otherOrigin: await refusal(x.jws, { origin: 'https://elsewhere.example' }),
}));
`,
        { jws, forged, origin, jwksUrl: `${address}/api/billing/attestation-keys`, now: service.clock.now() },
      );
      expect(out).toEqual({
        verified: { adult: true, unique: false, nullifier: '0xfeed' },
        forged: 'BAD_SIGNATURE',
        otherOrigin: 'WRONG_ORIGIN',
      });
    } finally {
      await app.close();
      await service.store.close();
    }
  });

  it("loads its main entry without Playwright, and its testing entry with the QA team's Playwright", async () => {
    const main = await runInConsumer(
      'main.mjs',
      `const sdk = await import('@svc/partner-sdk');
console.log(JSON.stringify({ client: typeof sdk.createPartnerClient, verify: typeof sdk.verifyAttestation }));
`,
    );
    expect(main).toEqual({ client: 'function', verify: 'function' });

    // The peer a QA team installs; linked from the repository instead of downloaded.
    mkdirSync(join(consumer, 'node_modules', '@playwright'), { recursive: true });
    symlinkSync(
      join(ROOT, 'node_modules', '@playwright', 'test'),
      join(consumer, 'node_modules', '@playwright', 'test'),
      'dir',
    );
    const testing = await runInConsumer(
      'testing.mjs',
      `const qa = await import('@svc/partner-sdk/testing');
console.log(JSON.stringify(Object.keys(qa).sort()));
`,
    );
    expect(testing).toEqual([
      'answerOnPhonePage',
      'completeThroughApi',
      'completeVerification',
      'deepLinkOf',
      'parseDeepLink',
      'waitForWidgetState',
      'widget',
      'widgetState',
    ]);
  });
});
