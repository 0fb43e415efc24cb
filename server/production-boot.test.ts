/**
 * What production refuses at boot (design.md §1): wallet roots whose keys the world has, http:// public
 * URLs and http:// partner domains, each with one line. Real boots of server/main.ts on a
 * production folder made with the CLI, as an operator makes one; the rest in process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDeps, openServiceStore } from './boot.ts';
import { runKeysCommand } from './cli/keys.ts';
import { runPartnersCommand } from './cli/partners.ts';
import { runCli } from './cli/dispatch.ts';
import { createFakeClock } from './clock.ts';
import { loadConfig } from './config.ts';
import { ConfigError } from './errors.ts';
import { makeTempDir, REPO_ROOT, TEST_MASTER_KEY, TEST_NULLIFIER_KEY } from './test/helpers.ts';
import { spkiSha256 } from './wallet/trust/certificates.ts';
import { reencodeSignature } from './wallet/test-helpers.ts';
import { DEFAULT_WALLET_FIXTURES } from './wallet/trust/anchors.ts';

const clock = createFakeClock();
const PRODUCTION = { SVC_MODE: 'production', SVC_NULLIFIER_KEY: TEST_NULLIFIER_KEY, SVC_MASTER_KEY: TEST_MASTER_KEY };
let dir: ReturnType<typeof makeTempDir>;
let partnerId: string;

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { NODE_ENV: 'test', SVC_DATA_DIR: dir.path, ...PRODUCTION, ...extra };
}

async function svc(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    { partners: { summary: '', run: runPartnersCommand }, keys: { summary: '', run: runKeysCommand } },
    args,
    { env: env(), cwd: REPO_ROOT, clock, io: { out: (l) => out.push(l), err: (l) => err.push(l) } },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A wallet fixture copied under a neutral name: the refusal must come from the key. */
function copyAs(fixture: string, name: string): string {
  const path = join(dir.path, name);
  copyFileSync(join(DEFAULT_WALLET_FIXTURES, fixture), path);
  return path;
}

/** Boots the real service process on the folder until it exits; its status and stderr. */
function bootUntilExit(extra: Record<string, string>) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env(extra), SVC_PORT: '0', SVC_LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: run.status, stderr: run.stderr.trim() };
}

/** Boots the real service process until it logs that it is ready; its log records up to then. */
async function bootUntilReady(
  extra: Record<string, string>,
): Promise<Array<{ level: number; msg: string; mode?: string }>> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env(extra), SVC_PORT: '0', SVC_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((done) => child.on('close', done));
  const records: Array<{ level: number; msg: string }> = [];
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  try {
    await new Promise<void>((ready, fail) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        const record = JSON.parse(line) as { level: number; msg: string };
        records.push(record);
        if (record.msg === 'service ready') ready();
      });
      child.on('close', () => fail(new Error(`the service exited: ${stderr}`)));
    });
    return records;
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

beforeEach(async () => {
  dir = makeTempDir();
  const added = await svc(['partners', 'add', '--domain', 'https://shop.example', '--rail', 'standard', '--json']);
  expect(added.code).toBe(0);
  partnerId = (JSON.parse(added.out) as { id: string }).id;
  expect((await svc(['keys', 'rotate', '--purpose', 'attestation'])).code).toBe(0);
});
afterEach(() => dir.remove());

