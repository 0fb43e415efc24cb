import { describe, expect, it } from 'vitest';
import { PARTNERS } from '../test/helpers.ts';
import { createSession } from './billing.ts';
import { createPartnerClient } from './client.ts';
import { SvcApiError } from './errors.ts';

/** A fetch that answers every call with the same status, body and headers, counting the calls. */
function answering(status: number, body: string, headers: Record<string, string> = {}) {
  const calls: string[] = [];
  const fetchImpl = (async (url: string | URL | Request) => {
    calls.push(new URL(String(url)).pathname);
    return new Response(body, { status, headers: { 'x-svc-cid': `cid-${calls.length}`, ...headers } });
  }) as typeof fetch;
  return { fetchImpl, calls };
}

function recordingSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

type Call = (fetchImpl: typeof fetch, sleep: (ms: number) => Promise<void>) => Promise<unknown>;

const client = (fetchImpl: typeof fetch, sleep: (ms: number) => Promise<void>) =>
  createPartnerClient({
    apiUrl: 'https://api.example',
    partnerId: PARTNERS.demo.id,
    secret: PARTNERS.demo.secret,
    fetch: fetchImpl,
    sleep,
    random: () => 0.5,
  });

const CALLS: Array<[string, Call]> = [
  ['exchange', (fetchImpl, sleep) => client(fetchImpl, sleep).exchange('g_abc')],
  ['introspect', (fetchImpl, sleep) => client(fetchImpl, sleep).introspect('p_abc')],
  [
    'createSession',
    (fetchImpl, sleep) =>
      createSession(
        { appUrl: 'https://app.example', partnerId: PARTNERS.blindShop.id, secret: PARTNERS.blindShop.secret },
        { origin: 'https://shop.example' },
        { fetch: fetchImpl, sleep, random: () => 0.5 },
      ),
  ],
];

async function rejection(promise: Promise<unknown>): Promise<SvcApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SvcApiError);
  return error as SvcApiError;
}

describe('one signed request for the client and the billing session', () => {
  it.each(CALLS)(
    '%s reads a 429 without a JSON body as a rate limit and retries it by the retry rules',
    async (_name, call) => {
      const { fetchImpl, calls } = answering(429, '<html>Too Many Requests</html>', { 'content-type': 'text/html' });
      const { sleep, delays } = recordingSleep();
      const error = await rejection(call(fetchImpl, sleep));
      expect(error).toMatchObject({
        status: 429,
        code: 'Too many requests',
        retryable: true,
        attempts: 3,
        cid: 'cid-3',
      });
      expect(error.retryAfterSeconds).toBeNull();
      expect(delays).toEqual([1000, 2000]);
      expect(calls).toHaveLength(3);
    },
  );

  it.each(CALLS)('%s honours the Retry-After of an empty 429', async (_name, call) => {
    const { fetchImpl } = answering(429, '', { 'retry-after': '5' });
    const { sleep, delays } = recordingSleep();
    const error = await rejection(call(fetchImpl, sleep));
    expect(error).toMatchObject({ status: 429, code: 'Too many requests', retryAfterSeconds: 5, attempts: 3 });
    expect(delays).toEqual([5000, 5000]);
  });

  it.each(CALLS)('%s reports a 5xx without a JSON body as INTERNAL_ERROR after 3 attempts', async (_name, call) => {
    const { fetchImpl } = answering(502, 'Bad Gateway');
    const error = await rejection(call(fetchImpl, recordingSleep().sleep));
    expect(error).toMatchObject({ status: 502, code: 'INTERNAL_ERROR', retryable: true, attempts: 3 });
  });

  it.each(CALLS)('%s reports a 4xx without a JSON body as INVALID_RESPONSE without retrying', async (_name, call) => {
    const { fetchImpl, calls } = answering(404, 'Not Found');
    const error = await rejection(call(fetchImpl, recordingSleep().sleep));
    expect(error).toMatchObject({ status: 404, code: 'INVALID_RESPONSE', retryable: false, attempts: 1 });
    expect(calls).toHaveLength(1);
  });

  it.each(CALLS)('%s reports a 2xx without a JSON body as INVALID_RESPONSE without retrying', async (_name, call) => {
    const { fetchImpl, calls } = answering(200, '<html>proxy</html>');
    const error = await rejection(call(fetchImpl, recordingSleep().sleep));
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', retryable: false, attempts: 1 });
    expect(calls).toHaveLength(1);
  });

  it('refuses a billing answer without a token as INVALID_RESPONSE', async () => {
    const { fetchImpl } = answering(201, '{"expires_in":300}');
    const error = await rejection(CALLS[2]![1](fetchImpl, recordingSleep().sleep));
    expect(error).toMatchObject({ status: 201, code: 'INVALID_RESPONSE', retryable: false, attempts: 1 });
  });
});
