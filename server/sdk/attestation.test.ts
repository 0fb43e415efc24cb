import { createPrivateKey, createPublicKey, randomBytes, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { originHash } from '../crypto/blind.ts';
import { rotateKeys } from '../crypto/keys.ts';
import { injectFetch } from '../test/inject-fetch.ts';
import { makeTestApp, type TestApp } from '../test/helpers.ts';
import {
  AttestationError,
  clearJwksCache,
  computeOriginHash,
  importEd25519Jwk,
  verifyAttestation,
  verifyCompactEd25519,
  type AttestationErrorCode,
  type AttestationJwks,
} from './attestation.ts';

const RFC8037 = JSON.parse(
  readFileSync(new URL('../../fixtures/attestation/rfc8037.json', import.meta.url), 'utf8'),
) as {
  privateJwk: { kty: string; crv: string; d: string; x: string };
  publicJwk: { kty: string; crv: string; x: string };
  payload: string;
  jws: string;
};

const ORIGIN = 'https://shop.example';
const APP = 'app_blind_shop';
const JWKS_PATH = '/api/billing/attestation-keys';

let t: TestApp;
let urlCounter = 0;
/** A distinct URL per test, so the SDK's per-URL key-set cache never leaks between tests. */
let jwksUrl: string;

beforeEach(async () => {
  t = await makeTestApp();
  clearJwksCache();
  jwksUrl = `http://svc${++urlCounter}.test${JWKS_PATH}`;
});
afterEach(() => t.close());

function attest(
  input: { scopeMask?: number; appId?: string; origin?: string; nullifier?: string } = {},
): Promise<string> {
  return t.deps.blind.signAttestation({
    appId: input.appId ?? APP,
    originHash: originHash(input.origin ?? ORIGIN),
    scopeMask: input.scopeMask ?? 1,
    nullifier: input.nullifier ?? '0xfeed',
  });
}

async function codeOf(promise: Promise<unknown>): Promise<AttestationErrorCode> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AttestationError);
  return (error as AttestationError).code;
}

