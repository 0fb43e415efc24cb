/**
 * Status polls that hold (docs/operations.md#running-the-service, "Status polls"): a wrong poll
 * token never spends the request's own budget, and long polls are capped per address and per
 * instance without ever answering 429.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/helpers.ts';
import { completeOnPhone, getStatus, startStandardFlow } from '../test/verify-flow.ts';

let t: TestApp;
afterEach(async () => t?.close());

describe('wrong poll tokens', () => {
  it('do not starve the widget: after 35 wrong-token polls the real poller still gets 200', async () => {
    t = await makeTestApp();
    const flow = await startStandardFlow(t);
    for (let i = 0; i < 35; i++) {
      expect((await getStatus(t, flow.requestId, { pt: `pt_wrong${i}` }, '203.0.113.9')).statusCode).toBe(404);
    }
    const real = await getStatus(t, flow.requestId, { pt: flow.pollToken });
    expect(real.statusCode).toBe(200);
    expect(real.json().status).toBe('pending');
  });

  it('are counted per client address: the 61st in a minute is 429 RATE_LIMITED, whether the id exists or not', async () => {
    t = await makeTestApp();
    const flow = await startStandardFlow(t);
    const prober = '198.51.100.7';
    for (let i = 0; i < 60; i++) {
      const id = i % 2 === 0 ? flow.requestId : 'vr_AAAAAAAAAAAAAAAAAAAAAA';
      expect((await getStatus(t, id, { pt: 'pt_nope' }, prober)).statusCode).toBe(404);
    }
    const limited = await getStatus(t, 'vr_AAAAAAAAAAAAAAAAAAAAAA', { pt: 'pt_nope' }, prober);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: 'RATE_LIMITED', message: expect.any(String) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // the right token from the same address, and wrong tokens from another, are unaffected
    expect((await getStatus(t, flow.requestId, { pt: flow.pollToken }, prober)).statusCode).toBe(200);
    expect((await getStatus(t, flow.requestId, { pt: 'pt_nope' }, '198.51.100.8')).statusCode).toBe(404);
    t.clock.advance(60_000);
    expect((await getStatus(t, flow.requestId, { pt: 'pt_nope' }, prober)).statusCode).toBe(404);
  });

  it('of an IPv6 client share one budget across its /64', async () => {
    t = await makeTestApp();
    for (let i = 0; i < 60; i++) {
      expect(
        (await getStatus(t, 'vr_AAAAAAAAAAAAAAAAAAAAAA', { pt: 'pt_nope' }, `2001:db8:1:2::${i.toString(16)}`))
          .statusCode,
      ).toBe(404);
    }
    expect(
      (await getStatus(t, 'vr_AAAAAAAAAAAAAAAAAAAAAA', { pt: 'pt_nope' }, '2001:db8:1:2:ffff::1')).statusCode,
    ).toBe(429);
  });
});

describe('long polls from one address', () => {
  it('wait up to the cap of 100; the 30 beyond it are answered at once with the current status, never 429', async () => {
    t = await makeTestApp();
    const flows = await Promise.all(Array.from({ length: 5 }, () => startStandardFlow(t)));
    const started = Date.now();
    const answeredAt: number[] = [];
    const polls = flows.flatMap((flow) =>
      Array.from({ length: 26 }, () =>
        getStatus(t, flow.requestId, { pt: flow.pollToken, wait: '20' }).then((res) => {
          answeredAt.push(Date.now() - started);
          return res;
        }),
      ),
    );
    await expect.poll(() => answeredAt.length, { timeout: 5_000 }).toBe(30);
    expect(t.deps.longPolls.waiting).toBe(100);
    // another address is not capped by this one
    const other = getStatus(t, flows[0]!.requestId, { pt: flows[0]!.pollToken, wait: '20' }, '192.0.2.1');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(t.deps.longPolls.waiting).toBe(101);

    for (const flow of flows) expect((await completeOnPhone(t, flow)).statusCode).toBe(200);
    const answers = await Promise.all(polls);
    expect(answers.every((res) => res.statusCode === 200)).toBe(true);
    expect(answers.filter((res) => res.json().status === 'pending')).toHaveLength(30);
    expect(answers.filter((res) => res.json().status === 'completed')).toHaveLength(100);
    expect((await other).json().status).toBe('completed');
    expect(t.deps.longPolls.waiting).toBe(0);
  });

  it('are capped per instance too (SVC_LONG_POLL_MAX)', async () => {
    t = await makeTestApp({ env: { SVC_LONG_POLL_MAX: '2' } });
    const flow = await startStandardFlow(t);
    const held = [1, 2].map((i) => getStatus(t, flow.requestId, { pt: flow.pollToken, wait: '20' }, `192.0.2.${i}`));
    await expect.poll(() => t.deps.longPolls.waiting).toBe(2);
    const started = Date.now();
    expect((await getStatus(t, flow.requestId, { pt: flow.pollToken, wait: '20' }, '192.0.2.3')).json().status).toBe(
      'pending',
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    await completeOnPhone(t, flow);
    expect((await Promise.all(held)).map((res) => res.json().status)).toEqual(['completed', 'completed']);
  });
});
