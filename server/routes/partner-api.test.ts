import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/protocol/errors.ts';
import { REDACTED_PATHS, createApp } from '../app.ts';
import { PARTNER_CACHE_MS } from '../auth/partner-auth.ts';
import { seal } from '../crypto/seal.ts';
import { digestToken, newToken } from '../crypto/tokens.ts';
import { SEAL_PURPOSE } from '../domain/exchange.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { Store } from '../store/store.ts';
import {
  PARTNERS,
  makeTempDir,
  makeTestApp,
  makeTestDeps,
  newNonce,
  putTestGrant,
  signedInject,
  signedInjectOptions,
  type TestApp,
  type TestPartner,
} from '../test/helpers.ts';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const exchange = (grantCode: unknown, options: { headers?: Record<string, string>; partner?: TestPartner } = {}) =>
  signedInject(t, { url: '/v1/exchange', body: { grant_code: grantCode }, ...options });
const introspect = (passToken: unknown, partner: typeof PARTNERS.demo | typeof PARTNERS.other = PARTNERS.demo) =>
  signedInject(t, { url: '/v1/introspect', body: { pass_token: passToken }, partner });

describe('POST /v1/exchange', () => {
  it('exchanges an isAdult grant for a Bearer pass token with age_over_18 at the top level and in attributes', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps, { scopes: ['isAdult'] });
    const res = await exchange(grantCode);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toEqual({
      pass_token: expect.stringMatching(/^p_[A-Za-z0-9_-]{43}$/),
      expires_in: 14400,
      token_type: 'Bearer',
      age_over_18: true,
      scopes: ['isAdult'],
      attributes: { age_over_18: true },
    });
  });

  it('returns every requested attribute and nothing else, without age_over_18 when isAdult was not requested', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps, {
      scopes: ['isFrench', 'isEU', 'isFemale', 'revealNationality', 'revealBirthYear', 'isUnique'],
      attributes: {
        is_french: false,
        is_eu: true,
        is_female: true,
        nationality: 'DEU',
        birth_year: 1981,
        nullifier: '0xabc123',
        age_over_18: true,
        is_male: false,
      },
    });
    const body = (await exchange(grantCode)).json();
    expect(body).not.toHaveProperty('age_over_18');
    expect(body.attributes).toEqual({
      is_french: false,
      is_eu: true,
      is_female: true,
      nationality: 'DEU',
      birth_year: 1981,
      nullifier: '0xabc123',
    });
    expect(body.scopes).toEqual(['isFrench', 'isEU', 'isFemale', 'revealNationality', 'revealBirthYear', 'isUnique']);
  });

  it('reports a minor as age_over_18 false', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps, { scopes: ['isAdult'], attributes: { age_over_18: false } });
    const body = (await exchange(grantCode)).json();
    expect(body.age_over_18).toBe(false);
    expect(body.attributes).toEqual({ age_over_18: false });
  });

  it('rejects a reused grant with GRANT_INVALID and leaves the pass token it produced active', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    const first = await exchange(grantCode);
    const again = await exchange(grantCode);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ error: 'GRANT_INVALID', message: ERRORS.GRANT_INVALID.message });
    expect((await introspect(first.json().pass_token)).json().active).toBe(true);
  });

  it('rejects an unknown well-formed grant with 401 GRANT_INVALID', async () => {
    t = await makeTestApp();
    const res = await exchange(`g_${'A'.repeat(43)}`);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('GRANT_INVALID');
  });

  it.each(['g_', 'g_short', `g_${'A'.repeat(44)}`, 'g_ spaces in it', `g_${'é'.repeat(43)}`])(
    'rejects the g_-prefixed but impossible grant %j with 401 GRANT_INVALID',
    async (code) => {
      t = await makeTestApp();
      const res = await exchange(code);
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('GRANT_INVALID');
    },
  );

  it("rejects another partner's grant with GRANT_INVALID", async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps, { partnerId: PARTNERS.other.id });
    const res = await exchange(grantCode);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('GRANT_INVALID');
  });

  it.each(['', 'p_abc', 'G_abc', 'grant', ' g_abc', 'g-abc'])(
    'rejects the grant code %j, not starting with g_, with 400 INVALID_GRANT',
    async (code) => {
      t = await makeTestApp();
      const res = await exchange(code);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'INVALID_GRANT', message: ERRORS.INVALID_GRANT.message });
    },
  );

  it.each([
    ['an empty body', ''],
    ['invalid JSON', '{"grant_code": "g_'],
    ['a JSON array', '["g_abc"]'],
    ['a JSON string', '"g_abc"'],
    ['null', 'null'],
    ['an object without grant_code', '{}'],
    ['grant_code as a number', '{"grant_code": 123}'],
    ['grant_code as an array', `{"grant_code": ["g_${'A'.repeat(43)}"]}`],
    ['grant_code as null', '{"grant_code": null}'],
    ['partner_id beside grant_code', `{"grant_code": "g_${'A'.repeat(43)}", "partner_id": "pk_test_demo"}`],
  ])('rejects %s with 400 INVALID_REQUEST', async (_label, body) => {
    t = await makeTestApp();
    const res = await signedInject(t, { url: '/v1/exchange', body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'INVALID_REQUEST', message: expect.any(String) });
  });

  it('does not consume the grant when the body is refused', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    await signedInject(t, { url: '/v1/exchange', body: { grant_code: grantCode, extra: 1 } });
    expect((await exchange(grantCode)).statusCode).toBe(200);
  });

  it('rejects a signed body sent as text/plain with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    const res = await exchange(grantCode, { headers: { 'Content-Type': 'text/plain;charset=UTF-8' } });
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('accepts application/json with a charset parameter', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    expect(
      (await exchange(grantCode, { headers: { 'Content-Type': 'application/json; charset=utf-8' } })).statusCode,
    ).toBe(200);
  });

  it('exchanges a grant 4:59 after it was issued', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    t.clock.advance(4 * 60_000 + 59_000);
    expect((await exchange(grantCode)).statusCode).toBe(200);
  });

  it('rejects a grant 5:00 after it was issued with GRANT_INVALID', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    t.clock.advance(5 * 60_000);
    const res = await exchange(grantCode);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('GRANT_INVALID');
  });

  it('lets exactly one of 50 concurrent exchanges of one grant win; the others get GRANT_INVALID', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    const results = await Promise.all(Array.from({ length: 50 }, () => exchange(grantCode)));
    const winners = results.filter((r) => r.statusCode === 200);
    const losers = results.filter((r) => r.statusCode === 401 && r.json().error === 'GRANT_INVALID');
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(49);
    expect((await introspect(winners[0]!.json().pass_token)).json().active).toBe(true);
  });

  it('answers with an X-SVC-CID correlation id, success or error', async () => {
    t = await makeTestApp();
    const ok = await exchange(await putTestGrant(t.deps));
    const bad = await exchange('nope');
    expect(ok.headers['x-svc-cid']).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(bad.headers['x-svc-cid']).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(ok.headers['x-svc-cid']).not.toBe(bad.headers['x-svc-cid']);
  });

  it('answers 404 NOT_FOUND to a GET', async () => {
    t = await makeTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/v1/exchange' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('NOT_FOUND');
  });
});

