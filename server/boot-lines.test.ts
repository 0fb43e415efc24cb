/**
 * What the real service process says at start about its environment (README, Configuration): one
 * warning line per SVC_* variable nothing reads, naming the nearest known one; one line, no stack,
 * for a bad SVC_LOG_LEVEL or a port it cannot listen on; a /healthz probe off the info log.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccessCertificates } from './sandbox/wallet/sandbox-access.ts';
import { makeTempDir, REPO_ROOT, TEST_MASTER_KEY } from './test/helpers.ts';

let dir: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => dir.remove());

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  // Only this test's SVC_* variables: the runner's own environment may hold others.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SVC_')));
  return {
    ...inherited,
    NODE_ENV: 'test',
    SVC_DATA_DIR: dir.path,
    SVC_MASTER_KEY: TEST_MASTER_KEY,
    SVC_PORT: '0',
    ...extra,
  };
}

/** Boots server/main.ts until it exits; its status and stderr. */
function bootUntilExit(extra: Record<string, string>) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: env(extra),
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: run.status, stderr: run.stderr.trim() };
}

/** Boots server/main.ts until it logs 'service ready'; then `whileUp`, then SIGTERM. Its stderr and JSON log. */
async function bootUntilReady(
  extra: Record<string, string>,
  whileUp: (port: number) => Promise<void> = async () => {},
) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: env({ SVC_LOG_LEVEL: 'info', ...extra }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const closed = new Promise((done) => child.on('close', done));
  const records: Array<Record<string, unknown>> = [];
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  try {
    let port = 0;
    await new Promise<void>((ready, fail) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        const record = JSON.parse(line) as Record<string, unknown>;
        records.push(record);
        const listening = /^Server listening at http:\/\/127\.0\.0\.1:(\d+)$/.exec(String(record.msg));
        if (listening) port = Number(listening[1]);
        if (record.msg === 'service ready') ready();
      });
      child.on('close', () => fail(new Error(`the service exited: ${stderr}`)));
    });
    await whileUp(port);
    return { stderr: stderr.trim(), records };
  } finally {
    child.kill('SIGTERM');
    await closed;
  }
}

describe('the service at start', () => {
  it('warns once per unknown SVC_* variable, naming the nearest known one, and boots on', async () => {
    const run = await bootUntilReady({
      SVC_PUBLC_URL: 'http://localhost:9999',
      SVC_LOG_LEVLE: 'debug',
      SVC_REDIS_PREFIX: 'ok:',
      NOT_OURS: '1',
    });
    expect(run.stderr.split('\n')).toEqual([
      'svc: warning: SVC_LOG_LEVLE is not a variable this service reads (did you mean SVC_LOG_LEVEL?); it is ignored',
      'svc: warning: SVC_PUBLC_URL is not a variable this service reads (did you mean SVC_PUBLIC_URL?); it is ignored',
    ]);
    // the typo did not take: the default public URL stands
    expect(run.records.find((r) => r.msg === 'service ready')).toMatchObject({ url: 'http://localhost:0' });
  }, 30_000);

  it('refuses an access certificate its key does not match, and one without its key, with one line each', async () => {
    const now = Date.now();
    const made = () =>
      createAccessCertificates({
        name: 'Operator',
        dns: 'verifier.example',
        notBefore: new Date(now - 86_400_000),
        notAfter: new Date(now + 86_400_000),
      });
    const [access, other] = await Promise.all([made(), made()]);
    const cert = join(dir.path, 'access.pem');
    const key = join(dir.path, 'other.key');
    writeFileSync(cert, access.chainPem);
    writeFileSync(key, other.keyPem);
    const mismatch = bootUntilExit({ SVC_WALLET_ACCESS_CERT: cert, SVC_WALLET_ACCESS_KEY: key });
    expect(mismatch.status).toBe(1);
    expect(mismatch.stderr).toBe(
      'svc: SVC_WALLET_ACCESS_KEY does not match the leaf of SVC_WALLET_ACCESS_CERT (CN=verifier.example, O=Operator, C=XX): ' +
        'install the key the certificate was issued for',
    );
    const alone = bootUntilExit({ SVC_WALLET_ACCESS_CERT: cert });
    expect(alone.status).toBe(1);
    expect(alone.stderr).toBe(
      'svc: SVC_WALLET_ACCESS_CERT is set without SVC_WALLET_ACCESS_KEY: the access certificate and its key go together',
    );
  }, 40_000);

  it('refuses a bad SVC_LOG_LEVEL with one line naming the levels, no stack', () => {
    const run = bootUntilExit({ SVC_LOG_LEVEL: 'verbose' });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'svc: SVC_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    );
  }, 30_000);

  it('says in one line that its port is in use, naming SVC_PORT, and exits 1', async () => {
    const taken: Server = createServer();
    await new Promise<void>((listening) => taken.listen(0, '127.0.0.1', listening));
    const { port } = taken.address() as { port: number };
    try {
      const run = bootUntilExit({ SVC_PORT: String(port) });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        `svc: port ${port} (SVC_PORT) on 127.0.0.1 (SVC_HOST) is in use by another process; stop it or set SVC_PORT to a free port`,
      );
    } finally {
      taken.close();
    }
  }, 30_000);

  it('logs no info line for a /healthz probe, and still logs other requests', async () => {
    const run = await bootUntilReady({}, async (port) => {
      for (let i = 0; i < 3; i++) expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/no-such-page`)).status).toBe(404);
    });
    const urls = run.records.map((r) => (r.req as { url?: string } | undefined)?.url).filter(Boolean);
    expect(urls).toEqual(['/no-such-page']);
  }, 30_000);
});
