import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../errors.ts';
import type { PartnerRecord } from '../store/store.ts';
import { makeTestDeps, PARTNERS, putTestGrant, type TestDeps } from '../test/helpers.ts';
import { exchangeGrant, introspectPassToken } from './exchange.ts';

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return error.code;
}

describe('exchange and introspection, without HTTP', () => {
  let t: TestDeps;
  let demo: PartnerRecord;
  let other: PartnerRecord;
  afterEach(async () => t?.store.close());

  async function setUp(): Promise<void> {
    t = await makeTestDeps();
    demo = (await t.store.getPartner(PARTNERS.demo.id))!;
    other = (await t.store.getPartner(PARTNERS.other.id))!;
  }

  it('turns a grant into a pass token once, which introspects as active for its partner only', async () => {
    await setUp();
    const grantCode = await putTestGrant(t.deps);
    const response = await exchangeGrant(t.deps, demo, { grantCode, idempotencyKey: null });
    expect(response).toMatchObject({ token_type: 'Bearer', age_over_18: true, scopes: ['isAdult'] });
    expect(await codeOf(exchangeGrant(t.deps, demo, { grantCode, idempotencyKey: null }))).toBe('GRANT_INVALID');
    expect(await introspectPassToken(t.deps, demo, response.pass_token)).toMatchObject({
      active: true,
      scope: 'age_verification',
    });
    expect(await introspectPassToken(t.deps, other, response.pass_token)).toEqual({ active: false });
  });

  it('answers a retry with the same Idempotency-Key and grant code with the first answer, and refuses another code under it', async () => {
    await setUp();
    const grantCode = await putTestGrant(t.deps);
    const first = await exchangeGrant(t.deps, demo, { grantCode, idempotencyKey: 'order-42' });
    expect(await exchangeGrant(t.deps, demo, { grantCode, idempotencyKey: 'order-42' })).toEqual(first);
    const another = await putTestGrant(t.deps);
    expect(await codeOf(exchangeGrant(t.deps, demo, { grantCode: another, idempotencyKey: 'order-42' }))).toBe(
      'GRANT_INVALID',
    );
  });

  it('burns a grant another partner presents, and refuses a code without the g_ prefix', async () => {
    await setUp();
    const grantCode = await putTestGrant(t.deps);
    expect(await codeOf(exchangeGrant(t.deps, other, { grantCode, idempotencyKey: null }))).toBe('GRANT_INVALID');
    expect(await codeOf(exchangeGrant(t.deps, demo, { grantCode, idempotencyKey: null }))).toBe('GRANT_INVALID');
    expect(await codeOf(exchangeGrant(t.deps, demo, { grantCode: 'x_abc', idempotencyKey: null }))).toBe(
      'INVALID_GRANT',
    );
  });
});
