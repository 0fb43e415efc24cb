import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VerifyStatus } from '../../protocol/wire.ts';
import { backoffMs, fetchStatus, type PollOutcome } from './status.ts';

const API = 'https://svc.example';
const request = { request_id: 'vr_1', poll_token: 'pt/1' };
const pending: VerifyStatus = { status: 'pending', expires_at: 0 };

let answer: () => Response | Promise<Response>;
let seen: URL[];
const server = setupServer(
  http.get(`${API}/api/w/verify-status/:id`, ({ request: r }) => {
    seen.push(new URL(r.url));
    return answer();
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

beforeEach(() => {
  vi.useFakeTimers();
  seen = [];
  answer = () => HttpResponse.json(pending);
});
afterEach(() => vi.useRealTimers());

const poll = (...rest: [signal?: AbortSignal, wait?: number, known?: VerifyStatus['status']]): Promise<PollOutcome> =>
  fetchStatus(API, request, rest[0] ?? new AbortController().signal, rest[1], rest[2]);

describe('fetchStatus', () => {
  it('long-polls with the poll token, the wait and the status the widget shows, without cookies or cache', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    await poll(undefined, 12, 'in_progress');
    expect(seen[0]!.pathname).toBe('/api/w/verify-status/vr_1');
    expect(Object.fromEntries(seen[0]!.searchParams)).toEqual({ pt: 'pt/1', wait: '12', known: 'in_progress' });
    expect(fetchSpy.mock.calls[0]![1]).toMatchObject({ credentials: 'omit', cache: 'no-store' });
    fetchSpy.mockRestore();
  });

  it('waits 25 s by default and sends no known status when it has none', async () => {
    await poll();
    expect(Object.fromEntries(seen[0]!.searchParams)).toEqual({ pt: 'pt/1', wait: '25' });
  });

  it('hands the status over as the service sent it', async () => {
    const completed: VerifyStatus = { status: 'completed', expires_at: 1, result: { grant_code: 'g_1' } };
    answer = () => HttpResponse.json(completed);
    expect(await poll()).toEqual(completed);
  });

  it('reads a 404, a request the service no longer knows, as expired', async () => {
    answer = () => HttpResponse.json({ error: 'NOT_FOUND', message: 'x' }, { status: 404 });
    expect(await poll()).toEqual({ status: 'expired' });
  });

  it('honours Retry-After on 429, and waits a full minute without one', async () => {
    answer = () => HttpResponse.json({ error: 'RATE_LIMITED' }, { status: 429, headers: { 'Retry-After': '7' } });
    expect(await poll()).toEqual({ retryAfterMs: 7000 });
    answer = () => new HttpResponse(null, { status: 429 });
    expect(await poll()).toEqual({ retryAfterMs: 60_000 });
  });

  it('reads a 5xx, a network error and a body that is not JSON as unreachable: no status, no wait', async () => {
    answer = () => new HttpResponse('oops', { status: 503 });
    expect(await poll()).toEqual({});
    answer = () => HttpResponse.error();
    expect(await poll()).toEqual({});
    answer = () => new HttpResponse('not json', { status: 200 });
    expect(await poll()).toEqual({});
  });

  it('gives up on a long poll 10 s after its wait, as unreachable, and leaves no timer', async () => {
    answer = () => new Promise<Response>(() => {});
    let outcome: PollOutcome | undefined;
    void poll(undefined, 5).then((o) => (outcome = o));
    await vi.advanceTimersByTimeAsync(14_999);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toEqual({});
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops at once when its signal aborts, and leaves no timer', async () => {
    answer = () => new Promise<Response>(() => {});
    const controller = new AbortController();
    const outcome = poll(controller.signal);
    await vi.advanceTimersByTimeAsync(1000);
    controller.abort();
    expect(await outcome).toEqual({});
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('backoffMs', () => {
  it('doubles from 1 s after each network error and stays at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map(backoffMs)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });
});
