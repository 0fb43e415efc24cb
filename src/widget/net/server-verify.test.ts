import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SvcResult } from '../../shared/contract.ts';
import { confirmWithPartner } from './server-verify.ts';

const PAGE = 'http://localhost:3000';

let answer: () => Response | Promise<Response>;
let calls: Array<{ at: number; grant: string | null; attestation: string | null }>;
const server = setupServer(
  http.get(`${PAGE}/api/age/confirm`, ({ request }) => {
    calls.push({
      at: Date.now(),
      grant: request.headers.get('x-svc-grant-code'),
      attestation: request.headers.get('x-svc-attestation'),
    });
    return answer();
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
  calls = [];
  answer = () => HttpResponse.json({ verified: true });
  history.replaceState(null, '', '/shop/age');
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** Starts a confirmation; `outcome()` is undefined until it has settled. */
function confirm(
  result: SvcResult = { grant_code: 'g_1' },
  timeoutSeconds = 30,
  signal = new AbortController().signal,
) {
  let settled: boolean | undefined;
  void confirmWithPartner('/api/age/confirm', result, timeoutSeconds, signal).then((ok) => (settled = ok));
  return { outcome: () => settled };
}

describe('confirmWithPartner', () => {
  it("asks the page's own endpoint with the grant code and the partner's cookies, and is done at the first verified:true", async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const { outcome } = confirm();
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome()).toBe(true);
    expect(calls).toEqual([{ at: Date.UTC(2026, 0, 1), grant: 'g_1', attestation: null }]);
    expect(String(fetchSpy.mock.calls[0]![0])).toBe(`${PAGE}/api/age/confirm`);
    expect(fetchSpy.mock.calls[0]![1]).toMatchObject({ credentials: 'same-origin', cache: 'no-store' });
  });

  it('sends an attestation in its own header', async () => {
    const { outcome } = confirm({ attestation: 'a.b.c', state: 's' });
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome()).toBe(true);
    expect(calls.map(({ grant, attestation }) => ({ grant, attestation }))).toEqual([
      { grant: null, attestation: 'a.b.c' },
    ]);
  });

  it('asks again at most once a second until the answer is verified:true', async () => {
    answer = () => HttpResponse.json({ verified: calls.length >= 3 });
    const { outcome } = confirm();
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toHaveLength(2);
    expect(outcome()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome()).toBe(true);
    expect(calls.map((c) => c.at - calls[0]!.at)).toEqual([0, 1000, 2000]);
  });

  it('counts an error status, a body that is not JSON, a truthy non-true answer and a network error as not yet', async () => {
    const answers = [
      () => new HttpResponse('oops', { status: 500 }),
      () => new HttpResponse('yes', { status: 200 }),
      () => HttpResponse.json({ verified: 'true' }),
      () => HttpResponse.error(),
      () => HttpResponse.json({ verified: true }),
    ];
    answer = () => answers[calls.length - 1]!();
    const { outcome } = confirm();
    await vi.advanceTimersByTimeAsync(3999);
    expect(outcome()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome()).toBe(true);
    expect(calls).toHaveLength(5);
  });

  it('gives up with false once the timeout has passed, and leaves no timer', async () => {
    answer = () => HttpResponse.json({ verified: false });
    const { outcome } = confirm(undefined, 3);
    await vi.advanceTimersByTimeAsync(2999);
    expect(outcome()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome()).toBe(false);
    expect(calls).toHaveLength(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('cuts off a partner backend that never answers at the deadline', async () => {
    answer = () => new Promise<Response>(() => {});
    const { outcome } = confirm(undefined, 5);
    await vi.advanceTimersByTimeAsync(4999);
    expect(outcome()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome()).toBe(false);
    expect(calls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops with false as soon as its signal aborts', async () => {
    answer = () => HttpResponse.json({ verified: false });
    const controller = new AbortController();
    const { outcome } = confirm(undefined, 30, controller.signal);
    await vi.advanceTimersByTimeAsync(1500);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome()).toBe(false);
    expect(calls).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(0);
  });
});
