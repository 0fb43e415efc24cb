/**
 * Prototype keys in bodies (design.md §1, the edge): every route that reads a form or JSON from a caller
 * answers a body naming `__proto__`, `constructor` or `prototype` with its documented 400, never
 * a 500, and leaves what the body aimed at untouched; the same body without the hostile key is
 * served, so the key alone is what is refused. Tokens carrying JSON (session tokens,
 * attestations) whose values `String()` cannot print are refused with their own codes too.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from './clock.ts';
import { createPartnerApp } from './example-partner/app.ts';
import { SCOPES } from '../src/protocol/scopes.ts';
import { makeTestApp, PARTNERS, putTestGrant, signedInject, type TestApp } from './test/helpers.ts';
import { personaOf } from './test/personas.ts';
import { startHandMadeProvider, type HandMadeProvider } from './test/providers.ts';
import { openOnPhone, PARTNER_ORIGIN, pollStatus, startStandardFlow, type Flow } from './test/verify-flow.ts';
import { loadSandboxIssuer } from './sandbox/wallet/sandbox-issuer.ts';
import { createDirectPost } from './sandbox/wallet/sandbox-wallet.ts';

/** JSON texts that add a prototype key to an otherwise valid body `{…fields}`. */
const HOSTILE_JSON: readonly [string, (fields: string) => string][] = [
  ['a top-level __proto__', (fields) => `{"__proto__":{"polluted":true},${fields}}`],
  ['constructor.prototype', (fields) => `{"constructor":{"prototype":{"polluted":true}},${fields}}`],
  ['a nested __proto__', (fields) => `{"nested":[{"__proto__":{"polluted":true}}],${fields}}`],
  ['an escaped __proto__', (fields) => `{"\\u005f_proto__":{"polluted":true},${fields}}`],
  ['a prototype key', (fields) => `{"prototype":{"polluted":true},${fields}}`],
];

let t: TestApp;
/** A provider answering discovery, so a start without the hostile key is served (200). */
let provider: HandMadeProvider;
const issuer = loadSandboxIssuer();
const PROVIDER_ID = 'idp_prototype_keys';

