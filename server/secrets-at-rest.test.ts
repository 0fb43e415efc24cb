/**
 * Secrets sealed at rest (design.md §5), on real data folders: nothing in the folder gives
 * away a partner secret, a private key, a service secret, an identity provider's client secret or
 * private key, or a login state's PKCE verifier or nonce; the folder and its files are private;
 * the master key rotates without losing a partner or a provider.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import { buildDeps } from './boot.ts';
import { runCli } from './cli/dispatch.ts';
import { runKeysCommand } from './cli/keys.ts';
import { runMasterKeyCommand } from './cli/master-key.ts';
import { runPartnersCommand } from './cli/partners.ts';
import { runProvidersCommand } from './cli/providers.ts';
import { createFakeClock } from './clock.ts';
import { loadConfig } from './config.ts';
import { ConfigError } from './errors.ts';
import { MASTER_KEY_FILE, newMasterKey } from './crypto/master-key.ts';
import { makeTempDir, putTestGrant, REPO_ROOT, signedInject } from './test/helpers.ts';

const NULLIFIER_KEY = Buffer.alloc(32, 9).toString('base64');
const clock = createFakeClock();
let dir: ReturnType<typeof makeTempDir>;

beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => dir.remove());

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { NODE_ENV: 'test', SVC_DATA_DIR: join(dir.path, 'data'), ...extra };
}

async function svc(args: string[], extra: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const commands = {
    partners: { summary: '', run: runPartnersCommand },
    providers: { summary: '', run: runProvidersCommand },
    keys: { summary: '', run: runKeysCommand },
    'master-key': { summary: '', run: runMasterKeyCommand },
  };
  const code = await runCli(commands, args, {
    env: env(extra),
    cwd: REPO_ROOT,
    clock,
    io: { out: (l) => out.push(l), err: (l) => err.push(l) },
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Boots the service on the folder, as main.ts does. */
async function boot(extra: Record<string, string> = {}) {
  const deps = await buildDeps(loadConfig(env(extra), REPO_ROOT), { clock });
  const app = await createApp(deps);
  return { deps, app, close: async () => (await app.close(), await deps.store.close()) };
}

function folderFiles(): string[] {
  const folder = join(dir.path, 'data');
  return readdirSync(folder).map((name) => join(folder, name));
}

/** Every spelling of `bytes` a careless store might hold. */
function spellings(bytes: Buffer): string[] {
  return [
    bytes.toString('base64'),
    bytes.toString('base64url'),
    bytes.toString('hex'),
    bytes.toString('base64').replace(/=+$/, ''),
  ];
}

function expectNowhereInFolder(bytes: Buffer): void {
  for (const file of folderFiles()) {
    const content = readFileSync(file);
    expect(content.includes(bytes), `${file} holds the raw bytes`).toBe(false);
    for (const text of spellings(bytes))
      expect(content.includes(Buffer.from(text)), `${file} holds ${text.slice(0, 6)}…`).toBe(false);
  }
}

