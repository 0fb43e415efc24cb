/**
 * Property: whatever arrives on any route of the app (design.md's route list: /v1/*, /api/w/*,
 * /api/partner/*, /api/m/*, /api/billing/*), the service never answers 500, answers only
 * documented statuses, puts only catalogue codes in `error`, and keeps answering /healthz.
 *
 * Part of the generated requests are correctly signed (so that body handling behind the
 * HMAC check is reached), and part reuse a real verification request's id, poll token and
 * handoff (so that the phone and status routes get past their lookups). The three wallet routes
 * get their own cases on a live wallet request with its real state, poll token and handoff (issue
 * 16), so that hostile forms and JSON reach the verifier's readers.
 */
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, TOO_MANY_REQUESTS } from '../src/protocol/errors.ts';
import { canonicalString, computeSignature, hashBody } from './sdk/signing.ts';
import { PARTNERS, makeTestApp, newNonce, type TestApp } from './test/helpers.ts';

const ROUTES = [
  { method: 'POST', path: '/v1/exchange', signed: true },
  { method: 'POST', path: '/v1/introspect', signed: true },
  { method: 'POST', path: '/api/w/verify-request', signed: false },
  { method: 'GET', path: '/api/w/verify-status/:requestId', signed: false },
  { method: 'POST', path: '/api/partner/verify-request', signed: true },
  { method: 'GET', path: '/api/partner/verify-status/:requestId', signed: true },
  { method: 'GET', path: '/api/m/personas', signed: false },
  { method: 'POST', path: '/api/m/requests/:requestId/open', signed: false },
  // An unknown provider id: the fixture idp_example's issuer is not running in this test.
  { method: 'POST', path: '/api/m/requests/:requestId/providers/:providerId/start', signed: false },
  { method: 'POST', path: '/api/m/requests/:requestId/complete', signed: false },
  { method: 'POST', path: '/api/billing/session', signed: true },
  { method: 'GET', path: '/api/billing/attestation-keys', signed: false },
  { method: 'GET', path: '/api/billing/private-attestation-keys', signed: false },
  { method: 'POST', path: '/api/w/private-attestation/:requestId', signed: false },
  { method: 'POST', path: '/api/m/requests/:requestId/wallet', signed: false },
  // design.md §11: the wallet endpoints answer OpenID4VP's error shape {error: "invalid_request", error_description}
  { method: 'POST', path: '/api/w/wallet-response/:requestId', signed: false },
  { method: 'POST', path: '/oid4vp/response/:requestId', signed: false },
  { method: 'POST', path: '/api/m/requests/:requestId/wallet-response', signed: false },
  // design.md §19: the done view redeems a wallet's response_code
  { method: 'POST', path: '/api/m/requests/:requestId/done', signed: false },
] as const;

const WALLET_PATHS = new Set<string>([
  '/api/w/wallet-response/:requestId',
  '/oid4vp/response/:requestId',
  '/api/m/requests/:requestId/wallet-response',
]);

const CATALOGUE_STATUSES = new Set(
  Object.values(ERRORS)
    .map((e) => e.status)
    .filter((s) => s > 0),
);
const DOCUMENTED_STATUSES = new Set([200, 201, 204, ...CATALOGUE_STATUSES]);
const ERROR_STRINGS = new Set<string>([...Object.keys(ERRORS), TOO_MANY_REQUESTS]);

let t: TestApp;
/** A live verification request (STANDARD, demo partner), so some cases get past lookups. */
let live: { requestId: string; pollToken: string; handoff: string };

beforeAll(async () => {
  t = await makeTestApp();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/w/verify-request',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'http://localhost:8788' },
    payload: JSON.stringify({ partner_id: PARTNERS.demo.id, scopes: ['isAdult'] }),
  });
  expect(res.statusCode).toBe(201);
  const created = res.json() as { request_id: string; poll_token: string; deep_link: string };
  live = {
    requestId: created.request_id,
    pollToken: created.poll_token,
    handoff: new URL(created.deep_link).hash.slice('#h='.length),
  };
});
afterAll(async () => t.close());

