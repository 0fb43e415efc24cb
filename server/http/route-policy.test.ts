/**
 * HTTP policy is route data (http/route-policy.ts): no answer that carries a token, a grant, an
 * attestation or a request's status is cached; each unauthenticated route that writes or verifies
 * counts its client address under its own rule, before its own checks; only the partner page's
 * routes (/api/w/*) are open to other origins; only the wallet's answers speak OpenID4VP's error
 * shape; Ajv checks nothing, so no body is coerced.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../errors.ts';
import { RATE_LIMITS } from '../limits/rate-limits.ts';
import { makeTestApp, putTestGrant, signedInject, type TestApp } from '../test/helpers.ts';
import { registerErrorHandling } from './error-handler.ts';
import { registerRoutePolicy, routePolicies, type RoutePolicy } from './route-policy.ts';

let t: TestApp;
let routes: RoutePolicy[];
beforeAll(async () => {
  t = await makeTestApp();
  // HEAD answers as its GET; the preflights are checked by cors.test.ts and widget.test.ts.
  routes = routePolicies(t.app).filter((route) => route.method !== 'HEAD' && route.method !== 'OPTIONS');
});
afterAll(() => t.close());

const named = (list: RoutePolicy[]) => list.map((route) => `${route.method} ${route.url}`).sort();

/** Public by nature: built files, pages, the API docs, and the two public key sets. */
const CACHEABLE = /^\/(docs|v4|demo|favicon|m\/assets|m\/sandbox)\b|^\/api\/billing\/(private-)?attestation-keys$/;

