/**
 * No answer that carries a token, a grant, an attestation or a request's status is cached
 * (http/route-policy.ts, RFC 6749 §5.1): every route that answers one, its success and its errors,
 * carries `Cache-Control: no-store` and `Pragma: no-cache`. The static files keep their own
 * caching (routes/assets.test.ts checks each).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTESTATION_KEYS_PATH } from '../routes/billing.ts';
import { makeTestApp, PARTNERS, putTestGrant, signedInject, type TestApp } from '../test/helpers.ts';
import {
  completeOnPhone,
  getStatus,
  openOnPhone,
  PARTNER_ORIGIN,
  postVerifyRequest,
  startBlindFlow,
  startStandardFlow,
  type Flow,
} from '../test/verify-flow.ts';

let t: TestApp;
/** pending: created, never opened */
let started: Flow;
/** completed: its status carries a grant code */
let standard: Flow;
/** completed (ADULT_BLIND): its status carries an attestation */
let blind: Flow;
let grantCode: string;
let passToken: string;
let partnerRequestId: string;

beforeAll(async () => {
  t = await makeTestApp();
  started = await startStandardFlow(t);
  standard = await startStandardFlow(t);
  blind = await startBlindFlow(t);
  for (const flow of [standard, blind]) {
    expect((await openOnPhone(t, flow)).statusCode).toBe(200);
    expect((await completeOnPhone(t, flow)).statusCode).toBe(200);
  }
  grantCode = await putTestGrant(t.deps);
  const exchanged = await signedInject(t, { url: '/v1/exchange', body: { grant_code: grantCode } });
  expect(exchanged.statusCode).toBe(200);
  passToken = (exchanged.json() as { pass_token: string }).pass_token;
  const created = await signedInject(t, { url: '/api/partner/verify-request', body: { origin: PARTNER_ORIGIN } });
  partnerRequestId = (created.json() as { request_id: string }).request_id;
});
afterAll(() => t.close());

type Call = () => Promise<LightMyRequestResponse>;