describe('production SVC_WALLET_TRUST', () => {
  it('refuses the sandbox IACA, known by its public key, with one line naming the variable and why', () => {
    const run = bootUntilExit({ SVC_WALLET_TRUST: copyAs('sandbox-iaca.pem', 'issuers.pem') });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^svc: SVC_WALLET_TRUST holds the sandbox IACA \(.*issuers\.pem certificate 1, SHA-256 99:3E:51:[0-9A-F:]+, known by its public key, SPKI SHA-256 5A:94:93:[0-9A-F:]+\): its document signer's private key is public/,
    );
    expect(run.stderr.split('\n')).toHaveLength(1);
    // The pilot override does not let it in either.
    const allowed = bootUntilExit({
      SVC_WALLET_TRUST: copyAs('sandbox-iaca.pem', 'issuers.pem'),
      SVC_WALLET_TRUST_ALLOW_TEST: '1',
    });
    expect(allowed.status).toBe(1);
    expect(allowed.stderr).toMatch(/^svc: SVC_WALLET_TRUST holds the sandbox IACA/);
  }, 60_000);

  it('refuses a re-encoded copy of the sandbox IACA (s → n − s, still validly self-signed) in one line', () => {
    const path = join(dir.path, 'issuers.pem');
    const copy = reencodeSignature(readFileSync(join(DEFAULT_WALLET_FIXTURES, 'sandbox-iaca.pem'), 'utf8'));
    writeFileSync(path, copy);
    const certificate = new X509Certificate(copy);
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.fingerprint256).not.toMatch(/^99:3E:51/);
    const run = bootUntilExit({ SVC_WALLET_TRUST: path });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `svc: SVC_WALLET_TRUST holds the sandbox IACA (fixtures/wallet/sandbox-iaca.pem) (${path} certificate 1, ` +
        `SHA-256 ${certificate.fingerprint256}, known by its public key, SPKI SHA-256 ` +
        `${spkiSha256(certificate)
          .toUpperCase()
          .replace(/(..)(?!$)/g, '$1:')}): its document signer's private key ` +
        'is public in fixtures/wallet/, so anyone could sign a proof of age, a PID or an mDL under it; production never trusts it',
    );
  }, 60_000);

  it('refuses the EU reference test CA in one line, and boots with SVC_WALLET_TRUST_ALLOW_TEST=1, logging it', async () => {
    const bundle = copyAs('av_issuer_ca01.pem', 'pilot-roots.pem');
    const run = bootUntilExit({ SVC_WALLET_TRUST: bundle });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^svc: SVC_WALLET_TRUST holds the EU age-verification reference test CA .*SHA-256 4F:37:EA:.*:EC:25, known by its public key, SPKI SHA-256 A3:9A:BB:[0-9A-F:]+\): .*unless SVC_WALLET_TRUST_ALLOW_TEST=1/,
    );
    expect(run.stderr.split('\n')).toHaveLength(1);

    const records = await bootUntilReady({ SVC_WALLET_TRUST: bundle, SVC_WALLET_TRUST_ALLOW_TEST: '1' });
    const warnings = records
      .filter((record) => record.level === 40 && String(record.msg).includes('SVC_WALLET_TRUST'))
      .map((record) => record.msg);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^SVC_WALLET_TRUST_ALLOW_TEST=1: trusting the EU age-verification reference test CA \(Age Verification Issuer CA 01\), SHA-256 4F:37:EA:.*:EC:25; .*pilots only$/,
      ),
    ]);
  }, 60_000);

  it('refuses a bad SVC_WALLET_TRUST_ALLOW_TEST rather than guessing', () => {
    expect(() => loadConfig(env({ SVC_WALLET_TRUST_ALLOW_TEST: 'yes' }), REPO_ROOT)).toThrow(
      'SVC_WALLET_TRUST_ALLOW_TEST must be 1 or unset, got "yes"',
    );
  });
});

describe('production SVC_WALLET_ACCESS_CERT', () => {
  it('refuses the sandbox access certificate, known by its public key, with one line naming the variable and why', () => {
    const run = bootUntilExit({
      SVC_WALLET_ACCESS_CERT: copyAs('sandbox-access.pem', 'access.pem'),
      SVC_WALLET_ACCESS_KEY: copyAs('sandbox-access.key.pem', 'access.key'),
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^svc: SVC_MODE=production refuses SVC_WALLET_ACCESS_CERT: certificate 1 is the sandbox access certificate \(fixtures\/wallet\/sandbox-access\.pem\), known by its public key \(SPKI SHA-256 1baa9111[0-9a-f]+\): its private key is public/,
    );
    expect(run.stderr.split('\n')).toHaveLength(1);
  }, 30_000);
});

describe('production SVC_TRUST_PROXY', () => {
  it('refuses a catch-all split in halves, for IPv4 and for IPv6, with one line naming the variable', () => {
    for (const [ranges, family] of [
      ['0.0.0.0/1,128.0.0.0/1', 'IPv4'],
      ['::/1,8000::/1', 'IPv6'],
    ] as const) {
      const run = bootUntilExit({ SVC_TRUST_PROXY: ranges });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        `svc: SVC_TRUST_PROXY must name the proxies, not the Internet: together they cover all of ${family}, ` +
          `so those clients could pick their own rate-limit key, got "${ranges}"`,
      );
    }
  }, 60_000);
});

