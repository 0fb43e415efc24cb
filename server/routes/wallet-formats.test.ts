/**
 * Certification-ready wallet requests (design.md §19) through the HTTP surface, one app for the
 * file: a partner's `wallet_formats` narrows what its requests ask, and an answer in the other
 * format is refused with the request still waiting, even from a wallet that ignores the DCQL it
 * was given; the answer to a valid post carries the redirect_uri back to the done view, whose
 * response_code redeems once and only for its own request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../clock.ts';
import { loadSandboxIssuer } from '../sandbox/wallet/sandbox-issuer.ts';
import type { SandboxWalletChoice } from '../../src/protocol/sandbox.ts';
import { createDirectPost } from '../sandbox/wallet/sandbox-wallet.ts';
import { makeTestApp, PARTNERS, type TestApp } from '../test/helpers.ts';
import { personaOf } from '../test/personas.ts';
import { pollStatus, startStandardFlow, type Flow } from '../test/verify-flow.ts';
import { dcqlQueryFor } from '../wallet/formats/credentials.ts';

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

const REDIRECT = /^http:\/\/[^/]+\/m\/v\/(vr_[A-Za-z0-9_-]+)\/done#response_code=([A-Za-z0-9_-]{43})$/;

function redeem(requestId: string, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: `/api/m/requests/${requestId}/done`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

async function answeredFlow(locale = 'de') {
  const flow = await startStandardFlow(t, { scopes: ['isAdult', 'isFrench'], client_proof_mode: true, locale });
  const res = await answerWith(flow, flow.created.wallet_link!, 'pid');
  expect(res.statusCode, res.body).toBe(200);
  const match = REDIRECT.exec(res.json().redirect_uri)!;
  expect(match, res.body).not.toBeNull();
  expect(match[1]).toBe(flow.requestId);
  return { flow, code: match[2]! };
}

describe('back from the wallet: redirect_uri and the done view (design.md §19)', () => {
  it('answers a valid post with the done view’s redirect_uri, whose code redeems once: status and the request’s language', async () => {
    const { flow, code } = await answeredFlow('de');
    const first = await redeem(flow.requestId, { response_code: code });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ status: 'completed', locale: 'de' });
    const replayed = await redeem(flow.requestId, { response_code: code });
    expect(replayed.statusCode).toBe(404);
    expect(replayed.json().error).toBe('NOT_FOUND');
    expect((await pollStatus(t, flow)).status).toBe('completed');
  });

  it('finds nothing for a missing, malformed, forged or another request’s code, and that code still redeems after', async () => {
    const a = await answeredFlow();
    const b = await answeredFlow();
    const before = await t.deps.store.getRequest(b.flow.requestId, t.clock.now());
    const forged = Buffer.alloc(32, 7).toString('base64url');
    for (const body of [
      {},
      { response_code: 42 },
      { response_code: 'short' },
      { response_code: forged },
      { response_code: a.code },
    ]) {
      const res = await redeem(b.flow.requestId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(404);
      expect(Object.keys(res.json()).sort()).toEqual(['error', 'message']);
    }
    expect((await redeem('vr_nope', { response_code: b.code })).statusCode).toBe(404);
    expect(await t.deps.store.getRequest(b.flow.requestId, t.clock.now())).toEqual(before);
    expect((await redeem(b.flow.requestId, { response_code: b.code })).json().status).toBe('completed');
    expect((await redeem(a.flow.requestId, { response_code: a.code })).json().status).toBe('completed');
  });

  it('keeps only the code’s digest with the request, and answers a refused post with no redirect_uri', async () => {
    const { flow, code } = await answeredFlow();
    const stored = JSON.stringify(await t.deps.store.getRequest(flow.requestId, t.clock.now()));
    expect(stored).not.toContain(code);
    const again = await answerWith(flow, flow.created.wallet_link!, 'pid');
    await withFormats('mso_mdoc');
    const other = await startStandardFlow(t, { scopes: ['isAdult', 'isFrench'], client_proof_mode: true });
    await withFormats(null);
    const wrongFormat = await answerWith(other, linkAskingEverything(other), 'pid-sd-jwt');
    for (const refused of [again, wrongFormat]) {
      expect(refused.statusCode, refused.body).toBe(400);
      expect(Object.keys(refused.json()).sort()).toEqual(['error', 'error_description']);
    }
    expect((await pollStatus(t, other)).status).toBe('pending');
  });
});

describe('body limits (design.md §19): wallet answers up to 96 KiB, every other route 16 KiB', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  it('takes a 70 KiB direct_post (a valid answer and a parameter it ignores) and completes the request', async () => {
    const flow = await startStandardFlow(t, { scopes: ['isAdult', 'isFrench'], client_proof_mode: true });
    const { responseUri, body } = await createDirectPost({
      link: flow.created.wallet_link!,
      issuer,
      persona: personaOf('fr-adult-f'),
      now: t.clock.now(),
      credential: 'pid',
    });
    const padded = `${body}&padding=${'x'.repeat(70 * 1024 - body.length - 9)}`;
    expect(padded.length).toBe(70 * 1024);
    const res = await t.app.inject({
      method: 'POST',
      url: new URL(responseUri).pathname,
      headers: form,
      payload: padded,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await pollStatus(t, flow)).status).toBe('completed');
  });

  it('refuses more than 96 KiB on the three wallet answer routes with 413, the request still waiting', async () => {
    const flow = await startStandardFlow(t, { scopes: ['isAdult', 'isFrench'], client_proof_mode: true });
    const big = 'x'.repeat(96 * 1024 + 1);
    const answers = [
      await t.app.inject({ method: 'POST', url: `/oid4vp/response/${flow.requestId}`, headers: form, payload: big }),
      await t.app.inject({
        method: 'POST',
        url: `/api/w/wallet-response/${flow.requestId}?pt=${flow.pollToken}`,
        headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'http://localhost:8788' },
        payload: big,
      }),
      await t.app.inject({
        method: 'POST',
        url: `/api/m/requests/${flow.requestId}/wallet-response`,
        headers: { 'content-type': 'application/json' },
        payload: big,
      }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([413, 413, 413]);
    expect(answers[0]!.json()).toMatchObject({ error: 'PAYLOAD_TOO_LARGE' });
    // 90 KiB still reaches the verifier (refused there as no answer, not as too large)
    const near = await t.app.inject({
      method: 'POST',
      url: `/oid4vp/response/${flow.requestId}`,
      headers: form,
      payload: 'y'.repeat(90 * 1024),
    });
    expect(near.statusCode).toBe(400);
    expect(near.json().error).toBe('invalid_request');
    expect((await pollStatus(t, flow)).status).toBe('pending');
  });

  it('keeps 16 KiB everywhere else: the done route, the request object POST and the loader’s create answer 413 at 17 KiB', async () => {
    const flow = await startStandardFlow(t, { scopes: ['isAdult', 'isFrench'], client_proof_mode: true });
    const over = 'z'.repeat(17 * 1024);
    const answers = [
      await t.app.inject({
        method: 'POST',
        url: `/api/m/requests/${flow.requestId}/done`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ response_code: over }),
      }),
      await t.app.inject({ method: 'POST', url: `/oid4vp/request/${flow.requestId}`, headers: form, payload: over }),
      await t.app.inject({
        method: 'POST',
        url: '/api/w/verify-request',
        headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'http://localhost:8788' },
        payload: JSON.stringify({ partner_id: PARTNERS.demo.id, pad: over }),
      }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([413, 413, 413]);
  });
});
