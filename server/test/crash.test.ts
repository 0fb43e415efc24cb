/**
 * Durability: what the service acknowledged survives `kill -9` (store contract). The real
 * service runs as a child process on a temporary data directory; a grant is obtained through
 * the widget and sandbox phone APIs, as a visitor would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient } from '../sdk/client.ts';
import { signRequest } from '../sdk/signing.ts';
import { PARTNERS, REPO_ROOT, makeTempDir, newNonce } from './helpers.ts';
import { freePort } from './free-port.ts';

const PARTNER_ORIGIN = 'http://localhost:8788';
const BOOT_TIMEOUT_MS = 30_000;

interface Service {
  child: ChildProcess;
  url: string;
  stderr: string[];
}

async function startService(dataDir: string, port: number): Promise<Service> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      SVC_MODE: 'sandbox',
      SVC_PORT: String(port),
      SVC_HOST: '127.0.0.1',
      SVC_DATA_DIR: dataDir,
      SVC_PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + BOOT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}: ${stderr.join('')}`);
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) return { child, url, stderr };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`service did not answer /healthz within ${BOOT_TIMEOUT_MS} ms: ${stderr.join('')}`);
}

function killHard(service: Service): Promise<void> {
  return new Promise((resolve) => {
    if (service.child.exitCode !== null || service.child.signalCode !== null) return resolve();
    service.child.once('exit', () => resolve());
    service.child.kill('SIGKILL');
  });
}

/** A visitor verifies on the sandbox phone: create → open → approve → poll; returns the grant code. */
async function obtainGrant(url: string): Promise<string> {
  const created = await fetch(`${url}/api/w/verify-request`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_ORIGIN },
    body: JSON.stringify({ partner_id: PARTNERS.demo.id, scopes: ['isAdult'], client_proof_mode: false, locale: 'fr' }),
  });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
  const { request_id, poll_token, deep_link } = (await created.json()) as {
    request_id: string;
    poll_token: string;
    deep_link: string;
  };
  const h = new URL(deep_link).hash.replace(/^#h=/, '');
  const post = (path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const opened = await post(`/api/m/requests/${request_id}/open`, { h });
  if (opened.status !== 200) throw new Error(`open: ${opened.status} ${await opened.text()}`);
  const completed = await post(`/api/m/requests/${request_id}/complete`, {
    h,
    persona: 'fr-adult-m',
    method: 'face_check',
    outcome: 'approved',
  });
  if (completed.status !== 200) throw new Error(`complete: ${completed.status} ${await completed.text()}`);
  const status = (await (
    await fetch(`${url}/api/w/verify-status/${request_id}?pt=${encodeURIComponent(poll_token)}`)
  ).json()) as { status: string; result?: { grant_code?: string } };
  if (status.status !== 'completed' || !status.result?.grant_code) throw new Error(`status: ${JSON.stringify(status)}`);
  return status.result.grant_code;
}

describe('after kill -9 and a restart on the same data directory', () => {
  const dir = makeTempDir('svc-crash-');
  let service: Service | null = null;
  let before: { passToken: string; grantCode: string; replay: { headers: Record<string, string>; body: string } };

  beforeAll(async () => {
    const port = await freePort();
    service = await startService(dir.path, port);
    const client = createPartnerClient({
      apiUrl: service.url,
      partnerId: PARTNERS.demo.id,
      secret: PARTNERS.demo.secret,
    });
    const passToken = (await client.exchange(await obtainGrant(service.url))).pass_token;
    const grantCode = await obtainGrant(service.url);

    const body = JSON.stringify({ pass_token: passToken });
    const headers = signRequest({ partnerId: PARTNERS.demo.id, secret: PARTNERS.demo.secret, body, nonce: newNonce() });
    const used = await fetch(`${service.url}/v1/introspect`, { method: 'POST', headers: { ...headers }, body });
    expect(await used.json()).toMatchObject({ active: true });
    before = { passToken, grantCode, replay: { headers: { ...headers }, body } };

    await killHard(service);
    service = await startService(dir.path, port);
  }, 120_000);

  afterAll(async () => {
    if (service) await killHard(service);
    dir.remove();
  });

  it('still introspects the pass token as active', async () => {
    const client = createPartnerClient({
      apiUrl: service!.url,
      partnerId: PARTNERS.demo.id,
      secret: PARTNERS.demo.secret,
    });
    expect(await client.introspect(before.passToken)).toMatchObject({
      active: true,
      scope: 'age_verification',
      attributes: { age_over_18: true },
    });
  });

  it('still exchanges the unexchanged grant, exactly once', async () => {
    const client = createPartnerClient({
      apiUrl: service!.url,
      partnerId: PARTNERS.demo.id,
      secret: PARTNERS.demo.secret,
    });
    expect(await client.exchange(before.grantCode)).toMatchObject({ token_type: 'Bearer', age_over_18: true });
    await expect(client.exchange(before.grantCode)).rejects.toMatchObject({ status: 401, code: 'GRANT_INVALID' });
  });

  it('still refuses the used nonce with REPLAY_DETECTED', async () => {
    const res = await fetch(`${service!.url}/v1/introspect`, {
      method: 'POST',
      headers: before.replay.headers,
      body: before.replay.body,
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'REPLAY_DETECTED' });
  });
});
