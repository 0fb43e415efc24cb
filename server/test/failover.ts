/**
 * A Redis failover under load (design.md §17), for failover.test.ts and `npm run bench:failover`:
 * two service instances (createApp on the Redis store through Sentinel, SVC_REDIS_MIN_REPLICAS=1)
 * run verifications end to end (create, open, complete, poll, then two exchanges of the grant
 * racing on both instances under different Idempotency-Keys) while the primary is killed with
 * SIGKILL or handed over with `SENTINEL FAILOVER`. Every 503 is retried as the SDK's retry rules
 * say (same Idempotency-Key; docs/partner-api.md#the-partner-sdk-serversdk); what counts is what
 * was acknowledged, read back after the switch.
 *
 * @example const figures = await runFailover('kill'); // figures.grantsExchangedTwice === 0
 */
import type { LightMyRequestResponse } from 'fastify';
import { createFakeClock } from '../clock.ts';
import { openRedisStore } from '../store/redis.ts';
import { makeTestApp, PARTNERS, signedInject, type TestApp } from './helpers.ts';
import { startRedisHa } from './redis-ha.ts';
import { completeOnPhone, handoffOf, openOnPhone, PARTNER_ORIGIN } from './verify-flow.ts';

export type Switch = 'kill' | 'planned';

export interface FailoverFigures {
  switch: Switch;
  /** verifications driven end to end */
  flows: number;
  /** completions answered 200 */
  completionsAcknowledged: number;
  /** of those, requests not completed when read after the switch: must be 0 */
  completionsLost: number;
  /** grants exchanged for exactly one pass token */
  grantsExchanged: number;
  /** grants that yielded two different pass tokens: must be 0 */
  grantsExchangedTwice: number;
  /** exchanges answered 200 whose pass token introspects inactive after the switch: must be 0 */
  passTokensLost: number;
  /**
   * grants no exchange got: one was cut between taking the grant and storing the pass token, so
   * the partner met 503 and then GRANT_INVALID (the visitor verifies again); never a double
   */
  grantsBurnt: number;
  /** completions and exchanges answered 200 once the switch was over: service came back */
  servedAfterSwitch: number;
  /** 503 answers met and retried */
  unavailableAnswers: number;
  /** the longest time without a completion or exchange answered 200, from the switch on */
  secondsWithoutService: number;
  /** from the kill or `SENTINEL FAILOVER` to the sentinels naming the new primary */
  secondsToSwitch: number;
}

export interface FailoverOptions {
  /** flows finished before the switch; default 30 */
  flowsBefore?: number;
  /** flows started once the switch is over; default 30 */
  flowsAfter?: number;
  /**
   * replicas of the primary; default 1, the strict layout for SVC_REDIS_MIN_REPLICAS=1 (the only
   * replica is the one that acknowledged, and the one promoted)
   */
  replicas?: number;
  /** SVC_REDIS_MIN_REPLICAS; default `replicas`, the strict setting (design.md §17) */
  minReplicas?: number;
  /** flows in flight at once; default 6 */
  workers?: number;
  /** the stores' notices and the scenario's steps, for a bench's log; default: dropped */
  log?: (line: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the scenario on its own primary, replica and three sentinels, and removes them after.
 */
export async function runFailover(kind: Switch, options: FailoverOptions = {}): Promise<FailoverFigures> {
  const { flowsBefore = 30, flowsAfter = 30, replicas = 1, workers = 6, log = () => {} } = options;
  const minReplicas = options.minReplicas ?? replicas;
  const ha = await startRedisHa({ replicas });
  const clock = createFakeClock();
  const apps: TestApp[] = [];
  const logLines: string[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const store = await openRedisStore({
        sentinels: ha.sentinels,
        prefix: 'failover:',
        minReplicas,
        notice: (line) => log(`instance ${i + 1}: ${line}`),
      });
      apps.push(await makeTestApp({ store, clock, log: { lines: logLines, level: 'warn' } }));
    }
    const [a, b] = apps as [TestApp, TestApp];

    let unavailableAnswers = 0;
    const served: number[] = [];
    /** Sends until the answer is not 503 (the caller's retry), for at most 20 s. */
    async function send(inject: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const res = await inject();
        if (res.statusCode !== 503) {
          if (res.statusCode >= 500) throw new Error(`answered ${res.statusCode}: ${res.body}`);
          return res;
        }
        unavailableAnswers += 1;
        if (unavailableAnswers % 100 === 1) log(`503 #${unavailableAnswers} ${logLines.at(-1)?.slice(0, 600)}`);
        if (Date.now() > deadline) throw new Error(`still 503 after 20 s: ${res.body}`);
        await sleep(20);
      }
    }

    const acknowledged: { requestId: string; pollToken: string }[] = [];
    const passTokens: string[] = [];
    let grantsExchanged = 0;
    let grantsExchangedTwice = 0;
    let grantsBurnt = 0;
    let completionsLost = 0;

    async function runFlow(n: number): Promise<void> {
      const created = await send(() =>
        a.app.inject({
          method: 'POST',
          url: '/api/w/verify-request',
          headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_ORIGIN },
          payload: JSON.stringify({ partner_id: PARTNERS.demo.id }),
          // one address per flow: the widget-create limit counts per address
          remoteAddress: `10.${(n >> 8) & 255}.${n & 255}.1`,
        }),
      );
      if (created.statusCode !== 201) throw new Error(`create answered ${created.statusCode}: ${created.body}`);
      const body = created.json() as { request_id: string; poll_token: string; deep_link: string };
      const flow = { requestId: body.request_id, pollToken: body.poll_token, handoff: handoffOf(body.deep_link) };
      const [phone, widget] = n % 2 === 0 ? [b, a] : [a, b];
      await send(() => openOnPhone(phone, flow));
      const completed = await send(() => completeOnPhone(phone, flow));
      if (completed.statusCode === 200) {
        served.push(performance.now());
        acknowledged.push(flow);
      }
      const status = await send(() =>
        widget.app.inject({ method: 'GET', url: `/api/w/verify-status/${flow.requestId}?pt=${flow.pollToken}` }),
      );
      const result = status.json() as { status: string; result?: { grant_code?: string } };
      const grantCode = result.result?.grant_code;
      if (result.status !== 'completed' || !grantCode) {
        if (completed.statusCode === 200) completionsLost += 1;
        return;
      }
      const exchanged = await Promise.all(
        [a, b].map(async (target, i) => {
          const res = await send(() =>
            signedInject(target, {
              url: '/v1/exchange',
              body: { grant_code: grantCode },
              headers: { 'Idempotency-Key': `flow-${n}-${i}` },
            }),
          );
          if (res.statusCode === 200) served.push(performance.now());
          return res.statusCode === 200 ? (res.json() as { pass_token: string }).pass_token : null;
        }),
      );
      const distinct = new Set(exchanged.filter((token): token is string => token !== null));
      if (distinct.size > 1) grantsExchangedTwice += 1;
      else if (distinct.size === 1) grantsExchanged += 1;
      else grantsBurnt += 1;
      passTokens.push(...distinct);
    }