/** A JWS signed with a key of our own, listed in a key set we hand to the verifier. */
function forge(header: object, payload: object | string) {
  // A key of our own from random bytes (not generateKeyPairSync + JWK export: see server/crypto/result-box.ts).
  const d = randomBytes(32).toString('base64url');
  const privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d, x: 'A'.repeat(43) }, format: 'jwk' });
  const x = createPublicKey(privateKey).export({ format: 'jwk' }).x!;
  const b64 = (v: object | string) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
  const input = `${b64({ alg: 'EdDSA', kid: 'forged', typ: 'svc-attestation+jwt', ...header })}.${b64(payload)}`;
  const jws = `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
  const keys: AttestationJwks = { keys: [{ kty: 'OKP', crv: 'Ed25519', kid: 'forged', x, use: 'sig', alg: 'EdDSA' }] };
  return { jws, keys };
}

function goodClaims(now: number, overrides: Record<string, unknown> = {}) {
  const s = Math.floor(now / 1000);
  return {
    jti: 'j',
    iat: s,
    exp: s + 300,
    scope_mask: 1,
    app_id: APP,
    origin_hash: computeOriginHash(ORIGIN),
    nullifier: '0x1',
    aud: 'svc-attestation',
    ver: '1',
    ...overrides,
  };
}

describe('RFC 8037 Appendix A', () => {
  it('verifies the A.4 Ed25519 signature with the A.1 public key through our verification path', () => {
    const { header, payload } = verifyCompactEd25519(RFC8037.jws, importEd25519Jwk(RFC8037.publicJwk));
    expect(header).toEqual({ alg: 'EdDSA' });
    expect(payload.toString('utf8')).toBe(RFC8037.payload);
  });

  it('reproduces the A.4 signature from the A.1 private key (Ed25519 is deterministic)', () => {
    const [h, p, s] = RFC8037.jws.split('.') as [string, string, string];
    const key = createPrivateKey({ key: RFC8037.privateJwk, format: 'jwk' });
    expect(sign(null, Buffer.from(`${h}.${p}`), key).toString('base64url')).toBe(s);
  });

  it('refuses the A.4 JWS with one bit of its signature or payload flipped', () => {
    const [h, p, s] = RFC8037.jws.split('.') as [string, string, string];
    const sig = Buffer.from(s, 'base64url');
    sig[0] = sig[0]! ^ 1;
    const key = importEd25519Jwk(RFC8037.publicJwk);
    expect(() => verifyCompactEd25519(`${h}.${p}.${sig.toString('base64url')}`, key)).toThrow(
      expect.objectContaining({ code: 'BAD_SIGNATURE' }),
    );
    const otherPayload = Buffer.from('Example of Ed25519 signinG').toString('base64url');
    expect(() => verifyCompactEd25519(`${h}.${otherPayload}.${s}`, key)).toThrow(
      expect.objectContaining({ code: 'BAD_SIGNATURE' }),
    );
  });
});

describe('verifyAttestation', () => {
  it('returns the scope bits, nullifier, jti and exp of a service attestation, fetching the key set', async () => {
    const jws = await attest({ scopeMask: 0b1101, nullifier: '0xabc' });
    const fetch = injectFetch(t.app);
    const result = await verifyAttestation(jws, { appId: APP, origin: ORIGIN, jwksUrl, fetch, now: t.clock.now() });
    const claims = JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString('utf8'));
    expect(result).toEqual({
      adult: true,
      french: false,
      eu: true,
      unique: true,
      nullifier: '0xabc',
      jti: claims.jti,
      exp: claims.exp,
    });
    expect(fetch.calls.map((c) => c.path)).toEqual([JWKS_PATH]);
  });

  it('verifies against a key set given directly, without any network', async () => {
    const jws = await attest();
    const keys = await t.deps.blind.jwks();
    const fetch = injectFetch(t.app);
    await expect(
      verifyAttestation(jws, { appId: APP, origin: ORIGIN, keys, fetch, now: t.clock.now() }),
    ).resolves.toMatchObject({ adult: true, french: false });
    expect(fetch.calls).toHaveLength(0);
  });

  it('refuses a tampered payload with BAD_SIGNATURE', async () => {
    const [h, p, s] = (await attest({ scopeMask: 0 })).split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
    const forged = Buffer.from(JSON.stringify({ ...claims, scope_mask: 1 })).toString('base64url');
    const keys = await t.deps.blind.jwks();
    expect(
      await codeOf(verifyAttestation(`${h}.${forged}.${s}`, { appId: APP, origin: ORIGIN, keys, now: t.clock.now() })),
    ).toBe('BAD_SIGNATURE');
  });

  it('refuses an attestation made for another app with WRONG_APP', async () => {
    const jws = await attest({ appId: 'app_blind_club' });
    expect(
      await codeOf(
        verifyAttestation(jws, { appId: APP, origin: ORIGIN, keys: await t.deps.blind.jwks(), now: t.clock.now() }),
      ),
    ).toBe('WRONG_APP');
  });

  it('refuses an attestation made for another origin with WRONG_ORIGIN', async () => {
    const jws = await attest({ origin: 'https://other.example' });
    expect(
      await codeOf(
        verifyAttestation(jws, { appId: APP, origin: ORIGIN, keys: await t.deps.blind.jwks(), now: t.clock.now() }),
      ),
    ).toBe('WRONG_ORIGIN');
  });

  it('refuses an attestation from exp on with EXPIRED', async () => {
    const jws = await attest();
    const keys = await t.deps.blind.jwks();
    const issued = t.clock.now();
    await expect(
      verifyAttestation(jws, { appId: APP, origin: ORIGIN, keys, now: issued + 299_999 }),
    ).resolves.toBeTruthy();
    expect(await codeOf(verifyAttestation(jws, { appId: APP, origin: ORIGIN, keys, now: issued + 300_000 }))).toBe(
      'EXPIRED',
    );
  });

  it('refuses another audience with WRONG_AUDIENCE', async () => {
    const { jws, keys } = forge({}, goodClaims(t.clock.now(), { aud: 'svc-widget' }));
    expect(await codeOf(verifyAttestation(jws, { appId: APP, origin: ORIGIN, keys, now: t.clock.now() }))).toBe(
      'WRONG_AUDIENCE',
    );
    const good = forge({}, goodClaims(t.clock.now()));
    await expect(
      verifyAttestation(good.jws, { appId: APP, origin: ORIGIN, keys: good.keys, now: t.clock.now() }),
    ).resolves.toMatchObject({ adult: true });
  });

  it.each([
    ['two parts', (jws: string) => jws.split('.').slice(0, 2).join('.')],
    ['four parts', (jws: string) => `${jws}.AAAA`],
    ['an empty signature', (jws: string) => `${jws.split('.').slice(0, 2).join('.')}.`],
    ['padding', (jws: string) => `${jws}==`],
    ['a header that is not JSON', (jws: string) => `bm90IGpzb24.${jws.split('.').slice(1).join('.')}`],
  ])('refuses %s with MALFORMED', async (_name, mangle) => {
    const jws = mangle(await attest());
    expect(
      await codeOf(
        verifyAttestation(jws, { appId: APP, origin: ORIGIN, keys: await t.deps.blind.jwks(), now: t.clock.now() }),
      ),
    ).toBe('MALFORMED');
  });

  it('refuses a session token, a wrong typ, alg none, an unknown version or crit with MALFORMED', async () => {
    const now = t.clock.now();
    const { token } = await t.deps.blind.issueSessionToken({ appId: APP, origin: ORIGIN, scopeMask: 1 });
    expect(
      await codeOf(verifyAttestation(token, { appId: APP, origin: ORIGIN, keys: await t.deps.blind.jwks(), now })),
    ).toBe('MALFORMED');
    for (const [header, payload] of [
      [{ typ: 'JWT' }, goodClaims(now)],
      [{ alg: 'none' }, goodClaims(now)],
      [{ kid: undefined }, goodClaims(now)],
      [{ crit: ['x'], x: 1 }, goodClaims(now)],
      [{}, goodClaims(now, { ver: '2' })],
      [{}, goodClaims(now, { exp: '9999999999' })],
      [{}, goodClaims(now, { nullifier: 1 })],
      [{}, 'not json'],
      [{}, [1, 2]],
      // values String() cannot print: a MALFORMED refusal, never a TypeError
      [{ typ: { toString: 1 } }, goodClaims(now)],
      [{ alg: { toString: 1, valueOf: 1 } }, goodClaims(now)],
      [{}, goodClaims(now, { ver: { toString: 1 } })],
    ] as const) {
      const { jws, keys } = forge(header, payload as object);
      expect(
        await codeOf(verifyAttestation(jws, { appId: APP, origin: ORIGIN, keys, now })),
        JSON.stringify([header, payload]),
      ).toBe('MALFORMED');
    }
  });

  it('refuses a key that is not an Ed25519 signing key', async () => {
    const { jws, keys } = forge({}, goodClaims(t.clock.now()));
    const bad = [
      { ...keys.keys[0]!, crv: 'X25519' },
      { ...keys.keys[0]!, use: 'enc' },
      { ...keys.keys[0]!, alg: 'ES256' },
    ];
    for (const key of bad)
      expect(
        await codeOf(verifyAttestation(jws, { appId: APP, origin: ORIGIN, keys: { keys: [key] }, now: t.clock.now() })),
      ).toBe('UNKNOWN_KEY');
  });

  describe('key set cache', () => {
    it('reuses the fetched key set for an hour and fetches it again after', async () => {
      const fetch = injectFetch(t.app);
      const opts = { appId: APP, origin: ORIGIN, jwksUrl, fetch };
      const verifyAt = async (ms: number) => {
        t.clock.set(start + ms);
        await verifyAttestation(await attest(), { ...opts, now: t.clock.now() });
      };
      const start = t.clock.now();
      await verifyAt(0);
      await verifyAt(3_599_999);
      expect(fetch.calls).toHaveLength(1);
      await verifyAt(3_600_000);
      expect(fetch.calls).toHaveLength(2);
    });

    it('honours a max-age shorter than an hour', async () => {
      let served = 0;
      const keys = await t.deps.blind.jwks();
      const fetch = async () => {
        served++;
        return new Response(JSON.stringify(keys), { headers: { 'cache-control': 'public, max-age=60' } });
      };
      const start = t.clock.now();
      const jws = await attest();
      await verifyAttestation(jws, { appId: APP, origin: ORIGIN, jwksUrl, fetch, now: start });
      await verifyAttestation(jws, { appId: APP, origin: ORIGIN, jwksUrl, fetch, now: start + 59_999 });
      expect(served).toBe(1);
      await verifyAttestation(jws, { appId: APP, origin: ORIGIN, jwksUrl, fetch, now: start + 60_000 });
      expect(served).toBe(2);
    });

    it('never caches longer than an hour whatever max-age says', async () => {
      let served = 0;
      const keys = await t.deps.blind.jwks();
      const fetch = async () => {
        served++;
        return new Response(JSON.stringify(keys), { headers: { 'cache-control': 'max-age=86400' } });
      };
      const start = t.clock.now();
      for (const ms of [0, 3_600_000 - 1, 3_600_000]) {
        t.clock.set(start + ms);
        await verifyAttestation(await attest(), { appId: APP, origin: ORIGIN, jwksUrl, fetch, now: t.clock.now() });
      }
      expect(served).toBe(2);
    });

    it('refetches once on an unknown kid, then answers UNKNOWN_KEY', async () => {
      const fetch = injectFetch(t.app);
      const start = t.clock.now();
      await verifyAttestation(await attest(), { appId: APP, origin: ORIGIN, jwksUrl, fetch, now: start });
      const { jws } = forge({ kid: 'not-published' }, goodClaims(start));
      expect(
        await codeOf(verifyAttestation(jws, { appId: APP, origin: ORIGIN, jwksUrl, fetch, now: start + 60_000 })),
      ).toBe('UNKNOWN_KEY');
      expect(fetch.calls).toHaveLength(2);
      // A flood of unknown kids right after does not turn into a flood of fetches.
      for (let i = 0; i < 5; i++)
        await codeOf(verifyAttestation(jws, { appId: APP, origin: ORIGIN, jwksUrl, fetch, now: start + 61_000 }));
      expect(fetch.calls).toHaveLength(2);
    });

    it('finds a key announced after its copy of the key set was fetched', async () => {
      const fetch = injectFetch(t.app);
      const start = t.clock.now();
      await verifyAttestation(await attest(), { appId: APP, origin: ORIGIN, jwksUrl, fetch, now: start });
      // The operator announces and (forced, sandbox) promotes a key; the service signs with it.
      await rotateKeys(t.store, 'attestation', t.clock.now());
      await rotateKeys(t.store, 'attestation', t.clock.now(), { force: true });
      t.clock.advance(60_000);
      const jws = await attest();
      await expect(
        verifyAttestation(jws, { appId: APP, origin: ORIGIN, jwksUrl, fetch, now: t.clock.now() }),
      ).resolves.toMatchObject({ adult: true });
      expect(fetch.calls).toHaveLength(2);
    });

    it('answers KEYS_UNAVAILABLE when the key set cannot be fetched', async () => {
      const jws = await attest();
      const down = async () => new Response('oops', { status: 503 });
      expect(
        await codeOf(verifyAttestation(jws, { appId: APP, origin: ORIGIN, jwksUrl, fetch: down, now: t.clock.now() })),
      ).toBe('KEYS_UNAVAILABLE');
      const unreachable = async (): Promise<Response> => {
        throw new TypeError('fetch failed');
      };
      expect(
        await codeOf(
          verifyAttestation(jws, {
            appId: APP,
            origin: ORIGIN,
            jwksUrl: `${jwksUrl}?2`,
            fetch: unreachable,
            now: t.clock.now(),
          }),
        ),
      ).toBe('KEYS_UNAVAILABLE');
      const notKeys = async () => new Response('{"nope":1}');
      expect(
        await codeOf(
          verifyAttestation(jws, {
            appId: APP,
            origin: ORIGIN,
            jwksUrl: `${jwksUrl}?3`,
            fetch: notKeys,
            now: t.clock.now(),
          }),
        ),
      ).toBe('KEYS_UNAVAILABLE');
    });
  });
});

describe('computeOriginHash', () => {
  it('matches the service', () => {
    expect(computeOriginHash('http://localhost:8788')).toBe(originHash('http://localhost:8788'));
    expect(createPublicKey({ key: RFC8037.publicJwk, format: 'jwk' }).asymmetricKeyType).toBe('ed25519');
  });
});