describe('every route of the service, walked', () => {
  it('is no-store whenever its answers may carry a token, a grant, an attestation or a status', () => {
    expect(routes.length).toBeGreaterThan(30);
    const cacheable = routes.filter((route) => !route.noStore);
    expect(cacheable.filter((route) => !CACHEABLE.test(route.url))).toEqual([]);
    const api = routes.filter(
      (route) => /^\/(v1|api|oid4vp|m|sandbox)\//.test(route.url) && !CACHEABLE.test(route.url),
    );
    expect(api.filter((route) => !route.noStore)).toEqual([]);
    expect(named(api)).toEqual(expect.arrayContaining(['POST /v1/exchange', 'POST /v1/introspect']));
  });

  it('counts each unauthenticated write or check per client address under its own rule, and nothing else', () => {
    const limited = Object.fromEntries(
      routes.filter((route) => route.rateLimit).map((route) => [`${route.method} ${route.url}`, route.rateLimit]),
    );
    expect(limited).toEqual({
      'POST /api/w/verify-request': RATE_LIMITS.widgetCreate.name,
      'POST /api/w/private-attestation/:requestId': RATE_LIMITS.widgetCreate.name,
      'POST /api/partner/verify-request': RATE_LIMITS.partnerVerifyRequest.name,
      'GET /api/partner/verify-status/:requestId': RATE_LIMITS.partnerVerifyStatus.name,
      'POST /api/billing/session': RATE_LIMITS.billingPreAuth.name,
      'POST /api/m/requests/:requestId/providers/:providerId/start': RATE_LIMITS.providerStart.name,
      'POST /api/m/requests/:requestId/wallet-response': RATE_LIMITS.walletResponse.name,
      'POST /api/w/wallet-response/:requestId': RATE_LIMITS.walletResponse.name,
      'POST /oid4vp/response/:requestId': RATE_LIMITS.walletResponse.name,
      'GET /oid4vp/request/:requestId': RATE_LIMITS.walletRequestObject.name,
      'POST /oid4vp/request/:requestId': RATE_LIMITS.walletRequestObject.name,
      'POST /api/m/requests/:requestId/done': RATE_LIMITS.phoneDone.name,
    });
  });

  it("opens the partner page's routes (/api/w/*), its scripts and the public key sets to other origins, and only those", () => {
    const open = routes.filter((route) => route.cors);
    const expected = routes.filter(
      (route) =>
        route.url.startsWith('/api/w/') ||
        route.url.startsWith('/v4/') ||
        /^\/api\/billing\/(private-)?attestation-keys$/.test(route.url),
    );
    expect(named(open)).toEqual(named(expected));
  });

  it('writes no CORS header by hand: every open answer comes from a route’s policy', () => {
    const sources = ['routes', 'sandbox', 'http', 'auth', 'domain'].flatMap((dir) =>
      readdirSync(new URL(`../${dir}/`, import.meta.url), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.startsWith('cors.ts'))
        .map((name) => [`${dir}/${name}`, readFileSync(new URL(`../${dir}/${name}`, import.meta.url), 'utf8')]),
    );
    expect(sources.filter(([, text]) => /Access-Control-Allow-Origin/i.test(text!)).map(([name]) => name)).toEqual([]);
  });

  it('says which routes a partner signs for, and refuses each of them unsigned', async () => {
    const signed = routes.filter((route) => route.auth === 'partner-signature');
    expect(named(signed)).toEqual([
      'GET /api/partner/verify-status/:requestId',
      'POST /api/billing/session',
      'POST /api/partner/verify-request',
      'POST /v1/exchange',
      'POST /v1/introspect',
    ]);
    for (const route of signed) {
      const res = await t.app.inject({
        method: route.method as 'GET' | 'POST',
        url: route.url.replace(':requestId', 'vr_x'),
        headers: { 'content-type': 'application/json' },
        payload: route.method === 'POST' ? '{}' : undefined,
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it("answers OpenID4VP's error shape on the three wallet answers and the wallet's request object POST only", () => {
    expect(named(routes.filter((route) => route.errorShape === 'oauth'))).toEqual([
      'POST /api/m/requests/:requestId/wallet-response',
      'POST /api/w/wallet-response/:requestId',
      'POST /oid4vp/request/:requestId',
      'POST /oid4vp/response/:requestId',
    ]);
  });
});

describe('the partner API', () => {
  it('answers /v1/exchange and /v1/introspect with Cache-Control: no-store, success and refusal', async () => {
    const exchanged = await signedInject(t, { url: '/v1/exchange', body: { grant_code: await putTestGrant(t.deps) } });
    expect(exchanged.statusCode).toBe(200);
    const { pass_token } = exchanged.json() as { pass_token: string };
    const answers = [
      exchanged,
      await signedInject(t, { url: '/v1/exchange', body: { grant_code: 'g_unknown' } }),
      await signedInject(t, { url: '/v1/introspect', body: { pass_token } }),
      await signedInject(t, { url: '/v1/introspect', body: { pass_token: 7 } }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 401, 200, 400]);
    for (const res of answers) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.pragma).toBe('no-cache');
    }
  });
});

describe('a route config, on an app of its own', () => {
  let app: FastifyInstance;
  let reached: string[];
  beforeAll(async () => {
    reached = [];
    app = Fastify();
    registerRoutePolicy(app, t.deps);
    registerErrorHandling(app);
    const rule = { name: 'route-policy-test', max: 2, windowMs: 60_000 };
    app.post(
      '/limited',
      { config: { rateLimit: rule }, preValidation: async () => void reached.push('preValidation') },
      async () => ({}),
    );
    app.post(
      '/typed',
      { schema: { body: { type: 'object', properties: { n: { type: 'string' } }, required: ['n'] } } },
      async (request) => ({ body: request.body }),
    );
    for (const [url, errorShape] of [
      ['/oauth', 'oauth'],
      ['/catalogue', undefined],
    ] as const) {
      app.post(url, { config: { errorShape } }, async (request) => {
        const { code } = request.body as { code: 'INVALID_REQUEST' | 'NOT_FOUND' };
        throw new ServiceError(code, { message: code === 'INVALID_REQUEST' ? 'the check that failed' : undefined });
      });
    }
    await app.ready();
  });
  afterAll(() => app.close());

  it("answers 429 with Retry-After past the rule, before the route's own hooks run", async () => {
    const post = () => app.inject({ method: 'POST', url: '/limited', remoteAddress: '203.0.113.9' });
    expect([(await post()).statusCode, (await post()).statusCode]).toEqual([200, 200]);
    const over = await post();
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(reached).toEqual(['preValidation', 'preValidation']);
    // another address has its own budget
    expect((await app.inject({ method: 'POST', url: '/limited', remoteAddress: '198.51.100.7' })).statusCode).toBe(200);
  });

  it('lets a schema document a body without Ajv refusing or coercing it', async () => {
    for (const payload of [{ n: ['g_1'] }, { m: 1 }]) {
      const res = await app.inject({ method: 'POST', url: '/typed', payload });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ body: payload });
    }
  });

  it("shapes a 400 INVALID_REQUEST as OpenID4VP's error on an 'oauth' route, and every other error as the catalogue's", async () => {
    const refuse = (url: string, code: string) => app.inject({ method: 'POST', url, payload: { code } });
    expect((await refuse('/oauth', 'INVALID_REQUEST')).json()).toEqual({
      error: 'invalid_request',
      error_description: 'the check that failed',
    });
    const notFound = await refuse('/oauth', 'NOT_FOUND');
    expect([notFound.statusCode, notFound.json().error]).toEqual([404, 'NOT_FOUND']);
    expect((await refuse('/catalogue', 'INVALID_REQUEST')).json()).toEqual({
      error: 'INVALID_REQUEST',
      message: 'the check that failed',
    });
  });
});

describe('the route files', () => {
  it('write no no-store header, count no rate limit, set no validator compiler and build no OAuth error body themselves', () => {
    const dir = new URL('../routes/', import.meta.url);
    const files = readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(10);
    for (const name of files) {
      const source = readFileSync(new URL(name, dir), 'utf8');
      expect({
        name,
        found: source.match(/['"`]no-store|enforceRateLimit\(|validatorCompiler|error: 'invalid_request'/g),
      }).toEqual({
        name,
        found: null,
      });
    }
  });
});