beforeAll(async () => {
  // a date inside the committed sandbox issuer's validity, for the wallet presentations
  t = await makeTestApp({ clock: createFakeClock(Date.now()) });
  provider = await startHandMadeProvider();
  const { client } = provider;
  await t.store.putProvider({
    id: PROVIDER_ID,
    issuer: client.issuer,
    clientId: client.clientId,
    clientAuth: client.clientAuth,
    credential: client.credential,
    name: 'Hand-made',
    method: 'face_check',
    proves: [...SCOPES],
    enabled: true,
    createdAt: t.clock.now(),
  });
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

function expectNotPolluted(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

function fieldsOf(body: Record<string, unknown>): string {
  return JSON.stringify(body).slice(1, -1);
}

interface JsonRoute {
  name: string;
  /** the route's documented answer to a bad body */
  refused: { status: number; body: Record<string, unknown> };
  /** sends `text` as the route's body (the valid fields are the caller's) and answers */
  send(text: string): Promise<{ statusCode: number; json(): unknown }>;
  /** the valid fields, fresh for each call */
  fields(): Promise<Record<string, unknown>>;
  /**
   * the status of the same body without the hostile key; absent for the sandbox wallet step, whose
   * valid body makes the sandbox wallet post to the service's public URL, not listening here
   * (server/routes/wallet.test.ts covers it on a listening service)
   */
  served?: number;
}

const invalidRequest = { status: 400, body: { error: 'INVALID_REQUEST', message: expect.any(String) } };
// design.md §11: the wallet routes keep OpenID4VP's error shape
const walletRefused = { status: 400, body: { error: 'invalid_request', error_description: expect.any(String) } };

async function proofFlow(): Promise<Flow> {
  return startStandardFlow(t, { scopes: ['isAdult'], client_proof_mode: true });
}

const JSON_ROUTES: JsonRoute[] = [
  {
    name: 'POST /api/w/verify-request',
    refused: invalidRequest,
    served: 201,
    fields: async () => ({ partner_id: PARTNERS.demo.id }),
    send: (text) =>
      t.app.inject({
        method: 'POST',
        url: '/api/w/verify-request',
        headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_ORIGIN },
        payload: text,
      }),
  },
  {
    name: 'POST /api/partner/verify-request',
    refused: invalidRequest,
    served: 201,
    fields: async () => ({ client_proof_mode: false }),
    send: (text) => signedInject(t, { url: '/api/partner/verify-request', body: text }),
  },
  {
    name: 'POST /api/billing/session',
    refused: { status: 400, body: { error: 'INVALID_JSON', message: expect.any(String) } },
    served: 201,
    fields: async () => ({ origin: PARTNER_ORIGIN }),
    send: (text) => signedInject(t, { url: '/api/billing/session', partner: PARTNERS.blindShop, body: text }),
  },
  {
    name: 'POST /v1/exchange',
    refused: invalidRequest,
    served: 200,
    fields: async () => ({ grant_code: await putTestGrant(t.deps) }),
    send: (text) => signedInject(t, { url: '/v1/exchange', body: text }),
  },
  {
    name: 'POST /v1/introspect',
    refused: invalidRequest,
    served: 200,
    fields: async () => ({ pass_token: 'p_unknown' }),
    send: (text) => signedInject(t, { url: '/v1/introspect', body: text }),
  },
  ...(['open', 'complete', 'wallet'] as const).map((step): JsonRoute => {
    let flow: Flow;
    return {
      name: `POST /api/m/requests/:id/${step}`,
      refused: invalidRequest,
      ...(step === 'wallet' ? {} : { served: 200 }),
      fields: async () => {
        flow = await proofFlow();
        if (step !== 'open') expect((await openOnPhone(t, flow)).statusCode).toBe(200);
        const choice = step === 'complete' ? { method: 'eudi_wallet', outcome: 'failed' } : {};
        return { h: flow.handoff, persona: 'fr-adult-m', ...choice };
      },
      send: (text) =>
        t.app.inject({
          method: 'POST',
          url: `/api/m/requests/${flow.requestId}/${step}`,
          headers: { 'content-type': 'application/json' },
          payload: text,
        }),
    };
  }),
  (() => {
    let flow: Flow;
    return {
      name: 'POST /api/m/requests/:id/providers/:providerId/start',
      refused: invalidRequest,
      served: 200,
      fields: async () => {
        flow = await proofFlow();
        return { h: flow.handoff };
      },
      send: (text: string) =>
        t.app.inject({
          method: 'POST',
          url: `/api/m/requests/${flow.requestId}/providers/${PROVIDER_ID}/start`,
          headers: { 'content-type': 'application/json' },
          payload: text,
        }),
    };
  })(),
  (() => {
    let flow: Flow;
    return {
      name: 'POST /api/m/requests/:id/wallet-response (the phone page)',
      refused: walletRefused,
      // a well-formed body that does not open: the verifier's own 400, reached only without the key
      served: 400,
      fields: async () => {
        flow = await proofFlow();
        return { h: flow.handoff, credential: { protocol: 'org-iso-mdoc', data: { response: 'AAAA' } } };
      },
      send: (text: string) =>
        t.app.inject({
          method: 'POST',
          url: `/api/m/requests/${flow.requestId}/wallet-response`,
          headers: { 'content-type': 'application/json', origin: new URL(t.deps.config.appUrl).origin },
          payload: text,
        }),
    };
  })(),
  (() => {
    let flow: Flow;
    return {
      name: 'POST /api/w/wallet-response/:id (text/plain JSON)',
      refused: walletRefused,
      // a well-formed body that does not open: the verifier's own 400, reached only without the key
      served: 400,
      fields: async () => {
        flow = await proofFlow();
        return { protocol: 'org-iso-mdoc', data: { response: 'AAAA' } };
      },
      send: (text: string) =>
        t.app.inject({
          method: 'POST',
          url: `/api/w/wallet-response/${flow.requestId}?pt=${encodeURIComponent(flow.pollToken)}`,
          headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_ORIGIN },
          payload: text,
        }),
    };
  })(),
];

describe('JSON bodies with a prototype key', () => {
  describe.each(JSON_ROUTES)('$name', (route) => {
    it.each(HOSTILE_JSON)('answers %s with the route’s documented 400', async (_name, hostile) => {
      const res = await route.send(hostile(fieldsOf(await route.fields())));
      expect(res.statusCode).toBe(route.refused.status);
      expect(res.json()).toEqual(route.refused.body);
      expectNotPolluted();
    });

    // The sandbox wallet route posts to the service's own public URL, which no port serves here.
    if (route.served !== undefined)
      it('serves the same body without the key', async () => {
        const res = await route.send(JSON.stringify(await route.fields()));
        expect(res.statusCode).toBe(route.served);
      });
  });

  it('leaves a grant it refused to exchange exchangeable', async () => {
    const grant_code = await putTestGrant(t.deps);
    const refused = await signedInject(t, {
      url: '/v1/exchange',
      body: `{"__proto__":{},"grant_code":"${grant_code}"}`,
    });
    expect(refused.statusCode).toBe(400);
    const exchanged = await signedInject(t, { url: '/v1/exchange', body: { grant_code } });
    expect(exchanged.statusCode).toBe(200);
  });
});

describe('tokens whose JSON holds a value String() cannot print', () => {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const token = `${b64({ alg: { toString: 1 }, typ: 'x' })}.${b64({})}.${'A'.repeat(86)}`;

  it('answers such a session token on POST /api/w/verify-request 401 SESSION_INVALID', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/w/verify-request',
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_ORIGIN },
      payload: JSON.stringify({ session_token: token }),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'SESSION_INVALID', message: expect.any(String) });
  });
});

