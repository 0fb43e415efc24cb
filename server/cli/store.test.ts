import { afterAll, describe, expect, it } from 'vitest';
import { buildDeps } from '../boot.ts';
import { loadConfig } from '../config.ts';
import { createKeyring } from '../crypto/master-key.ts';
import { openRedisStore } from '../store/redis.ts';
import { sealedStore } from '../store/sealed.ts';
import { makeTempDir, makeTestApp, PARTNERS, REPO_ROOT, signedInject, TEST_MASTER_KEY } from '../test/helpers.ts';
import { startRedisServer } from '../test/redis-server.ts';
import { runCli } from './dispatch.ts';
import { runStoreCommand } from './store.ts';

const redis = await startRedisServer();
afterAll(() => redis.remove());

const COMMANDS = {
  store: {
    summary: 'store',
    run: (args: string[], context: Parameters<typeof runStoreCommand>[1]) => runStoreCommand(args, context),
  },
};

async function svc(args: string[], env: Record<string, string>) {
  const lines: string[] = [];
  const code = await runCli(COMMANDS, args, {
    env: { NODE_ENV: 'test', SVC_MASTER_KEY: TEST_MASTER_KEY, ...env },
    cwd: REPO_ROOT,
    io: { out: (l) => lines.push(l), err: (l) => lines.push(l) },
  });
  return { code, text: lines.join('\n') };
}

describe('svc store copy', () => {
  it('moves a SQLite deployment to Redis: partners, providers, keys and secrets, sealed as they were', async () => {
    const dir = makeTempDir();
    try {
      // The SQLite deployment: a service ran once on it (fixture partners and provider, keys, the nullifier key).
      const config = loadConfig(
        { NODE_ENV: 'test', SVC_DATA_DIR: dir.path, SVC_MASTER_KEY: TEST_MASTER_KEY },
        REPO_ROOT,
      );
      const before = await buildDeps(config);
      const jwks = await before.blind.jwks();
      const sealedPartner = (await before.store.listPartners()).length;
      const providers = await before.store.listProviders();
      expect(providers.map((p) => p.id)).toEqual(['idp_example']);
      // A login state in flight is not carried: it lapses with its request.
      await before.store.putLoginState(
        {
          digest: 'd',
          requestId: 'vr_x',
          providerId: 'idp_example',
          codeVerifier: 'v',
          nonce: 'n',
          browserDigest: 'b',
          expiresAt: Date.now() + 60_000,
        },
        Date.now(),
      );
      await before.store.close();

      const copied = await svc(['store', 'copy', '--to-redis-url', redis.url, '--to-redis-prefix', 'moved:'], {
        SVC_DATA_DIR: dir.path,
      });
      expect(copied.code, copied.text).toBe(0);
      expect(copied.text).toMatch(
        new RegExp(
          `^copied ${sealedPartner} partners, 1 identity provider, \\d+ signing keys and \\d+ service secrets`,
          'm',
        ),
      );

      // Values stay sealed in Redis: no partner secret in the clear.
      const raw = await openRedisStore({ url: redis.url, prefix: 'moved:', notice: () => {} });
      const demo = await raw.getPartner(PARTNERS.demo.id);
      expect(demo?.secret).toMatch(/^sealed:v1:/);
      expect((await raw.getProvider('idp_example'))?.credential).toMatch(/^sealed:v1:/);
      const keyring = createKeyring([Buffer.from(TEST_MASTER_KEY, 'base64')]);
      expect(await sealedStore(raw, keyring).listProviders()).toEqual(providers);
      expect(await raw.takeLoginState('d', Date.now())).toBeNull();
      await raw.close();

      // A service on Redis with the same master key: same partners, same published keys, same nullifier key.
      const t = await makeTestApp({
        store: await openRedisStore({ url: redis.url, prefix: 'moved:', notice: () => {} }),
      });
      try {
        expect(await t.deps.blind.jwks()).toEqual(jwks);
        expect(t.deps.nullifierKey.equals(before.nullifierKey)).toBe(true);
        const res = await signedInject(t, { url: '/v1/introspect', body: { pass_token: `p_${'A'.repeat(43)}` } });
        expect(res.json()).toEqual({ active: false });
      } finally {
        await t.close();
      }

      // Again: nothing changes. Into another deployment's store: refused, nothing written.
      expect(
        (
          await svc(['store', 'copy', '--to-redis-url', redis.url, '--to-redis-prefix', 'moved:'], {
            SVC_DATA_DIR: dir.path,
          })
        ).code,
      ).toBe(0);
      const other = makeTempDir();
      try {
        await (
          await buildDeps(
            loadConfig({ NODE_ENV: 'test', SVC_DATA_DIR: other.path, SVC_MASTER_KEY: TEST_MASTER_KEY }, REPO_ROOT),
          )
        ).store.close();
        const clash = await svc(['store', 'copy', '--to-data-dir', other.path], { SVC_DATA_DIR: dir.path });
        expect(clash.code).toBe(1);
        expect(clash.text).toMatch(/already holds a different nullifier_key/);
      } finally {
        other.remove();
      }
    } finally {
      dir.remove();
    }
  });

  it('refuses unclear destinations', async () => {
    const dir = makeTempDir();
    try {
      expect((await svc(['store', 'copy'], { SVC_DATA_DIR: dir.path })).code).toBe(2);
      expect((await svc(['store', 'copy', '--to-redis-url', 'http://x'], { SVC_DATA_DIR: dir.path })).code).toBe(2);
      expect((await svc(['store', 'copy', '--to-data-dir', dir.path], { SVC_DATA_DIR: dir.path })).text).toMatch(
        /destination is the source/,
      );
    } finally {
      dir.remove();
    }
  });
});
