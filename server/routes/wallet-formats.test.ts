/**
 * One credential format on request (design.md §19), through the HTTP surface: a partner's
 * `wallet_formats` narrows what its requests ask, and an answer in the other format is refused
 * with the request still waiting, even from a wallet that ignores the DCQL it was given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../clock.ts';
import { loadSandboxIssuer } from '../sandbox/wallet/sandbox-issuer.ts';
import { createDirectPost, type SandboxWalletChoice } from '../sandbox/wallet/sandbox-wallet.ts';
import { makeTestApp, PARTNERS, type TestApp } from '../test/helpers.ts';
import { personaOf } from '../test/personas.ts';
import { pollStatus, startStandardFlow, type Flow } from '../test/verify-flow.ts';
import { dcqlQueryFor } from '../wallet/credentials.ts';

const issuer = loadSandboxIssuer();
let t: TestApp;

beforeAll(async () => {
  t = await makeTestApp({ clock: createFakeClock(Date.now()) });
});
afterAll(async () => t.close());

async function withFormats(walletFormats: 'mso_mdoc' | 'dc+sd-jwt' | null) {
  const demo = (await t.deps.store.getPartner(PARTNERS.demo.id))!;
  await t.deps.store.putPartner({ ...demo, walletFormats });
}

/** The request's link with its DCQL swapped for one asking every format: a wallet that ignores what it was asked. */
function linkAskingEverything(flow: Flow): string {
  const [head, query] = flow.created.wallet_link!.split('?') as [string, string];
  const params = new URLSearchParams(query);
  params.set('dcql_query', JSON.stringify(dcqlQueryFor(['pid', 'mdl'], ['isAdult', 'isFrench'])));
  params.delete('client_metadata');
  return `${head}?${params.toString()}`;
}

async function answerWith(flow: Flow, link: string, credential: SandboxWalletChoice) {
  const { responseUri, body } = await createDirectPost({
    link,
    issuer,
    persona: personaOf('fr-adult-f'),
    now: t.clock.now(),
    credential,
  });
  return t.app.inject({
    method: 'POST',
    url: new URL(responseUri).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: body,
  });
}

describe('a partner’s wallet_formats (design.md §19)', () => {
  it('asks only the SD-JWT VC PID under dc+sd-jwt, and refuses an mdoc PID, the request still waiting', async () => {
    await withFormats('dc+sd-jwt');
    const flow = await startStandardFlow(t, { scopes: ['isAdult', 'isFrench'], client_proof_mode: true });
    const query = JSON.parse(new URLSearchParams(flow.created.wallet_link!.split('?')[1]).get('dcql_query')!);
    expect(query.credentials.map((c: { id: string }) => c.id)).toEqual(['pid_sd']);
    expect(query.credential_sets).toBeUndefined();
    const refused = await answerWith(flow, linkAskingEverything(flow), 'pid');
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringMatching(/requested credential/),
    });
    expect((await pollStatus(t, flow)).status).toBe('pending');
    const accepted = await answerWith(flow, flow.created.wallet_link!, 'pid-sd-jwt');
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await pollStatus(t, flow)).status).toBe('completed');
  });

  it('asks only mdocs under mso_mdoc, and refuses the SD-JWT VC PID, the request still waiting', async () => {
    await withFormats('mso_mdoc');
    const flow = await startStandardFlow(t, { scopes: ['isAdult', 'isFrench'], client_proof_mode: true });
    const query = JSON.parse(new URLSearchParams(flow.created.wallet_link!.split('?')[1]).get('dcql_query')!);
    expect(query.credentials.map((c: { id: string }) => c.id)).toEqual(['pid', 'mdl']);
    const refused = await answerWith(flow, linkAskingEverything(flow), 'pid-sd-jwt');
    expect(refused.statusCode, refused.body).toBe(400);
    expect((await pollStatus(t, flow)).status).toBe('pending');
    const accepted = await answerWith(flow, flow.created.wallet_link!, 'pid');
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await pollStatus(t, flow)).status).toBe('completed');
    await withFormats(null);
  });
});
