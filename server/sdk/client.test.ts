import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { PARTNERS, makeTestApp, putTestGrant, type TestApp } from '../test/helpers.ts';
import { createPartnerClient, type PartnerClientOptions } from './client.ts';
import { SvcApiError } from './errors.ts';
import { canonicalString, computeSignature, hashBody } from './signing.ts';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A fetch that records requests and answers from a script, one entry per call. */
function scriptedFetch(script: Array<{ status: number; body?: unknown; headers?: Record<string, string> } | Error>) {
  const sent: Sent[] = [];
  const fetchImpl = (async (url: string | URL | Request, init?: RequestInit) => {
    sent.push({
      url: String(url),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      body: init?.body as string | undefined,
    });
    const step = script[Math.min(sent.length - 1, script.length - 1)]!;
    if (step instanceof Error) throw step;
    return new Response(
      step.body === undefined ? '' : typeof step.body === 'string' ? step.body : JSON.stringify(step.body),
      {
        status: step.status,
        headers: { 'content-type': 'application/json', 'x-svc-cid': `cid-${sent.length}`, ...step.headers },
      },
    );
  }) as typeof fetch;
  return { fetchImpl, sent };
}

function recordingSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

const OK_EXCHANGE = {
  pass_token: `p_${'A'.repeat(43)}`,
  expires_in: 14400,
  token_type: 'Bearer',
  age_over_18: true,
  scopes: ['isAdult'],
  attributes: { age_over_18: true },
};

function client(options: Partial<PartnerClientOptions> & Pick<PartnerClientOptions, 'fetch'>) {
  let now = Date.UTC(2026, 0, 1);
  const clock = { now: () => (now += 1500) };
  return createPartnerClient({
    apiUrl: 'https://api.example/',
    partnerId: PARTNERS.demo.id,
    secret: PARTNERS.demo.secret,
    clock,
    random: () => 0.5,
    ...options,
  });
}

describe('createPartnerClient: signing', () => {
  it('signs exactly the bytes it sends, with the decoded secret', async () => {
    const { fetchImpl, sent } = scriptedFetch([{ status: 200, body: OK_EXCHANGE }]);
    await client({ fetch: fetchImpl }).exchange('g_abc');
    const [request] = sent;
    expect(request!.url).toBe('https://api.example/v1/exchange');
    expect(request!.body).toBe('{"grant_code":"g_abc"}');
    const h = request!.headers;
    const expected = computeSignature(
      PARTNERS.demo.secret,
      canonicalString(hashBody(request!.body!), h['X-Partner-Timestamp']!, h['X-Partner-ID']!, h['X-Partner-Nonce']!),
    );
    expect(h['X-Partner-Signature']).toBe(expected);
    expect(h['Content-Type']).toBe('application/json');
    expect(h['X-Partner-ID']).toBe('pk_test_demo');
  });

  it('signs a GET over the empty body and sends neither a body nor a content type', async () => {
    const { fetchImpl, sent } = scriptedFetch([{ status: 200, body: { status: 'pending', expires_at: 1 } }]);
    await client({ fetch: fetchImpl, appUrl: 'https://app.example' }).getVerifyStatus('vr_a/b');
    const [request] = sent;
    expect(request!.method).toBe('GET');
    expect(request!.url).toBe('https://app.example/api/partner/verify-status/vr_a%2Fb');
    expect(request!.body).toBeUndefined();
    expect(request!.headers).not.toHaveProperty('Content-Type');
    const h = request!.headers;
    expect(h['X-Partner-Signature']).toBe(
      computeSignature(
        PARTNERS.demo.secret,
        canonicalString(hashBody(''), h['X-Partner-Timestamp']!, h['X-Partner-ID']!, h['X-Partner-Nonce']!),
      ),
    );
  });

  it('creates a partner verification request on the app URL with snake_case fields', async () => {
    const { fetchImpl, sent } = scriptedFetch([
      { status: 201, body: { request_id: 'vr_1', deep_link: 'x', expires_at: 1 } },
    ]);
    const created = await client({ fetch: fetchImpl }).createVerifyRequest({
      scopes: ['isAdult', 'isEU'],
      clientProofMode: true,
    });
    expect(created.request_id).toBe('vr_1');
    expect(sent[0]!.url).toBe('https://api.example/api/partner/verify-request');
    expect(sent[0]!.body).toBe('{"scopes":["isAdult","isEU"],"client_proof_mode":true}');
  });

  it('sends an Idempotency-Key on exchange and a fresh one per call', async () => {
    const { fetchImpl, sent } = scriptedFetch([{ status: 200, body: OK_EXCHANGE }]);
    const svc = client({ fetch: fetchImpl });
    await svc.exchange('g_a');
    await svc.exchange('g_a');
    await svc.exchange('g_a', { idempotencyKey: 'order-7' });
    const keys = sent.map((s) => s.headers['Idempotency-Key']);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_.:-]{1,128}$/);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBe('order-7');
  });

  it('refuses options that cannot work, naming them', () => {
    const base = { apiUrl: 'https://api.example', partnerId: 'pk_test_demo', secret: PARTNERS.demo.secret };
    expect(() => createPartnerClient({ ...base, apiUrl: 'api.example' })).toThrow(/apiUrl/);
    expect(() => createPartnerClient({ ...base, partnerId: '' })).toThrow(/partnerId/);
    expect(() => createPartnerClient({ ...base, secret: 'not base64!' })).toThrow(/secret/);
    expect(() => createPartnerClient({ ...base, secret: 'c2hvcnQ=' })).toThrow(/secret/);
  });
});

