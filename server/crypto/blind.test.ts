import { createPrivateKey, createPublicKey, sign as signEd25519, verify as verifyEd25519 } from 'node:crypto';
import { compactVerify, createLocalJWKSet, type JWK } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { ServiceError } from '../errors.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { Store } from '../store/store.ts';
import { makeTestDeps, REPO_ROOT, TEST_MASTER_KEY, type FakeClock } from '../test/helpers.ts';
import { createBlindCrypto, KEY_RELOAD_INTERVAL_MS, originHash } from './blind.ts';
import { rotateKeys } from './keys.ts';
import type { BlindCrypto } from './blind.ts';

const ORIGIN = 'https://shop.example';

function decode(part: string | undefined): Record<string, unknown> {
  return JSON.parse(Buffer.from(part!, 'base64url').toString('utf8'));
}

async function sessionKeyJwk(store: Store): Promise<JWK> {
  const [key] = (await store.listKeys('session')).filter((k) => k.state === 'current');
  return JSON.parse(key!.privateJwk) as JWK;
}

let store: Store;
let clock: FakeClock;
let blind: BlindCrypto;

beforeEach(async () => {
  ({
    store,
    clock,
    deps: { blind },
  } = await makeTestDeps());
});
afterEach(() => store.close());

describe('originHash', () => {
  it('is the unpadded base64url SHA-256 of the ASCII origin', () => {
    // echo -n 'https://shop.example' | openssl dgst -sha256 -binary | basenc --base64url | tr -d =
    expect(originHash(ORIGIN)).toBe('9hek205zU9a0zFGAl3HDsJik0RBhjhRtip0A0tAkNPw');
    expect(originHash(ORIGIN)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('session tokens', () => {
  it('round-trips the claims of an issued token', async () => {
    const { token, claims } = await blind.issueSessionToken({ appId: 'app_a', origin: ORIGIN, scopeMask: 9 });
    const [header, payload] = token.split('.');
    expect(decode(header)).toEqual({ alg: 'EdDSA', kid: expect.any(String), typ: 'svc-session+jwt' });
    expect(decode(payload)).toEqual(claims);
    expect(claims).toMatchObject({
      aud: 'svc-widget',
      app_id: 'app_a',
      origin_hash: originHash(ORIGIN),
      scope_mask: 9,
    });
    expect(claims.exp - claims.iat).toBe(300);
    expect(claims.iat).toBe(Math.floor(clock.now() / 1000));
    await expect(blind.verifySessionToken(token)).resolves.toEqual(claims);
  });

  it('accepts a token until the second before exp and refuses it from exp on', async () => {
    const { token } = await blind.issueSessionToken({ appId: 'app_a', origin: ORIGIN, scopeMask: 1 });
    clock.advance(299_999);
    await expect(blind.verifySessionToken(token)).resolves.toBeTruthy();
    clock.advance(1);
    await expect(blind.verifySessionToken(token)).rejects.toMatchObject({ code: 'SESSION_INVALID', cause: 'expired' });
  });

  it.each([
    ['an empty string', ''],
    ['two parts', 'a.b'],
    ['four parts', 'a.b.c.d'],
    ['non-base64url parts', 'a+b.c.d'],
    ['garbage JSON', 'e30.bm90IGpzb24.AAAA'],
  ])('refuses %s with SESSION_INVALID', async (_name, token) => {
    const error = await blind.verifySessionToken(token).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: 'SESSION_INVALID', status: 401 });
  });

  it.each([
    ['an alg', { alg: { toString: 1 }, typ: 'x' }],
    ['a typ', { alg: 'EdDSA', typ: { toString: 1, valueOf: 1 } }],
  ])(
    'refuses a token whose header holds %s that cannot be printed with SESSION_INVALID, never a TypeError',
    async (_name, header) => {
      const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const error = await blind
        .verifySessionToken(`${b64(header)}.${b64({})}.${'A'.repeat(86)}`)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toMatchObject({ code: 'SESSION_INVALID', cause: expect.stringMatching(/an object$/) });
    },
  );

  it('refuses a token whose payload was changed', async () => {
    const { token } = await blind.issueSessionToken({ appId: 'app_a', origin: ORIGIN, scopeMask: 1 });
    const [h, p, s] = token.split('.') as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ ...decode(p), scope_mask: 15 })).toString('base64url');
    await expect(blind.verifySessionToken(`${h}.${forged}.${s}`)).rejects.toMatchObject({
      code: 'SESSION_INVALID',
      cause: 'signature does not verify',
    });
  });

  it('refuses an attestation presented as a session token', async () => {
    const attestation = await blind.signAttestation({
      appId: 'app_a',
      originHash: originHash(ORIGIN),
      scopeMask: 1,
      nullifier: '0x00',
    });
    await expect(blind.verifySessionToken(attestation)).rejects.toMatchObject({ code: 'SESSION_INVALID' });
  });

  it('refuses tokens signed with the session key but with the wrong typ, aud, iss, iat or alg', async () => {
    const jwk = await sessionKeyJwk(store);
    const key = createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
    const now = Math.floor(clock.now() / 1000);
    const good = {
      iss: 'http://localhost:8787',
      aud: 'svc-widget',
      app_id: 'app_a',
      origin_hash: originHash(ORIGIN),
      scope_mask: 1,
      iat: now,
      exp: now + 300,
      jti: 'j1',
    };
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const sign = async (payload: object, header: Record<string, unknown> = {}) => {
      const input = `${b64({ alg: 'EdDSA', kid: jwk.kid, typ: 'svc-session+jwt', ...header })}.${b64(payload)}`;
      return `${input}.${signEd25519(null, Buffer.from(input), key).toString('base64url')}`;
    };

    await expect(blind.verifySessionToken(await sign(good))).resolves.toMatchObject({ app_id: 'app_a' });
    for (const [token, cause] of [
      [await sign(good, { typ: 'JWT' }), 'typ JWT'],
      [await sign({ ...good, aud: 'svc-attestation' }), 'aud svc-attestation'],
      [await sign({ ...good, iss: 'https://evil.example' }), 'iss https://evil.example'],
      [await sign({ ...good, iat: now + 120, exp: now + 420 }), 'issued in the future'],
      [await sign({ ...good, exp: now + 3600 }), 'lifetime longer than a session token has'],
      [await sign({ ...good, scope_mask: '1' }), 'iat, exp or scope_mask not an integer'],
      [await sign(good, { kid: 'nope' }), 'kid unknown'],
      [await sign(good, { crit: ['exp'], exp: 1 }), 'crit header not understood'],
    ] as const) {
      await expect(blind.verifySessionToken(token), cause).rejects.toMatchObject({ code: 'SESSION_INVALID', cause });
    }
  });

  it('refuses an unsigned token (alg none)', async () => {
    const { token } = await blind.issueSessionToken({ appId: 'app_a', origin: ORIGIN, scopeMask: 1 });
    const [h, p] = token.split('.') as [string, string];
    const none = Buffer.from(JSON.stringify({ ...decode(h), alg: 'none' })).toString('base64url');
    await expect(blind.verifySessionToken(`${none}.${p}.`)).rejects.toMatchObject({ code: 'SESSION_INVALID' });
    await expect(blind.verifySessionToken(`${none}.${p}.AA`)).rejects.toMatchObject({
      code: 'SESSION_INVALID',
      cause: 'alg none',
    });
  });
});

