/**
 * deploy/nginx.conf run for real (docs/operations.md#several-instances-redis, "The proxy's limits")
 * in front of a real service instance: nginx accepts it, long polls pass, a flood of writes from
 * one address is refused with the service's 429 body before it reaches the instance while partner
 * calls and GETs still pass, and one address cannot hold more than 200 requests open at once. Only
 * what a local nginx lacks is changed: the compose resolver's upstream becomes the test instance,
 * the port a free one, the files a temporary folder. Skipped when nginx is not installed (Debian: nginx-light).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../server/app.ts';
import { makeTempDir, makeTestDeps, REPO_ROOT, type TestDeps } from '../server/test/helpers.ts';
import { PARTNER_ORIGIN } from '../server/test/verify-flow.ts';
import { nginxConfig } from './start-cluster.ts';
import { freePort } from '../server/test/free-port.ts';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
const DEPLOY_CONF = readFileSync(join(REPO_ROOT, 'deploy/nginx.conf'), 'utf8');

/** deploy/nginx.conf with the host-specific lines pointed at this machine. */
function localDeployConf(dir: string, listenPort: number, upstreamPort: number): string {
  const replace = (text: string, from: string, to: string): string => {
    if (!text.includes(from)) throw new Error(`deploy/nginx.conf no longer holds "${from}"`);
    return text.replace(from, to);
  };
  let conf = replace(
    DEPLOY_CONF,
    'server svc:8787 resolve max_fails=0;',
    `server 127.0.0.1:${upstreamPort} max_fails=0;`,
  );
  conf = replace(conf, 'listen 8787;', `listen 127.0.0.1:${listenPort};`);
  const paths = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    (name) => `  ${name}_temp_path ${dir}/${name};`,
  );
  return replace(conf, 'http {\n', `http {\n${paths.join('\n')}\n`);
}

/** `nginx -t`; `globals` for what the file leaves to the host (its pid file, its error log). */
function nginxTest(confPath: string, dir: string, globals?: string): { status: number | null; output: string } {
  const run = spawnSync(NGINX!, ['-t', '-p', dir, '-c', confPath, ...(globals ? ['-g', globals] : [])], {
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe.skipIf(!NGINX)('deploy/nginx.conf on a real nginx', () => {
  const dir = makeTempDir('svc-nginx-');
  let nginx: ChildProcess | null = null;
  let app: FastifyInstance;
  let base: TestDeps;
  let proxy = '';
  const held: Socket[] = [];

  beforeAll(async () => {
    // Enough long-poll slots per address for the connection test; the instance sees nginx's address.
    base = await makeTestDeps({ env: { SVC_LONG_POLL_PER_ADDRESS: '1000' } });
    app = await createApp(base.deps);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const upstreamPort = (app.server.address() as { port: number }).port;
    const listenPort = await freePort();
    const confPath = join(dir.path, 'nginx.conf');
    writeFileSync(confPath, localDeployConf(dir.path, listenPort, upstreamPort));
    const globals = `pid ${dir.path}/nginx.pid; error_log stderr;`;
    const checked = nginxTest(confPath, dir.path, globals);
    expect(checked.status, checked.output).toBe(0);
    nginx = spawn(NGINX!, ['-p', dir.path, '-c', confPath, '-g', `daemon off; ${globals}`], { stdio: 'ignore' });
    proxy = `http://127.0.0.1:${listenPort}`;
    for (let tries = 0; ; tries++) {
      const up = await fetch(`${proxy}/healthz`).then(
        (res) => res.ok,
        () => false,
      );
      if (up) break;
      if (tries > 50) throw new Error('nginx did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  afterAll(async () => {
    for (const socket of held) socket.destroy();
    // SIGTERM to the master, which stops its workers; wait for it, so no worker outlives the file.
    if (nginx && nginx.exitCode === null && nginx.signalCode === null) {
      const exited = new Promise((resolve) => nginx!.once('exit', resolve));
      nginx.kill('SIGTERM');
      await exited;
    }
    await app?.close();
    await base?.store.close();
    dir.remove();
  });

  it('is accepted by nginx -t, and so is the local cluster configuration', () => {
    const clusterConf = join(dir.path, 'cluster.conf');
    writeFileSync(clusterConf, nginxConfig({ servicePort: 1, instancePorts: [2, 3] }, dir.path));
    const checked = nginxTest(clusterConf, dir.path);
    expect(checked.status, checked.output).toBe(0);
  });

  it('passes a long poll through and answers it when its wait is over', async () => {
    const created = await fetch(`${proxy}/api/w/verify-request`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: PARTNER_ORIGIN },
      body: JSON.stringify({ partner_id: 'pk_test_demo' }),
    });
    expect(created.status).toBe(201);
    const { request_id, poll_token } = (await created.json()) as { request_id: string; poll_token: string };
    const startedAt = Date.now();
    const res = await fetch(`${proxy}/api/w/verify-status/${request_id}?pt=${poll_token}&wait=2&known=pending`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'pending' });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1_900);
  });

  it('refuses a flood of writes from one address with a 429 before the instance; partner calls and GETs pass', async () => {
    const answers = await Promise.all(
      Array.from({ length: 90 }, () =>
        fetch(`${proxy}/api/w/verify-request`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain', origin: PARTNER_ORIGIN },
          body: JSON.stringify({ partner_id: 'pk_test_demo' }),
        }).then(async (res) => ({ res, body: await res.text() })),
      ),
    );
    const atProxy = answers.filter(({ res }) => res.status === 429 && !res.headers.has('x-svc-cid'));
    const atInstance = answers.filter(({ res }) => res.headers.has('x-svc-cid'));
    // burst=60 pass at once (and one more per 100 ms at 10 a second); the rest never reach the instance
    expect(atInstance.length).toBeGreaterThanOrEqual(60);
    expect(atProxy.length).toBeGreaterThan(0);
    expect(atProxy.length + atInstance.length).toBe(90);
    const refused = atProxy[0]!;
    expect(JSON.parse(refused.body)).toEqual({ error: 'Too many requests' });
    expect(refused.res.headers.get('content-type')).toBe('application/json');
    expect(refused.res.headers.get('retry-after')).toBe('1');
    expect(refused.res.headers.get('access-control-allow-origin')).toBe('*');

    // a partner backend's call counts in its own budget, and reads are not counted
    const exchange = await fetch(`${proxy}/v1/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(exchange.headers.has('x-svc-cid')).toBe(true);
    expect(exchange.status).toBe(401);
    expect((await fetch(`${proxy}/healthz`)).status).toBe(200);
  });

  it('holds at most 200 requests open for one address, slow bodies included; the 201st is refused at once', async () => {
    const { port } = new URL(proxy);
    // Each announces a body it never sends: nginx waits for it, the instance never sees it.
    for (let i = 0; i < 200; i++) {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => {});
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n');
      held.push(socket);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const refused = await fetch(`${proxy}/healthz`);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: 'Too many requests' });

    for (const socket of held.splice(0)) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await fetch(`${proxy}/healthz`)).status).toBe(200);
  });
});