describe('createPartnerClient: retry rules', () => {
  it('retries a 500 after 1 s then 2 s, re-signed with a fresh nonce and timestamp, keeping the Idempotency-Key', async () => {
    const { fetchImpl, sent } = scriptedFetch([
      { status: 500, body: { error: 'INTERNAL_ERROR', message: 'x' } },
      { status: 503 },
      { status: 200, body: OK_EXCHANGE },
    ]);
    const { sleep, delays } = recordingSleep();
    const result = await client({ fetch: fetchImpl, sleep }).exchange('g_abc');
    expect(result.pass_token).toBe(OK_EXCHANGE.pass_token);
    expect(delays).toEqual([1000, 2000]);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((s) => s.headers['X-Partner-Nonce'])).size).toBe(3);
    expect(new Set(sent.map((s) => s.headers['X-Partner-Timestamp'])).size).toBe(3);
    expect(new Set(sent.map((s) => s.headers['X-Partner-Signature'])).size).toBe(3);
    expect(new Set(sent.map((s) => s.headers['Idempotency-Key'])).size).toBe(1);
    expect(new Set(sent.map((s) => s.body))).toEqual(new Set(['{"grant_code":"g_abc"}']));
  });

  it('gives up after 3 attempts with a retryable SvcApiError carrying the last correlation id', async () => {
    const { fetchImpl, sent } = scriptedFetch([
      { status: 500, body: { error: 'INTERNAL_ERROR', message: 'Internal error; retry with exponential backoff.' } },
    ]);
    const { sleep } = recordingSleep();
    const error = await client({ fetch: fetchImpl, sleep })
      .introspect('p_x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcApiError);
    expect(error).toMatchObject({ status: 500, code: 'INTERNAL_ERROR', cid: 'cid-3', retryable: true, attempts: 3 });
    expect(sent).toHaveLength(3);
  });

  it('honours Retry-After on a 429', async () => {
    const { fetchImpl } = scriptedFetch([
      { status: 429, body: { error: 'Too many requests', message: 'x' }, headers: { 'retry-after': '7' } },
      { status: 200, body: { active: false } },
    ]);
    const { sleep, delays } = recordingSleep();
    expect(await client({ fetch: fetchImpl, sleep }).introspect('p_x')).toEqual({ active: false });
    expect(delays).toEqual([7000]);
  });

  it('does not wait for a Retry-After longer than a minute: it fails at once', async () => {
    const { fetchImpl, sent } = scriptedFetch([
      { status: 429, body: { error: 'Too many requests', message: 'x' }, headers: { 'retry-after': '3600' } },
    ]);
    const { sleep, delays } = recordingSleep();
    const error = await client({ fetch: fetchImpl, sleep })
      .introspect('p_x')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, code: 'Too many requests', retryAfterSeconds: 3600, retryable: true });
    expect(delays).toEqual([]);
    expect(sent).toHaveLength(1);
  });

  it.each([400, 401, 403])('never retries a %i', async (status) => {
    const { fetchImpl, sent } = scriptedFetch([
      {
        status,
        body: { error: 'GRANT_INVALID', message: 'Grant code does not exist, has expired or was already used.' },
      },
    ]);
    const { sleep, delays } = recordingSleep();
    const error = await client({ fetch: fetchImpl, sleep })
      .exchange('g_x')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status, code: 'GRANT_INVALID', retryable: false, attempts: 1, cid: 'cid-1' });
    expect((error as Error).message).toBe('Grant code does not exist, has expired or was already used.');
    expect(sent).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('retries a network failure and reports NETWORK_ERROR with status 0 when it persists', async () => {
    const { fetchImpl, sent } = scriptedFetch([new TypeError('fetch failed')]);
    const { sleep, delays } = recordingSleep();
    const error = await client({ fetch: fetchImpl, sleep })
      .exchange('g_x')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR', cid: null, retryable: true, attempts: 3 });
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(sent).toHaveLength(3);
    expect(delays).toEqual([1000, 2000]);
  });

  it('caps attempts at 3 whatever the options say', async () => {
    const { fetchImpl, sent } = scriptedFetch([{ status: 502 }]);
    const { sleep } = recordingSleep();
    await client({ fetch: fetchImpl, sleep, retry: { maxAttempts: 10 } })
      .introspect('p_x')
      .catch(() => undefined);
    expect(sent).toHaveLength(3);
  });

  it('reports a 2xx answer that is not JSON as INVALID_RESPONSE without retrying', async () => {
    const { fetchImpl, sent } = scriptedFetch([{ status: 200, body: '<html>proxy</html>' }]);
    const error = await client({ fetch: fetchImpl, sleep: async () => undefined })
      .introspect('p_x')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', status: 200, retryable: false });
    expect(sent).toHaveLength(1);
  });

  it('tells onResponse about every answer with its correlation id, path and attempt', async () => {
    const { fetchImpl } = scriptedFetch([{ status: 503 }, { status: 200, body: { active: false } }]);
    const seen: unknown[] = [];
    await client({ fetch: fetchImpl, sleep: async () => undefined, onResponse: (info) => seen.push(info) }).introspect(
      'p_x',
    );
    expect(seen).toEqual([
      { method: 'POST', path: '/v1/introspect', status: 503, cid: 'cid-1', attempt: 1 },
      { method: 'POST', path: '/v1/introspect', status: 200, cid: 'cid-2', attempt: 2 },
    ]);
  });
});