describe('attestations', () => {
  it('carries exactly the design.md §5 header and payload', async () => {
    const jws = await blind.signAttestation({
      appId: 'app_a',
      originHash: originHash(ORIGIN),
      scopeMask: 5,
      nullifier: '0xabc',
    });
    const [h, p] = jws.split('.');
    const { keys } = await blind.jwks();
    expect(decode(h)).toEqual({ alg: 'EdDSA', kid: keys[0]!.kid, typ: 'svc-attestation+jwt' });
    const now = Math.floor(clock.now() / 1000);
    expect(decode(p)).toEqual({
      jti: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      iat: now,
      exp: now + 300,
      scope_mask: 5,
      app_id: 'app_a',
      origin_hash: originHash(ORIGIN),
      nullifier: '0xabc',
      aud: 'svc-attestation',
      ver: '1',
    });
  });

  it("verifies with a plain node:crypto Ed25519 check following docs/adult-blind.md's six steps with keys[0]", async () => {
    const jws = await blind.signAttestation({
      appId: 'app_a',
      originHash: originHash(ORIGIN),
      scopeMask: 0b1011,
      nullifier: '0x01',
    });
    // 1. the key set; keys[0].x is the raw public key
    const { keys } = await blind.jwks();
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: keys[0]!.x }, format: 'jwk' });
    // 2. exactly three parts
    const parts = jws.split('.');
    expect(parts).toHaveLength(3);
    // 3. detached signature over part1.part2
    expect(
      verifyEd25519(null, Buffer.from(`${parts[0]}.${parts[1]}`), publicKey, Buffer.from(parts[2]!, 'base64url')),
    ).toBe(true);
    // 4. decode
    const claims = decode(parts[1]) as { exp: number; scope_mask: number };
    // 5. not expired
    expect(claims.exp).toBeGreaterThan(Math.floor(clock.now() / 1000));
    // 6. scope bits
    expect(claims.scope_mask & 1).toBe(1);
    expect(claims.scope_mask & 2).toBe(2);
    expect(claims.scope_mask & 4).toBe(0);
    expect(claims.scope_mask & 8).toBe(8);
  });

  it('verifies with jose compactVerify and a local JWK set', async () => {
    const jws = await blind.signAttestation({
      appId: 'app_a',
      originHash: originHash(ORIGIN),
      scopeMask: 1,
      nullifier: '0x01',
    });
    const jwks = await blind.jwks();
    const { protectedHeader, payload } = await compactVerify(jws, createLocalJWKSet(jwks as { keys: JWK[] }));
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', typ: 'svc-attestation+jwt' });
    expect(JSON.parse(new TextDecoder().decode(payload))).toMatchObject({ app_id: 'app_a', aud: 'svc-attestation' });
  });
});

