import { readFileSync } from 'node:fs';
import { createPublicKey, verify } from 'node:crypto';
import { compactVerify, createLocalJWKSet, type JWK } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/protocol/errors.ts';
import { originHash } from '../crypto/blind.ts';
import { runBlindFlow } from '../test/blind-flow.ts';
import { PARTNERS, makeTestApp, signedInjectOptions, type SignedRequest, type TestApp } from '../test/helpers.ts';

const SHOP_ORIGIN = 'http://localhost:8788';
const CLUB_ORIGIN = 'http://127.0.0.1:8788';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(() => t.close());

function session(request: Partial<SignedRequest> = {}, remoteAddress?: string) {
  const options = signedInjectOptions(t.clock, {
    url: '/api/billing/session',
    partner: PARTNERS.blindShop,
    body: { origin: SHOP_ORIGIN },
    ...request,
  });
  return t.app.inject(remoteAddress ? { ...options, remoteAddress } : options);
}

function decodePart(token: string, index: 0 | 1): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[index]!, 'base64url').toString('utf8'));
}

function expectError(res: { statusCode: number; json(): unknown }, code: keyof typeof ERRORS): void {
  expect(res.json()).toEqual({ error: code, message: expect.any(String) });
  expect(res.statusCode).toBe(ERRORS[code].status);
}

