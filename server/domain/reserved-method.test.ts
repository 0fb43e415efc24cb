/**
 * `eudi_wallet` is the wallet path's verification method (design.md §11): `svc providers add`
 * refuses it (server/cli/providers.test.ts), and a provider row forged with it in the store, around
 * the CLI, is never offered, never started, and its callbacks never complete a request, so no pass
 * token from a provider login claims a wallet proof.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { createFakeClock } from '../clock.ts';
import type { ExampleProvider } from '../sandbox/example-idp/provider.ts';
import { signInAtExampleProvider } from '../sandbox/example-idp/sign-in.ts';
import { liveIdOf, makeProductionTestDeps, PARTNERS, type TestApp } from '../test/helpers.ts';
import { clientsOf, REDIRECT_URI, startProvider } from '../test/providers.ts';
import { openOnPhone, pollStatus, postVerifyRequest, startStandardFlow } from '../test/verify-flow.ts';
import type { ProviderRecord } from '../store/store.ts';

let provider: ExampleProvider;
const dist = mkdtempSync(join(tmpdir(), 'svc-dist-'));
mkdirSync(join(dist, 'phone'));
writeFileSync(join(dist, 'phone', 'index.html'), '<!doctype html><title>phone</title>');
beforeAll(async () => {
  provider = await startProvider();
});
afterAll(async () => {
  await provider.close();
  rmSync(dist, { recursive: true, force: true });
});

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A provider row as the store would hold it, its method given. */
function row(id: string, method: string): ProviderRecord {
  const client = clientsOf(provider.issuer).client_secret_basic;
  return {
    id,
    issuer: client.issuer,
    clientId: client.clientId,
    clientAuth: client.clientAuth,
    credential: client.credential,
    name: 'Forged',
    method,
    proves: ['isAdult'],
    enabled: true,
    createdAt: 0,
  };
}

/** Production, no wallet: the store's providers are the only way to prove anything. */
async function productionApp(rows: ProviderRecord[]): Promise<TestApp> {
  const base = await makeProductionTestDeps({ clock: createFakeClock(Date.now()), env: { SVC_DIST_DIR: dist } });
  for (const r of rows) await base.store.putProvider(r);
  const app = await createApp(base.deps);
  await app.ready();
  return { ...base, app, close: async () => (await app.close(), await base.store.close()) };
}

const standard = { partner_id: liveIdOf(PARTNERS.demo.id), scopes: ['isAdult'] };

function startLogin(target: TestApp, flow: { requestId: string; handoff: string }, providerId: string) {
  return target.app.inject({
    method: 'POST',
    url: `/api/m/requests/${flow.requestId}/providers/${providerId}/start`,
    payload: { h: flow.handoff },
  });
}

describe('a provider stored with the method eudi_wallet', () => {
  it('makes no method: a request only it could prove is refused with NO_METHOD', async () => {
    t = await productionApp([row('idp_forged', 'eudi_wallet')]);
    const refused = await postVerifyRequest(t, standard);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('NO_METHOD');
  });

  it('is neither offered on the phone nor started, beside an honest provider', async () => {
    t = await productionApp([row('idp_forged', 'eudi_wallet'), row('idp_honest', 'face_check')]);
    const flow = await startStandardFlow(t, standard);
    const opened = await openOnPhone(t, flow);
    expect(opened.json().methods).toEqual([{ id: 'idp_honest', name: 'Forged', method: 'face_check' }]);
    const started = await startLogin(t, flow, 'idp_forged');
    expect(started.statusCode).toBe(400);
    expect(started.json().error).toBe('INVALID_REQUEST');
    // Opened on the phone, not finished: nothing was started.
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'in_progress' });
  });

  it('never completes a request: a login started before the row became eudi_wallet is refused at the callback', async () => {
    t = await productionApp([row('idp_changed', 'face_check')]);
    const flow = await startStandardFlow(t, standard);
    const started = await startLogin(t, flow, 'idp_changed');
    expect(started.statusCode).toBe(200);
    const { callbackUrl } = await signInAtExampleProvider(started.json().authorization_url, {
      persona: 'de-adult',
      decision: 'approve',
      redirectUri: REDIRECT_URI,
    });
    await t.store.putProvider(row('idp_changed', 'eudi_wallet'));
    const res = await t.app.inject({ method: 'GET', url: callbackUrl.pathname + callbackUrl.search });
    expect(res.statusCode).toBe(303);
    expect(new URL(res.headers.location as string).searchParams.get('login')).toBe('refused');
    // The request is left as it was: no grant, no pass token, no method.
    const status = await pollStatus(t, flow);
    expect(status).toMatchObject({ status: 'in_progress' });
    expect(JSON.stringify(status)).not.toContain('eudi_wallet');
  });
});