describe('keys', () => {
  it('publishes only public members, with kid the RFC 7638 thumbprint', async () => {
    const { keys } = await blind.jwks();
    expect(keys).toHaveLength(1);
    expect(Object.keys(keys[0]!).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
    const { calculateJwkThumbprint } = await import('jose');
    expect(keys[0]!.kid).toBe(await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: keys[0]!.x }));
  });

  it('creates one current key per purpose on the first sandbox start and reuses them on the next', async () => {
    expect((await store.listKeys('attestation')).map((k) => k.state)).toEqual(['current']);
    expect((await store.listKeys('session')).map((k) => k.state)).toEqual(['current']);
    const before = (await blind.jwks()).keys[0]!.kid;
    const again = await createBlindCrypto(store, clock, loadConfig({ NODE_ENV: 'test' }, REPO_ROOT));
    expect((await again.jwks()).keys.map((k) => k.kid)).toEqual([before]);
    expect(await store.listKeys('attestation')).toHaveLength(1);
  });

  it('converges on one current key when several instances start at once on an empty store', async () => {
    const shared = openSqliteStore(':memory:');
    const config = loadConfig({ NODE_ENV: 'test' }, REPO_ROOT);
    const instances = await Promise.all([1, 2, 3, 4].map(() => createBlindCrypto(shared, clock, config)));
    const current = (await shared.listKeys('attestation')).filter((k) => k.state === 'current');
    expect(current).toHaveLength(1);
    for (const instance of instances) expect((await instance.jwks()).keys[0]!.kid).toBe(current[0]!.kid);
    await shared.close();
  });

  it('refuses to start in production mode without a current attestation key', async () => {
    const empty = openSqliteStore(':memory:');
    const config = loadConfig(
      {
        NODE_ENV: 'test',
        SVC_MODE: 'production',
        SVC_NULLIFIER_KEY: Buffer.alloc(32, 1).toString('base64'),
        SVC_MASTER_KEY: TEST_MASTER_KEY,
      },
      REPO_ROOT,
    );
    await expect(createBlindCrypto(empty, clock, config)).rejects.toThrow(/svc keys rotate/);
    await rotateKeys(empty, 'attestation', clock.now());
    const blindProd = await createBlindCrypto(empty, clock, config);
    expect((await blindProd.jwks()).keys).toHaveLength(1);
    await empty.close();
  });

  it('picks up a rotation made by another process within the reload interval', async () => {
    const oldKid = (await blind.jwks()).keys[0]!.kid;
    // Another process (the CLI) announces a key and, an hour later, promotes it.
    await rotateKeys(store, 'attestation', clock.now());
    clock.advance(KEY_RELOAD_INTERVAL_MS);
    const announced = (await blind.jwks()).keys.map((k) => k.kid);
    expect(announced).toHaveLength(2);
    expect(announced[0]).toBe(oldKid);
    clock.advance(3_600_000);
    await blind.jwks(); // this instance re-reads its key cache now
    await rotateKeys(store, 'attestation', clock.now());
    // Until the cache is re-read the old key keeps signing (it stays published, so that is safe).
    expect(
      decode((await blind.signAttestation({ appId: 'a', originHash: 'h', scopeMask: 1, nullifier: 'n' })).split('.')[0])
        .kid,
    ).toBe(oldKid);
    clock.advance(KEY_RELOAD_INTERVAL_MS);
    const newKid = announced[1]!;
    expect(
      decode((await blind.signAttestation({ appId: 'a', originHash: 'h', scopeMask: 1, nullifier: 'n' })).split('.')[0])
        .kid,
    ).toBe(newKid);
    expect((await blind.jwks()).keys.map((k) => k.kid)).toEqual([newKid, oldKid]);
  });

  it('re-reads the keys at once when a session token names a kid it has not loaded yet', async () => {
    await blind.issueSessionToken({ appId: 'a', origin: ORIGIN, scopeMask: 1 }); // key cache loaded now
    // Another process rotates the session key and another instance signs with it straight away.
    await rotateKeys(store, 'session', clock.now());
    const promoted = await rotateKeys(store, 'session', clock.now(), { force: true });
    const otherInstance = await createBlindCrypto(store, clock, loadConfig({ NODE_ENV: 'test' }, REPO_ROOT));
    const { token } = await otherInstance.issueSessionToken({ appId: 'a', origin: ORIGIN, scopeMask: 1 });
    expect(decode(token.split('.')[0]).kid).toBe(promoted.kid);
    clock.advance(1_000); // well inside the 5 s reload interval
    await expect(blind.verifySessionToken(token)).resolves.toMatchObject({ app_id: 'a' });
  });

  it('keeps verifying session tokens of a retired session key until it is dropped', async () => {
    const { token } = await blind.issueSessionToken({ appId: 'a', origin: ORIGIN, scopeMask: 1 });
    await rotateKeys(store, 'session', clock.now());
    await rotateKeys(store, 'session', clock.now(), { force: true });
    clock.advance(KEY_RELOAD_INTERVAL_MS);
    await expect(blind.verifySessionToken(token)).resolves.toBeTruthy();
  });

  it('answers INTERNAL_ERROR, not a crash, when an operator removed every current key', async () => {
    const clock2 = createFakeClock();
    const s = openSqliteStore(':memory:');
    const b = await createBlindCrypto(s, clock2, loadConfig({ NODE_ENV: 'test' }, REPO_ROOT));
    await s.updateKeys({ drop: (await s.listKeys('attestation')).map((k) => k.kid) });
    clock2.advance(KEY_RELOAD_INTERVAL_MS);
    await expect(
      b.signAttestation({ appId: 'a', originHash: 'h', scopeMask: 1, nullifier: 'n' }),
    ).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
    await s.close();
  });
});
