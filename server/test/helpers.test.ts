import { afterEach, describe, expect, it } from 'vitest';
import { digestToken } from '../crypto/tokens.ts';
import { makeTestApp, PARTNERS, putTestGrant, signedInjectOptions, type TestApp } from './helpers.ts';

describe('test helpers', () => {
  let t: TestApp;
  afterEach(async () => t?.close());

  it('builds an app on a fake clock that answers /healthz', async () => {
    t = await makeTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(t.clock.now()).toBe(Date.UTC(2026, 0, 1));
  });

  it('loads the fixture partners with the secrets the helpers sign with', async () => {
    t = await makeTestApp();
    for (const partner of Object.values(PARTNERS)) {
      expect((await t.store.getPartner(partner.id))?.secret).toBe(partner.secret);
    }
  });

  it('puts a single-use grant for the demo partner with five minutes to live', async () => {
    t = await makeTestApp();
    const code = await putTestGrant(t.deps, { scopes: ['isAdult', 'isFrench'] });
    const grant = await t.store.consumeGrant(digestToken(code), t.clock.now());
    expect(grant).toMatchObject({
      partnerId: 'pk_test_demo',
      scopes: ['isAdult', 'isFrench'],
      attributes: { age_over_18: true, is_french: true },
    });
    expect(grant!.expiresAt - t.clock.now()).toBe(5 * 60_000);
    expect(await t.store.consumeGrant(digestToken(code), t.clock.now())).toBeNull();
  });

  it('signs a GET over the empty body without a content type and lets headers be overridden', async () => {
    t = await makeTestApp();
    const get = signedInjectOptions(t.clock, { method: 'GET', url: '/x' });
    expect(get.payload).toBeUndefined();
    expect(Object.keys(get.headers!).map((h) => h.toLowerCase())).not.toContain('content-type');
    const post = signedInjectOptions(t.clock, {
      url: '/x',
      body: { a: 1 },
      headers: { 'x-partner-nonce': undefined, 'Idempotency-Key': 'k' },
    });
    expect(post.payload).toBe('{"a":1}');
    expect(post.headers).not.toHaveProperty('X-Partner-Nonce');
    expect(post.headers).toHaveProperty('Idempotency-Key', 'k');
    expect(post.headers).toHaveProperty('X-Partner-Timestamp', String(Date.UTC(2026, 0, 1) / 1000));
  });
});
