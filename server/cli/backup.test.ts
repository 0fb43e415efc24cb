/**
 * The restore drill (design.md §23, docs/operations.md#backups-and-restores): back up a live SQLite
 * store, spend single-use values (exchange grants, open a request), restore the backup, and try
 * every one of them again on the restored store: none is accepted, while a pass token issued before
 * the restore still introspects as active until its expiry.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildDeps } from '../boot.ts';
import { createFakeClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { makeTempDir, makeTestApp, REPO_ROOT, signedInject, TEST_MASTER_KEY, type TestApp } from '../test/helpers.ts';
import { completeOnPhone, openOnPhone, pollStatus, startStandardFlow, type Flow } from '../test/verify-flow.ts';
import { runCli } from './dispatch.ts';
import { runStoreCommand } from './store.ts';

const COMMANDS = {
  store: {
    summary: 'store',
    run: (args: string[], context: Parameters<typeof runStoreCommand>[1]) => runStoreCommand(args, context),
  },
};

const dir = makeTempDir();
const env = { NODE_ENV: 'test', SVC_DATA_DIR: dir.path, SVC_MASTER_KEY: TEST_MASTER_KEY };
const clock = createFakeClock(Date.now());
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function svc(args: string[]) {
  const lines: string[] = [];
  const code = await runCli(COMMANDS, args, {
    env,
    cwd: REPO_ROOT,
    clock,
    io: { out: (l) => lines.push(l), err: (l) => lines.push(l) },
  });
  return { code, text: lines.join('\n') };
}

async function startService(): Promise<TestApp> {
  const deps = await buildDeps(loadConfig(env, REPO_ROOT), { clock });
  return makeTestApp({ deps });
}

async function grantOf(target: TestApp): Promise<{ flow: Flow; grantCode: string }> {
  const flow = await startStandardFlow(target);
  expect((await openOnPhone(target, flow)).statusCode).toBe(200);
  expect((await completeOnPhone(target, flow)).statusCode).toBe(200);
  const status = (await pollStatus(target, flow)) as { result: { grant_code: string } };
  return { flow, grantCode: status.result.grant_code };
}

const exchange = (target: TestApp, grantCode: string, nonce?: string) =>
  signedInject(target, { url: '/v1/exchange', body: { grant_code: grantCode }, ...(nonce ? { nonce } : {}) });

describe('svc store backup / restore on SQLite', () => {
  it('accepts none of the grants exchanged, nor the requests opened, after the backup it restored', async () => {
    t = await startService();
    // Before the backup: a pass token in use, five grants waiting, a request waiting for its phone.
    const before = await grantOf(t);
    const exchanged = await exchange(t, before.grantCode);
    expect(exchanged.statusCode).toBe(200);
    const passToken = (exchanged.json() as { pass_token: string }).pass_token;
    const grants = [];
    for (let i = 0; i < 5; i++) grants.push((await grantOf(t)).grantCode);
    const waiting = await startStandardFlow(t);

    const file = join(dir.path, 'backup.sqlite');
    const backup = await svc(['store', 'backup', file]);
    expect(backup, backup.text).toMatchObject({ code: 0 });

    // After the backup: the grants are exchanged (one signed call kept to replay), the request opened.
    clock.advance(10_000);
    const nonces = grants.map((_, i) => `drill-nonce-${i}-${'x'.repeat(16)}`);
    for (const [i, grantCode] of grants.entries())
      expect((await exchange(t, grantCode, nonces[i])).statusCode).toBe(200);
    expect((await openOnPhone(t, waiting)).statusCode).toBe(200);
    await t.close();
    t = undefined;

    clock.advance(10_000);
    const restore = await svc(['store', 'restore', file]);
    expect(restore, restore.text).toMatchObject({ code: 0 });
    expect(restore.text).toMatch(/restored_at/);

    t = await startService();
    clock.advance(1_000);
    const again = await Promise.all(grants.map((grantCode) => exchange(t!, grantCode)));
    const accepted = again.filter((res) => res.statusCode === 200).length;
    console.log(
      `restore drill: ${grants.length} grants exchanged after the backup, ${accepted} accepted again after the restore`,
    );
    expect(accepted).toBe(0);
    for (const res of again) expect(res.json()).toMatchObject({ error: 'GRANT_INVALID' });
    // The request the backup holds as pending cannot be opened (or completed) again.
    expect((await openOnPhone(t, waiting)).statusCode).toBe(404);
    // A signed exchange from before the restore, replayed with its own timestamp and nonce, is refused.
    const replay = await signedInject(t, {
      url: '/v1/exchange',
      body: { grant_code: grants[0] },
      nonce: nonces[0],
      timestamp: Math.floor((clock.now() - 21_000) / 1000),
    });
    expect(replay.statusCode).toBe(401);
    // A pass token issued before the restore is not single-use: it stays valid until its expiry.
    const introspected = await signedInject(t, { url: '/v1/introspect', body: { pass_token: passToken } });
    expect(introspected.json()).toMatchObject({ active: true });
    // New verifications work as before.
    const after = await grantOf(t);
    expect((await exchange(t, after.grantCode)).statusCode).toBe(200);
  }, 60_000);

  it('refuses a restore of a missing file, a backup without a file and a backup onto the store itself', async () => {
    expect(await svc(['store', 'restore', join(dir.path, 'nothing.sqlite')])).toMatchObject({ code: 2 });
    expect(await svc(['store', 'backup'])).toMatchObject({ code: 2 });
    expect(await svc(['store', 'backup', join(dir.path, 'svc.sqlite')])).toMatchObject({ code: 2 });
  });
});