describe('POST /v1/exchange: the nonce and the grant in one store step (design.md §23)', () => {
  it('takes the nonce and the grant, and stores the pass token and the replay, in one store call', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    const calls: string[] = [];
    const store = t.deps.store;
    const spied = [
      'rememberNonce',
      'rememberNonceAnd',
      'consumeGrant',
      'getExchangeReplay',
      'putPassToken',
      'putExchangeReplay',
    ] as const;
    for (const name of spied) {
      const original = store[name] as (...args: unknown[]) => Promise<unknown>;
      (store as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => (
        calls.push(name),
        original(...args)
      );
    }
    expect((await exchange(grantCode, { headers: { 'Idempotency-Key': 'one-step' } })).statusCode).toBe(200);
    expect(calls).toEqual(['rememberNonceAnd']);
  });

  it('refuses the very same signed exchange sent again with 401 REPLAY_DETECTED, and changes nothing', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    const sent = signedInjectOptions(t.clock, { url: '/v1/exchange', body: { grant_code: grantCode } });
    const first = await t.app.inject(sent);
    expect(first.statusCode).toBe(200);
    const replayed = await t.app.inject(sent);
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toEqual({ error: 'REPLAY_DETECTED', message: expect.any(String) });
    expect((await introspect(first.json().pass_token)).json().active).toBe(true);
  });

  it('takes nothing for a replayed nonce naming another grant: that grant still exchanges, once', async () => {
    t = await makeTestApp();
    const [spent, other] = [await putTestGrant(t.deps), await putTestGrant(t.deps)];
    const nonce = newNonce();
    expect((await signedInject(t, { url: '/v1/exchange', body: { grant_code: spent }, nonce })).statusCode).toBe(200);
    const replayed = await signedInject(t, { url: '/v1/exchange', body: { grant_code: other }, nonce });
    expect(replayed.json().error).toBe('REPLAY_DETECTED');
    expect((await exchange(other)).statusCode).toBe(200);
    expect((await exchange(other)).json().error).toBe('GRANT_INVALID');
  });

  it.each([
    ['a malformed Idempotency-Key', { 'Idempotency-Key': 'not valid!' }, 400],
    ['a text/plain body', { 'Content-Type': 'text/plain' }, 415],
  ])('takes no grant for a call refused for %s', async (_, headers, status) => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    expect((await exchange(grantCode, { headers })).statusCode).toBe(status);
    expect((await exchange(grantCode)).statusCode).toBe(200);
  });

  it('refuses a call signed with a rotated-out secret once PARTNER_CACHE_MS has passed, and takes nothing', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    const stored = (await t.deps.store.getPartner(PARTNERS.demo.id))!;
    const rotated = { ...PARTNERS.demo, secret: Buffer.alloc(32, 0x42).toString('base64') };
    expect((await introspect('p_x')).statusCode).toBe(200); // the old secret is cached
    await t.deps.store.putPartner({ ...stored, secret: rotated.secret, previousSecret: null });
    t.clock.advance(PARTNER_CACHE_MS);
    const old = await exchange(grantCode);
    expect(old.statusCode).toBe(401);
    expect(old.json().error).toBe('INVALID_SIGNATURE');
    expect((await exchange(grantCode, { partner: rotated })).statusCode).toBe(200);
  });
});