/** [what, the call, the status it answers]: every one carries a token, grant, attestation or status, or fails to. */
const answers: Array<[string, Call, number]> = [
  // the loader's routes
  ['create (loader)', () => postVerifyRequest(t, { partner_id: PARTNERS.demo.id }), 201],
  ['create refused (loader)', () => postVerifyRequest(t, { partner_id: 'pk_test_nobody' }), 403],
  ['status, pending', () => getStatus(t, started.requestId, { pt: started.pollToken }), 200],
  ['status, completed with a grant code', () => getStatus(t, standard.requestId, { pt: standard.pollToken }), 200],
  ['status, completed with an attestation', () => getStatus(t, blind.requestId, { pt: blind.pollToken }), 200],
  [
    'long poll answered at once (known differs)',
    () => getStatus(t, standard.requestId, { pt: standard.pollToken, wait: '25', known: 'pending' }),
    200,
  ],
  ['status, wrong poll token', () => getStatus(t, standard.requestId, { pt: 'pt_wrong' }), 404],
  ['status, bad wait', () => getStatus(t, standard.requestId, { pt: standard.pollToken, wait: '99' }), 400],
  // the partner API
  [
    'exchange',
    async () => signedInject(t, { url: '/v1/exchange', body: { grant_code: await putTestGrant(t.deps) } }),
    200,
  ],
  ['exchange, grant used', () => signedInject(t, { url: '/v1/exchange', body: { grant_code: grantCode } }), 401],
  ['exchange, unsigned', () => t.app.inject({ method: 'POST', url: '/v1/exchange', payload: {} }), 401],
  [
    'exchange, body too large',
    () => signedInject(t, { url: '/v1/exchange', body: { grant_code: `g_${'x'.repeat(20_000)}` } }),
    413,
  ],
  ['introspect', () => signedInject(t, { url: '/v1/introspect', body: { pass_token: passToken } }), 200],
  ['introspect, unsigned', () => t.app.inject({ method: 'POST', url: '/v1/introspect', payload: {} }), 401],
  [
    'partner create',
    () => signedInject(t, { url: '/api/partner/verify-request', body: { origin: PARTNER_ORIGIN } }),
    201,
  ],
  [
    'partner status',
    () => signedInject(t, { method: 'GET', url: `/api/partner/verify-status/${partnerRequestId}` }),
    200,
  ],
  [
    'partner status, unsigned',
    () => t.app.inject({ method: 'GET', url: `/api/partner/verify-status/${standard.requestId}` }),
    401,
  ],
  // ADULT_BLIND's session
  [
    'billing session',
    () =>
      signedInject(t, { url: '/api/billing/session', partner: PARTNERS.blindShop, body: { origin: PARTNER_ORIGIN } }),
    201,
  ],
  ['billing session, unsigned', () => t.app.inject({ method: 'POST', url: '/api/billing/session', payload: {} }), 401],
  // the phone's routes
  ['phone open, wrong handoff', () => openOnPhone(t, { requestId: standard.requestId, handoff: 'h_wrong' }), 404],
  ['personas (sandbox)', () => t.app.inject({ method: 'GET', url: '/api/m/personas' }), 200],
  [
    'provider start refused',
    () =>
      t.app.inject({
        method: 'POST',
        url: `/api/m/requests/${started.requestId}/providers/idp_nobody/start`,
        payload: { h: started.handoff },
      }),
    400,
  ],
  // 404 here only because this test has no built phone page to send with its 400
  // the phone page with 400 once `npm run build` wrote it (docs/providers.md), a bare 404 before
  [
    'provider callback, unknown state',
    () => t.app.inject({ method: 'GET', url: '/m/callback?state=s&code=c' }),
    existsSync(fileURLToPath(new URL('../../dist/phone/index.html', import.meta.url))) ? 400 : 404,
  ],
  // the wallet's routes
  [
    'OpenID4VP direct_post, wrong type',
    () =>
      t.app.inject({
        method: 'POST',
        url: `/oid4vp/response/${standard.requestId}`,
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      }),
    400,
  ],
  [
    'Digital Credentials API response, no poll token',
    () => t.app.inject({ method: 'POST', url: `/api/w/wallet-response/${standard.requestId}`, payload: {} }),
    400,
  ],
  [
    'phone wallet response, wrong handoff',
    () =>
      t.app.inject({
        method: 'POST',
        url: `/api/m/requests/${standard.requestId}/wallet-response`,
        payload: { h: 'h_wrong' },
      }),
    404,
  ],
  // anything else
  ['unknown route', () => t.app.inject({ method: 'GET', url: '/api/no-such-route' }), 404],
  ['health', () => t.app.inject({ method: 'GET', url: '/healthz' }), 200],
];

describe('answers that carry a token, grant, attestation or status', () => {
  it.each(answers)('%s: Cache-Control no-store and Pragma no-cache', async (_what, call, status) => {
    const res = await call();
    expect(res.statusCode, res.body).toBe(status);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.pragma).toBe('no-cache');
  });

  it('covers what the table says: the grant code and the attestation rows carry them', async () => {
    const completed = (await getStatus(t, standard.requestId, { pt: standard.pollToken })).json() as {
      result?: { grant_code?: string };
    };
    expect(completed.result?.grant_code).toMatch(/^g_/);
    expect((await getStatus(t, blind.requestId, { pt: blind.pollToken })).body).toMatch(/attestation/);
  });
});

describe('answers that may be cached', () => {
  it('keep their own Cache-Control and get no Pragma: the attestation keys', async () => {
    const res = await t.app.inject({ method: 'GET', url: ATTESTATION_KEYS_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    expect(res.headers.pragma).toBeUndefined();
  });

  it('keep their own Cache-Control: the API docs', async () => {
    for (const url of ['/docs', '/docs/json']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeLessThan(400);
      expect(res.headers['cache-control'], url).not.toBe('no-store');
      expect(res.headers.pragma, url).toBeUndefined();
    }
  });
});
