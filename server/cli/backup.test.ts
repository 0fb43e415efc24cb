/**
 * The restore drill (design.md §23, docs/operations.md#backups-and-restores), on each store: back
 * up a live store as the operator would (SQLite: `svc store backup`; Redis: a copy of its AOF taken
 * as docs/operations.md says, then `svc store mark-restored`), spend single-use values after the
 * backup, restore it, and try every one of them again on the restored store: grants (by exchange,
 * with and without an Idempotency-Key), a signed call's nonce, a request's handoff, an identity
 * provider's login state, a wallet's answer, a wallet's response code and a private-attestation
 * right. None is
 * accepted; a pass token issued before the restore still introspects as active until its expiry.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LightMyRequestResponse as Response } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDeps } from '../boot.ts';
import { createFakeClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { createPrivateAttestationRecord } from '../crypto/private-attestation.ts';
import { loadSandboxIssuer } from '../sandbox/wallet/sandbox-issuer.ts';
import { createDirectPost } from '../sandbox/wallet/sandbox-wallet.ts';
import { openRedisStore } from '../store/redis.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { Store } from '../store/store.ts';
import { makeTempDir, makeTestApp, REPO_ROOT, signedInject, TEST_MASTER_KEY, type TestApp } from '../test/helpers.ts';
import { personaOf } from '../test/personas.ts';
import { blindTokenRequest, issuePrivateToken, postTokenRequest } from '../test/private-client.ts';
import { REDIRECT_URI, startHandMadeProvider, type HandMadeProvider } from '../test/providers.ts';
import { startRedisServer } from '../test/redis-server.ts';
import {
  completeOnPhone,
  openOnPhone,
  pollStatus,
  startBlindFlow,
  startStandardFlow,
  type Flow,
} from '../test/verify-flow.ts';
import { runCli } from './dispatch.ts';
import { runStoreCommand } from './store.ts';

const COMMANDS = {
  store: {
    summary: 'store',
    run: (args: string[], context: Parameters<typeof runStoreCommand>[1]) => runStoreCommand(args, context),
  },
};

const dir = makeTempDir();
/** A built phone page, as dist/ holds it after `npm run build`: the callback's 400 answers it. */
mkdirSync(join(dir.path, 'dist', 'phone'), { recursive: true });
writeFileSync(join(dir.path, 'dist', 'phone', 'index.html'), '<!doctype html><title>phone</title>');
const redis = await startRedisServer({ appendOnly: true, args: ['--repl-diskless-sync-delay', '0'] });
const issuer = loadSandboxIssuer();
/** The identity provider: its token endpoint answers the same ID token to every code, so only the service refuses a replay. */
let provider: HandMadeProvider;
beforeAll(async () => {
  provider = await startHandMadeProvider();
});
const clock = createFakeClock(Date.now());
/** One private-attestation key set for both stores (a sandbox makes its own on first use: 1 s of RSA key generation). */
const privateKeySet = createPrivateAttestationRecord('current', clock.now());
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
afterAll(async () => {
  await provider.close();
  await redis.remove();
  dir.remove();
});

/** A store as the service and `svc` find it through the environment, and how the operator backs it up and restores it. */
interface Deployment {
  env: Record<string, string>;
  /** while the service runs */
  backup(): Promise<void>;
  /** each documented way of putting the backup back, every instance stopped: the drill tries each in turn */
  restores: Record<string, () => Promise<void>>;
  /** the store beneath the service's wrappers: what it really holds */
  openRaw(): Promise<Store>;
}

async function svc(env: Record<string, string>, args: string[]) {
  const lines: string[] = [];
  const code = await runCli(COMMANDS, args, {
    env,
    cwd: REPO_ROOT,
    clock,
    io: { out: (l) => lines.push(l), err: (l) => lines.push(l) },
  });
  return { code, text: lines.join('\n') };
}