describe('POST /v1/exchange with an Idempotency-Key', () => {
  it('answers a retry with the same key and grant with the very same response', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps, { scopes: ['isAdult', 'isFrench'] });
    const first = await exchange(grantCode, { headers: { 'Idempotency-Key': 'order-42:attempt.1' } });
    t.clock.advance(60_000);
    const retry = await exchange(grantCode, { headers: { 'Idempotency-Key': 'order-42:attempt.1' } });
    expect(first.statusCode).toBe(200);
    expect(retry.statusCode).toBe(200);
    expect(retry.body).toBe(first.body);
    expect((await introspect(retry.json().pass_token)).json().active).toBe(true);
  });

  it('answers a retry from a replay stored before replays held the pass token (the sealed answer itself)', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    const answer = {
      pass_token: 'p_from-the-first-answer',
      expires_in: 14_400,
      token_type: 'Bearer',
      scopes: ['isAdult'],
      attributes: { age_over_18: true },
      age_over_18: true,
    };
    const now = t.clock.now();
    const record = {
      partnerId: PARTNERS.demo.id,
      idempotencyKey: 'order-old',
      grantDigest: digestToken(grantCode),
      sealedResponse: seal(grantCode, SEAL_PURPOSE, JSON.stringify(answer)),
      expiresAt: now + 60_000,
    };
    await t.deps.store.putExchangeReplay(record, now);
    const retry = await exchange(grantCode, { headers: { 'Idempotency-Key': 'order-old' } });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(answer);
  });

  it('refuses a retry whose stored replay names a pass token the store does not hold, with GRANT_INVALID', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    const now = t.clock.now();
    const record = {
      partnerId: PARTNERS.demo.id,
      idempotencyKey: 'order-gone',
      grantDigest: digestToken(grantCode),
      sealedResponse: seal(grantCode, SEAL_PURPOSE, newToken('pass')),
      expiresAt: now + 60_000,
    };
    await t.deps.store.putExchangeReplay(record, now);
    const retry = await exchange(grantCode, { headers: { 'Idempotency-Key': 'order-gone' } });
    expect(retry.statusCode).toBe(401);
    expect(retry.json().error).toBe('GRANT_INVALID');
    // the replay answered first: the grant was not taken, and exchanges under another key
    expect((await exchange(grantCode, { headers: { 'Idempotency-Key': 'order-new' } })).statusCode).toBe(200);
  });

  it('rejects the same key presented with another grant code with GRANT_INVALID', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    const otherCode = await putTestGrant(t.deps);
    await exchange(grantCode, { headers: { 'Idempotency-Key': 'k1' } });
    const res = await exchange(otherCode, { headers: { 'Idempotency-Key': 'k1' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('GRANT_INVALID');
  });

  it('rejects a used grant under a new key with GRANT_INVALID', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    await exchange(grantCode, { headers: { 'Idempotency-Key': 'k1' } });
    expect((await exchange(grantCode, { headers: { 'Idempotency-Key': 'k2' } })).json().error).toBe('GRANT_INVALID');
    expect((await exchange(grantCode)).json().error).toBe('GRANT_INVALID');
  });

  it("forgets the answer when the grant's lifetime is over", async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    await exchange(grantCode, { headers: { 'Idempotency-Key': 'k1' } });
    t.clock.advance(5 * 60_000);
    expect((await exchange(grantCode, { headers: { 'Idempotency-Key': 'k1' } })).json().error).toBe('GRANT_INVALID');
  });

  it('keeps keys per partner: another partner with the same key and code gets GRANT_INVALID', async () => {
    t = await makeTestApp();
    const grantCode = await putTestGrant(t.deps);
    await exchange(grantCode, { headers: { 'Idempotency-Key': 'shared' } });
    const res = await exchange(grantCode, { headers: { 'Idempotency-Key': 'shared' }, partner: PARTNERS.other });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('GRANT_INVALID');
  });

  it.each(['', 'x'.repeat(129), 'has space', 'slash/key', 'ünïcode'])(
    'rejects the malformed key %j with 400 INVALID_REQUEST',
    async (key) => {
      t = await makeTestApp();
      const grantCode = await putTestGrant(t.deps);
      const res = await exchange(grantCode, { headers: { 'Idempotency-Key': key } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('INVALID_REQUEST');
    },
  );

  it('accepts a key of 128 characters', async () => {
    t = await makeTestApp();
    expect(
      (await exchange(await putTestGrant(t.deps), { headers: { 'Idempotency-Key': 'a'.repeat(128) } })).statusCode,
    ).toBe(200);
  });

  it('never writes a pass token or grant code in clear to the store', async () => {
    const dir = makeTempDir();
    try {
      const store = openSqliteStore(join(dir.path, 'svc.sqlite'));
      const base = await makeTestDeps({ store });
      t = await makeTestApp({ deps: base.deps });
      const grantCode = await putTestGrant(t.deps);
      const res = await exchange(grantCode, { headers: { 'Idempotency-Key': 'k1' } });
      const passToken = res.json().pass_token as string;
      const files = readdirSync(dir.path).map((f) => readFileSync(join(dir.path, f)).toString('latin1'));
      const everything = files.join('\n');
      expect(everything).toContain(digestToken(passToken));
      expect(everything).not.toContain(passToken);
      expect(everything).not.toContain(passToken.slice(2));
      expect(everything).not.toContain(grantCode.slice(2));
    } finally {
      await t.close();
      dir.remove();
    }
  });
});