describe('createPartnerClient against the real service', () => {
  let t: TestApp;
  afterEach(async () => t?.close());

  /** fetch over app.inject; `dropFirstAnswers` loses that many answers after the server acted. */
  function injectFetch(app: FastifyInstance, dropFirstAnswers = 0): typeof fetch {
    let dropped = 0;
    return (async (url: string | URL | Request, init?: RequestInit) => {
      const target = new URL(String(url));
      const res = await app.inject({
        method: (init?.method ?? 'GET') as 'GET' | 'POST',
        url: target.pathname + target.search,
        headers: init?.headers as Record<string, string>,
        ...(init?.body === undefined ? {} : { payload: init.body as string }),
      });
      if (dropped < dropFirstAnswers) {
        dropped++;
        throw new TypeError('socket hang up');
      }
      return new Response(res.body, { status: res.statusCode, headers: res.headers as Record<string, string> });
    }) as typeof fetch;
  }

  function realClient(fetchImpl: typeof fetch) {
    return createPartnerClient({
      apiUrl: 'http://svc.test',
      partnerId: PARTNERS.demo.id,
      secret: PARTNERS.demo.secret,
      fetch: fetchImpl,
      clock: t.clock,
      sleep: async () => undefined,
    });
  }

  it('exchanges a grant and introspects the pass token', async () => {
    t = await makeTestApp();
    const svc = realClient(injectFetch(t.app));
    const exchanged = await svc.exchange(await putTestGrant(t.deps, { scopes: ['isAdult', 'isFrench'] }));
    expect(exchanged).toMatchObject({
      token_type: 'Bearer',
      age_over_18: true,
      attributes: { age_over_18: true, is_french: true },
    });
    const introspected = await svc.introspect(exchanged.pass_token);
    expect(introspected).toMatchObject({ active: true, scope: 'multi_scope_verification' });
  });

  it('gets the first answer again when the exchange response was lost on the way back', async () => {
    t = await makeTestApp();
    const svc = realClient(injectFetch(t.app, 1));
    const exchanged = await svc.exchange(await putTestGrant(t.deps));
    expect(exchanged.pass_token).toMatch(/^p_/);
    expect(await svc.introspect(exchanged.pass_token)).toMatchObject({ active: true });
  });

  it('rejects a used grant with a GRANT_INVALID SvcApiError carrying the X-SVC-CID', async () => {
    t = await makeTestApp();
    const cids: Array<string | null> = [];
    const svc = createPartnerClient({
      apiUrl: 'http://svc.test',
      partnerId: PARTNERS.demo.id,
      secret: PARTNERS.demo.secret,
      fetch: injectFetch(t.app),
      clock: t.clock,
      onResponse: ({ cid }) => cids.push(cid),
    });
    const grantCode = await putTestGrant(t.deps);
    await svc.exchange(grantCode);
    const error = await svc.exchange(grantCode).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcApiError);
    expect(error).toMatchObject({ status: 401, code: 'GRANT_INVALID', retryable: false, cid: cids[1] });
    expect(cids[1]).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });
});