const sqliteEnv = {
  NODE_ENV: 'test',
  SVC_DATA_DIR: join(dir.path, 'sqlite'),
  SVC_MASTER_KEY: TEST_MASTER_KEY,
  SVC_DIST_DIR: join(dir.path, 'dist'),
};
const sqlite: Deployment = {
  env: sqliteEnv,
  async backup() {
    const backup = await svc(sqliteEnv, ['store', 'backup', join(dir.path, 'backup.sqlite')]);
    expect(backup, backup.text).toMatchObject({ code: 0 });
  },
  restores: {
    'svc store restore': async () => {
      const restore = await svc(sqliteEnv, ['store', 'restore', join(dir.path, 'backup.sqlite')]);
      expect(restore, restore.text).toMatchObject({ code: 0 });
      expect(restore.text).toMatch(/restored_at/);
    },
  },
  openRaw: async () => openSqliteStore(join(sqliteEnv.SVC_DATA_DIR, 'svc.sqlite')),
};

const redisEnv = { ...sqliteEnv, SVC_DATA_DIR: join(dir.path, 'redis'), SVC_REDIS_URL: redis.url };
const redisCli = (...args: string[]) =>
  execFileSync('redis-cli', ['-p', String(redis.port), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
/** Resolves once redis-server's `INFO persistence` says all of `fields`: its own work (a fork), on its own time. */
async function persistenceShows(fields: string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const info = redisCli('INFO', 'persistence');
    if (fields.every((field) => info.includes(field))) return;
    if (Date.now() > deadline) throw new Error(`INFO persistence never showed ${fields.join(', ')}:\n${info}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
const aofBackup = join(dir.path, 'redis-backup', 'appendonlydir');
const rdbBackup = join(dir.path, 'redis-backup', 'svc.rdb');
const aofDir = join(redis.dir, 'appendonlydir');

async function markRestored(): Promise<void> {
  const marked = await svc(redisEnv, ['store', 'mark-restored']);
  expect(marked, marked.text).toMatchObject({ code: 0 });
  expect(marked.text).toMatch(/restored_at/);
}

/** docs/operations.md#backups-and-restores, Redis with appendonly yes: its two ways of backing up and of restoring. */
const redisDeployment: Deployment = {
  env: redisEnv,
  async backup() {
    // The AOF, copied on the Redis host while no rewrite runs.
    expect(redisCli('CONFIG', 'SET', 'auto-aof-rewrite-percentage', '0')).toBe('OK');
    await persistenceShows(['aof_rewrite_in_progress:0', 'aof_rewrite_scheduled:0']);
    cpSync(aofDir, aofBackup, { recursive: true });
    expect(redisCli('CONFIG', 'SET', 'auto-aof-rewrite-percentage', '100')).toBe('OK');
    // A snapshot from anywhere the primary can be reached.
    redisCli('--rdb', rdbBackup);
  },
  restores: {
    'the AOF copy': async () => {
      await redis.stop();
      rmSync(aofDir, { recursive: true, force: true });
      cpSync(aofBackup, aofDir, { recursive: true });
      await redis.start();
      await markRestored();
    },
    'the RDB snapshot': async () => {
      await redis.stop();
      rmSync(aofDir, { recursive: true, force: true });
      cpSync(rdbBackup, join(redis.dir, 'dump.rdb'));
      // With appendonly yes, Redis would start empty beside dump.rdb: load it with the AOF off,
      // turn the AOF on (it is written from memory), then start Redis as usual.
      await redis.start(['--appendonly', 'no']);
      expect(redisCli('CONFIG', 'SET', 'appendonly', 'yes')).toBe('OK');
      await persistenceShows([
        'aof_enabled:1',
        'aof_rewrite_in_progress:0',
        'aof_rewrite_scheduled:0',
        'aof_last_bgrewrite_status:ok',
      ]);
      await redis.stop();
      await redis.start();
      await markRestored();
    },
  },
  openRaw: () => openRedisStore({ url: redis.url }),
};

async function startService(deployment: Deployment): Promise<TestApp> {
  const deps = await buildDeps(loadConfig(deployment.env, REPO_ROOT), { clock, notice: () => {} });
  return makeTestApp({ deps });
}

async function grantOf(target: TestApp): Promise<{ flow: Flow; grantCode: string }> {
  const flow = await startStandardFlow(target);
  expect((await openOnPhone(target, flow)).statusCode).toBe(200);
  expect((await completeOnPhone(target, flow)).statusCode).toBe(200);
  const status = (await pollStatus(target, flow)) as { result: { grant_code: string } };
  return { flow, grantCode: status.result.grant_code };
}

const exchange = (target: TestApp, grantCode: string, options: { nonce?: string; key?: string } = {}) =>
  signedInject(target, {
    url: '/v1/exchange',
    body: { grant_code: grantCode },
    ...(options.nonce ? { nonce: options.nonce } : {}),
    ...(options.key ? { headers: { 'Idempotency-Key': options.key } } : {}),
  });

/** A login started at the provider: the callback it would send back, and the phone browser's login cookie. */
async function startedLogin(target: TestApp): Promise<{ flow: Flow; callback: URL; cookie: string }> {
  const flow = await startStandardFlow(target, { scopes: ['isAdult'] });
  const started = await target.app.inject({
    method: 'POST',
    url: `/api/m/requests/${flow.requestId}/providers/idp_hand/start`,
    payload: { h: flow.handoff },
  });
  expect(started.statusCode, started.body).toBe(200);
  const cookie = String(started.headers['set-cookie']).split(';')[0]!;
  const authorization = new URL(started.json().authorization_url);
  const now = Math.floor(target.clock.now() / 1000);
  const idToken = await provider.sign({
    iss: provider.issuer,
    aud: provider.client.clientId,
    sub: 'restore-drill-subject',
    nonce: authorization.searchParams.get('nonce'),
    iat: now,
    auth_time: now,
    exp: now + 600,
    birthdate: '1987-06-05',
  });
  provider.tokenAnswer = {
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify({ access_token: 'at-restore-drill', token_type: 'Bearer', id_token: idToken }),
  };
  const callback = new URL(REDIRECT_URI);
  callback.search = new URLSearchParams({
    code: 'code-restore-drill',
    state: authorization.searchParams.get('state')!,
    iss: provider.issuer,
  }).toString();
  return { flow, callback, cookie };
}

const followCallback = (target: TestApp, login: { callback: URL; cookie: string }) =>
  target.app.inject({
    method: 'GET',
    url: login.callback.pathname + login.callback.search,
    headers: { cookie: login.cookie },
  });

/** A wallet's answer to a new request, as it would post it to the response URI, not sent yet. */
async function walletAnswer(target: TestApp): Promise<{ flow: Flow; post: (to: TestApp) => Promise<Response> }> {
  const flow = await startStandardFlow(target, { scopes: ['isAdult'], client_proof_mode: true });
  const { responseUri, body } = await createDirectPost({
    link: flow.created.wallet_link!,
    issuer,
    persona: personaOf('fr-adult-m'),
    now: target.clock.now(),
  });
  const post = (to: TestApp) =>
    to.app.inject({
      method: 'POST',
      url: new URL(responseUri).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: body,
    });
  return { flow, post };
}

/** A wallet's answer accepted: the response code its redirect_uri carries to the done view. */
async function walletAnswered(target: TestApp): Promise<{ flow: Flow; responseCode: string }> {
  const { flow, post } = await walletAnswer(target);
  const res = await post(target);
  expect(res.statusCode, res.body).toBe(200);
  return { flow, responseCode: new URL(res.json().redirect_uri).hash.slice('#response_code='.length) };
}

const redeem = (target: TestApp, wallet: { flow: Flow; responseCode: string }) =>
  target.app.inject({
    method: 'POST',
    url: `/api/m/requests/${wallet.flow.requestId}/done`,
    payload: { response_code: wallet.responseCode },
  });

async function drill(deployment: Deployment): Promise<void> {
  t = await startService(deployment);
  await t.store.putProvider({
    id: 'idp_hand',
    ...provider.client,
    name: 'Hand-made',
    method: 'face_check',
    proves: ['isAdult'],
    enabled: true,
    createdAt: clock.now(),
  });
  await t.store.putKey(await privateKeySet);
  // Before the backup: a pass token in use, six grants waiting (the sixth to be exchanged with an
  // Idempotency-Key), a request waiting for its phone, a login waiting for its callback, a
  // wallet's response code waiting for the done view, a request waiting for a wallet's answer, a
  // private request waiting for its token.
  const before = await grantOf(t);
  const exchanged = await exchange(t, before.grantCode);
  expect(exchanged.statusCode).toBe(200);
  const passToken = (exchanged.json() as { pass_token: string }).pass_token;
  const grants = [];
  for (let i = 0; i < 5; i++) grants.push((await grantOf(t)).grantCode);
  const keyed = (await grantOf(t)).grantCode;
  const waiting = await startStandardFlow(t);
  const login = await startedLogin(t);
  const wallet = await walletAnswered(t);
  const lateWallet = await walletAnswer(t);
  const privateFlow = await startBlindFlow(t, { attestation: 'private' });
  expect((await completeOnPhone(t, privateFlow)).statusCode).toBe(200);

  await deployment.backup();

  // After the backup: each of them spent (one signed call kept to replay).
  clock.advance(10_000);
  const spentAt = Math.floor(clock.now() / 1000);
  const nonces = grants.map((_, i) => `drill-nonce-${i}-${'x'.repeat(16)}`);
  for (const [i, grantCode] of grants.entries())
    expect((await exchange(t, grantCode, { nonce: nonces[i] })).statusCode).toBe(200);
  expect((await exchange(t, keyed, { key: 'drill-key' })).statusCode).toBe(200);
  expect((await openOnPhone(t, waiting)).statusCode).toBe(200);
  const loggedIn = await followCallback(t, login);
  expect(loggedIn.statusCode).toBe(303);
  expect(loggedIn.headers.location).toMatch(/\?login=approved$/);
  expect((await redeem(t, wallet)).statusCode).toBe(200);
  expect((await lateWallet.post(t)).statusCode).toBe(200);
  const issued = await issuePrivateToken(t, privateFlow);

  /** a request made after the previous restore: the next restore's store does not hold it */
  let madeSince: string | null = null;
  for (const [way, restore] of Object.entries(deployment.restores)) {
    await t.close();
    t = undefined;
    clock.advance(10_000);
    await restore();
    t = await startService(deployment);
    clock.advance(1_000);

    const again = await Promise.all(grants.map((grantCode) => exchange(t!, grantCode)));
    const accepted = again.filter((res) => res.statusCode === 200).length;
    console.log(
      `restore drill (${t.store.kind}, ${way}): ${grants.length} grants exchanged after the backup, ` +
        `${accepted} accepted again after the restore`,
    );
    expect(accepted).toBe(0);
    for (const res of again) expect(res.json()).toMatchObject({ error: 'GRANT_INVALID' });
    // The exchange with an Idempotency-Key: its replay record came after the backup, and its grant is refused.
    expect((await exchange(t, keyed, { key: 'drill-key' })).json()).toMatchObject({ error: 'GRANT_INVALID' });
    // A signed exchange from after the backup, replayed as it was sent: its nonce is not in the backup.
    const replay = await signedInject(t, {
      url: '/v1/exchange',
      body: { grant_code: grants[0] },
      nonce: nonces[0],
      timestamp: spentAt,
    });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ error: 'TIMESTAMP_SKEW' });
    // The request the backup holds as pending cannot be opened (or completed) again.
    expect((await openOnPhone(t, waiting)).statusCode).toBe(404);
    // The login's callback again, the provider still answering its ID token: the phone page's 400
    // for a used state, and the request left as the backup holds it.
    const raw = await deployment.openRaw();
    try {
      const held = await raw.getRequest(login.flow.requestId, clock.now());
      expect(held?.status).toBe('in_progress');
      const relogged = await followCallback(t, login);
      expect(relogged.statusCode).toBe(400);
      expect(relogged.headers['content-type']).toMatch(/text\/html/);
      expect(await raw.getRequest(login.flow.requestId, clock.now())).toEqual(held);
      if (madeSince !== null) expect(await raw.getRequest(madeSince, clock.now())).toBeNull();
      // The wallet's answer, accepted after the backup, posted again: refused, the request left waiting.
      const waitingForWallet = await raw.getRequest(lateWallet.flow.requestId, clock.now());
      expect(waitingForWallet?.status).toBe('pending');
      const reposted = await lateWallet.post(t);
      expect(reposted.statusCode).toBe(400);
      expect(reposted.json()).toMatchObject({ error: 'invalid_request' });
      expect(await raw.getRequest(lateWallet.flow.requestId, clock.now())).toEqual(waitingForWallet);
    } finally {
      await raw.close();
    }
    // The wallet's response code, redeemed after the backup: unknown.
    const redeemed = await redeem(t, wallet);
    expect(redeemed.statusCode).toBe(404);
    expect(redeemed.json()).toMatchObject({ error: 'NOT_FOUND' });
    // The private request's right to one signed token, used after the backup: unknown.
    const { tokenRequest } = await blindTokenRequest(issued.keySet, 1, issued.redemptionContext);
    const resigned = await postTokenRequest(t, privateFlow, tokenRequest);
    expect(resigned.statusCode).toBe(404);
    expect(resigned.json()).toMatchObject({ error: 'NOT_FOUND' });
    // A pass token issued before the restore is not single-use: it stays valid until its expiry.
    const introspected = await signedInject(t, { url: '/v1/introspect', body: { pass_token: passToken } });
    expect(introspected.json()).toMatchObject({ active: true });
    // New verifications work as before.
    const after = await grantOf(t);
    expect((await exchange(t, after.grantCode)).statusCode).toBe(200);
    madeSince = after.flow.requestId;
  }
}

describe('svc store backup / restore on SQLite', () => {
  it('accepts none of the single-use values spent after the backup it restored; pass tokens stay valid', async () => {
    await drill(sqlite);
  }, 60_000);

  it('refuses a restore of a missing file, a backup without a file and a backup onto the store itself', async () => {
    expect(await svc(sqliteEnv, ['store', 'restore', join(dir.path, 'nothing.sqlite')])).toMatchObject({ code: 2 });
    expect(await svc(sqliteEnv, ['store', 'backup'])).toMatchObject({ code: 2 });
    expect(await svc(sqliteEnv, ['store', 'backup', join(sqliteEnv.SVC_DATA_DIR, 'svc.sqlite')])).toMatchObject({
      code: 2,
    });
  });
});

describe('a Redis (appendonly yes) restored from its AOF or an RDB snapshot, then svc store mark-restored', () => {
  it('accepts none of the single-use values spent after the backup it restored, either way; pass tokens stay valid', async () => {
    await drill(redisDeployment);
  }, 60_000);

  it('answers svc store backup and restore with the way to do it by hand, and mark-restored with no arguments only', async () => {
    const backup = await svc(redisEnv, ['store', 'backup', join(dir.path, 'redis.backup')]);
    expect(backup.code).toBe(2);
    expect(backup.text).toMatch(/appendonlydir|--rdb/);
    const restore = await svc(redisEnv, ['store', 'restore', rdbBackup]);
    expect(restore.code).toBe(2);
    expect(restore.text).toMatch(/svc store mark-restored/);
    expect(await svc(redisEnv, ['store', 'mark-restored', 'now'])).toMatchObject({ code: 2 });
  });
});
