/**
 * The Python and PHP partner SDKs (sdk/python, sdk/php; design.md §21) against one running
 * service, started as the journeys start it (a real `server/main.ts` in sandbox mode, on a free
 * port, with its own data directory). This file drives the visitor's side over HTTP, as the
 * widget and the sandbox phone would: a STANDARD grant per language, an ADULT_BLIND attestation
 * (JWS) and a private attestation (RFC 9578 token, blinded here with @cloudflare/privacypass-ts
 * as the widget does). It hands them to pytest and PHPUnit in a JSON file (SVC_SDK_LIVE); each
 * suite then exchanges, introspects, opens a billing session and verifies the attestations with
 * its own SDK, and sends the forged inputs. The rate-limit tests run last, in both languages,
 * because they spend the client address's billing budget for the minute.
 * Needs Debian's /usr/bin/python3 (python3-pytest, python3-cryptography), php-cli and phpunit
 * (.ci/run installs them); `npm run test:sdk` runs this file with the TypeScript SDK's.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { publicVerif } from '@cloudflare/privacypass-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../e2e/support/service.ts';
import { createSession } from '../server/sdk/index.ts';
import type { PrivateAttestationKeySet } from '../server/crypto/private-attestation.ts';
import { blindTokenRequest } from '../server/test/private-client.ts';
import partners from '../fixtures/partners.json' with { type: 'json' };

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const PYTHON = '/usr/bin/python3';
const ORIGIN = 'http://localhost:8788';
const SLOW = 120_000;

const partner = (id: string) => {
  const found = partners.find((p) => p.id === id);
  if (!found) throw new Error(`no fixture partner ${id}`);
  return { partner_id: found.id, secret: found.secret, app_id: (found as { blind_app_id?: string }).blind_app_id };
};

let svc: RunningService;
let work: string;
let liveFile: string;

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${svc.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A verification request as the loader makes it, completed on the sandbox phone; its final status. */
async function completedFlow(create: Record<string, unknown>) {
  const created = await post('/api/w/verify-request', create, {
    'content-type': 'text/plain;charset=UTF-8',
    origin: ORIGIN,
  });
  const requestId = created.request_id as string;
  const pollToken = created.poll_token as string;
  const h = new URL(created.deep_link as string).hash.replace(/^#h=/, '');
  await post(`/api/m/requests/${requestId}/open`, { h });
  await post(`/api/m/requests/${requestId}/complete`, {
    h,
    persona: 'fr-adult-m',
    method: 'face_check',
    outcome: 'approved',
  });
  const res = await fetch(`${svc.url}/api/w/verify-status/${requestId}?pt=${encodeURIComponent(pollToken)}`);
  const status = (await res.json()) as { status: string; result?: { grant_code?: string; attestation?: string } };
  expect(status.status).toBe('completed');
  return { requestId, pollToken, status };
}

async function grantCode(): Promise<string> {
  const { status } = await completedFlow({ partner_id: 'pk_test_demo', scopes: ['isAdult'] });
  return status.result!.grant_code!;
}

async function blindSession(partnerId: string): Promise<string> {
  const { secret } = partner(partnerId);
  const { token } = await createSession({ appUrl: svc.url, partnerId, secret }, { origin: ORIGIN });
  return token;
}

async function jwsAttestation(): Promise<string> {
  const { status } = await completedFlow({
    session_token: await blindSession('pk_test_blind_shop'),
    client_proof_mode: false,
  });
  return status.result!.attestation!;
}

/** The widget's side of a private attestation: blind a token request, post it, finalise. */
async function privateAttestation() {
  const { requestId, pollToken } = await completedFlow({
    session_token: await blindSession('pk_test_blind_private'),
    client_proof_mode: false,
  });
  const keySet = (await (
    await fetch(`${svc.url}/api/billing/private-attestation-keys`)
  ).json()) as PrivateAttestationKeySet;
  const context = new Uint8Array(crypto.getRandomValues(new Uint8Array(32)));
  const { client, key, tokenRequest } = await blindTokenRequest(keySet, 1, context);
  const answer = await post(
    `/api/w/private-attestation/${requestId}?pt=${encodeURIComponent(pollToken)}`,
    { token_request: Buffer.from(tokenRequest).toString('base64url') },
    { 'content-type': 'text/plain;charset=UTF-8' },
  );
  const blindSig = Buffer.from(answer.token_response as string, 'base64url');
  const token = await client.finalize(new publicVerif.TokenResponse(new Uint8Array(blindSig)));
  const metadata = Buffer.from(JSON.stringify({ scope_mask: key.scope_mask, epoch: key.epoch })).toString('base64url');
  return {
    attestation: `${Buffer.from(token.serialize()).toString('base64url')}.${metadata}`,
    redemption_context: Buffer.from(context).toString('base64url'),
  };
}

beforeAll(async () => {
  svc = await startService({ SVC_MODE: 'sandbox' });
  work = mkdtempSync(join(tmpdir(), 'svc-sdk-polyglot-'));
  const [python, php, jws, priv] = await Promise.all([
    grantCode(),
    grantCode(),
    jwsAttestation(),
    privateAttestation(),
  ]);
  liveFile = join(work, 'live.json');
  writeFileSync(
    liveFile,
    JSON.stringify({
      api_url: svc.url,
      origin: ORIGIN,
      standard: partner('pk_test_demo'),
      blind: partner('pk_test_blind_shop'),
      grant_codes: { python, php },
      jws: { attestation: jws, app_id: 'app_blind_shop', origin: ORIGIN },
      private: priv,
    }),
  );
}, SLOW);

afterAll(async () => {
  await svc?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const env = () => ({ ...process.env, SVC_SDK_LIVE: liveFile, PYTHONDONTWRITEBYTECODE: '1' });

/** Runs a suite; its output is shown when it fails. */
async function suite(command: string, args: string[], cwd: string) {
  try {
    const { stdout } = await run(command, args, { cwd, env: env(), timeout: SLOW, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout}\n${stderr}`, { cause: error });
  }
}

const pytest = (marker: string) =>
  suite(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-m', marker], join(ROOT, 'sdk', 'python'));
const phpunit = (group: string[]) => suite('phpunit', ['--colors=never', ...group], join(ROOT, 'sdk', 'php'));

describe('the PHP package', () => {
  it('is a valid Composer package (composer validate --strict, offline)', async () => {
    const { stdout, stderr } = await run(
      'composer',
      ['validate', '--strict', '--no-check-publish', '--no-interaction'],
      {
        cwd: join(ROOT, 'sdk', 'php'),
        env: { ...process.env, COMPOSER_DISABLE_NETWORK: '1', COMPOSER_NO_AUDIT: '1' },
      },
    );
    expect(`${stdout}${stderr}`).toContain('composer.json is valid');
  });
});

describe('the Python and PHP SDKs against a running service', () => {
  it(
    'pass their pytest suite: known answers, grant, billing session, both attestations and each forgery refused',
    async () => {
      expect(await pytest('not ratelimit')).toMatch(/\b(2\d|[3-9]\d) passed, 1 deselected/);
    },
    SLOW,
  );

  it(
    'pass their PHPUnit suite: the same cases in PHP',
    async () => {
      expect(await phpunit(['--exclude-group', 'ratelimit'])).toMatch(/OK \((2\d|[3-9]\d) tests,/);
    },
    SLOW,
  );

  it(
    'honour the Retry-After of a real 429 in both languages (run last: it spends the minute’s billing budget)',
    async () => {
      expect(await pytest('ratelimit')).toMatch(/\b1 passed/);
      expect(await phpunit(['--group', 'ratelimit'])).toMatch(/OK \(1 test,/);
    },
    SLOW,
  );
});
