/**
 * Sandbox and production data never mix (design.md §1), on real data folders: a folder made in one
 * mode refuses the other, and a production folder never boots as sandbox.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import { buildDeps } from './boot.ts';
import { runKeysCommand } from './cli/keys.ts';
import { runPartnersCommand } from './cli/partners.ts';
import { runCli } from './cli/dispatch.ts';
import { createFakeClock } from './clock.ts';
import { loadConfig } from './config.ts';
import { ConfigError } from './errors.ts';
import { openSqliteStore } from './store/sqlite.ts';
import { makeTempDir, REPO_ROOT, TEST_MASTER_KEY } from './test/helpers.ts';

const NULLIFIER_KEY = Buffer.alloc(32, 9).toString('base64');
const clock = createFakeClock();
let dir: ReturnType<typeof makeTempDir>;

beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => dir.remove());

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { NODE_ENV: 'test', SVC_DATA_DIR: dir.path, ...extra };
}

/** `svc …` as an operator runs it on the folder; resolves to the exit code and what it printed. */
async function svc(args: string[], extra: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    { partners: { summary: '', run: runPartnersCommand }, keys: { summary: '', run: runKeysCommand } },
    args,
    { env: env(extra), cwd: REPO_ROOT, clock, io: { out: (l) => out.push(l), err: (l) => err.push(l) } },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A production folder made the way an operator makes one: with the CLI. */
async function makeProductionFolder(): Promise<string> {
  const production = { SVC_MODE: 'production', SVC_NULLIFIER_KEY: NULLIFIER_KEY, SVC_MASTER_KEY: TEST_MASTER_KEY };
  const added = await svc(
    ['partners', 'add', '--domain', 'https://shop.example', '--rail', 'standard', '--json'],
    production,
  );
  expect(added.code).toBe(0);
  expect((await svc(['keys', 'rotate', '--purpose', 'attestation'], production)).code).toBe(0);
  return (JSON.parse(added.out) as { id: string }).id;
}

/** Boots the service on the folder in process, as main.ts does. */
async function boot(extra: Record<string, string> = {}) {
  const config = loadConfig(env(extra), REPO_ROOT);
  const deps = await buildDeps(config, { store: openSqliteStore(join(dir.path, 'svc.sqlite')), clock });
  const app = await createApp(deps);
  return { deps, app, close: async () => (await app.close(), await deps.store.close()) };
}

/** Boots the real service process on the folder; resolves to its exit status and stderr. */
function bootProcess(extra: Record<string, string>) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env(extra), SVC_PORT: '0', SVC_LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: run.status, stderr: run.stderr.trim() };
}