describe('a sandbox data folder', () => {
  it("holds a fresh partner's secret, the private keys and the nullifier key only sealed", async () => {
    const running = await boot();
    const added = await svc(['partners', 'add', '--domain', 'https://shop.example', '--rail', 'standard', '--json']);
    expect(added.code).toBe(0);
    const secret = Buffer.from((JSON.parse(added.out) as { secret: string }).secret, 'base64');
    const privateKeys = [
      ...(await running.deps.store.listKeys('attestation')),
      ...(await running.deps.store.listKeys('session')),
    ].map((key) => Buffer.from(JSON.parse(key.privateJwk).d as string, 'base64url'));
    expect(privateKeys.length).toBeGreaterThan(0);
    const nullifierKey = running.deps.nullifierKey;
    await running.close();

    expect(secret).toHaveLength(32);
    expectNowhereInFolder(secret);
    for (const key of privateKeys) expectNowhereInFolder(key);
    expectNowhereInFolder(nullifierKey);
  });

  it("holds identity providers' secrets and keys and a login state's verifier and nonce only sealed", async () => {
    const running = await boot();
    const fixtureSecret = (
      JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures', 'providers.json'), 'utf8')) as { client_secret: string }[]
    )[0]!.client_secret;
    expect((await running.deps.store.getProvider('idp_example'))!.credential).toBe(fixtureSecret);

    const clientSecret = randomBytes(24).toString('base64url');
    const secretFile = join(dir.path, 'client-secret');
    writeFileSync(secretFile, `${clientSecret}\n`);
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const keyFile = join(dir.path, 'client-key.pem');
    writeFileSync(keyFile, privateKey.export({ format: 'pem', type: 'pkcs8' }));
    // No provider listens at the issuer: --skip-check (its discovery check is server/cli/providers.test.ts's).
    const common = ['--issuer', 'https://id.example', '--client-id', 'svc', '--method', 'face_check', '--skip-check'];
    for (const [name, ...credential] of [
      ['ID by secret', '--client-secret-file', secretFile],
      ['ID by key', '--private-key-file', keyFile],
    ])
      expect(
        (await svc(['providers', 'add', ...common, '--name', name!, ...credential, '--proves', 'isAdult'])).code,
      ).toBe(0);

    const codeVerifier = randomBytes(32).toString('base64url');
    const nonce = randomBytes(32).toString('base64url');
    await running.deps.store.putLoginState(
      {
        digest: 'state-digest',
        requestId: 'vr_1',
        providerId: 'idp_example',
        codeVerifier,
        nonce,
        browserDigest: 'browser-digest',
        expiresAt: clock.now() + 300_000,
      },
      clock.now(),
    );
    const stored = (await running.deps.store.listProviders()).find((p) => p.clientAuth === 'private_key_jwt');
    await running.close();

    expect(JSON.parse(stored!.credential).d).toBe((privateKey.export({ format: 'jwk' }) as { d: string }).d);
    expectNowhereInFolder(Buffer.from(fixtureSecret));
    expectNowhereInFolder(Buffer.from(clientSecret));
    expectNowhereInFolder(Buffer.from(JSON.parse(stored!.credential).d as string, 'base64url'));
    for (const value of [codeVerifier, nonce]) {
      expectNowhereInFolder(Buffer.from(value));
      expectNowhereInFolder(Buffer.from(value, 'base64url'));
    }
  });

  it('is private to the service: the folder 0700, every file in it 0600', async () => {
    const running = await boot();
    await svc(['partners', 'add', '--domain', 'https://shop.example', '--rail', 'standard']);
    const names = folderFiles().map((file) => file.split('/').pop());
    expect(names).toEqual(expect.arrayContaining(['svc.sqlite', 'svc.sqlite-wal', MASTER_KEY_FILE]));
    expect(statSync(join(dir.path, 'data')).mode & 0o777).toBe(0o700);
    for (const file of folderFiles()) expect((statSync(file).mode & 0o777).toString(8), file).toBe('600');
    await running.close();
  });

  it('rotates its generated master key: every partner and key still opens, under the new key only', async () => {
    (await boot()).close();
    const before = readFileSync(join(dir.path, 'data', MASTER_KEY_FILE), 'utf8');
    const rotated = await svc(['master-key', 'rotate']);
    expect(rotated.code).toBe(0);
    expect(rotated.out).toMatch(/^re-sealed \d+ values under master key [0-9a-f]{16} \(0 already were\)/);
    const after = readFileSync(join(dir.path, 'data', MASTER_KEY_FILE), 'utf8');
    expect(after).not.toBe(before);
    expect(after.trim().split('\n')).toHaveLength(1);

    const status = await svc(['master-key', 'status']);
    expect(status.out.split('\n').filter((line) => line.startsWith('  '))).toHaveLength(1);
    const running = await boot();
    const demo = { id: 'pk_test_demo', secret: 'BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=' };
    const code = await putTestGrant(running.deps, { partnerId: demo.id });
    expect(
      (
        await signedInject(
          { app: running.app, clock },
          { url: '/v1/exchange', body: { grant_code: code }, partner: demo },
        )
      ).statusCode,
    ).toBe(200);
    await running.close();
  });
});

