/**
 * SIGTERM on the real service process (design.md §10, §23): every waiting long poll is answered at
 * once with its current status, and the process exits 0 within 5 s; on SQLite and on Redis. Behind
 * a proxy (SVC_TRUST_PROXY), a connection it keeps alive is not closed under it: a request sent on
 * it meanwhile is answered, with `Connection: close`, while new connections are refused. A call
 * still in flight is given SVC_DRAIN_MS, then cut, and the process still exits 0.
 */
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, REPO_ROOT, TEST_MASTER_KEY } from './test/helpers.ts';
import { startRedisServer, type RedisServer } from './test/redis-server.ts';
import { PARTNER_ORIGIN } from './test/verify-flow.ts';
import { freePort } from './test/free-port.ts';

let redis: RedisServer | null = null;
afterAll(() => redis?.remove());

async function startService(env: Record<string, string>) {
  const port = await freePort();
  const dir = makeTempDir();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      SVC_LOG_LEVEL: 'warn',
      SVC_PORT: String(port),
      SVC_DATA_DIR: dir.path,
      SVC_MASTER_KEY: TEST_MASTER_KEY,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited at start: ${stderr}`);
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`service did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base, exited, stderr: () => stderr, remove: () => dir.remove() };
}

describe.each(['sqlite', 'redis'] as const)('SIGTERM on %s', (kind) => {
  it('answers every waiting long poll at once with its status and exits 0 within 5 s', async () => {
    let env: Record<string, string> = {};
    if (kind === 'redis') {
      redis ??= await startRedisServer();
      env = { SVC_REDIS_URL: redis.url, SVC_REDIS_PREFIX: 'shutdown-test:' };
    }
    const svc = await startService(env);
    try {
      const polls = [];
      for (let i = 0; i < 3; i++) {
        const created = await fetch(`${svc.base}/api/w/verify-request`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain', origin: PARTNER_ORIGIN },
          body: JSON.stringify({ partner_id: 'pk_test_demo' }),
        });
        expect(created.status).toBe(201);
        const { request_id, poll_token } = (await created.json()) as { request_id: string; poll_token: string };
        const url = `${svc.base}/api/w/verify-status/${request_id}?pt=${poll_token}&wait=25&known=pending`;
        polls.push(
          fetch(url).then(async (res) => ({
            status: res.status,
            body: (await res.json()) as { status: string },
            at: Date.now(),
          })),
        );
      }
      await new Promise((r) => setTimeout(r, 300)); // the three polls are waiting
      const sentAt = Date.now();
      svc.child.kill('SIGTERM');
      const answers = await Promise.all(polls);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.body.status).toBe('pending');
        expect(answer.at - sentAt).toBeLessThan(1_000);
      }
      expect(await svc.exited, svc.stderr()).toBe(0);
      // well inside the 5 s, without the SVC_DRAIN_MS (10 s) cut of open connections
      expect(Date.now() - sentAt).toBeLessThan(3_000);
    } finally {
      if (svc.child.exitCode === null) svc.child.kill('SIGKILL');
      svc.remove();
    }
  });
});

describe('SIGTERM with a call in flight', () => {
  it('gives the call SVC_DRAIN_MS to finish, then cuts it and exits 0', async () => {
    const svc = await startService({ SVC_DRAIN_MS: '700' });
    try {
      const { port } = new URL(svc.base);
      // A create whose body never finishes arriving: in flight until the drain cuts it.
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.on('error', () => {});
      socket.write(
        `POST /api/w/verify-request HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${PARTNER_ORIGIN}\r\n` +
          'Content-Type: text/plain\r\nContent-Length: 100\r\n\r\n{"partner_id":',
      );
      await new Promise((r) => setTimeout(r, 300)); // the request is being read
      const sentAt = Date.now();
      svc.child.kill('SIGTERM');
      await closed;
      const cutAfter = Date.now() - sentAt;
      expect(await svc.exited, svc.stderr()).toBe(0);
      expect(cutAfter).toBeGreaterThanOrEqual(600);
      expect(cutAfter).toBeLessThan(3_000);
    } finally {
      if (svc.child.exitCode === null) svc.child.kill('SIGKILL');
      svc.remove();
    }
  });
});

/** The answers on one kept-alive connection, read one at a time (Content-Length bodies). */
function httpReader(socket: Socket): () => Promise<{ head: string; body: string }> {
  let buffered = '';
  let ended = false;
  let wake: (() => void) | null = null;
  socket.on('data', (chunk) => {
    buffered += String(chunk);
    wake?.();
  });
  socket.on('close', () => {
    ended = true;
    wake?.();
  });
  return async () => {
    for (;;) {
      const end = buffered.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
      if (end >= 0 && buffered.length >= end + 4 + length) {
        const answer = { head: buffered.slice(0, end), body: buffered.slice(end + 4, end + 4 + length) };
        buffered = buffered.slice(end + 4 + length);
        return answer;
      }
      if (ended) throw new Error('the instance closed the connection before answering');
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
}

describe('SIGTERM with a connection the proxy keeps alive', () => {
  it('refuses new connections, still answers a POST sent on the kept one (Connection: close), and exits 0 once it is closed', async () => {
    const svc = await startService({ SVC_TRUST_PROXY: '127.0.0.1' });
    try {
      const port = Number(new URL(svc.base).port);
      const socket = connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      const next = httpReader(socket);
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      const before = await next();
      expect(before.head).toMatch(/^HTTP\/1\.1 200/);
      expect(before.head).toMatch(/^connection: keep-alive/im);

      svc.child.kill('SIGTERM');
      // the listener closes: a new connection is refused (nginx then sends the request elsewhere)
      const deadline = Date.now() + 5_000;
      for (;;) {
        const refused = await new Promise<boolean>((resolve) => {
          const probe = connect(port, '127.0.0.1');
          probe.once('connect', () => {
            probe.destroy();
            resolve(false);
          });
          probe.once('error', () => resolve(true));
        });
        if (refused) break;
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 50));
      }
      // the kept connection is still served: a POST the proxy sent on it is answered, not lost
      const body = JSON.stringify({ partner_id: 'pk_test_demo' });
      socket.write(
        `POST /api/w/verify-request HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${PARTNER_ORIGIN}\r\n` +
          `Content-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      const during = await next();
      expect(during.head).toMatch(/^HTTP\/1\.1 201/);
      expect(during.head).toMatch(/^connection: close/im);
      expect(JSON.parse(during.body)).toMatchObject({ request_id: expect.any(String) });
      await closed;
      expect(await svc.exited, svc.stderr()).toBe(0);
    } finally {
      if (svc.child.exitCode === null) svc.child.kill('SIGKILL');
      svc.remove();
    }
  });
});