    let started = 0;
    let finished = 0;
    let switchedAt = Infinity;
    let startedAfterSwitch = 0;
    async function worker(): Promise<void> {
      for (;;) {
        if (switchedAt !== Infinity && startedAfterSwitch >= flowsAfter) return;
        if (switchedAt !== Infinity) startedAfterSwitch += 1;
        await runFlow(started++);
        finished += 1;
      }
    }

    let switchStartedAt = 0;
    let secondsToSwitch = 0;
    async function switchPrimary(): Promise<void> {
      while (finished < flowsBefore) await sleep(5);
      const old = await ha.primary();
      switchStartedAt = performance.now();
      log(`switching (${kind}) from :${old.port}`);
      if (kind === 'kill') await old.kill();
      else await ha.failover();
      const next = await ha.waitForSwitch(old);
      log(`sentinels name :${next.port}`);
      secondsToSwitch = (performance.now() - switchStartedAt) / 1000;
      // A killed primary comes back as a replica, as its supervisor would restart it: until then
      // the new primary has one replica fewer, and with minReplicas = replicas every single-use
      // write answers 503.
      if (kind === 'kill' && minReplicas >= replicas) await ha.rejoin(old);
      log('switch over');
      switchedAt = performance.now();
    }

    await Promise.all([switchPrimary(), ...Array.from({ length: workers }, worker)]);

    // Read back what was acknowledged, after the switch.
    for (const flow of acknowledged) {
      const res = await send(() =>
        b.app.inject({ method: 'GET', url: `/api/w/verify-status/${flow.requestId}?pt=${flow.pollToken}` }),
      );
      if ((res.json() as { status: string }).status !== 'completed') completionsLost += 1;
    }
    let passTokensLost = 0;
    for (const passToken of passTokens) {
      const res = await send(() => signedInject(a, { url: '/v1/introspect', body: { pass_token: passToken } }));
      if ((res.json() as { active: boolean }).active !== true) passTokensLost += 1;
    }

    served.sort((x, y) => x - y);
    let longestGapMs = 0;
    let previous = served.filter((t) => t <= switchStartedAt).at(-1) ?? switchStartedAt;
    for (const t of served.filter((t) => t > switchStartedAt)) {
      longestGapMs = Math.max(longestGapMs, t - previous);
      previous = t;
    }
    return {
      switch: kind,
      flows: finished,
      completionsAcknowledged: acknowledged.length,
      completionsLost,
      grantsExchanged,
      grantsExchangedTwice,
      passTokensLost,
      grantsBurnt,
      servedAfterSwitch: served.filter((t) => t > switchedAt).length,
      unavailableAnswers,
      secondsWithoutService: longestGapMs / 1000,
      secondsToSwitch,
    };
  } finally {
    for (const t of apps) await t.close().catch(() => {});
    await ha.remove();
  }
}