describe('the mode the service runs in', () => {
  it('with SVC_MODE unset on a production folder runs as production, and its ready line says so', async () => {
    const records = await bootUntilReady({ SVC_MODE: '' });
    expect(records.find((record) => record.msg === 'service ready')).toMatchObject({ mode: 'production' });
  }, 30_000);
});

describe('production public URLs and partner domains', () => {
  it('refuses an http:// public URL with one line naming the variable, and accepts loopback hosts', async () => {
    for (const name of ['SVC_PUBLIC_URL', 'SVC_API_URL', 'SVC_APP_URL', 'SVC_WIDGET_URL']) {
      const load = () => loadConfig(env({ [name]: 'http://svc.example' }), REPO_ROOT);
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(
        `SVC_MODE=production requires ${name} to be https:// (http:// only on localhost, 127.0.0.0/8 or ::1), got "http://svc.example"`,
      );
    }
    for (const url of ['http://localhost:8787', 'http://127.0.0.2:8787', 'http://[::1]:8787', 'https://svc.example']) {
      expect(loadConfig(env({ SVC_PUBLIC_URL: url }), REPO_ROOT).apiUrl).toBe(url);
    }
    expect(loadConfig({ ...env(), SVC_MODE: 'sandbox', SVC_PUBLIC_URL: 'http://svc.example' }, REPO_ROOT).mode).toBe(
      'sandbox',
    );
    const run = bootUntilExit({ SVC_APP_URL: 'http://svc.example' });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'svc: SVC_MODE=production requires SVC_APP_URL to be https:// (http:// only on localhost, 127.0.0.0/8 or ::1), got "http://svc.example"',
    );
  }, 30_000);

  it('refuses an http:// public URL when the folder, not SVC_MODE, says production', async () => {
    const unset = env({ SVC_PUBLIC_URL: 'http://svc.example' });
    delete unset.SVC_MODE;
    await expect(buildDeps(loadConfig(unset, REPO_ROOT), { clock })).rejects.toThrow(
      /made in production mode \(SVC_MODE is unset\): SVC_MODE=production requires SVC_PUBLIC_URL to be https:\/\//,
    );
  });

  it('refuses to add an http:// partner domain in production, loopback hosts excepted', async () => {
    const refused = await svc(['partners', 'add', '--domain', 'http://shop.example', '--rail', 'standard']);
    expect(refused.code).toBe(2);
    expect(refused.err.split('\n')[0]).toBe(
      'svc partners add: --domain must be https:// in production (http:// only on localhost, 127.0.0.0/8 or ::1), got "http://shop.example"',
    );
    for (const domain of ['http://localhost:8788', 'http://127.0.0.1:8788', 'http://[::1]:8788']) {
      expect((await svc(['partners', 'add', '--domain', domain, '--rail', 'standard'])).code).toBe(0);
    }
  });

  it('refuses to boot on a stored partner with an http:// domain until it is disabled, and never enables it again', async () => {
    const { store } = await openServiceStore(loadConfig(env(), REPO_ROOT));
    const old = (await store.getPartner(partnerId))!;
    await store.putPartner({ ...old, id: 'pk_live_old', domain: 'http://old.example' });
    await store.close();

    await expect(buildDeps(loadConfig(env(), REPO_ROOT), { clock })).rejects.toThrow(
      new ConfigError(
        'SVC_MODE=production requires https:// partner domains: partner pk_live_old has http://old.example; ' +
          'disable it (svc partners disable pk_live_old) and add it again with its https:// origin',
      ),
    );
    expect((await svc(['partners', 'disable', 'pk_live_old'])).code).toBe(0);
    const deps = await buildDeps(loadConfig(env(), REPO_ROOT), { clock });
    await deps.store.close();
    const enabled = await svc(['partners', 'enable', 'pk_live_old']);
    expect(enabled.code).toBe(1);
    expect(enabled.err).toMatch(
      /^svc partners enable: pk_live_old has http:\/\/old\.example; production serves https:/,
    );
  });
});
