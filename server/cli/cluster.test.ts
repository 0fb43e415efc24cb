/**
 * `svc --cluster …` against a real Redis, set up as `npm run start:cluster` sets it up: the
 * cluster folder holds the instances' master key, Redis listens on SVC_CLUSTER_REDIS_PORT.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openServiceStore } from '../boot.ts';
import { createFakeClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { newMasterKey } from '../crypto/master-key.ts';
import { startRedisServer, type RedisServer } from '../test/redis-server.ts';
import { REPO_ROOT, makeTempDir } from '../test/helpers.ts';
import { runCli, type CliCommand } from './dispatch.ts';
import { runPartnersCommand } from './partners.ts';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(() => redis.remove());

let dir: ReturnType<typeof makeTempDir>;
let out: string[];
let err: string[];
const masterKey = newMasterKey();
beforeEach(() => {
  dir = makeTempDir();
  writeFileSync(join(dir.path, 'master.key'), `${masterKey}\n`, { mode: 0o600 });
  out = [];
  err = [];
  execFileSync('redis-cli', ['-p', String(redis.port), 'flushall']);
});
afterEach(() => dir.remove());

const COMMANDS: Record<string, CliCommand> = {
  partners: { summary: 'partners', run: runPartnersCommand },
  serve: { summary: 'serve', start: async () => undefined },
};

/** The cluster's environment as start:cluster reads it; `extra` is the operator's shell. */
function clusterEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    SVC_CLUSTER_DIR: dir.path,
    SVC_CLUSTER_REDIS_PORT: String(redis.port),
    SVC_DATA_DIR: join(dir.path, 'cli-data'),
    ...extra,
  };
}

function svc(argv: string[], env: NodeJS.ProcessEnv = clusterEnv()) {
  return runCli(COMMANDS, argv, {
    env,
    cwd: REPO_ROOT,
    clock: createFakeClock(),
    io: { out: (l) => out.push(l), err: (l) => err.push(l) },
  });
}

/** What an instance of the cluster reads: Redis with the cluster's master key. */
async function instancePartners() {
  const config = loadConfig(
    { NODE_ENV: 'test', SVC_REDIS_URL: redis.url, SVC_MASTER_KEY: masterKey, SVC_DATA_DIR: join(dir.path, 'i') },
    REPO_ROOT,
  );
  const { store } = await openServiceStore(config);
  try {
    return await store.listPartners();
  } finally {
    await store.close();
  }
}

describe('svc --cluster', () => {
  it("adds a partner the cluster's instances read, secret and all, with no SVC_MASTER_KEY in the shell (flag first or last)", async () => {
    expect(
      await svc(['--cluster', 'partners', 'add', '--domain', 'https://shop.example', '--rail', 'standard', '--json']),
    ).toBe(0);
    const added = JSON.parse(out[0]!) as { id: string; secret: string };
    expect(added.id).toMatch(/^pk_test_/);
    expect(await instancePartners()).toMatchObject([
      { id: added.id, secret: added.secret, domain: 'https://shop.example' },
    ]);
    out = [];
    expect(await svc(['partners', 'list', '--json', '--cluster'])).toBe(0);
    expect((JSON.parse(out[0]!) as { id: string }[]).map((p) => p.id)).toEqual([added.id]);
  });

  it("refuses without --cluster: the shell's own master key cannot open the cluster's secrets", async () => {
    expect(await svc(['--cluster', 'partners', 'add', '--domain', 'https://shop.example', '--rail', 'standard'])).toBe(
      0,
    );
    err = [];
    expect(await svc(['partners', 'list'], clusterEnv({ SVC_REDIS_URL: redis.url }))).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(
      /^svc: the store holds secrets sealed with master key [0-9a-f]+, which this process cannot open/,
    );
  });

  it('refuses, in one line and before touching anything, what would make it another store', async () => {
    const cases: [NodeJS.ProcessEnv, number, RegExp][] = [
      [clusterEnv({ SVC_REDIS_URL: 'redis://127.0.0.1:1' }), 2, /unset SVC_REDIS_URL, or leave out --cluster/],
      [clusterEnv({ SVC_MASTER_KEY: newMasterKey() }), 2, /unset SVC_MASTER_KEY/],
      [clusterEnv({ SVC_REDIS_PREFIX: 'other:' }), 2, /unset SVC_REDIS_PREFIX/],
      [clusterEnv({ SVC_CLUSTER_REDIS_PORT: 'six' }), 2, /SVC_CLUSTER_REDIS_PORT must be a port number, got "six"/],
      [
        clusterEnv({ SVC_CLUSTER_DIR: join(dir.path, 'nowhere') }),
        1,
        /cannot read the cluster's master key .*nowhere\/master\.key \(ENOENT\); `npm run start:cluster` makes it/,
      ],
    ];
    for (const [env, code, message] of cases) {
      err = [];
      expect(await svc(['--cluster', 'partners', 'list'], env)).toBe(code);
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(/^svc --cluster: /);
      expect(err[0]).toMatch(message);
    }
    expect(await svc(['--cluster', 'serve'])).toBe(2);
    expect(err.pop()).toBe('svc --cluster: serve does not work on a store; run it without --cluster');
    expect(out).toEqual([]);
  });

  it('says in one line, within seconds, when the cluster is not running', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as { port: number }).port;
    await new Promise((done) => closed.close(done));
    const started = Date.now();
    expect(await svc(['--cluster', 'partners', 'list'], clusterEnv({ SVC_CLUSTER_REDIS_PORT: String(port) }))).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^svc: .*\(is npm run start:cluster running\? it serves redis:\/\/127\.0\.0\.1:\d+\)$/);
  });

  it('names --cluster in the command list', async () => {
    expect(await svc(['help'])).toBe(0);
    expect(out.join('\n')).toMatch(/svc --cluster <command> … works on npm run start:cluster's store/);
  });
});
