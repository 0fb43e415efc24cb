import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashBody, canonicalString, computeSignature } from './signing.ts';
import { PARTNERS, makeTestApp, type TestApp } from '../test/helpers.ts';
import { injectFetch } from '../test/inject-fetch.ts';
import { billingHeaders, createSession } from './billing.ts';
import { SvcApiError } from './errors.ts';

const APP_URL = 'http://svc.test';
const ORIGIN = 'http://localhost:8788';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

function credentials(partner: { id: string; secret: string } = PARTNERS.blindShop) {
  return { appUrl: APP_URL, partnerId: partner.id, secret: partner.secret };
}

async function rejection(promise: Promise<unknown>): Promise<SvcApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SvcApiError);
  return error as SvcApiError;
}

describe('createSession', () => {
  it('gets a session token the service accepts, for the given origin and scopes', async () => {
    const fetch = injectFetch(t.app);
    const session = await createSession(
      credentials(),
      { origin: ORIGIN, scopes: ['isAdult', 'isUnique'] },
      { fetch, clock: t.clock },
    );
    expect(session.expiresIn).toBe(300);
    const claims = await t.deps.blind.verifySessionToken(session.token);
    expect(claims).toMatchObject({ app_id: 'app_blind_shop', scope_mask: 0b1001 });
  });

  it('signs with lower-case header names, a 32-hex nonce and the exact body it sends', async () => {
    const fetch = injectFetch(t.app);
    await createSession(credentials(), { origin: ORIGIN }, { fetch, clock: t.clock });
    const [call] = fetch.calls;
    expect(call!.method).toBe('POST');
    expect(call!.path).toBe('/api/billing/session');
    expect(call!.body).toBe('{"origin":"http://localhost:8788"}');
    expect(Object.keys(call!.headers).sort()).toEqual([
      'content-type',
      'x-partner-id',
      'x-partner-nonce',
      'x-partner-signature',
      'x-partner-timestamp',
    ]);
    expect(call!.headers['x-partner-nonce']).toMatch(/^[0-9a-f]{32}$/);
    expect(call!.headers['x-partner-timestamp']).toBe(String(Math.floor(t.clock.now() / 1000)));
    const canonical = canonicalString(
      hashBody(call!.body!),
      call!.headers['x-partner-timestamp']!,
      PARTNERS.blindShop.id,
      call!.headers['x-partner-nonce']!,
    );
    expect(call!.headers['x-partner-signature']).toBe(computeSignature(PARTNERS.blindShop.secret, canonical));
  });

  it('uses a fresh nonce on every call', async () => {
    const fetch = injectFetch(t.app);
    await createSession(credentials(), { origin: ORIGIN }, { fetch, clock: t.clock });
    await createSession(credentials(), { origin: ORIGIN }, { fetch, clock: t.clock });
    expect(new Set(fetch.calls.map((c) => c.headers['x-partner-nonce'])).size).toBe(2);
  });

  it.each([
    ['FORBIDDEN_RAIL', 403, PARTNERS.demo, ORIGIN],
    ['MISSING_BLIND_APP_ID', 400, PARTNERS.blindNoApp, ORIGIN],
    ['ORIGIN_NOT_ALLOWED', 403, PARTNERS.blindShop, 'https://evil.example'],
    ['INVALID_SIGNATURE', 401, { id: PARTNERS.blindShop.id, secret: PARTNERS.blindClub.secret }, ORIGIN],
  ] as const)('rejects with %s (%i) and does not retry', async (code, status, partner, origin) => {
    const fetch = injectFetch(t.app);
    const error = await rejection(
      createSession(credentials(partner), { origin }, { fetch, clock: t.clock, sleep: async () => {} }),
    );
    expect(error).toMatchObject({ code, status, retryable: false, attempts: 1 });
    expect(error.cid).toEqual(expect.any(String));
    expect(fetch.calls).toHaveLength(1);
  });

  it('rejects scopes the partner may not ask for with INVALID_SCOPES', async () => {
    const fetch = injectFetch(t.app);
    const error = await rejection(
      createSession(
        credentials(PARTNERS.blindAdultOnly),
        { origin: ORIGIN, scopes: ['isFrench'] },
        { fetch, clock: t.clock },
      ),
    );
    expect(error.code).toBe('INVALID_SCOPES');
  });

  it('retries a 429 after Retry-After, re-signing each attempt, at most 3 attempts in all', async () => {
    const fetch = injectFetch(t.app, { remoteAddress: '203.0.113.50' });
    for (let i = 0; i < 30; i++)
      await t.app.inject({ method: 'POST', url: '/api/billing/session', remoteAddress: '203.0.113.50' });
    const waits: number[] = [];
    const error = await rejection(
      createSession(
        credentials(),
        { origin: ORIGIN },
        { fetch, clock: t.clock, sleep: async (ms) => void waits.push(ms) },
      ),
    );
    expect(error).toMatchObject({ status: 429, code: 'Too many requests', retryable: true, attempts: 3 });
    expect(waits).toEqual([60_000, 60_000]);
    expect(new Set(fetch.calls.map((c) => c.headers['x-partner-nonce'])).size).toBe(3);
  });

  it('succeeds on a retry once the rate-limit window has passed', async () => {
    const fetch = injectFetch(t.app, { remoteAddress: '203.0.113.51' });
    for (let i = 0; i < 30; i++)
      await t.app.inject({ method: 'POST', url: '/api/billing/session', remoteAddress: '203.0.113.51' });
    const session = await createSession(
      credentials(),
      { origin: ORIGIN },
      {
        fetch,
        clock: t.clock,
        sleep: async (ms) => t.clock.advance(ms),
      },
    );
    expect(session.expiresIn).toBe(300);
    expect(fetch.calls).toHaveLength(2);
  });

  it('fails fast with maxAttempts 1', async () => {
    const down = async () => new Response('{"error":"INTERNAL_ERROR","message":"x"}', { status: 500 });
    const error = await rejection(
      createSession(credentials(), { origin: ORIGIN }, { fetch: down, retry: { maxAttempts: 1 } }),
    );
    expect(error).toMatchObject({ code: 'INTERNAL_ERROR', attempts: 1 });
  });

  it('reports NETWORK_ERROR when the service cannot be reached', async () => {
    const unreachable = async (): Promise<Response> => {
      throw new TypeError('fetch failed');
    };
    const error = await rejection(
      createSession(credentials(), { origin: ORIGIN }, { fetch: unreachable, sleep: async () => {} }),
    );
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', status: 0, attempts: 3 });
  });
});

describe('billingHeaders', () => {
  it("matches design.md §9's worked example when given its inputs", () => {
    const headers = billingHeaders({
      partnerId: 'pk_test_demo',
      secret: 'BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=',
      body: '{"grant_code":"g_example"}',
      timestamp: 1767225600,
      nonce: '0f8b5c1e-2d3a-4b6c-9e7f-1a2b3c4d5e6f',
    });
    expect(headers['x-partner-signature']).toBe('RaLhrktuPNtYBXzpl9En_Xmchcg_7ThQ40Pvom0PDSU');
  });
});