/** What a client could put in a header: UTF-8 bytes as Node reads them (latin1), no control characters. */
const headerText = (maxLength = 80) =>
  fc
    .oneof(
      fc.string({ unit: fc.constantFrom(...'abcXYZ019_-.:/+= '), maxLength }),
      fc.string({ unit: 'binary', maxLength }),
    )
    .map((s) =>
      Buffer.from(s, 'utf8')
        .toString('latin1')
        // eslint-disable-next-line no-control-regex -- control characters are exactly what this strips
        .replace(/[\u0000-\u001f\u007f]/g, ''),
    );

const jsonValue = fc.jsonValue({ maxDepth: 6 });

const hostileStrings = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.constantFrom(
    'g_',
    'p_',
    'pt_',
    'h_',
    'vr_',
    '__proto__',
    'constructor',
    '../../etc/passwd',
    '%00',
    '\u0000',
    '💥'.repeat(50),
    'A'.repeat(20_000),
  ),
  fc.string({ maxLength: 20 }).map((s) => `g_${s}`),
  fc.string({ maxLength: 20 }).map((s) => `p_${s}`),
);

/** Bodies shaped like each route's, with hostile values, to reach field validation. */
const shapedBody = fc.oneof(
  fc.record({ grant_code: fc.oneof(hostileStrings, jsonValue) }, { requiredKeys: [] }),
  fc.record({ pass_token: fc.oneof(hostileStrings, jsonValue) }, { requiredKeys: [] }),
  fc.record(
    {
      partner_id: fc.oneof(fc.constant(PARTNERS.demo.id), hostileStrings, jsonValue),
      session_token: fc.oneof(hostileStrings, jsonValue),
      scopes: fc.oneof(
        fc.array(fc.constantFrom('isAdult', 'isMale', 'isFemale', 'isUnique', 'revealNationality', 'bogus', ''), {
          maxLength: 10,
        }),
        jsonValue,
      ),
      client_proof_mode: fc.oneof(fc.boolean(), jsonValue),
      locale: fc.oneof(fc.constantFrom('fr', 'en', 'de'), jsonValue),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      h: fc.oneof(fc.constant('LIVE_HANDOFF'), hostileStrings, jsonValue),
      persona: fc.oneof(fc.constantFrom('fr-adult-m', 'fr-minor', 'nobody'), hostileStrings, jsonValue),
      method: fc.oneof(fc.constantFrom('face_check', 'eudi_wallet', 'sms'), jsonValue),
      outcome: fc.oneof(fc.constantFrom('approved', 'failed', 'cancelled', 'maybe'), jsonValue),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      origin: fc.oneof(
        fc.constantFrom('http://localhost:8788', 'null', 'https://evil.example'),
        hostileStrings,
        jsonValue,
      ),
      scopes: jsonValue,
    },
    { requiredKeys: [] },
  ),
);

const body: fc.Arbitrary<string | Buffer | undefined> = fc.oneof(
  fc.constant(undefined),
  jsonValue.map((v) => JSON.stringify(v)),
  { arbitrary: shapedBody.map((v) => JSON.stringify(v)), weight: 4 },
  fc.uint8Array({ maxLength: 2048 }).map((bytes) => Buffer.from(bytes)),
  fc.string({ unit: 'binary', maxLength: 500 }),
  fc.integer({ min: 15 * 1024, max: 20 * 1024 }).map((n) => JSON.stringify({ grant_code: `g_${'x'.repeat(n)}` })),
  fc.integer({ min: 1, max: 200 }).map((depth) => '['.repeat(depth * 10) + ']'.repeat(depth * 10)),
);

// Mostly absent, which means "the right one" (see toInject), so that most cases reach the handlers.
const contentType = fc.option(
  fc.oneof(
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=----x',
      'application/json; charset=utf-16',
      'APPLICATION/JSON',
      'application/jsonp',
      '*/*',
      '',
    ),
    headerText(60),
  ),
  { nil: undefined, freq: 2 },
);