describe('a production data folder', () => {
  const keyOne = newMasterKey();
  const keyTwo = newMasterKey();
  const production = (masterKey: string, previous?: string) => ({
    SVC_MODE: 'production',
    SVC_NULLIFIER_KEY: NULLIFIER_KEY,
    SVC_MASTER_KEY: masterKey,
    ...(previous ? { SVC_MASTER_KEY_PREVIOUS: previous } : {}),
  });

  async function onboard() {
    expect((await svc(['keys', 'rotate'], production(keyOne))).code).toBe(0);
    expect((await svc(['keys', 'rotate', '--purpose', 'session'], production(keyOne))).code).toBe(0);
    const partners = [];
    for (const domain of ['https://a.example', 'https://b.example']) {
      const added = await svc(
        ['partners', 'add', '--domain', domain, '--rail', 'standard', '--json'],
        production(keyOne),
      );
      partners.push(JSON.parse(added.out) as { id: string; secret: string });
    }
    writeFileSync(join(dir.path, 'client-secret'), 'provider-secret\n');
    const provider = await svc(
      [
        'providers',
        'add',
        ...['--issuer', 'https://id.example', '--client-id', 'svc', '--name', 'ID', '--method', 'face_check'],
        '--skip-check',
        ...['--client-secret-file', join(dir.path, 'client-secret'), '--proves', 'isAdult'],
      ],
      production(keyOne),
    );
    expect(provider.code).toBe(0);
    return partners;
  }

  /** The providers' secrets, opened as a process with these keys opens them. */
  async function providerSecrets(extra: Record<string, string>): Promise<string[]> {
    const running = await boot(extra);
    try {
      return (await running.deps.store.listProviders()).map((p) => p.credential);
    } finally {
      await running.close();
    }
  }

  async function exchangeAs(extra: Record<string, string>, partner: { id: string; secret: string }): Promise<number> {
    const running = await boot(extra);
    try {
      const code = await putTestGrant(running.deps, { partnerId: partner.id });
      return (
        await signedInject({ app: running.app, clock }, { url: '/v1/exchange', body: { grant_code: code }, partner })
      ).statusCode;
    } finally {
      await running.close();
    }
  }

  it('refuses to start without SVC_MASTER_KEY, saying so in one line', () => {
    expect(() => loadConfig(env({ SVC_MODE: 'production', SVC_NULLIFIER_KEY: NULLIFIER_KEY }), REPO_ROOT)).toThrow(
      /^SVC_MODE=production requires SVC_MASTER_KEY/,
    );
    expect(() => loadConfig(env({ ...production('c2hvcnQ=') }), REPO_ROOT)).toThrow(
      /SVC_MASTER_KEY must be base64 of exactly 32/,
    );
  });

  it('keeps every partner working across a master-key rotation, and refuses a key that cannot open it', async () => {
    const partners = await onboard();
    for (const partner of partners) expect(await exchangeAs(production(keyOne), partner)).toBe(200);

    // Instances restarted with the new key and the old one as previous open both.
    for (const partner of partners) expect(await exchangeAs(production(keyTwo, keyOne), partner)).toBe(200);
    const rotated = await svc(['master-key', 'rotate'], production(keyTwo, keyOne));
    expect(rotated.code).toBe(0);
    expect(rotated.out).toMatch(/re-sealed (\d+) values/);
    const again = await svc(['master-key', 'rotate'], production(keyTwo, keyOne));
    expect(again.out).toMatch(/re-sealed 0 values/);

    // The old key can go: the new key alone opens everything; the old alone opens nothing.
    for (const partner of partners) expect(await exchangeAs(production(keyTwo), partner)).toBe(200);
    expect(await providerSecrets(production(keyTwo))).toEqual(['provider-secret']);
    await expect(boot(production(keyOne))).rejects.toThrow(ConfigError);
    await expect(boot(production(keyOne))).rejects.toThrow(
      /sealed with master key [0-9a-f]{16}, which this process cannot open/,
    );
    const refused = await svc(['partners', 'list'], production(keyOne));
    expect(refused.code).toBe(1);
    expect(refused.err.split('\n')).toHaveLength(1);
  });

  it('says a rotation needs a new key when every value is already under SVC_MASTER_KEY', async () => {
    await onboard();
    const same = await svc(['master-key', 'rotate'], production(keyOne));
    expect(same.code).toBe(1);
    expect(same.err).toMatch(/set SVC_MASTER_KEY to a new key and SVC_MASTER_KEY_PREVIOUS to this one/);
  });
});
