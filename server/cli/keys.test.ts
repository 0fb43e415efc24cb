import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { buildDeps, openServiceStore } from '../boot.ts';
import { createFakeClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { KEY_RELOAD_INTERVAL_MS } from '../crypto/blind.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import { REPO_ROOT, TEST_MASTER_KEY, makeTempDir, type FakeClock } from '../test/helpers.ts';
import { runKeysCommand } from './keys.ts';

const HOUR = 3_600_000;

let dir: ReturnType<typeof makeTempDir>;
let clock: FakeClock;
let lines: { out: string[]; err: string[] };

beforeEach(() => {
  dir = makeTempDir();
  clock = createFakeClock();
  lines = { out: [], err: [] };
});
afterEach(() => dir.remove());

function config(mode: 'sandbox' | 'production' = 'sandbox') {
  return loadConfig(
    {
      NODE_ENV: 'test',
      SVC_MODE: mode,
      SVC_DATA_DIR: dir.path,
      ...(mode === 'production'
        ? { SVC_NULLIFIER_KEY: Buffer.alloc(32, 7).toString('base64'), SVC_MASTER_KEY: TEST_MASTER_KEY }
        : {}),
    },
    REPO_ROOT,
  );
}

/** The CLI as another process would run it: its own connection to the same SQLite file. */
async function svcKeys(args: string[], mode: 'sandbox' | 'production' = 'sandbox', folderMode = mode): Promise<number> {
  const { store } = await openServiceStore(config(folderMode));
  try {
    return await runKeysCommand(args, {
      config: { mode },
      store,
      clock,
      out: (l) => lines.out.push(l),
      err: (l) => lines.err.push(l),
    });
  } finally {
    await store.close();
  }
}

describe('svc keys', () => {
  it('rotates the keys of a running service, which picks the change up without a restart', async () => {
    const store = openSqliteStore(`${dir.path}/svc.sqlite`);
    const deps = await buildDeps(config(), { store, clock });
    const app = await createApp(deps);
    const jwksKids = async () =>
      (
        (await app.inject({ url: '/api/billing/attestation-keys' })).json() as { keys: Array<{ kid: string }> }
      ).keys.map((k) => k.kid);
    const [first] = await jwksKids();

    expect(await svcKeys(['rotate'])).toBe(0);
    expect(lines.out[0]).toMatch(/^announced attestation key \S+ \(next: published second\)$/);
    const announced = lines.out[0]!.split(' ')[3]!;
    clock.advance(KEY_RELOAD_INTERVAL_MS);
    expect(await jwksKids()).toEqual([first, announced]);

    expect(await svcKeys(['rotate'])).toBe(1);
    expect(lines.err.join('\n')).toMatch(/less than an hour ago/);

    clock.advance(HOUR);
    expect(await svcKeys(['rotate'])).toBe(0);
    expect(lines.out.join('\n')).toContain(`promoted attestation key ${announced}`);
    expect(lines.out.join('\n')).toContain(`retired ${first}`);
    clock.advance(KEY_RELOAD_INTERVAL_MS);
    expect(await jwksKids()).toEqual([announced, first]);
    await app.close();
    await store.close();
  });

  it('promotes at once with --force in sandbox mode and refuses --force in production', async () => {
    const store = openSqliteStore(`${dir.path}/svc.sqlite`);
    await buildDeps(config(), { store, clock });
    await store.close();
    await svcKeys(['rotate']);
    expect(await svcKeys(['rotate', '--force'], 'production', 'sandbox')).toBe(2);
    expect(lines.err.join('\n')).toMatch(/only allowed in sandbox/);
    expect(await svcKeys(['rotate', '--force'])).toBe(0);
    expect(lines.out.join('\n')).toMatch(/promoted attestation key/);
  });

  it('creates the first attestation key a production service needs to start', async () => {
    const { createBlindCrypto } = await import('../crypto/blind.ts');
    const { store } = await openServiceStore(config('production'));
    await expect(createBlindCrypto(store, clock, config('production'))).rejects.toThrow(/svc keys rotate/);
    expect(await svcKeys(['rotate'], 'production')).toBe(0);
    expect(lines.out[0]).toMatch(/^created attestation key \S+ \(current: it signs now\)$/);
    await expect(createBlindCrypto(store, clock, config('production'))).resolves.toBeTruthy();
    await store.close();
  });

  it('rotates the session key with --purpose session', async () => {
    const store = openSqliteStore(`${dir.path}/svc.sqlite`);
    await buildDeps(config(), { store, clock });
    await store.close();
    expect(await svcKeys(['rotate', '--purpose', 'session'])).toBe(0);
    expect(lines.out[0]).toMatch(/^announced session key/);
    expect(await svcKeys(['rotate', '--purpose=session', '--force'])).toBe(0);
    expect(lines.out.join('\n')).toMatch(/promoted session key/);
  });

  it('lists kid, purpose and state and never prints key material', async () => {
    const { store } = await buildDeps(config(), { clock });
    const privateParts = [...(await store.listKeys('attestation')), ...(await store.listKeys('session'))].map(
      (k) => JSON.parse(k.privateJwk).d as string,
    );
    await store.close();
    await svcKeys(['rotate']);
    lines.out = [];
    expect(await svcKeys(['list'])).toBe(0);
    expect(lines.out[0]).toMatch(/^KID\s+PURPOSE\s+STATE\s+CREATED\s+DROP AFTER$/);
    expect(lines.out.slice(1).map((l) => l.split(/\s+/).slice(1, 3))).toEqual([
      ['attestation', 'current'],
      ['attestation', 'next'],
      ['session', 'current'],
    ]);
    for (const d of privateParts) expect(lines.out.join('\n')).not.toContain(d);
  });

  it('answers usage with exit code 2 for an unknown subcommand or argument', async () => {
    expect(await svcKeys(['spin'])).toBe(2);
    expect(await svcKeys(['rotate', '--purpose', 'signing'])).toBe(2);
    expect(await svcKeys(['rotate', '--now'])).toBe(2);
    expect(lines.err.join('\n')).not.toContain('Usage:');
    expect(lines.err.at(-1)).toMatch(
      /^svc keys rotate: unexpected argument --now\n\(the usage: npm run svc -- keys help\)$/,
    );
  });
});
