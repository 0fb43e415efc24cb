/**
 * Identity providers in production (design.md §12), as an operator meets them: a production data
 * folder made with the CLI (partner, keys), no identity provider and no wallet trust, refuses a
 * request with 400 NO_METHOD; once the example identity provider is registered through `svc
 * providers add`, the same request is created, proven at the provider, and exchanged with its attributes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import { buildDeps } from './boot.ts';
import { runCli } from './cli/dispatch.ts';
import { runKeysCommand } from './cli/keys.ts';
import { runPartnersCommand } from './cli/partners.ts';
import { runProvidersCommand } from './cli/providers.ts';
import { createFakeClock } from './clock.ts';
import { loadConfig } from './config.ts';
import type { ExampleProvider } from './sandbox/example-idp/provider.ts';
import { signInAtExampleProvider } from './sandbox/example-idp/sign-in.ts';
import { openSqliteStore } from './store/sqlite.ts';
import { makeTempDir, REPO_ROOT, signedInject, TEST_MASTER_KEY, TEST_NULLIFIER_KEY } from './test/helpers.ts';
import { clientsOf, REDIRECT_URI, startProvider } from './test/providers.ts';
import { handoffOf, pollStatus, postVerifyRequest } from './test/verify-flow.ts';

const clock = createFakeClock(Date.now());
const SHOP = 'http://localhost:8788';
let dir: ReturnType<typeof makeTempDir>;
let provider: ExampleProvider;

beforeEach(async () => {
  dir = makeTempDir();
  provider = await startProvider();
});
afterEach(async () => {
  await provider.close();
  dir.remove();
});

const production = () => ({
  NODE_ENV: 'test',
  SVC_MODE: 'production',
  SVC_DATA_DIR: dir.path,
  SVC_MASTER_KEY: TEST_MASTER_KEY,
  SVC_NULLIFIER_KEY: TEST_NULLIFIER_KEY,
});

/** `svc …` on the folder, as an operator runs it: the exit code and what it printed. */
async function svc(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    {
      partners: { summary: '', run: runPartnersCommand },
      keys: { summary: '', run: runKeysCommand },
      providers: { summary: '', run: runProvidersCommand },
    },
    args,
    { env: production(), cwd: REPO_ROOT, clock, io: { out: (l) => out.push(l), err: (l) => err.push(l) } },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function boot() {
  const deps = await buildDeps(loadConfig(production(), REPO_ROOT), {
    store: openSqliteStore(join(dir.path, 'svc.sqlite')),
    clock,
  });
  const app = await createApp(deps);
  await app.ready();
  return { deps, app, clock, close: async () => (await app.close(), await deps.store.close()) };
}

describe('a production service and its identity providers, set up with the CLI', () => {
  it('refuses NO_METHOD without a provider, then creates and completes the same request once one is added', async () => {
    const added = await svc(['partners', 'add', '--domain', SHOP, '--rail', 'standard', '--name', 'Shop', '--json']);
    expect(added.code).toBe(0);
    const partner = JSON.parse(added.out) as { id: string; secret: string };
    expect((await svc(['keys', 'rotate'])).code).toBe(0);
    expect((await svc(['keys', 'rotate', '--purpose', 'session'])).code).toBe(0);
    const body = { partner_id: partner.id, scopes: ['isAdult', 'revealNationality'] };

    let t = await boot();
    const refused = await postVerifyRequest(t, body, { origin: SHOP });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('NO_METHOD');
    await t.close();

    const client = clientsOf(provider.issuer).client_secret_basic;
    const secretFile = join(dir.path, 'idp-secret');
    writeFileSync(secretFile, `${client.credential}\n`);
    const registered = await svc([
      'providers',
      'add',
      '--issuer',
      provider.issuer,
      '--client-id',
      client.clientId,
      '--client-secret-file',
      secretFile,
      '--name',
      'Example ID',
      '--method',
      'face_check',
      '--proves',
      'isAdult,revealNationality',
      '--json',
    ]);
    expect(registered.code).toBe(0);
    expect(registered.out).not.toContain(client.credential);
    const { id } = JSON.parse(registered.out) as { id: string };

    t = await boot();
    try {
      const created = await postVerifyRequest(t, body, { origin: SHOP });
      expect(created.statusCode).toBe(201);
      const { request_id: requestId, poll_token: pollToken, deep_link } = created.json();
      const h = handoffOf(deep_link);
      const opened = await t.app.inject({ method: 'POST', url: `/api/m/requests/${requestId}/open`, payload: { h } });
      expect(opened.json().methods).toEqual([{ id, name: 'Example ID', method: 'face_check' }]);
      const started = await t.app.inject({
        method: 'POST',
        url: `/api/m/requests/${requestId}/providers/${id}/start`,
        payload: { h },
      });
      const { callbackUrl } = await signInAtExampleProvider(started.json().authorization_url, {
        persona: 'de-adult',
        decision: 'approve',
        redirectUri: REDIRECT_URI,
      });
      // the phone's browser brings back the login cookie the start set
      const cookie = String(started.headers['set-cookie']).split(';')[0]!;
      const back = await t.app.inject({
        method: 'GET',
        url: callbackUrl.pathname + callbackUrl.search,
        headers: { cookie },
      });
      expect(back.headers.location).toMatch(/\?login=approved$/);
      const { result } = await pollStatus(t, { requestId, pollToken });
      const exchanged = await signedInject(t, {
        url: '/v1/exchange',
        body: { grant_code: (result as { grant_code: string }).grant_code },
        partner,
      });
      expect(exchanged.json().attributes).toEqual({ age_over_18: true, nationality: 'DEU' });
    } finally {
      await t.close();
    }
  });
});
