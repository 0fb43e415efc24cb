import { afterEach, describe, expect, it } from 'vitest';
import { PARTNER_CACHE_MS } from '../auth/partner-auth.ts';
import { makeTestApp, PARTNERS, signedInject, type TestApp, type TestPartner } from '../test/helpers.ts';
import { completeOnPhone, openOnPhone, startStandardFlow } from '../test/verify-flow.ts';

describe('partner variants', () => {
  let t: TestApp;
  afterEach(async () => t?.close());

  async function partnerCreate(body: unknown = { scopes: ['isAdult'] }, partner: TestPartner = PARTNERS.demo) {
    return signedInject(t, { url: '/api/partner/verify-request', body, partner });
  }

  it('creates a request for a signed partner and lets it poll the result with its signature', async () => {
    t = await makeTestApp();
    const res = await partnerCreate({ scopes: ['isAdult', 'isUnique'], client_proof_mode: false });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const created = res.json();
    expect(Object.keys(created).sort()).toEqual(['deep_link', 'expires_at', 'request_id']);
    const flow = { requestId: created.request_id, handoff: new URL(created.deep_link).hash.slice(3) };

    const status = () => signedInject(t, { method: 'GET', url: `/api/partner/verify-status/${created.request_id}` });
    expect((await status()).json()).toEqual({ status: 'pending', expires_at: created.expires_at });
    await openOnPhone(t, flow);
    await completeOnPhone(t, flow);
    const done = await status();
    expect(done.statusCode).toBe(200);
    const grantCode = done.json().result.grant_code as string;
    const exchanged = await signedInject(t, { url: '/v1/exchange', body: { grant_code: grantCode } });
    expect(exchanged.json().attributes).toEqual({
      age_over_18: true,
      nullifier: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
  });

  it('still hands the result over after the partner rotated its secret mid-request', async () => {
    t = await makeTestApp();
    const created = (await partnerCreate()).json();
    const flow = { requestId: created.request_id, handoff: new URL(created.deep_link).hash.slice(3) };
    const rotated = { ...PARTNERS.demo, secret: Buffer.alloc(32, 5).toString('base64') } as TestPartner;
    const stored = (await t.store.getPartner(PARTNERS.demo.id))!;
    await t.store.putPartner({ ...stored, secret: rotated.secret });
    t.clock.advance(PARTNER_CACHE_MS);
    await completeOnPhone(t, flow);
    const done = await signedInject(t, {
      method: 'GET',
      url: `/api/partner/verify-status/${created.request_id}`,
      partner: rotated,
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().result.grant_code).toMatch(/^g_/);
  });

  it('shows a partner only its own requests, and keeps them away from the loader endpoint', async () => {
    t = await makeTestApp();
    const { request_id } = (await partnerCreate()).json();
    const foreign = await signedInject(t, {
      method: 'GET',
      url: `/api/partner/verify-status/${request_id}`,
      partner: PARTNERS.other,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('NOT_FOUND');
    const widgetFlow = await startStandardFlow(t);
    expect(
      (await signedInject(t, { method: 'GET', url: `/api/partner/verify-status/${widgetFlow.requestId}` })).statusCode,
    ).toBe(404);
    expect((await signedInject(t, { method: 'GET', url: '/api/partner/verify-status/nonsense' })).statusCode).toBe(404);
  });

  it('refuses unsigned calls, ADULT_BLIND partners, bad scopes and non-JSON bodies', async () => {
    t = await makeTestApp();
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/partner/verify-request',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json().error).toBe('MISSING_HEADERS');
    expect((await partnerCreate({}, PARTNERS.blindShop)).json().error).toBe('FORBIDDEN_RAIL');
    expect((await partnerCreate({ scopes: ['isAdult', 'isFrench'] }, PARTNERS.adultOnly)).json().error).toBe(
      'INVALID_SCOPES',
    );
    expect((await partnerCreate({ scopes: ['revealBirthYear'], client_proof_mode: true })).json().error).toBe(
      'INVALID_SCOPES',
    );
    expect((await partnerCreate('[1,')).json().error).toBe('INVALID_REQUEST');
    const textPlain = await signedInject(t, {
      url: '/api/partner/verify-request',
      body: '{}',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(textPlain.statusCode).toBe(415);
    expect((await partnerCreate({})).statusCode).toBe(201);
  });

  it('answers 429 Too many requests beyond 60 calls a minute from one IP, before authentication', async () => {
    t = await makeTestApp();
    const unsigned = () => t.app.inject({ method: 'GET', url: '/api/partner/verify-status/vr_AAAAAAAAAAAAAAAAAAAAAA' });
    for (let i = 0; i < 60; i++) expect((await unsigned()).statusCode).toBe(401);
    const limited = await unsigned();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('Too many requests');
    for (let i = 0; i < 60; i++)
      await t.app.inject({ method: 'POST', url: '/api/partner/verify-request', payload: '{}' });
    expect((await partnerCreate()).statusCode).toBe(429);
    t.clock.advance(60_000);
    expect((await partnerCreate()).statusCode).toBe(201);
  });

  it.each([
    ['counts every client behind an untrusted proxy as the proxy', {}, 429],
    ['counts each forwarded client apart when SVC_TRUST_PROXY trusts the proxy', { SVC_TRUST_PROXY: 'loopback' }, 401],
  ])('%s', async (_name, env, secondClientStatus) => {
    t = await makeTestApp({ env });
    const from = (client: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/partner/verify-status/vr_AAAAAAAAAAAAAAAAAAAAAA',
        headers: { 'x-forwarded-for': client },
      });
    for (let i = 0; i < 60; i++) await from('203.0.113.1');
    expect((await from('203.0.113.1')).statusCode).toBe(429);
    expect((await from('203.0.113.2')).statusCode).toBe(secondClientStatus);
  });
});
