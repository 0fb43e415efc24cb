import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, REPO_ROOT } from '../test/helpers.ts';
import { openSqliteStore } from './sqlite.ts';
import { runStoreContract } from './store.contract.ts';
import type { Store } from './store.ts';

const dir = makeTempDir('svc-sqlite-contract-');
afterAll(() => dir.remove());

runStoreContract('SQLite in memory', async () => openSqliteStore(':memory:'));

const paths = new WeakMap<Store, string>();
let files = 0;
runStoreContract(
  'SQLite on a file',
  async () => {
    files += 1;
    const path = join(dir.path, `store-${files}.sqlite`);
    const store = openSqliteStore(path);
    paths.set(store, path);
    return store;
  },
  {
    async openPeer(store) {
      const peer = openSqliteStore(paths.get(store)!);
      paths.set(peer, paths.get(store)!);
      return peer;
    },
  },
);

/** Runs `body` (module code with `store` open on `path`) in a child process; resolves with its stdout. */
function runInChild(
  path: string,
  body: string,
  onStdout?: (text: string, child: ReturnType<typeof spawn>) => void,
): Promise<string> {
  const script =
    `import { openSqliteStore } from './server/store/sqlite.ts';\n` +
    `const store = openSqliteStore(${JSON.stringify(path)});\n${body}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      onStdout?.(out, child);
    });
    child.on('exit', () => resolve(out));
  });
}

describe('SQLite shared by several processes', () => {
  it('keeps counters, compare-and-set and single use exact when processes race on one file', async () => {
    const path = join(dir.path, 'raced.sqlite');
    const setup = openSqliteStore(path);
    await setup.createRequest({
      id: 'vr_raced',
      rail: 'standard',
      partnerId: 'pk_test_demo',
      appId: null,
      originHash: null,
      sessionJti: null,
      scopes: ['isAdult'],
      clientProofMode: false,
      locale: 'fr',
      audienceLabel: 'Demo',
      pollTokenDigest: 'p',
      handoffTokenDigest: 'h',
      status: 'pending',
      reason: null,
      method: null,
      sealedResult: null,
      version: 1,
      createdAt: 1,
      expiresAt: 10_000_000,
      channel: 'widget',
      deadlineAt: 10_000_000,
      openedAt: null,
      resultPublicKey: 'k',
      resultKeySealed: 's',
    });
    for (let i = 0; i < 200; i++) {
      await setup.putGrant({
        digest: `g${i}`,
        partnerId: 'pk_test_demo',
        requestId: 'vr_raced',
        scopes: ['isAdult'],
        attributes: {},
        method: 'face_check',
        verifiedAt: 1,
        generationTimeMs: 1,
        expiresAt: 10_000_000,
      });
    }
    await setup.close();
    const body = `
      let errors = 0, wins = 0, grants = 0;
      for (let i = 0; i < 400; i++) {
        try {
          await store.hitCounter('shared', 600_000, 1);
          const current = await store.getRequest('vr_raced', 1);
          if (await store.updateRequest('vr_raced', current.version, {})) wins++;
          if (i < 200 && await store.consumeGrant('g' + i, 1)) grants++;
        } catch (error) { errors++; }
      }
      process.stdout.write(JSON.stringify({ errors, wins, grants }));
    `;
    const results = (await Promise.all([runInChild(path, body), runInChild(path, body), runInChild(path, body)])).map(
      (out) => JSON.parse(out),
    );
    expect(results.map((r) => r.errors)).toEqual([0, 0, 0]);
    const store = openSqliteStore(path);
    try {
      expect((await store.hitCounter('shared', 600_000, 1)).count).toBe(3 * 400 + 1);
      expect((await store.getRequest('vr_raced', 1))!.version).toBe(1 + results.reduce((n, r) => n + r.wins, 0));
      expect(results.reduce((n, r) => n + r.grants, 0)).toBe(200);
    } finally {
      await store.close();
    }
  });
});

describe('SQLite durability', () => {
  it('keeps every acknowledged write when the process is killed with SIGKILL', async () => {
    const path = join(dir.path, 'killed.sqlite');
    // The child acknowledges its writes on stdout, then hangs until it is killed.
    const script = `
      import { openSqliteStore } from './server/store/sqlite.ts';
      const store = openSqliteStore(${JSON.stringify(path)});
      await store.putGrant({ digest: 'survivor', partnerId: 'pk_test_demo', requestId: 'vr_x', scopes: ['isAdult'],
        attributes: { age_over_18: true }, method: 'face_check', verifiedAt: 1, generationTimeMs: 1, expiresAt: 10_000 });
      await store.getOrCreateSecret('nullifier_key', 'kept');
      for (let i = 0; i < 50; i++) await store.hitCounter('c', 60_000, 1);
      process.stdout.write('acknowledged\\n');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code) => reject(new Error(`child exited early with ${code}`)));
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('acknowledged')) resolve();
      });
    });
    child.removeAllListeners('exit');
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    const store = openSqliteStore(path);
    try {
      expect(await store.consumeGrant('survivor', 2)).toMatchObject({ requestId: 'vr_x' });
      expect(await store.getOrCreateSecret('nullifier_key', 'other')).toBe('kept');
      expect((await store.hitCounter('c', 60_000, 1)).count).toBe(51);
    } finally {
      await store.close();
    }
  });
});

describe('SQLite data folders made by an older release', () => {
  it('gains the providers and login_states tables on open, keeping what it held', async () => {
    const path = join(dir.path, 'old.sqlite');
    // The first release's partners table, and nothing else.
    const old = new Database(path);
    old.exec(`CREATE TABLE partners (
      id TEXT PRIMARY KEY, secret TEXT NOT NULL, name TEXT NOT NULL, domain TEXT NOT NULL,
      rail TEXT NOT NULL, blind_app_id TEXT, allowed_scopes TEXT, created_at INTEGER NOT NULL)`);
    old
      .prepare('INSERT INTO partners VALUES (?, ?, ?, ?, ?, NULL, NULL, ?)')
      .run('pk_test_old', 's', 'Old', 'https://old.example', 'standard', 1);
    old.close();

    const store = openSqliteStore(path);
    try {
      expect(await store.getPartner('pk_test_old')).toMatchObject({ name: 'Old', disabledAt: null });
      const provider = {
        id: 'idp_old',
        issuer: 'https://id.example',
        clientId: 'svc',
        clientAuth: 'client_secret_basic' as const,
        credential: 'c',
        name: 'ID',
        method: 'face_check',
        proves: ['isAdult' as const],
        enabled: true,
        createdAt: 1,
      };
      await store.putProvider(provider);
      expect(await store.listProviders()).toEqual([provider]);
      const state = {
        digest: 'd',
        requestId: 'vr_1',
        providerId: 'idp_old',
        codeVerifier: 'v',
        nonce: 'n',
        browserDigest: 'b',
        expiresAt: 9,
      };
      await store.putLoginState(state, 1);
      expect(await store.takeLoginState('d', 2)).toEqual(state);
    } finally {
      await store.close();
    }
  });
});
