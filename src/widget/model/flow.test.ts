import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VerifyRequestCreated, VerifyStatus } from '../../protocol/wire.ts';
import { parseConfig, type RawConfig } from '../../loader/config.ts';
import { sendCreateRequest } from '../../loader/create.ts';
import type { SvcResult, WidgetEvent, WidgetState } from '../../shared/contract.ts';
import { createRequest } from '../net/create.ts';
import { createFlow, type Flow } from './flow.ts';

const API = 'https://svc.example';
const PAGE = 'http://localhost:3000';
/** the sessionStorage key the loader computes for these tests' widget (src/loader/svc-global.ts) */
const KEY = 'svc:v1:pk_test_demo:isAdult:/shop/age';

/** What the fake service answers to status calls, in order; then long polls that hold `wait` seconds. */
let statusScript: Array<() => Response | Promise<Response>>;
let createScript: Array<() => Response>;
let statusCalls: number[];
let knownSent: Array<string | null>;
let waitSent: Array<string | null>;
let createCalls: number;
let confirmCalls: Array<{ at: number; grant: string | null }>;
let confirmAnswer: () => Response;
let requestSeq: number;

function created(ttlMs = 300_000): VerifyRequestCreated {
  requestSeq++;
  return {
    request_id: `vr_${requestSeq}`,
    poll_token: `pt_${requestSeq}`,
    deep_link: `${API}/m/v/vr_${requestSeq}#h=h_${requestSeq}`,
    expires_at: Date.now() + ttlMs,
    poll_after_ms: 1000,
    sandbox: true,
  };
}

const status = (body: Partial<VerifyStatus> & Pick<VerifyStatus, 'status'>) => () =>
  HttpResponse.json({ expires_at: Date.now() + 300_000, ...body });