describe('POST /api/billing/session', () => {
  it('issues a 300-second session token for the partner origin with Cache-Control: no-store', async () => {
    const res = await session();
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json() as { token: string; expires_in: number };
    expect(body.expires_in).toBe(300);
    expect(Object.keys(body).sort()).toEqual(['expires_in', 'token']);

    const now = Math.floor(t.clock.now() / 1000);
    expect(decodePart(body.token, 0)).toEqual({ alg: 'EdDSA', kid: expect.any(String), typ: 'svc-session+jwt' });
    expect(decodePart(body.token, 1)).toEqual({
      iss: t.deps.config.appUrl,
      aud: 'svc-widget',
      app_id: 'app_blind_shop',
      origin_hash: originHash(SHOP_ORIGIN),
      scope_mask: 1,
      iat: now,
      exp: now + 300,
      jti: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    });
    await expect(t.deps.blind.verifySessionToken(body.token)).resolves.toMatchObject({ app_id: 'app_blind_shop' });
  });

  it('never puts the partner ID into the session token', async () => {
    const { token } = (await session()).json() as { token: string };
    const decoded = JSON.stringify([decodePart(token, 0), decodePart(token, 1)]);
    expect(decoded).not.toContain(PARTNERS.blindShop.id);
    expect(decoded).not.toContain('Blind Shop');
  });

  it('signs the session token with a key that is not in the published attestation key set', async () => {
    const { token } = (await session()).json() as { token: string };
    const jwks = (await t.app.inject({ url: '/api/billing/attestation-keys' })).json() as {
      keys: Array<{ kid: string; x: string }>;
    };
    const kid = decodePart(token, 0).kid;
    expect(jwks.keys.map((k) => k.kid)).not.toContain(kid);
    const [h, p, s] = token.split('.') as [string, string, string];
    for (const key of jwks.keys) {
      const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.x }, format: 'jwk' });
      expect(verify(null, Buffer.from(`${h}.${p}`), publicKey, Buffer.from(s, 'base64url'))).toBe(false);
    }
  });

  it('encodes the requested scopes as the scope_mask bits', async () => {
    const res = await session({ body: { origin: SHOP_ORIGIN, scopes: ['isUnique', 'isAdult', 'isEU', 'isFrench'] } });
    expect(res.statusCode).toBe(201);
    expect(decodePart((res.json() as { token: string }).token, 1).scope_mask).toBe(0b1111);
    const onlyFrench = await session({ body: { origin: SHOP_ORIGIN, scopes: ['isFrench'] } });
    expect(decodePart((onlyFrench.json() as { token: string }).token, 1).scope_mask).toBe(0b0010);
  });

  it('binds each blind partner to its own app and origin', async () => {
    const res = await session({ partner: PARTNERS.blindClub, body: { origin: CLUB_ORIGIN } });
    expect(res.statusCode).toBe(201);
    const claims = decodePart((res.json() as { token: string }).token, 1);
    expect(claims.app_id).toBe('app_blind_club');
    expect(claims.origin_hash).toBe(originHash(CLUB_ORIGIN));
  });

  it('accepts the header names in any case', async () => {
    const options = signedInjectOptions(t.clock, {
      url: '/api/billing/session',
      partner: PARTNERS.blindShop,
      body: { origin: SHOP_ORIGIN },
    });
    const headers = Object.fromEntries(
      Object.entries(options.headers as Record<string, string>).map(([k, v]) => [k.toUpperCase(), v]),
    );
    const res = await t.app.inject({ ...options, headers });
    expect(res.statusCode).toBe(201);
  });

  it('refuses a partner on the standard rail with FORBIDDEN_RAIL', async () => {
    expectError(await session({ partner: PARTNERS.demo }), 'FORBIDDEN_RAIL');
  });

  it('refuses a blind partner without a blind app id with MISSING_BLIND_APP_ID', async () => {
    expectError(await session({ partner: PARTNERS.blindNoApp }), 'MISSING_BLIND_APP_ID');
  });

  it('checks the rail before the body', async () => {
    expectError(await session({ partner: PARTNERS.demo, body: '{oops' }), 'FORBIDDEN_RAIL');
    expectError(await session({ partner: PARTNERS.blindNoApp, body: {} }), 'MISSING_BLIND_APP_ID');
  });

  it('answers INVALID_JSON for a body that does not parse', async () => {
    expectError(await session({ body: '{"origin": "http://localhost:8788"' }), 'INVALID_JSON');
  });

  it('answers INVALID_JSON for an empty body and for JSON that is not an object', async () => {
    for (const body of ['', '[]', '"http://localhost:8788"', '42', 'null', 'true']) {
      expectError(await session({ body }), 'INVALID_JSON');
    }
  });

  it('answers UNSUPPORTED_MEDIA_TYPE when the body is not declared as JSON', async () => {
    expectError(await session({ headers: { 'Content-Type': 'text/plain' } }), 'UNSUPPORTED_MEDIA_TYPE');
    expect((await session({ headers: { 'Content-Type': 'application/json; charset=utf-8' } })).statusCode).toBe(201);
  });

  it('answers MISSING_HEADERS without a Content-Type', async () => {
    expectError(await session({ headers: { 'Content-Type': undefined } }), 'MISSING_HEADERS');
  });

  it('answers MISSING_ORIGIN when origin is absent, null or empty', async () => {
    for (const body of [{}, { origin: null }, { origin: '' }, { scopes: ['isAdult'] }]) {
      expectError(await session({ body }), 'MISSING_ORIGIN');
    }
  });

  it('answers ORIGIN_NOT_ALLOWED for an origin that is not the registered domain', async () => {
    for (const origin of [CLUB_ORIGIN, 'https://localhost:8788', 'http://localhost:8789', 'http://evil.example']) {
      expectError(await session({ body: { origin } }), 'ORIGIN_NOT_ALLOWED');
    }
  });

  it('answers ORIGIN_NOT_ALLOWED for an origin that is not a string or not an origin', async () => {
    for (const origin of [
      42,
      ['http://localhost:8788'],
      { href: SHOP_ORIGIN },
      'http://localhost:8788/',
      'http://localhost:8788/shop',
      'localhost:8788',
      'javascript:alert(1)',
    ]) {
      expectError(await session({ body: { origin } }), 'ORIGIN_NOT_ALLOWED');
    }
  });

  it('answers INVALID_SCOPES for scopes outside the ADULT_BLIND set or malformed', async () => {
    for (const scopes of [
      ['isMale'],
      ['revealBirthYear'],
      ['isAdult', 'isAdult'],
      [],
      'isAdult',
      null,
      [1],
      ['isadult'],
    ]) {
      expectError(await session({ body: { origin: SHOP_ORIGIN, scopes } }), 'INVALID_SCOPES');
    }
  });

  it("answers INVALID_SCOPES for scopes outside the partner's allowed_scopes", async () => {
    expectError(
      await session({
        partner: PARTNERS.blindAdultOnly,
        body: { origin: SHOP_ORIGIN, scopes: ['isAdult', 'isFrench'] },
      }),
      'INVALID_SCOPES',
    );
    expect(
      (await session({ partner: PARTNERS.blindAdultOnly, body: { origin: SHOP_ORIGIN, scopes: ['isAdult'] } }))
        .statusCode,
    ).toBe(201);
  });

  it('checks the origin before the scopes', async () => {
    expectError(await session({ body: { scopes: ['isMale'] } }), 'MISSING_ORIGIN');
    expectError(await session({ body: { origin: CLUB_ORIGIN, scopes: ['isMale'] } }), 'ORIGIN_NOT_ALLOWED');
  });

  it('applies the HMAC checks of the exchange', async () => {
    expectError(await session({ headers: { 'X-Partner-Signature': 'A'.repeat(43) } }), 'INVALID_SIGNATURE');
    expectError(await session({ headers: { 'X-Partner-Nonce': undefined } }), 'MISSING_HEADERS');
    expectError(
      await session({ partner: { id: 'pk_test_nobody', secret: PARTNERS.blindShop.secret } }),
      'INVALID_PARTNER',
    );
    expectError(await session({ timestamp: Math.floor(t.clock.now() / 1000) - 301 }), 'TIMESTAMP_SKEW');
    expect((await session({ nonce: 'same-nonce-1234567890' })).statusCode).toBe(201);
    expectError(await session({ nonce: 'same-nonce-1234567890' }), 'REPLAY_DETECTED');
  });

  it('answers 413 PAYLOAD_TOO_LARGE for a body over 16 KiB', async () => {
    expectError(await session({ body: { origin: SHOP_ORIGIN, pad: 'x'.repeat(17 * 1024) } }), 'PAYLOAD_TOO_LARGE');
  });

  describe('rate limits', () => {
    it('answers the 31st call from one IP within 60 s with 429, even unsigned', async () => {
      for (let i = 0; i < 30; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/billing/session',
          payload: '{}',
          headers: { 'content-type': 'application/json' },
          remoteAddress: '203.0.113.7',
        });
        expect(res.statusCode).toBe(401);
      }
      const limited = await t.app.inject({
        method: 'POST',
        url: '/api/billing/session',
        payload: '{}',
        headers: { 'content-type': 'application/json' },
        remoteAddress: '203.0.113.7',
      });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ error: 'Too many requests' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // A correctly signed request from that IP is refused too: the limit comes before authentication.
      expect((await session({}, '203.0.113.7')).statusCode).toBe(429);
      // Another IP is not affected.
      expect((await session({}, '203.0.113.8')).statusCode).toBe(201);
    });

    it('opens a new pre-authentication window after 60 s', async () => {
      for (let i = 0; i < 31; i++) await session({}, '203.0.113.9');
      expect((await session({}, '203.0.113.9')).statusCode).toBe(429);
      t.clock.advance(60_000);
      expect((await session({}, '203.0.113.9')).statusCode).toBe(201);
    });

    it('answers the 101st authenticated call from one partner within 60 s with 429, whatever the IP', async () => {
      for (let i = 0; i < 100; i++) {
        const res = await session({}, `198.51.100.${i}`);
        expect(res.statusCode).toBe(201);
      }
      const limited = await session({}, '198.51.100.200');
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ error: 'Too many requests' });
      // Another partner has its own budget.
      expect(
        (await session({ partner: PARTNERS.blindClub, body: { origin: CLUB_ORIGIN } }, '198.51.100.201')).statusCode,
      ).toBe(201);
      t.clock.advance(60_000);
      expect((await session({}, '198.51.100.202')).statusCode).toBe(201);
    });

    it('does not count unauthenticated calls against the partner budget', async () => {
      for (let i = 0; i < 100; i++) {
        await session({ headers: { 'X-Partner-Signature': 'A'.repeat(43) } }, `192.0.2.${i}`);
      }
      expect((await session({}, '192.0.2.250')).statusCode).toBe(201);
    });
  });
});