describe('POST /oid4vp/response/:id with a prototype key in vp_token (form)', () => {
  const HOSTILE_FORM_KEYS = [
    'vp_token[__proto__]',
    'vp_token[constructor]',
    'vp_token[prototype]',
    'vp_token[__proto__][0]',
    'vp_token[constructor][]',
  ];

  it.each(HOSTILE_FORM_KEYS)(
    'answers %s with the right state 400 invalid_request and leaves the request waiting for its wallet',
    async (key) => {
      const flow = await proofFlow();
      const { responseUri, body } = await createDirectPost({
        link: flow.created.wallet_link!,
        issuer,
        persona: personaOf('fr-adult-m'),
        now: t.clock.now(),
        encoding: 'brackets',
      });
      const form = new URLSearchParams(body);
      const state = form.get('state')!;
      const path = new URL(responseUri).pathname;
      const post = (payload: string) =>
        t.app.inject({
          method: 'POST',
          url: path,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload,
        });

      const hostile = new URLSearchParams({ state });
      hostile.append(key, 'x');
      const alongside = new URLSearchParams(form);
      alongside.append(key, 'x');
      for (const payload of [hostile.toString(), alongside.toString()]) {
        const res = await post(payload);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
      }
      expectNotPolluted();
      expect(await pollStatus(t, flow)).toMatchObject({ status: 'pending' });

      // the genuine presentation still completes the request
      const genuine = await post(body);
      expect(genuine.statusCode).toBe(200);
      expect(await pollStatus(t, flow)).toMatchObject({ status: 'completed' });
    },
  );
});

describe('the example partner’s JSON routes', () => {
  let partner: FastifyInstance;
  beforeAll(async () => {
    partner = await createPartnerApp({
      partnerPort: 8788,
      serviceUrl: 'http://127.0.0.1:9',
      partner: PARTNERS.demo,
      blind: { partner: PARTNERS.blindShop, appId: 'app_blind_shop' },
    });
    await partner.ready();
  });
  afterAll(() => partner.close());

  it('answers an attestation whose header holds a typ String() cannot print 401 MALFORMED', async () => {
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const res = await partner.inject({
      method: 'POST',
      url: '/api/blind/verify',
      payload: { attestation: `${b64({ alg: 'EdDSA', typ: { toString: 1 } })}.${b64({})}.${'A'.repeat(86)}` },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ verified: false, error: 'MALFORMED' });
  });

  const ROUTES = [
    ['/api/exchange', '"grant_code":"g_x"'],
    ['/api/blind/verify', '"attestation":"x"'],
  ] as const;
  describe.each(ROUTES)('POST %s', (url, fields) => {
    it.each(HOSTILE_JSON.slice(0, 4))('answers %s 400 INVALID_REQUEST', async (_name, hostile) => {
      const res = await partner.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: hostile(fields),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ verified: false, error: 'INVALID_REQUEST', message: expect.any(String) });
      expectNotPolluted();
    });
  });
});