const server = setupServer(
  http.post(`${API}/api/w/verify-request`, () => {
    createCalls++;
    return createScript.shift()?.() ?? HttpResponse.json(created(), { status: 201 });
  }),
  http.get(`${API}/api/w/verify-status/:id`, ({ request }) => {
    statusCalls.push(Date.now());
    knownSent.push(new URL(request.url).searchParams.get('known'));
    waitSent.push(new URL(request.url).searchParams.get('wait'));
    const next = statusScript.shift();
    if (next) return next();
    const wait = Number(new URL(request.url).searchParams.get('wait'));
    // a long poll with nothing new: the answer leaves after `wait` seconds
    return new Promise<Response>((resolve) =>
      setTimeout(() => resolve(HttpResponse.json({ status: 'pending', expires_at: Date.now() })), wait * 1000),
    );
  }),
  http.get(`${PAGE}/api/age/confirm`, ({ request }) => {
    confirmCalls.push({ at: Date.now(), grant: request.headers.get('x-svc-grant-code') });
    return confirmAnswer();
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

let hidden = false;
Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
function setHidden(value: boolean): void {
  hidden = value;
  document.dispatchEvent(new Event('visibilitychange'));
}

let flow: Flow | undefined;
let events: WidgetEvent[];
let kept: SvcResult[];
let navigated: string[];

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
  statusScript = [];
  createScript = [];
  statusCalls = [];
  knownSent = [];
  waitSent = [];
  createCalls = 0;
  confirmCalls = [];
  confirmAnswer = () => HttpResponse.json({ verified: true });
  requestSeq = 0;
  events = [];
  kept = [];
  navigated = [];
  hidden = false;
  history.replaceState(null, '', '/shop/age');
  sessionStorage.clear();
});

afterEach(() => {
  flow?.dispose();
  flow = undefined;
  server.resetHandlers();
  vi.useRealTimers();
});

function start(extra: RawConfig = {}, stored?: VerifyRequestCreated): Flow {
  const { config, problem } = parseConfig({ partnerId: 'pk_test_demo', successPath: '/shop/done', ...extra }, API);
  if (problem) throw new Error(`bad test config: ${problem}`);
  flow = createFlow({
    config,
    storageKey: KEY,
    stored,
    create: (signal) => createRequest((s) => sendCreateRequest(config, s), signal),
    emit: (...event) => events.push(event),
    keepResult: (result) => kept.push(result),
    navigate: (url) => navigated.push(url),
  });
  return flow;
}

const states = (): WidgetState[] => events.flatMap((e) => (e[0] === 'state' ? [e[1]] : []));
const errors = () => events.flatMap((e) => (e[0] === 'error' ? [e[1]] : []));
const gaps = (times: number[]): number[] => times.slice(1).map((t, i) => t - times[i]!);

describe('creating the request', () => {
  it('shows the QR code of the created request once the service answers', async () => {
    const f = start();
    expect(f.state.value).toBe('creating');
    await vi.advanceTimersByTimeAsync(0);
    expect(f.state.value).toBe('waiting');
    expect(f.request.value?.deep_link).toBe(`${API}/m/v/vr_1#h=h_1`);
    expect(f.secondsLeft.value).toBe(300);
    expect(states()).toEqual(['creating', 'waiting']);
  });

  it('reports INIT_FAILED with the service code, not retryable, when the partner is refused', async () => {
    createScript.push(() => HttpResponse.json({ error: 'ORIGIN_NOT_ALLOWED', message: 'x' }, { status: 403 }));
    const f = start();
    await vi.advanceTimersByTimeAsync(0);
    expect(f.state.value).toBe('error');
    expect(errors()).toEqual([{ code: 'INIT_FAILED', message: 'create failed: ORIGIN_NOT_ALLOWED', retryable: false }]);
    f.retry();
    await vi.advanceTimersByTimeAsync(0);
    expect(createCalls).toBe(1);
  });

  it('reports a retryable INIT_FAILED when the service is down, and the retry button creates again', async () => {
    createScript.push(() => new HttpResponse('bad gateway', { status: 502 }));
    const f = start();
    await vi.advanceTimersByTimeAsync(0);
    expect(errors()[0]).toMatchObject({ code: 'INIT_FAILED', retryable: true });
    f.retry();
    await vi.advanceTimersByTimeAsync(0);
    expect(createCalls).toBe(2);
    expect(f.state.value).toBe('waiting');
  });

  it('reports INIT_FAILED when the network fails', async () => {
    createScript.push(() => HttpResponse.error());
    start();
    await vi.advanceTimersByTimeAsync(0);
    expect(errors()[0]).toMatchObject({ code: 'INIT_FAILED', message: 'create failed: NETWORK', retryable: true });
  });

  it('uses the request the loader already started instead of creating another', async () => {
    const { config } = parseConfig({ partnerId: 'pk_test_demo', successPath: '/shop/done' }, API);
    const early = created();
    flow = createFlow({
      config,
      storageKey: KEY,
      create: () => Promise.reject(new Error('unused')),
      created: Promise.resolve(early),
      emit: (...e) => events.push(e),
      keepResult: () => {},
      navigate: () => {},
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(flow.request.value).toEqual(early);
    expect(createCalls).toBe(0);
  });

  it('starts in the error state without any request when mounted with a configuration error', async () => {
    const { config } = parseConfig({}, API);
    const error = { code: 'INIT_FAILED' as const, message: 'data-partner-id missing', retryable: false };
    flow = createFlow({
      config,
      storageKey: KEY,
      create: (s) => createRequest((t) => sendCreateRequest(config, t), s),
      error,
      emit: (...e) => events.push(e),
      keepResult: () => {},
      navigate: () => {},
    });
    await vi.advanceTimersByTimeAsync(5000);
    expect(flow.state.value).toBe('error');
    expect(createCalls).toBe(0);
    flow.retry();
    await vi.advanceTimersByTimeAsync(0);
    expect(createCalls).toBe(0);
  });
});

describe('waiting for the phone', () => {
  it('moves through scanned and completed, then hands the result over before redirecting', async () => {
    statusScript.push(
      status({ status: 'pending' }),
      status({ status: 'in_progress' }),
      status({ status: 'completed', result: { grant_code: 'g_1' } }),
    );
    const f = start({ state: 'cart 42' });
    await vi.advanceTimersByTimeAsync(0); // the first poll leaves as soon as the request exists
    expect(f.state.value).toBe('waiting');
    await vi.advanceTimersByTimeAsync(2000); // an unchanged answer: the next poll 2 s later (30 a minute)
    expect(f.state.value).toBe('scanned');
    await vi.advanceTimersByTimeAsync(1000); // a change: 1 s later
    expect(states()).toEqual(['creating', 'waiting', 'scanned', 'completed', 'redirecting']);
    const success = events.findIndex((e) => e[0] === 'success');
    expect(events[success]).toEqual(['success', { grant_code: 'g_1', state: 'cart 42' }]);
    expect(success).toBeLessThan(events.findIndex((e) => e[0] === 'state' && e[1] === 'redirecting'));
    expect(navigated).toEqual(['/shop/done#grant_code=g_1&state=cart%2042']);
  });

  it('hands an attestation over the same way', async () => {
    statusScript.push(status({ status: 'completed', result: { attestation: 'a.b.c' } }));
    start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(navigated).toEqual(['/shop/done#attestation=a.b.c']);
  });

  it('keeps the result for the page instead of reloading when the success path is the current page', async () => {
    statusScript.push(status({ status: 'completed', result: { grant_code: 'g_1' } }));
    const f = start({ successPath: '/shop/age' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(navigated).toEqual([]);
    expect(kept).toEqual([{ grant_code: 'g_1' }]);
    expect(f.state.value).toBe('completed');
    expect(location.hash).toBe('');
  });

  it('goes to / when reset() runs a configuration that had a problem and no success path', async () => {
    statusScript.push(status({ status: 'completed', result: { grant_code: 'g_1' } }));
    const { config, problem } = parseConfig({ partnerId: 'pk_test_demo' }, API);
    expect(problem).toBe('data-success-path missing');
    flow = createFlow({
      config,
      storageKey: KEY,
      error: { code: 'INIT_FAILED', message: problem!, retryable: false },
      create: (signal) => createRequest((s) => sendCreateRequest(config, s), signal),
      emit: (...event) => events.push(event),
      keepResult: (result) => kept.push(result),
      navigate: (url) => navigated.push(url),
    });
    flow.reset();
    await vi.advanceTimersByTimeAsync(1000);
    expect(navigated).toEqual(['/#grant_code=g_1']);
  });

  it('long-polls with wait=25 and never calls more than once a second', async () => {
    for (let i = 0; i < 5; i++) statusScript.push(status({ status: 'pending' }));
    start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(statusCalls.length).toBeGreaterThanOrEqual(5);
    for (const gap of gaps(statusCalls)) expect(gap).toBeGreaterThanOrEqual(1000);
  });

  it('tells the long poll which status it shows, so a change between two polls is answered at once', async () => {
    statusScript.push(status({ status: 'pending' }), status({ status: 'in_progress' }));
    start();
    await vi.advanceTimersByTimeAsync(3000);
    expect(knownSent.slice(0, 3)).toEqual(['pending', 'pending', 'in_progress']);
  });

  it('shows the failure and its reason, and the retry button starts a new request', async () => {
    statusScript.push(status({ status: 'failed', reason: 'cancelled' }));
    const f = start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(f.state.value).toBe('failed');
    expect(f.reason.value).toBe('cancelled');
    f.retry();
    await vi.advanceTimersByTimeAsync(0);
    expect(createCalls).toBe(2);
    expect(f.state.value).toBe('waiting');
  });

  it('backs off 1 s, 2 s, 4 s after network errors, then polls normally again', async () => {
    statusScript.push(
      () => HttpResponse.error(),
      () => HttpResponse.error(),
      () => HttpResponse.error(),
      status({ status: 'in_progress' }),
    );
    const f = start();
    await vi.advanceTimersByTimeAsync(1000 + 1000 + 2000 + 4000);
    expect(gaps(statusCalls.slice(0, 4))).toEqual([1000, 2000, 4000]);
    expect(f.state.value).toBe('scanned');
  });

  it('caps the backoff at 30 s', async () => {
    for (let i = 0; i < 8; i++) statusScript.push(() => new HttpResponse(null, { status: 503 }));
    start();
    await vi.advanceTimersByTimeAsync(1000 + 1000 + 2000 + 4000 + 8000 + 16_000 + 30_000 + 30_000);
    expect(gaps(statusCalls.slice(0, 8))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });

  it('honours Retry-After on 429 before polling again', async () => {
    statusScript.push(
      () =>
        HttpResponse.json({ error: 'RATE_LIMITED', message: 'x' }, { status: 429, headers: { 'Retry-After': '7' } }),
      status({ status: 'pending' }),
    );
    start();
    await vi.advanceTimersByTimeAsync(1000 + 7000);
    expect(gaps(statusCalls.slice(0, 2))).toEqual([7000]);
  });

  it('pauses while the page is hidden and polls at once when it is shown again', async () => {
    statusScript.push(status({ status: 'pending' }));
    start();
    await vi.advanceTimersByTimeAsync(0);
    expect(statusCalls).toHaveLength(1);
    setHidden(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(statusCalls).toHaveLength(1);
    statusScript.push(status({ status: 'in_progress' }));
    setHidden(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(statusCalls).toHaveLength(2);
    expect(flow!.state.value).toBe('scanned');
  });

  it('cuts a backoff short when the page is shown again after being hidden', async () => {
    for (let i = 0; i < 6; i++) statusScript.push(() => HttpResponse.error());
    start();
    await vi.advanceTimersByTimeAsync(1000 + 1000 + 2000 + 4000 + 8000); // five failures, now backing off 16 s
    expect(statusCalls).toHaveLength(5);
    setHidden(true);
    await vi.advanceTimersByTimeAsync(3000);
    setHidden(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(statusCalls).toHaveLength(6);
  });
});

describe('resuming after a reload, Back or the back/forward cache (design.md §14)', () => {
  const storedEntry = (): VerifyRequestCreated | null => JSON.parse(sessionStorage.getItem(KEY) ?? 'null');

  it('keeps the live request in sessionStorage under its key: the create answer, what the page shows', async () => {
    const f = start();
    await vi.advanceTimersByTimeAsync(0);
    expect(storedEntry()).toEqual(f.request.value);
    expect(Object.keys(storedEntry()!).sort()).toEqual([
      'deep_link',
      'expires_at',
      'poll_after_ms',
      'poll_token',
      'request_id',
      'sandbox',
    ]);
  });

  it('shows a stored request that still waits, from its entry, after one status call, and creates nothing', async () => {
    const stored = created();
    statusScript.push(status({ status: 'pending' }));
    const f = start({}, stored);
    expect(f.state.value).toBe('creating');
    await vi.advanceTimersByTimeAsync(0);
    expect(f.state.value).toBe('waiting');
    expect(f.request.value).toBe(stored);
    expect(createCalls).toBe(0);
    // the first call asks at once (wait=0), then the long poll takes over
    expect(waitSent).toEqual(['0', '25']);
    expect(storedEntry()).toEqual(stored);
  });

  it('shows a stored request the visitor has opened on the phone as scanned at once', async () => {
    statusScript.push(status({ status: 'in_progress' }));
    const f = start({}, created());
    await vi.advanceTimersByTimeAsync(0);
    expect(f.state.value).toBe('scanned');
    expect(states()).toEqual(['creating', 'scanned']);
    expect(createCalls).toBe(0);
  });

  it('delivers a stored request completed while the visitor was away once, as a live completion, and drops it', async () => {
    sessionStorage.setItem(KEY, JSON.stringify(created()));
    statusScript.push(status({ status: 'completed', result: { grant_code: 'g_away' } }));
    const f = start({ state: 'cart-7' }, storedEntry()!);
    await vi.advanceTimersByTimeAsync(0);
    expect(events.filter((e) => e[0] === 'success')).toEqual([['success', { grant_code: 'g_away', state: 'cart-7' }]]);
    expect(navigated).toEqual(['/shop/done#grant_code=g_away&state=cart-7']);
    expect(f.state.value).toBe('redirecting');
    expect(storedEntry()).toBeNull();
    expect(createCalls).toBe(0);
  });

  it.each([
    ['failed', status({ status: 'failed', reason: 'cancelled' })],
    ['expired', status({ status: 'expired' })],
    ['unknown to the service (404)', () => HttpResponse.json({ error: 'NOT_FOUND' }, { status: 404 })],
  ])('drops a stored request that %s and creates a new one', async (_name, answer) => {
    const stored = created();
    sessionStorage.setItem(KEY, JSON.stringify(stored));
    statusScript.push(answer);
    const f = start({}, stored);
    await vi.advanceTimersByTimeAsync(0);
    expect(createCalls).toBe(1);
    expect(f.state.value).toBe('waiting');
    expect(f.request.value?.request_id).not.toBe(stored.request_id);
    expect(storedEntry()?.request_id).toBe(f.request.value?.request_id);
  });

  it('shows a stored request when its status cannot be read (network error), and long-polls it with backoff', async () => {
    const stored = created();
    statusScript.push(() => HttpResponse.error());
    const f = start({}, stored);
    await vi.advanceTimersByTimeAsync(0);
    expect(f.request.value).toBe(stored);
    expect(f.state.value).toBe('waiting');
    expect(createCalls).toBe(0);
  });

  it('drops the entry on failure, on expiry, on reset() and on remove()', async () => {
    statusScript.push(status({ status: 'failed', reason: 'failed' }));
    const f = start();
    await vi.advanceTimersByTimeAsync(0);
    expect(f.state.value).toBe('failed');
    expect(storedEntry()).toBeNull();

    // expiry: the renewal's request takes the entry's place
    statusScript.push(status({ status: 'expired' }));
    f.reset();
    await vi.advanceTimersByTimeAsync(0);
    expect(createCalls).toBe(3);
    expect(f.request.value?.request_id).toBe('vr_3');
    expect(storedEntry()?.request_id).toBe('vr_3');

    f.reset();
    await vi.advanceTimersByTimeAsync(0);
    expect(storedEntry()?.request_id).toBe('vr_4');
    f.dispose();
    expect(storedEntry()).toBeNull();
  });

  it('never stores a result: the entry is gone before the grant is handed over', async () => {
    statusScript.push(status({ status: 'completed', result: { grant_code: 'g_1' } }));
    const seen: Array<string | null> = [];
    start({ onSuccess: undefined });
    const original = events.push.bind(events);
    events.push = (...e) => {
      if (e[0]![0] === 'success') seen.push(sessionStorage.getItem(KEY));
      return original(...e);
    };
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([null]);
    expect(JSON.stringify({ ...sessionStorage })).not.toContain('g_1');
  });

  it('asks the status at once when the page comes back from the back/forward cache, keeping the request on screen', async () => {
    const f = start();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(1500); // a long poll is now held by the service
    const shown = f.request.value;
    const before = statusCalls.length;
    statusScript.push(status({ status: 'in_progress' }));
    dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    await vi.advanceTimersByTimeAsync(0);
    // the status at once (wait=0), then a long poll again
    expect(waitSent.slice(before)).toEqual(['0', '25']);
    expect(f.state.value).toBe('scanned');
    expect(f.request.value).toBe(shown);
    expect(states()).toEqual(['creating', 'waiting', 'scanned']);
    expect(createCalls).toBe(1);
  });

  it('does nothing on a pageshow that is not a return from the back/forward cache', async () => {
    start();
    await vi.advanceTimersByTimeAsync(1500);
    const before = statusCalls.length;
    dispatchEvent(Object.assign(new Event('pageshow'), { persisted: false }));
    await vi.advanceTimersByTimeAsync(0);
    expect(statusCalls.length).toBe(before);
  });
});

describe('expiry and renewal', () => {
  it('renews at once when the service says the request expired and the page is visible', async () => {
    statusScript.push(status({ status: 'expired' }));
    const f = start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(states()).toEqual(['creating', 'waiting', 'expired', 'creating', 'waiting']);
    expect(createCalls).toBe(2);
    expect(f.request.value?.request_id).toBe('vr_2');
  });

  it('counts down once a second and renews when the countdown reaches zero', async () => {
    createScript.push(() => HttpResponse.json(created(5000), { status: 201 }));
    const f = start();
    await vi.advanceTimersByTimeAsync(0);
    expect(f.secondsLeft.value).toBe(5);
    await vi.advanceTimersByTimeAsync(2000);
    expect(f.secondsLeft.value).toBe(3);
    await vi.advanceTimersByTimeAsync(3000);
    expect(states()).toContain('expired');
    expect(createCalls).toBe(2);
    expect(f.state.value).toBe('waiting');
  });

  it('treats an unknown request (404) as expired and renews it', async () => {
    statusScript.push(() => HttpResponse.json({ error: 'NOT_FOUND', message: 'x' }, { status: 404 }));
    start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(createCalls).toBe(2);
  });

  it('waits for the page to be shown before renewing an expired request', async () => {
    createScript.push(() => HttpResponse.json(created(3000), { status: 201 }));
    const f = start();
    await vi.advanceTimersByTimeAsync(0);
    setHidden(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(f.state.value).toBe('expired');
    expect(createCalls).toBe(1);
    setHidden(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(createCalls).toBe(2);
    expect(f.state.value).toBe('waiting');
  });

  it('falls back to the documented lifetime when the device clock disagrees with the service', async () => {
    createScript.push(() => HttpResponse.json({ ...created(), expires_at: Date.now() - 3_600_000 }, { status: 201 }));
    const f = start();
    await vi.advanceTimersByTimeAsync(0);
    expect(f.secondsLeft.value).toBe(300);
  });
});

describe('server-verify mode', () => {
  const serverVerify = { serverVerify: 'true', serverVerifyEndpoint: '/api/age/confirm', serverVerifyTimeout: '10' };

  it('asks the partner endpoint with the grant code, at most once a second, until verified', async () => {
    let answers = 0;
    confirmAnswer = () => HttpResponse.json({ verified: ++answers >= 3 });
    statusScript.push(status({ status: 'completed', result: { grant_code: 'g_7' } }));
    const f = start(serverVerify);
    await vi.advanceTimersByTimeAsync(1000);
    expect(f.state.value).toBe('confirming');
    expect(events.some((e) => e[0] === 'success')).toBe(false);
    await vi.advanceTimersByTimeAsync(2000);
    expect(confirmCalls.map((c) => c.grant)).toEqual(['g_7', 'g_7', 'g_7']);
    for (const gap of gaps(confirmCalls.map((c) => c.at))) expect(gap).toBeGreaterThanOrEqual(1000);
    expect(navigated).toEqual(['/shop/done#grant_code=g_7']);
    expect(f.state.value).toBe('redirecting');
  });

  it('reports SERVER_VERIFY_TIMEOUT when no verified:true arrives in time, and retry asks again', async () => {
    confirmAnswer = () => HttpResponse.json({ verified: false });
    statusScript.push(status({ status: 'completed', result: { grant_code: 'g_7' } }));
    const f = start(serverVerify);
    await vi.advanceTimersByTimeAsync(1000 + 10_000);
    expect(f.state.value).toBe('error');
    expect(errors()).toEqual([{ code: 'SERVER_VERIFY_TIMEOUT', message: 'no verified:true in time', retryable: true }]);
    expect(confirmCalls.length).toBeLessThanOrEqual(11);
    expect(navigated).toEqual([]);
    confirmAnswer = () => HttpResponse.json({ verified: true });
    f.retry();
    await vi.advanceTimersByTimeAsync(0);
    expect(createCalls).toBe(1);
    expect(navigated).toEqual(['/shop/done#grant_code=g_7']);
  });

  it('counts a failing partner endpoint as not verified yet', async () => {
    let calls = 0;
    confirmAnswer = () =>
      ++calls < 3 ? new HttpResponse('oops', { status: 500 }) : HttpResponse.json({ verified: true });
    statusScript.push(status({ status: 'completed', result: { grant_code: 'g_7' } }));
    start(serverVerify);
    await vi.advanceTimersByTimeAsync(1000 + 3000);
    expect(navigated).toEqual(['/shop/done#grant_code=g_7']);
  });
});

describe('the wallet on this device (design.md §13)', () => {
  const annexC = { protocol: 'org-iso-mdoc', data: { deviceRequest: 'dr', encryptionInfo: 'ei' } } as const;
  const openid4vp = { protocol: 'openid4vp-v1-unsigned', data: { nonce: 'n' } } as unknown as NonNullable<
    VerifyRequestCreated['dc_requests']
  >[number];

  async function askedWith(answer: Partial<VerifyRequestCreated>): Promise<unknown> {
    const get = vi.fn(async () => ({ protocol: 'openid4vp-v1-unsigned', data: { response: 'jwe' } }));
    vi.stubGlobal('DigitalCredential', class {});
    vi.stubGlobal('navigator', { ...navigator, credentials: { get } });
    server.use(http.post(`${API}/api/w/wallet-response/:id`, () => HttpResponse.json({})));
    createScript.push(() =>
      HttpResponse.json({ ...created(), wallet_link: 'openid4vp://?x', ...answer }, { status: 201 }),
    );
    const f = start({ clientProofMode: 'true' });
    await vi.advanceTimersByTimeAsync(0);
    expect(f.canUseWallet.value).toBe(true);
    f.useWallet();
    vi.unstubAllGlobals();
    return get.mock.calls[0];
  }

  it('hands the whole dc_requests array to navigator.credentials.get, mediation required', async () => {
    expect(await askedWith({ dc_request: annexC, dc_requests: [annexC, openid4vp] })).toEqual([
      { mediation: 'required', digital: { requests: [annexC, openid4vp] } },
    ]);
  });

  it('hands dc_request alone to it when the service answers no dc_requests', async () => {
    expect(await askedWith({ dc_request: annexC })).toEqual([
      { mediation: 'required', digital: { requests: [annexC] } },
    ]);
  });
});

describe('cleanup', () => {
  it('leaves no timer and makes no request after dispose', async () => {
    const f = start();
    await vi.advanceTimersByTimeAsync(1500);
    const calls = statusCalls.length;
    f.dispose();
    flow = undefined;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(statusCalls.length).toBe(calls);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reset starts over with a new request', async () => {
    const f = start();
    await vi.advanceTimersByTimeAsync(0);
    f.reset();
    await vi.advanceTimersByTimeAsync(0);
    expect(createCalls).toBe(2);
    expect(f.request.value?.request_id).toBe('vr_2');
  });
});