describe('POST /v1/introspect', () => {
  async function passTokenFor(scopes: Parameters<typeof putTestGrant>[1] = {}) {
    const grantCode = await putTestGrant(t.deps, {
      requestId: 'vr_flow123',
      generationTimeMs: 2345,
      method: 'eudi_wallet',
      ...scopes,
    });
    return (await exchange(grantCode)).json().pass_token as string;
  }

  it('describes an active isAdult token as age_verification, with times in ms', async () => {
    t = await makeTestApp();
    const issuedAt = t.clock.now();
    const passToken = await passTokenFor({ scopes: ['isAdult'], verifiedAt: issuedAt - 3000 });
    t.clock.advance(1000);
    const res = await introspect(passToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      active: true,
      scope: 'age_verification',
      exp: issuedAt + 14_400_000,
      iat: issuedAt,
      sub: 'vr_flow123',
      attributes: { age_over_18: true, verification_method: 'eudi_wallet', verified_at: issuedAt - 3000 },
      scopes_verified: ['isAdult'],
      proof_metadata: { proof_count: 1, total_generation_time_ms: 2345 },
    });
  });

  it.each([
    [['isFrench'], 'identity_verification'],
    [['isUnique'], 'identity_verification'],
    [['isAdult', 'isEU'], 'multi_scope_verification'],
    [['isFrench', 'isEU', 'revealBirthYear'], 'multi_scope_verification'],
  ] as const)('names the scopes %j %s', async (scopes, scope) => {
    t = await makeTestApp();
    const body = (await introspect(await passTokenFor({ scopes: [...scopes] }))).json();
    expect(body.scope).toBe(scope);
    expect(body.scopes_verified).toEqual(scopes);
    expect(body.proof_metadata.proof_count).toBe(scopes.length);
  });

  it("discloses only the requested scopes' attributes", async () => {
    t = await makeTestApp();
    const passToken = await passTokenFor({
      scopes: ['isEU'],
      attributes: { is_eu: true, age_over_18: true, nationality: 'FRA' },
    });
    const body = (await introspect(passToken)).json();
    expect(Object.keys(body.attributes).sort()).toEqual(['is_eu', 'verification_method', 'verified_at']);
  });

  it('stays active for 14399 s and answers {active:false} from 14400 s on', async () => {
    t = await makeTestApp();
    const passToken = await passTokenFor();
    t.clock.advance(14_399_000);
    expect((await introspect(passToken)).json().active).toBe(true);
    t.clock.advance(1000);
    const res = await introspect(passToken);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"active":false}');
  });

  it('answers unknown, malformed, expired and foreign tokens with the very same bytes', async () => {
    t = await makeTestApp();
    const foreign = await (async () => {
      const code = await putTestGrant(t.deps, { partnerId: PARTNERS.other.id });
      return (await exchange(code, { partner: PARTNERS.other })).json().pass_token as string;
    })();
    const expiring = await passTokenFor();
    const grantCode = await putTestGrant(t.deps);
    const bodies: string[] = [];
    for (const token of [
      `p_${'A'.repeat(43)}`,
      'p_short',
      '',
      'not a token',
      `p_${'é'.repeat(43)}`,
      grantCode,
      foreign,
    ]) {
      const res = await introspect(token);
      expect(res.statusCode).toBe(200);
      bodies.push(res.body);
    }
    t.clock.advance(14_400_000);
    bodies.push((await introspect(expiring)).body);
    expect(new Set(bodies)).toEqual(new Set(['{"active":false}']));
    expect((await introspect(foreign, PARTNERS.other)).json().active).toBe(false);
  });

  it('answers a foreign token active only for its own partner', async () => {
    t = await makeTestApp();
    const code = await putTestGrant(t.deps, { partnerId: PARTNERS.other.id });
    const token = (await exchange(code, { partner: PARTNERS.other })).json().pass_token;
    expect((await introspect(token, PARTNERS.other)).json().active).toBe(true);
    expect((await introspect(token, PARTNERS.demo)).json()).toEqual({ active: false });
  });

  it.each([
    ['an empty body', ''],
    ['invalid JSON', '{"pass_token":'],
    ['an object without pass_token', '{}'],
    ['pass_token as a number', '{"pass_token": 1}'],
    ['pass_token as an object', '{"pass_token": {"p_": 1}}'],
    ['pass_token as null', '{"pass_token": null}'],
    ['a JSON array', '[]'],
  ])('rejects %s with 400 INVALID_REQUEST', async (_label, body) => {
    t = await makeTestApp();
    const res = await signedInject(t, { url: '/v1/introspect', body });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('INVALID_REQUEST');
  });
});