const segment = fc.oneof(
  fc.constant('LIVE_REQUEST'),
  fc.constantFrom('vr_x', 'vr_' + 'A'.repeat(22), '..', '%2e%2e', '%00', 'vr_%F0%9F%92%A5', 'a'.repeat(2000)),
  fc.string({ unit: fc.constantFrom(...'abcvr_-019'), minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map((s) => encodeURIComponent(s)),
);

const query = fc.option(
  fc.oneof(
    fc.constant('pt=LIVE_POLL'),
    fc
      .record(
        {
          pt: fc.oneof(fc.constant('LIVE_POLL'), hostileStrings),
          wait: fc.constantFrom('0', '-1', 'abc', '26', '1e3', '', '0.5'),
        },
        { requiredKeys: [] },
      )
      .map((q) =>
        new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, v.slice(0, 3000)])).toString(),
      ),
  ),
  { nil: undefined },
);

const authMode = fc.constantFrom(
  'valid',
  'valid',
  'valid',
  'valid',
  'none',
  'hostile',
  'duplicated',
  'wrong-secret',
  'skewed',
);

const hostileHeaders = fc.record(
  {
    'x-partner-id': fc.oneof(
      headerText(),
      fc.constantFrom(PARTNERS.demo.id, 'pk_test_démo', 'pk_live_' + 'x'.repeat(100)),
    ),
    'x-partner-timestamp': fc.oneof(
      headerText(20),
      fc.integer().map(String),
      fc.constantFrom('1e10', '-0', '0x10', '99999999999999999999'),
    ),
    'x-partner-nonce': fc.oneof(headerText(), fc.uuid()),
    'x-partner-signature': fc.oneof(headerText(60), fc.base64String({ minLength: 40, maxLength: 48 })),
    'idempotency-key': headerText(140),
    origin: fc.oneof(headerText(), fc.constantFrom('http://localhost:8788', 'null')),
    'x-forwarded-for': headerText(40),
  },
  { requiredKeys: [] },
);

const requestCase = fc.record({
  route: fc.constantFrom(...ROUTES),
  method: fc.oneof(
    { arbitrary: fc.constant('ROUTE'), weight: 4 },
    fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
  ),
  segment,
  query,
  body,
  contentType,
  authMode,
  hostileHeaders,
});

type Case = typeof requestCase extends fc.Arbitrary<infer C> ? C : never;

function toInject(c: Case): InjectOptions {
  const method = (c.method === 'ROUTE' ? c.route.method : c.method) as InjectOptions['method'];
  const segmentValue = c.segment === 'LIVE_REQUEST' ? live.requestId : c.segment;
  let url = c.route.path.replace(':requestId', segmentValue).replace(':providerId', 'idp_fuzz');
  if (c.query) url += `?${c.query.replaceAll('LIVE_POLL', encodeURIComponent(live.pollToken))}`;
  const hasBody = method !== 'GET' && method !== 'HEAD' && c.body !== undefined;
  const payload = typeof c.body === 'string' ? c.body.replaceAll('LIVE_HANDOFF', live.handoff) : c.body;
  const signedBody = hasBody ? (typeof payload === 'string' ? payload : (payload as Buffer)) : '';

  const headers: Record<string, string | string[]> = {};
  if (c.contentType !== undefined) headers['content-type'] = c.contentType;
  if (c.authMode === 'hostile') Object.assign(headers, c.hostileHeaders);
  if (
    c.authMode === 'valid' ||
    c.authMode === 'duplicated' ||
    c.authMode === 'wrong-secret' ||
    c.authMode === 'skewed'
  ) {
    const secret = c.authMode === 'wrong-secret' ? PARTNERS.other.secret : PARTNERS.demo.secret;
    const timestamp = Math.floor(t.clock.now() / 1000) + (c.authMode === 'skewed' ? 301 : 0);
    const nonce = newNonce();
    const signature = computeSignature(
      secret,
      canonicalString(hashBody(signedBody), String(timestamp), PARTNERS.demo.id, nonce),
    );
    headers['x-partner-id'] = PARTNERS.demo.id;
    headers['x-partner-timestamp'] = String(timestamp);
    headers['x-partner-nonce'] = nonce;
    headers['x-partner-signature'] = c.authMode === 'duplicated' ? [signature, signature] : signature;
  }
  if (c.contentType === undefined && hasBody) headers['content-type'] = 'application/json';
  if (c.authMode !== 'hostile') headers.origin = 'http://localhost:8788';
  return { method, url, headers, ...(hasBody ? { payload: payload as string | Buffer } : {}) };
}