describe('a data folder made in sandbox mode', () => {
  beforeEach(async () => {
    const { close } = await boot();
    await close();
  });

  it('refuses to boot with SVC_MODE=production, saying why in one line', async () => {
    await expect(
      boot({ SVC_MODE: 'production', SVC_NULLIFIER_KEY: NULLIFIER_KEY, SVC_MASTER_KEY: TEST_MASTER_KEY }),
    ).rejects.toThrow(ConfigError);
    await expect(
      boot({ SVC_MODE: 'production', SVC_NULLIFIER_KEY: NULLIFIER_KEY, SVC_MASTER_KEY: TEST_MASTER_KEY }),
    ).rejects.toThrow(/sandbox .*cannot be opened/);
    const run = bootProcess({
      SVC_MODE: 'production',
      SVC_NULLIFIER_KEY: NULLIFIER_KEY,
      SVC_MASTER_KEY: TEST_MASTER_KEY,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^svc: the data folder .* holds sandbox data \(partner pk_test_\w+\) and cannot be opened in production/,
    );
    expect(run.stderr.split('\n')).toHaveLength(1);
  }, 30_000);

  it('refuses production CLI commands too', async () => {
    const added = await svc(['partners', 'add', '--domain', 'https://x.example', '--rail', 'standard'], {
      SVC_MODE: 'production',
      SVC_NULLIFIER_KEY: NULLIFIER_KEY,
      SVC_MASTER_KEY: TEST_MASTER_KEY,
    });
    expect(added.code).toBe(1);
    expect(added.err).toMatch(/sandbox .*cannot be opened/);
  });
});

describe('a data folder made in sandbox mode that holds no partner yet', () => {
  it('refuses SVC_MODE=production by its recorded mode', async () => {
    expect((await svc(['keys', 'list'], { SVC_MODE: 'sandbox' })).code).toBe(0);
    await expect(
      boot({ SVC_MODE: 'production', SVC_NULLIFIER_KEY: NULLIFIER_KEY, SVC_MASTER_KEY: TEST_MASTER_KEY }),
    ).rejects.toThrow(/made in sandbox mode and cannot be opened with SVC_MODE=production/);
  });
});

describe('a data folder made in production mode by the CLI', () => {
  let partnerId: string;
  beforeEach(async () => {
    partnerId = await makeProductionFolder();
  });

  it('issued a pk_live_ partner', () => {
    expect(partnerId).toMatch(/^pk_live_/);
  });

  it('boots as production when SVC_MODE is unset, and no sandbox route answers', async () => {
    const { deps, app, close } = await boot({ SVC_NULLIFIER_KEY: NULLIFIER_KEY, SVC_MASTER_KEY: TEST_MASTER_KEY });
    try {
      expect(deps.config.mode).toBe('production');
      expect((await deps.store.listPartners()).map((p) => p.id)).toEqual([partnerId]);
      const id = 'vr_AAAAAAAAAAAAAAAAAAAAAA';
      const answers = await Promise.all([
        app.inject({
          method: 'POST',
          url: `/api/m/requests/${id}/complete`,
          payload: { h: 'x', persona: 'fr-adult-m', method: 'face_check', outcome: 'approved' },
        }),
        app.inject({ method: 'POST', url: `/api/m/requests/${id}/open`, payload: { h: 'x' } }),
        app.inject({ method: 'GET', url: '/api/m/personas' }),
        app.inject({ method: 'GET', url: '/demo' }),
      ]);
      // (the phone page /m/v/:id is served in production too, design.md §12: not a sandbox route)
      expect(answers.map((res) => res.statusCode)).toEqual([404, 404, 404, 404]);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toMatchObject({ mode: 'production' });
    } finally {
      await close();
    }
  });

  it('refuses to boot as anything but production: SVC_MODE=sandbox, or production without its key', async () => {
    await expect(boot({ SVC_MODE: 'sandbox' })).rejects.toThrow(
      /made in production mode and cannot be opened with SVC_MODE=sandbox/,
    );
    await expect(boot()).rejects.toThrow(/made in production mode \(SVC_MODE is unset\).*SVC_NULLIFIER_KEY/);
    const run = bootProcess({});
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^svc: .*made in production mode/);
    expect(run.stderr.split('\n')).toHaveLength(1);
  }, 30_000);

  it('keeps issuing pk_live_ IDs from the CLI when SVC_MODE is unset', async () => {
    const added = await svc(['partners', 'add', '--domain', 'https://y.example', '--rail', 'standard', '--json'], {
      SVC_NULLIFIER_KEY: NULLIFIER_KEY,
      SVC_MASTER_KEY: TEST_MASTER_KEY,
    });
    expect(added.code).toBe(0);
    expect(JSON.parse(added.out).id).toMatch(/^pk_live_/);
  });
});

describe('a folder made before the mode was recorded', () => {
  it('refuses production when it holds sandbox partners', async () => {
    const store = openSqliteStore(join(dir.path, 'svc.sqlite'));
    await store.putPartner({
      id: 'pk_test_demo',
      secret: Buffer.alloc(32, 7).toString('base64'),
      name: 'Old sandbox partner',
      domain: 'http://localhost:8788',
      rail: 'standard',
      blindAppId: null,
      allowedScopes: null,
      createdAt: 0,
    });
    await store.close();
    await expect(
      boot({ SVC_MODE: 'production', SVC_NULLIFIER_KEY: NULLIFIER_KEY, SVC_MASTER_KEY: TEST_MASTER_KEY }),
    ).rejects.toThrow(/holds sandbox data \(partner pk_test_demo\)/);
    // The refusal wrote nothing: the folder still boots as the sandbox it was.
    const { deps, close } = await boot();
    expect(deps.config.mode).toBe('sandbox');
    await close();
  });
});
