import { signal, type Signal } from '../model/signals.ts';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VerifyRequestCreated, VerifyStatus } from '../../protocol/wire.ts';
import { pollUntilSettled, type Settled } from './poll.ts';

const API = 'https://svc.example';
const created: VerifyRequestCreated = {
  request_id: 'vr_1',
  poll_token: 'pt_1',
  deep_link: `${API}/m/v/vr_1#h=h_1`,
  expires_at: 0,
  poll_after_ms: 1000,
};

/** What the fake service answers, in order; then long polls that hold `wait` seconds and change nothing. */
let script: Array<() => Response>;
let polls: Array<{ at: number; known: string | null; wait: string | null }>;
const server = setupServer(
  http.get(`${API}/api/w/verify-status/:id`, ({ request }) => {
    const query = new URL(request.url).searchParams;
    polls.push({ at: Date.now(), known: query.get('known'), wait: query.get('wait') });
    const next = script.shift();
    if (next) return next();
    return new Promise<Response>((resolve) =>
      setTimeout(
        () => resolve(HttpResponse.json({ status: 'pending', expires_at: 0 })),
        Number(query.get('wait')) * 1000,
      ),
    );
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const T0 = Date.UTC(2026, 0, 1);
const status = (body: Pick<VerifyStatus, 'status'> & Partial<VerifyStatus>) => () =>
  HttpResponse.json({ expires_at: 0, ...body });

let hidden: Signal<boolean>;
let seen: string[];
let secondsLeft: number;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  script = [];
  polls = [];
  seen = [];
  secondsLeft = 300;
  hidden = signal(false);
});
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});

/** Starts polling; `settled()` is null until the loop has returned. */
function start(request: VerifyRequestCreated = created, abort = new AbortController()) {
  let settled: Settled | undefined | null = null;
  void pollUntilSettled(request, abort.signal, {
    apiOrigin: API,
    secondsLeft: () => secondsLeft,
    hidden,
    onStatus: (s) => seen.push(s),
  }).then((s) => (settled = s));
  return { settled: () => settled, abort: () => abort.abort() };
}

describe('pollUntilSettled', () => {
  it('reports progress and settles with the result, polling at most once a second and sending the status it knows', async () => {
    script.push(
      status({ status: 'pending' }),
      status({ status: 'in_progress' }),
      status({ status: 'completed', result: { grant_code: 'g_1' } }),
    );
    const poll = start();
    await vi.advanceTimersByTimeAsync(3000);
    expect(poll.settled()).toMatchObject({ status: 'completed', result: { grant_code: 'g_1' } });
    expect(seen).toEqual(['pending', 'in_progress']);
    expect(polls).toEqual([
      // an early answer that changed nothing: the next poll keeps to 30 a minute
      { at: T0, known: 'pending', wait: '25' },
      { at: T0 + 2000, known: 'pending', wait: '25' },
      // a change: the next one a second later
      { at: T0 + 3000, known: 'in_progress', wait: '25' },
    ]);
  });

  it('stays within 30 polls a minute when a capped service answers every long poll at once', async () => {
    script = Array.from({ length: 200 }, () => status({ status: 'pending' }));
    const poll = start();
    await vi.advanceTimersByTimeAsync(180_000);
    expect(poll.settled()).toBeNull();
    for (let minute = 0; minute < 3; minute++) {
      const inWindow = (from: number) => polls.filter((p) => p.at >= from && p.at < from + 60_000).length;
      expect(inWindow(T0 + minute * 60_000)).toBeLessThanOrEqual(30);
      expect(inWindow(T0 + minute * 60_000 + 1_234)).toBeLessThanOrEqual(30);
    }
    expect(polls.length).toBeGreaterThanOrEqual(85);
    poll.abort();
  });

  it('settles as failed with the reason given, and without one when the service gave none', async () => {
    script.push(status({ status: 'failed', reason: 'cancelled' }));
    const first = start();
    await vi.advanceTimersByTimeAsync(0);
    expect(first.settled()).toMatchObject({ status: 'failed', reason: 'cancelled' });
    script.push(status({ status: 'failed' }));
    const second = start();
    await vi.advanceTimersByTimeAsync(0);
    expect(second.settled()).toMatchObject({ status: 'failed' });
    expect(second.settled()).not.toHaveProperty('reason');
  });

  it('settles as expired when the service says so, when it no longer knows the request, and when time is up', async () => {
    script.push(status({ status: 'expired' }), () => HttpResponse.json({ error: 'NOT_FOUND' }, { status: 404 }));
    const byService = start();
    const unknown = start();
    await vi.advanceTimersByTimeAsync(0);
    expect([byService.settled(), unknown.settled()]).toMatchObject([{ status: 'expired' }, { status: 'expired' }]);
    secondsLeft = 0;
    const outOfTime = start();
    await vi.advanceTimersByTimeAsync(0);
    expect(outOfTime.settled()).toEqual({ status: 'expired' });
    expect(polls).toHaveLength(2);
  });

  it('spaces polls by poll_after_ms, and never by less than a second', async () => {
    script.push(status({ status: 'pending' }), status({ status: 'pending' }), status({ status: 'expired' }));
    start({ ...created, poll_after_ms: 2500 });
    await vi.advanceTimersByTimeAsync(5000);
    script.push(status({ status: 'in_progress' }), status({ status: 'expired' }));
    start({ ...created, poll_after_ms: 0 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(polls.map((p) => p.at - T0)).toEqual([0, 2500, 5000, 5000, 6000]);
  });

  it('never asks to wait longer than the request has left', async () => {
    secondsLeft = 7;
    script.push(status({ status: 'expired' }));
    start();
    await vi.advanceTimersByTimeAsync(0);
    expect(polls[0]!.wait).toBe('7');
  });

  it('keeps polling after network errors and 429s, backing off and honouring Retry-After', async () => {
    script.push(
      () => HttpResponse.error(),
      () => HttpResponse.error(),
      () => new HttpResponse(null, { status: 429, headers: { 'Retry-After': '5' } }),
      status({ status: 'completed', result: { attestation: 'a.b.c' } }),
    );
    const poll = start();
    await vi.advanceTimersByTimeAsync(8000);
    expect(poll.settled()).toMatchObject({ status: 'completed', result: { attestation: 'a.b.c' } });
    expect(polls.map((p) => p.at - T0)).toEqual([0, 1000, 3000, 8000]);
  });

  it('does not poll while the page is hidden, and polls at once when it is shown', async () => {
    hidden.value = true;
    script.push(status({ status: 'in_progress' }));
    start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(polls).toHaveLength(0);
    hidden.value = false;
    await vi.advanceTimersByTimeAsync(0);
    expect(polls.map((p) => p.at - T0)).toEqual([60_000]);
  });

  it('returns undefined when aborted, and leaves no timer and makes no request after', async () => {
    const poll = start();
    await vi.advanceTimersByTimeAsync(1500);
    poll.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(poll.settled()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(polls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