describe('the fuzzed route list', () => {
  it('covers every /v1/ and /api/ route the app has', () => {
    const registered = t.app
      .printRoutes({ commonPrefix: false })
      .split('\n')
      .flatMap((line) => {
        const match = /^[├└]── (\/(?:v1|api)\/\S+) \(([^)]+)\)$/.exec(line);
        return match
          ? match[2]!
              .split(', ')
              .filter((m) => m !== 'HEAD' && m !== 'OPTIONS')
              .map((m) => `${m} ${match[1]}`)
          : [];
      });
    expect(registered.length).toBeGreaterThanOrEqual(2);
    expect(ROUTES.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(registered));
  });
});

describe('router-level refusals', () => {
  it('answers a path parameter over 100 characters with 404 NOT_FOUND and a correlation id', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/w/verify-status/${'a'.repeat(2000)}` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: ERRORS.NOT_FOUND.message });
    expect(res.headers['x-svc-cid']).toBeTruthy();
  });

  it('answers a malformed %-escape in a path parameter with 400 INVALID_REQUEST', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/m/requests/%E0%A4%A/open', payload: '{}' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('INVALID_REQUEST');
    expect(res.headers['x-svc-cid']).toBeTruthy();
  });
});

describe('every route, any input', () => {
  it('never answers 500, answers only documented statuses and catalogue codes, and keeps serving /healthz', async () => {
    await fc.assert(
      fc.asyncProperty(requestCase, async (c) => {
        const res = await t.app.inject(toInject(c));
        expect(res.statusCode).toBeLessThan(500);
        expect(DOCUMENTED_STATUSES).toContain(res.statusCode);
        expect(res.headers['x-svc-cid']).toBeTruthy();
        const onRoute = c.method === 'ROUTE' || c.method === c.route.method;
        const walletShape = onRoute && WALLET_PATHS.has(c.route.path) && res.statusCode === 400;
        if (walletShape) {
          const parsed = JSON.parse(res.body) as { error?: unknown; error_description?: unknown };
          if (parsed.error === 'invalid_request') expect(typeof parsed.error_description).toBe('string');
          else expect(ERROR_STRINGS).toContain(parsed.error);
        } else if (res.statusCode >= 400 && res.body.length > 0) {
          const parsed = JSON.parse(res.body) as { error?: unknown; message?: unknown };
          expect(ERROR_STRINGS).toContain(parsed.error);
          expect(typeof parsed.message).toBe('string');
        }
        // Rate-limit windows (60 s) pass every 300 cases, so later cases reach the handlers again;
        // the live request (300 s) outlives the default run.
        t.clock.advance(200);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 600) },
    );
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
  });
});

describe('the wallet routes, on a live wallet request, any form or JSON', () => {
  let caseNumber = 0;
  let live: { requestId: string; pollToken: string; handoff: string; state: string } | null = null;

  /**
   * A client-proof request, fresh every fourth case (a case may settle it with error=… and the
   * right state), and a client address of the case's own, so that no rate limit is reached.
   */
  async function liveWalletRequest(): Promise<{
    requestId: string;
    pollToken: string;
    handoff: string;
    state: string;
    client: string;
  }> {
    caseNumber++;
    const client = `10.${(caseNumber >> 8) & 255}.${caseNumber & 255}.7`;
    if (live === null || caseNumber % 4 === 0) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/w/verify-request',
        headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'http://localhost:8788' },
        payload: JSON.stringify({ partner_id: PARTNERS.demo.id, scopes: ['isAdult'], client_proof_mode: true }),
        remoteAddress: client,
      });
      expect(res.statusCode).toBe(201);
      const created = res.json() as { request_id: string; poll_token: string; wallet_link: string; deep_link: string };
      const link = new URLSearchParams(created.wallet_link.slice(created.wallet_link.indexOf('?') + 1));
      live = {
        requestId: created.request_id,
        pollToken: created.poll_token,
        handoff: new URL(created.deep_link).hash.replace(/^#h=/, ''),
        state: link.get('state')!,
      };
    }
    return { ...live, client };
  }

  function expectWalletAnswer(res: { statusCode: number; body: string }): void {
    expect(res.statusCode).toBeLessThan(500);
    // 413: a body past the 16 KiB limit, refused by the framework before the route, in the catalogue's shape
    expect([200, 400, 413, 429]).toContain(res.statusCode);
    const parsed = JSON.parse(res.body) as Record<string, unknown>;
    if (res.statusCode === 413) expect(parsed.error).toBe('PAYLOAD_TOO_LARGE');
    // 200: `{}`, or (design.md §19) the way back to the phone page's done view, for an answer or a wallet's error
    if (res.statusCode === 200 && Object.keys(parsed).length > 0)
      expect(parsed).toEqual({
        redirect_uri: expect.stringMatching(/^http:\/\/localhost:8787\/m\/v\/vr_[\w-]+\/done#response_code=[\w-]{43}$/),
      });
    if (res.statusCode === 400)
      expect(parsed).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
  }

  const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

  const formKey = fc.oneof(
    fc.constantFrom(
      'state',
      'vp_token',
      'error',
      'vp_token[proof_of_age]',
      'vp_token[proof_of_age][0]',
      'vp_token[proof_of_age][]',
      'vp_token[',
      'vp_token[]',
      'state[]',
      ...PROTOTYPE_KEYS,
      ...PROTOTYPE_KEYS.flatMap((key) => [`vp_token[${key}]`, `vp_token[${key}][0]`, `vp_token[${key}][]`]),
    ),
    fc.string({ maxLength: 20 }).map((s) => `vp_token[${s}]`),
    fc.string({ unit: 'binary', maxLength: 30 }),
  );
  const formValue = fc.oneof(
    { arbitrary: fc.constant('LIVE_STATE'), weight: 2 },
    hostileStrings,
    jsonValue.map((v) => JSON.stringify(v)),
    fc.constantFrom(
      '{"proof_of_age":["AAAA"]}',
      '{"__proto__":["AAAA"]}',
      '{"constructor":{"prototype":[]}}',
      'access_denied',
    ),
  );
  const form = fc.record({
    // mostly the right state first, so that the vp_token readers are reached
    withState: fc.boolean(),
    pairs: fc.array(fc.tuple(formKey, formValue), { maxLength: 8 }),
    contentType: fc.option(fc.constantFrom('application/x-www-form-urlencoded; charset=utf-8', 'text/plain'), {
      nil: undefined,
      freq: 4,
    }),
  });

  it("POST /oid4vp/response/:id never answers 5xx, and answers OpenID4VP's shape", async () => {
    await fc.assert(
      fc.asyncProperty(form, async (c) => {
        const live = await liveWalletRequest();
        const body = new URLSearchParams(c.withState ? [['state', live.state]] : []);
        for (const [key, value] of c.pairs) body.append(key, value === 'LIVE_STATE' ? live.state : value);
        const res = await t.app.inject({
          method: 'POST',
          url: `/oid4vp/response/${live.requestId}`,
          headers: { 'content-type': c.contentType ?? 'application/x-www-form-urlencoded' },
          payload: body.toString(),
          remoteAddress: live.client,
        });
        expectWalletAnswer(res);
      }),
      { numRuns: Math.ceil(Number(process.env.FUZZ_RUNS ?? 600) / 3) },
    );
  });

  const spliced = fc
    .tuple(fc.constantFrom(...PROTOTYPE_KEYS, '\\u005f_proto__'), jsonValue, fc.constantFrom('top', 'data'))
    .map(([key, value, where]) =>
      where === 'top'
        ? `{"${key}":${JSON.stringify(value)},"protocol":"org-iso-mdoc","data":{"response":"AAAA"}}`
        : `{"protocol":"org-iso-mdoc","data":{"${key}":${JSON.stringify(value)},"response":"AAAA"}}`,
    );
  const dcBody = fc.oneof(
    jsonValue.map((v) => JSON.stringify(v)),
    fc
      .record(
        {
          protocol: fc.oneof(fc.constant('org-iso-mdoc'), jsonValue),
          data: fc.oneof(fc.record({ response: fc.oneof(hostileStrings, jsonValue) }, { requiredKeys: [] }), jsonValue),
        },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
    { arbitrary: spliced, weight: 2 },
    fc.string({ unit: 'binary', maxLength: 300 }),
  );

  it("POST /api/w/wallet-response/:id never answers 5xx, and answers OpenID4VP's shape", async () => {
    await fc.assert(
      fc.asyncProperty(dcBody, fc.boolean(), async (payload, rightToken) => {
        const live = await liveWalletRequest();
        const pt = rightToken ? live.pollToken : 'pt_wrong';
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/w/wallet-response/${live.requestId}?pt=${encodeURIComponent(pt)}`,
          headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'http://localhost:8788' },
          payload,
          remoteAddress: live.client,
        });
        expectWalletAnswer(res);
      }),
      { numRuns: Math.ceil(Number(process.env.FUZZ_RUNS ?? 600) / 3) },
    );
  });

  // The phone page's answer wraps the credential with the handoff token: {h, credential}.
  const phoneBody = fc.oneof(
    {
      arbitrary: fc.record({
        hostile: fc.option(fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS, '\\u005f_proto__'), jsonValue), {
          nil: undefined,
          freq: 2,
        }),
        // mostly the live handoff token, so that the verifier is reached
        h: fc.oneof({ arbitrary: fc.constant('LIVE_HANDOFF'), weight: 3 }, fc.constant('h_wrong')),
        credential: dcBody,
      }),
      weight: 4,
    },
    jsonValue.map((v) => ({ raw: JSON.stringify(v) })),
    fc.string({ unit: 'binary', maxLength: 300 }).map((raw) => ({ raw })),
  );

  it("POST /api/m/requests/:id/wallet-response never answers 5xx, and answers OpenID4VP's shape or NOT_FOUND", async () => {
    const appOrigin = new URL(t.deps.config.appUrl).origin;
    await fc.assert(
      fc.asyncProperty(phoneBody, async (c) => {
        const live = await liveWalletRequest();
        const payload =
          'raw' in c
            ? c.raw
            : `{${c.hostile ? `"${c.hostile[0]}":${JSON.stringify(c.hostile[1])},` : ''}` +
              `"h":${JSON.stringify(c.h === 'LIVE_HANDOFF' ? live.handoff : c.h)},"credential":${c.credential}}`;
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/m/requests/${live.requestId}/wallet-response`,
          headers: { 'content-type': 'application/json', origin: appOrigin },
          payload,
          remoteAddress: live.client,
        });
        expect(res.statusCode).toBeLessThan(500);
        // 404: a wrong handoff token, in the catalogue's shape (routes/phone.ts)
        expect([200, 400, 404, 413, 429]).toContain(res.statusCode);
        const parsed = JSON.parse(res.body) as Record<string, unknown>;
        if (res.statusCode === 404) expect(parsed.error).toBe('NOT_FOUND');
        if (res.statusCode === 413) expect(parsed.error).toBe('PAYLOAD_TOO_LARGE');
        if (res.statusCode === 200) expect(['completed', 'failed']).toContain(parsed.status);
        if (res.statusCode === 400)
          expect(parsed).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
      }),
      { numRuns: Math.ceil(Number(process.env.FUZZ_RUNS ?? 600) / 3) },
    );
  });
});