describe('server errors', () => {
  function throwingStore(store: Store, failing: keyof Store): Store {
    return new Proxy(store, {
      get(target, property, receiver) {
        if (property === failing) {
          return async () => {
            throw new Error('SQLITE_IOERR: disk I/O error');
          };
        }
        return Reflect.get(target, property, receiver);
      },
    });
  }

  it.each([
    // the one store step of a signed call (design.md §23): the nonce and the grant or pass token
    ['/v1/exchange', 'rememberNonceAnd'],
    ['/v1/introspect', 'rememberNonceAnd'],
  ] as const)(
    'answers 500 INTERNAL_ERROR with the catalogue message when the store throws on %s, and logs it without secrets',
    async (url, failing) => {
      const base = await makeTestDeps();
      const lines: string[] = [];
      const deps = { ...base.deps, store: throwingStore(base.store, failing) };
      const app = await createApp(deps, {
        logger: {
          level: 'info',
          redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
          stream: { write: (line: string) => void lines.push(line) },
        },
      });
      try {
        const grantCode = await putTestGrant(base.deps);
        const options = signedInjectOptions(base.clock, {
          url,
          body: url === '/v1/exchange' ? { grant_code: grantCode } : { pass_token: `p_${'A'.repeat(43)}` },
        });
        const res = await app.inject(options);
        expect(res.statusCode).toBe(500);
        expect(res.json()).toEqual({ error: 'INTERNAL_ERROR', message: ERRORS.INTERNAL_ERROR.message });
        expect(res.body).not.toContain('SQLITE');

        const log = lines.join('');
        const errorLine = lines.map((l) => JSON.parse(l)).find((l) => l.level === 50);
        expect(errorLine).toMatchObject({
          reqId: res.headers['x-svc-cid'],
          err: { message: 'SQLITE_IOERR: disk I/O error' },
        });
        const signature = (options.headers as Record<string, string>)['X-Partner-Signature']!;
        for (const secret of [PARTNERS.demo.secret, signature, grantCode, grantCode.slice(2)])
          expect(log).not.toContain(secret);
      } finally {
        await app.close();
        await base.store.close();
      }
    },
  );
});
