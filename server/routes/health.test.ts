/**
 * GET /healthz and GET /readyz (design.md §17, docs/operations.md "Health and readiness"): ready
 * while the store answers and the signing keys are loaded; 503 within the readiness bound when the
 * store is closed, stopped or frozen, never a hang; neither probe logs at info.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { READY_TIMEOUT_MS } from '../domain/health.ts';
import { openRedisStore } from '../store/redis.ts';
import { makeTestApp, type TestApp } from '../test/helpers.ts';
import { startRedisServer, type RedisServer } from '../test/redis-server.ts';

let t: TestApp | undefined;
let redis: RedisServer | undefined;
afterEach(async () => {
  await t?.close().catch(() => {});
  t = undefined;
});
afterAll(async () => {
  await redis?.remove();
});

const probe = async (app: TestApp, url: string) => {
  const started = Date.now();
  const res = await app.app.inject({ url });
  return { status: res.statusCode, body: res.json(), ms: Date.now() - started };
};

describe('GET /readyz', () => {
  it('answers 200 with each check when the store answers and the signing keys are loaded', async () => {
    const lines: string[] = [];
    t = await makeTestApp({ log: { lines } });
    expect(await probe(t, '/readyz')).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { store: true, signing_keys: true } },
    });
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    // probes are off the info log: no request or response line for either
    expect(lines.filter((line) => /readyz|healthz/.test(line))).toEqual([]);
  });

  it('answers 503 naming the store at once when the store is closed', async () => {
    t = await makeTestApp();
    await t.store.close();
    const answer = await probe(t, '/readyz');
    expect(answer).toMatchObject({
      status: 503,
      body: { status: 'unavailable', checks: { store: false } },
    });
    expect(answer.ms).toBeLessThan(READY_TIMEOUT_MS);
  });

  it('answers 503 within its bound when Redis is frozen (port open, no answer) or stopped; 200 once it is back', async () => {
    redis = await startRedisServer();
    const store = await openRedisStore({ url: redis.url, prefix: 'readyz:', notice: () => {} });
    t = await makeTestApp({ store });
    expect((await probe(t, '/readyz')).status).toBe(200);

    redis.pause();
    const frozen = await probe(t, '/readyz');
    expect(frozen).toMatchObject({ status: 503, body: { checks: { store: false } } });
    expect(frozen.ms).toBeLessThan(READY_TIMEOUT_MS + 500);
    redis.resume();
    await expect.poll(async () => (await probe(t!, '/readyz')).status, { timeout: 10_000 }).toBe(200);

    await redis.stop();
    const stopped = await probe(t, '/readyz');
    expect(stopped).toMatchObject({ status: 503, body: { checks: { store: false } } });
    expect(stopped.ms).toBeLessThan(READY_TIMEOUT_MS + 500);

    await redis.start();
    await expect.poll(async () => (await probe(t!, '/readyz')).status, { timeout: 10_000 }).toBe(200);
  });
});