describe('GET /api/billing/attestation-keys', () => {
  it('publishes the attestation keys as a cacheable JWKS open to every origin', async () => {
    const res = await t.app.inject({
      url: '/api/billing/attestation-keys',
      headers: { origin: 'https://anyone.example' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const body = res.json() as { keys: Array<Record<string, unknown>> };
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).toEqual({
      kty: 'OKP',
      crv: 'Ed25519',
      kid: expect.any(String),
      x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      use: 'sig',
      alg: 'EdDSA',
    });
  });

  it('never serves a private member', async () => {
    const res = await t.app.inject({ url: '/api/billing/attestation-keys' });
    expect(res.body).not.toMatch(/"d"\s*:/);
    for (const key of (res.json() as { keys: object[] }).keys) expect(key).not.toHaveProperty('d');
  });

  it('answers the same document without authentication', async () => {
    const a = await t.app.inject({ url: '/api/billing/attestation-keys' });
    const b = await t.app.inject({
      url: '/api/billing/attestation-keys',
      headers: { 'x-partner-id': 'pk_test_nobody' },
    });
    expect(b.body).toBe(a.body);
  });
});

describe('interoperability of an attestation from the real phone flow', () => {
  async function publishedKeys(): Promise<{ keys: Array<{ kid: string; x: string }> }> {
    return (await t.app.inject({ url: '/api/billing/attestation-keys' })).json();
  }

  it("verifies with a plain node:crypto Ed25519 check following docs/adult-blind.md's six steps and keys[0]", async () => {
    const { attestation } = await runBlindFlow(t, {
      partner: PARTNERS.blindShop,
      origin: SHOP_ORIGIN,
      persona: 'fr-adult-m',
      scopes: ['isAdult', 'isFrench', 'isEU'],
    });
    // 1. the key set (cacheable for an hour); keys[0].x is the raw Ed25519 public key
    const { keys } = await publishedKeys();
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: keys[0]!.x }, format: 'jwk' });
    // 2. exactly three parts
    const parts = attestation.split('.');
    expect(parts).toHaveLength(3);
    // 3. the detached signature over part1.part2
    expect(verify(null, Buffer.from(`${parts[0]}.${parts[1]}`), publicKey, Buffer.from(parts[2]!, 'base64url'))).toBe(
      true,
    );
    // 4. the payload
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as {
      exp: number;
      scope_mask: number;
      app_id: string;
      origin_hash: string;
    };
    // 5. not expired
    expect(claims.exp).toBeGreaterThan(Math.floor(t.clock.now() / 1000));
    // 6. the facts: a French adult is adult, French and EU
    expect(claims.scope_mask & 1).toBe(1);
    expect(claims.scope_mask).toBe(0b0111);
    expect(claims.app_id).toBe('app_blind_shop');
    expect(claims.origin_hash).toBe(originHash(SHOP_ORIGIN));
  });

  it('verifies with jose compactVerify over the published key set', async () => {
    const { attestation } = await runBlindFlow(t, {
      partner: PARTNERS.blindClub,
      origin: CLUB_ORIGIN,
      persona: 'de-adult',
      scopes: ['isAdult', 'isFrench'],
    });
    const jwks = await publishedKeys();
    const { protectedHeader, payload } = await compactVerify(attestation, createLocalJWKSet(jwks as { keys: JWK[] }), {
      algorithms: ['EdDSA'],
    });
    expect(protectedHeader).toEqual({ alg: 'EdDSA', kid: jwks.keys[0]!.kid, typ: 'svc-attestation+jwt' });
    // A German adult: adult, not French.
    expect(JSON.parse(new TextDecoder().decode(payload))).toMatchObject({
      scope_mask: 1,
      app_id: 'app_blind_club',
      aud: 'svc-attestation',
      ver: '1',
    });
  });

  it('sets no bit for a fact the person does not have', async () => {
    const { attestation } = await runBlindFlow(t, {
      partner: PARTNERS.blindShop,
      origin: SHOP_ORIGIN,
      persona: 'fr-minor',
      scopes: ['isAdult', 'isFrench'],
    });
    const claims = JSON.parse(Buffer.from(attestation.split('.')[1]!, 'base64url').toString('utf8'));
    expect(claims.scope_mask).toBe(0b0010);
  });

  it('keeps the RFC 8037 vector in the fixtures the README points to', () => {
    const vector = JSON.parse(
      readFileSync(new URL('../../fixtures/attestation/rfc8037.json', import.meta.url), 'utf8'),
    );
    const [h, p, s] = vector.jws.split('.');
    const key = createPublicKey({ key: vector.publicJwk, format: 'jwk' });
    expect(verify(null, Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url'))).toBe(true);
  });
});
