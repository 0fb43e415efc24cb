/**
 * The signing checks of the spec's exchange and introspection error tables (design.md §6 order),
 * through the real routes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { canonicalString, computeSignature, hashBody } from '../sdk/signing.ts';
import { PARTNER_CACHE_MS } from './partner-auth.ts';
import {
  PARTNERS,
  makeTestApp,
  newNonce,
  putTestGrant,
  signedInject,
  signedInjectOptions,
  type SignedRequest,
  type TestApp,
  type TestPartner,
} from '../test/helpers.ts';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(async () => {
  await t.close();
});

/** What each route answers once authentication let the request through. */
const ROUTES = [
  { url: '/v1/exchange', body: { grant_code: 'g_unknown' }, afterAuth: { status: 401, error: 'GRANT_INVALID' } },
  { url: '/v1/introspect', body: { pass_token: 'p_unknown' }, afterAuth: { status: 200, error: undefined } },
] as const;

async function send(options: InjectOptions) {
  const res = await t.app.inject(options);
  return {
    status: res.statusCode,
    error: (res.json() as { error?: string }).error,
    body: res.json() as Record<string, unknown>,
  };
}

/** A request signed by hand, so a test can get one step of the procedure wrong. */
function handSigned(input: {
  url: string;
  body: string;
  secret?: string;
  canonical?: (hash: string, ts: string, id: string, nonce: string) => string;
  signature?: string;
}) {
  const ts = String(Math.floor(t.clock.now() / 1000));
  const nonce = newNonce();
  const build = input.canonical ?? canonicalString;
  const signature =
    input.signature ??
    computeSignature(input.secret ?? PARTNERS.demo.secret, build(hashBody(input.body), ts, PARTNERS.demo.id, nonce));
  return {
    method: 'POST' as const,
    url: input.url,
    payload: input.body,
    headers: {
      'content-type': 'application/json',
      'x-partner-id': PARTNERS.demo.id,
      'x-partner-timestamp': ts,
      'x-partner-nonce': nonce,
      'x-partner-signature': signature,
    },
  };
}

describe.each(ROUTES)('signing checks on $url', (route) => {
  const signed = (overrides: Partial<SignedRequest> = {}) =>
    signedInjectOptions(t.clock, { url: route.url, body: route.body, ...overrides });

  it('passes a correctly signed request on to body handling', async () => {
    expect(await send(signed())).toMatchObject(route.afterAuth);
  });

  it.each([
    ['x-partner-id', 'X-Partner-ID'],
    ['x-partner-timestamp', 'X-Partner-Timestamp'],
    ['x-partner-nonce', 'X-Partner-Nonce'],
    ['x-partner-signature', 'X-Partner-Signature'],
    ['content-type', 'Content-Type'],
  ])('rejects a request without %s with 401 MISSING_HEADERS naming %s', async (name, named) => {
    const res = await send(signed({ headers: { [name]: undefined } }));
    expect(res).toMatchObject({ status: 401, error: 'MISSING_HEADERS' });
    expect(res.body.message).toBe(`Missing or malformed headers: ${named} (missing).`);
  });

  it('names every header at fault in one answer, missing ones first, never echoing a value', async () => {
    const res = await send(
      signed({ nonce: 'bad nonce', headers: { 'x-partner-timestamp': undefined, 'content-type': undefined } }),
    );
    expect(res).toMatchObject({ status: 401, error: 'MISSING_HEADERS' });
    expect(res.body.message).toBe(
      'Missing or malformed headers: X-Partner-Timestamp (missing), Content-Type (missing), ' +
        'X-Partner-Nonce (malformed: 16 to 64 characters of A-Z, a-z, 0-9, _ and -).',
    );
    expect(res.body.message).not.toContain('bad nonce');
  });

  it('rejects an empty header value like a missing one', async () => {
    const res = await send(signed({ headers: { 'x-partner-signature': '' } }));
    expect(res).toMatchObject({ status: 401, error: 'MISSING_HEADERS' });
    expect(res.body.message).toBe('Missing or malformed headers: X-Partner-Signature (missing).');
  });

  it.each(['short-nonce', 'nonce with spaces in it!', 'x'.repeat(65), 'ñonce-ñonce-ñonce-ñ'])(
    'rejects the malformed nonce %j with 401 MISSING_HEADERS naming X-Partner-Nonce',
    async (nonce) => {
      const res = await send(signed({ nonce }));
      expect(res).toMatchObject({ status: 401, error: 'MISSING_HEADERS' });
      expect(res.body.message).toBe(
        'Missing or malformed headers: X-Partner-Nonce (malformed: 16 to 64 characters of A-Z, a-z, 0-9, _ and -).',
      );
    },
  );

  // Node joins repeated x- headers with ", ": the result is malformed, so it fails its own check.
  it('rejects a duplicated signature header with 401 INVALID_SIGNATURE rather than picking one', async () => {
    const options = signed();
    const headers = options.headers as Record<string, string | string[]>;
    headers['X-Partner-Signature'] = [
      headers['X-Partner-Signature'] as string,
      headers['X-Partner-Signature'] as string,
    ];
    expect(await send(options)).toMatchObject({ status: 401, error: 'INVALID_SIGNATURE' });
  });

  it('rejects a duplicated nonce header with 401 MISSING_HEADERS', async () => {
    const options = signed();
    const headers = options.headers as Record<string, string | string[]>;
    headers['X-Partner-Nonce'] = [headers['X-Partner-Nonce'] as string, newNonce()];
    const res = await send(options);
    expect(res).toMatchObject({ status: 401, error: 'MISSING_HEADERS' });
    expect(res.body.message).toMatch(/^Missing or malformed headers: X-Partner-Nonce \(malformed: /);
  });

  it('rejects an unknown partner ID with 403 INVALID_PARTNER', async () => {
    const res = await send(signed({ partner: { id: 'pk_test_nobody', secret: PARTNERS.demo.secret } }));
    expect(res).toMatchObject({ status: 403, error: 'INVALID_PARTNER' });
  });

  it.each(['pk test demo', 'pk-test-demo', 'x'.repeat(65), 'pk_test_d\u00e9mo'])(
    'rejects the malformed partner ID %j with 403 INVALID_PARTNER',
    async (id) => {
      expect(await send(signed({ headers: { 'x-partner-id': id } }))).toMatchObject({
        status: 403,
        error: 'INVALID_PARTNER',
      });
    },
  );

  it('checks the partner before the timestamp', async () => {
    const res = await send(signed({ partner: { id: 'pk_test_nobody', secret: PARTNERS.demo.secret }, timestamp: 1 }));
    expect(res.error).toBe('INVALID_PARTNER');
  });

  it.each([
    ['5 min + 1 s in the past', -301],
    ['5 min + 1 s in the future', 301],
    ['a day in the past', -86_400],
  ])('rejects a timestamp %s with 401 TIMESTAMP_SKEW', async (_label, offsetSeconds) => {
    const res = await send(signed({ timestamp: Math.floor(t.clock.now() / 1000) + offsetSeconds }));
    expect(res).toMatchObject({ status: 401, error: 'TIMESTAMP_SKEW' });
  });

  it.each([
    ['exactly 5 min in the past', -300],
    ['exactly 5 min in the future', 300],
  ])('accepts a timestamp %s', async (_label, offsetSeconds) => {
    expect(await send(signed({ timestamp: Math.floor(t.clock.now() / 1000) + offsetSeconds }))).toMatchObject(
      route.afterAuth,
    );
  });

  it.each(['1767225600.5', '-1767225600', '1.7e9', 'now', '17672256000000000'])(
    'rejects the malformed timestamp %j with 401 TIMESTAMP_SKEW',
    async (timestamp) => {
      expect(await send(signed({ headers: { 'x-partner-timestamp': timestamp } }))).toMatchObject({
        status: 401,
        error: 'TIMESTAMP_SKEW',
      });
    },
  );

  it('checks the timestamp before the signature', async () => {
    const res = await send(signed({ timestamp: 1, headers: { 'x-partner-signature': 'A'.repeat(43) } }));
    expect(res.error).toBe('TIMESTAMP_SKEW');
  });

  it('rejects a signature keyed with the secret text instead of its decoded bytes with 401 INVALID_SIGNATURE', async () => {
    const undecoded = Buffer.from(PARTNERS.demo.secret, 'utf8').toString('base64');
    const res = await send(handSigned({ url: route.url, body: JSON.stringify(route.body), secret: undecoded }));
    expect(res).toMatchObject({ status: 401, error: 'INVALID_SIGNATURE' });
  });

  it('rejects a canonical string in the wrong order with 401 INVALID_SIGNATURE', async () => {
    const res = await send(
      handSigned({
        url: route.url,
        body: JSON.stringify(route.body),
        canonical: (h, ts, id, n) => `${ts}.${id}.${n}.${h}`,
      }),
    );
    expect(res).toMatchObject({ status: 401, error: 'INVALID_SIGNATURE' });
  });

  it('rejects a body altered after signing with 401 INVALID_SIGNATURE', async () => {
    const options = handSigned({ url: route.url, body: JSON.stringify(route.body) });
    options.payload = JSON.stringify(route.body).replace('unknown', 'unknowN');
    expect(await send(options)).toMatchObject({ status: 401, error: 'INVALID_SIGNATURE' });
  });

  it('rejects a body re-serialised after signing (same JSON, other bytes) with 401 INVALID_SIGNATURE', async () => {
    const options = handSigned({ url: route.url, body: JSON.stringify(route.body) });
    options.payload = JSON.stringify(route.body, null, 1);
    expect(await send(options)).toMatchObject({ status: 401, error: 'INVALID_SIGNATURE' });
  });

  it('rejects partner_id added to the body after signing with 401 INVALID_SIGNATURE', async () => {
    const options = handSigned({ url: route.url, body: JSON.stringify(route.body) });
    options.payload = JSON.stringify({ ...route.body, partner_id: PARTNERS.demo.id });
    expect(await send(options)).toMatchObject({ status: 401, error: 'INVALID_SIGNATURE' });
  });

  it("rejects a signature made with another partner's secret with 401 INVALID_SIGNATURE", async () => {
    const res = await send(
      handSigned({ url: route.url, body: JSON.stringify(route.body), secret: PARTNERS.other.secret }),
    );
    expect(res).toMatchObject({ status: 401, error: 'INVALID_SIGNATURE' });
  });

  it('rejects a padded signature (44 characters ending in =) with 401 INVALID_SIGNATURE', async () => {
    const options = signed();
    const headers = options.headers as Record<string, string>;
    headers['X-Partner-Signature'] = `${headers['X-Partner-Signature']}=`;
    expect(await send(options)).toMatchObject({ status: 401, error: 'INVALID_SIGNATURE' });
  });

  it('rejects a 44-character signature with 401 INVALID_SIGNATURE', async () => {
    const options = signed();
    const headers = options.headers as Record<string, string>;
    headers['X-Partner-Signature'] = `${headers['X-Partner-Signature']}A`;
    expect(await send(options)).toMatchObject({ status: 401, error: 'INVALID_SIGNATURE' });
  });

  it('rejects the signature in standard base64 (+ and /) with 401 INVALID_SIGNATURE', async () => {
    const options = signed();
    const headers = options.headers as Record<string, string>;
    const standard = Buffer.from(headers['X-Partner-Signature']!, 'base64url').toString('base64');
    // Only meaningful when the alphabets differ for this signature: force one that does.
    headers['X-Partner-Signature'] = /[+/]/.test(standard) ? standard.replace(/=+$/, '') : `${standard.slice(0, 42)}+`;
    expect(await send(options)).toMatchObject({ status: 401, error: 'INVALID_SIGNATURE' });
  });

  it("rejects a non-canonical spelling of the right signature (last character's unused bits set): 401 INVALID_SIGNATURE", async () => {
    const options = signed();
    const headers = options.headers as Record<string, string>;
    const right = headers['X-Partner-Signature']!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(right.at(-1)!);
    headers['X-Partner-Signature'] = right.slice(0, 42) + alphabet[last ^ 1];
    expect(Buffer.from(headers['X-Partner-Signature'], 'base64url')).toEqual(Buffer.from(right, 'base64url'));
    expect(await send(options)).toMatchObject({ status: 401, error: 'INVALID_SIGNATURE' });
  });

  it('rejects a reused nonce with 401 REPLAY_DETECTED', async () => {
    const nonce = newNonce();
    expect(await send(signed({ nonce }))).toMatchObject(route.afterAuth);
    expect(await send(signed({ nonce }))).toMatchObject({ status: 401, error: 'REPLAY_DETECTED' });
  });

  it('does not burn a nonce on a request whose signature failed', async () => {
    const nonce = newNonce();
    const forged = signed({ nonce });
    (forged.headers as Record<string, string>)['X-Partner-Signature'] = 'A'.repeat(43);
    expect((await send(forged)).error).toBe('INVALID_SIGNATURE');
    expect(await send(signed({ nonce }))).toMatchObject(route.afterAuth);
  });

  it('keeps nonces per partner: another partner may use the same nonce', async () => {
    const nonce = newNonce();
    await send(signed({ nonce }));
    expect(await send(signed({ nonce, partner: PARTNERS.other }))).toMatchObject(route.afterAuth);
  });
});

describe('replays across routes', () => {
  it('rejects an exchange nonce replayed against introspection with 401 REPLAY_DETECTED', async () => {
    const nonce = newNonce();
    const grantCode = await putTestGrant(t.deps);
    expect((await signedInject(t, { url: '/v1/exchange', body: { grant_code: grantCode }, nonce })).statusCode).toBe(
      200,
    );
    const res = await signedInject(t, { url: '/v1/introspect', body: { pass_token: 'p_x' }, nonce });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'REPLAY_DETECTED' });
  });

  it('still refuses a replayed nonce ten minutes later, when its timestamp is re-signed as fresh', async () => {
    const nonce = newNonce();
    await signedInject(t, { url: '/v1/introspect', body: { pass_token: 'p_x' }, nonce });
    t.clock.advance(10 * 60_000);
    const res = await signedInject(t, { url: '/v1/introspect', body: { pass_token: 'p_x' }, nonce });
    expect(res.json()).toMatchObject({ error: 'REPLAY_DETECTED' });
  });

  it('rejects the very same signed bytes sent again with 401 REPLAY_DETECTED', async () => {
    const options = signedInjectOptions(t.clock, { url: '/v1/introspect', body: { pass_token: 'p_x' } });
    expect((await t.app.inject(options)).statusCode).toBe(200);
    const again = await t.app.inject(options);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ error: 'REPLAY_DETECTED' });
  });
});

describe("introspection reads its pass token in the nonce's one store step (design.md §23)", () => {
  /** Counts the store's pass-token reads and nonce writes, in the order they start. */
  function spyOnStore() {
    const started: string[] = [];
    const { getPassToken, rememberNonce, rememberNonceAnd } = t.deps.store;
    t.deps.store.getPassToken = (...args) => (started.push('read'), getPassToken(...args));
    t.deps.store.rememberNonce = (...args) => (started.push('nonce'), rememberNonce(...args));
    t.deps.store.rememberNonceAnd = (...args) => (started.push('nonce+read'), rememberNonceAnd(...args));
    return started;
  }

  async function exchangedPassToken(): Promise<string> {
    const grantCode = await putTestGrant(t.deps);
    return (await signedInject(t, { url: '/v1/exchange', body: { grant_code: grantCode } })).json().pass_token;
  }

  it('makes one store call for the nonce and the token, and reads the token nowhere else', async () => {
    const passToken = await exchangedPassToken();
    const started = spyOnStore();
    const res = await signedInject(t, { url: '/v1/introspect', body: { pass_token: passToken } });
    expect(res.json()).toMatchObject({ active: true, scope: 'age_verification' });
    expect(started).toEqual(['nonce+read']);
  });

  it('still answers a replayed nonce with 401 REPLAY_DETECTED, and nothing of the token', async () => {
    const passToken = await exchangedPassToken();
    const nonce = newNonce();
    expect((await signedInject(t, { url: '/v1/introspect', body: { pass_token: passToken }, nonce })).statusCode).toBe(
      200,
    );
    const again = await signedInject(t, { url: '/v1/introspect', body: { pass_token: passToken }, nonce });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ error: 'REPLAY_DETECTED', message: expect.any(String) });
  });

  it('reads nothing for a request whose signature failed', async () => {
    const passToken = await exchangedPassToken();
    const started = spyOnStore();
    const forged = signedInjectOptions(t.clock, { url: '/v1/introspect', body: { pass_token: passToken } });
    (forged.headers as Record<string, string>)['X-Partner-Signature'] = 'A'.repeat(43);
    expect((await t.app.inject(forged)).json().error).toBe('INVALID_SIGNATURE');
    expect(started).toEqual([]);
  });

  it('leaves body validation to the route: a body with the token and an extra field is 400 INVALID_REQUEST', async () => {
    const passToken = await exchangedPassToken();
    const res = await signedInject(t, { url: '/v1/introspect', body: { pass_token: passToken, extra: 1 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('INVALID_REQUEST');
  });

  it.each([
    ['a body that is not an object', '"p_x"', 400],
    ['a token that is not a string', '{"pass_token":42}', 400],
    ['a token not in the p_ shape', '{"pass_token":"g_abc"}', 200],
  ])('reads no token for %s, and answers as before', async (_, body, status) => {
    const started = spyOnStore();
    const res = await signedInject(t, { url: '/v1/introspect', body });
    expect(started).toEqual(['nonce']);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual(
      status === 200 ? { active: false } : expect.objectContaining({ error: 'INVALID_REQUEST' }),
    );
  });
});

describe('body size', () => {
  it.each(['/v1/exchange', '/v1/introspect'])(
    'rejects a body over 16 KiB on %s with 413 PAYLOAD_TOO_LARGE before anything else',
    async (url) => {
      const body = JSON.stringify({ grant_code: `g_${'a'.repeat(16 * 1024)}` });
      const res = await t.app.inject({
        method: 'POST',
        url,
        payload: body,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ error: 'PAYLOAD_TOO_LARGE', message: 'Request body exceeds 16 KiB.' });
    },
  );

  it('accepts a signed body of exactly 16 KiB as far as body handling', async () => {
    const filler = 'a'.repeat(16 * 1024 - JSON.stringify({ pass_token: '' }).length);
    const res = await signedInject(t, { url: '/v1/introspect', body: { pass_token: filler } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ active: false });
  });
});

describe('the partner record cache', () => {
  const rotated = { ...PARTNERS.demo, secret: Buffer.alloc(32, 9).toString('base64') };

  it('applies a changed secret within PARTNER_CACHE_MS, and refuses the old one after', async () => {
    const introspect = (partner: TestPartner = PARTNERS.demo) =>
      signedInject(t, { url: '/v1/introspect', body: { pass_token: 'p_x' }, partner });
    expect((await introspect()).statusCode).toBe(200);
    const stored = (await t.deps.store.getPartner(PARTNERS.demo.id))!;
    await t.deps.store.putPartner({ ...stored, secret: rotated.secret });

    expect((await introspect()).statusCode).toBe(200);
    t.clock.advance(PARTNER_CACHE_MS);
    expect((await introspect()).json()).toMatchObject({ error: 'INVALID_SIGNATURE' });
    expect((await introspect(rotated)).statusCode).toBe(200);
  });

  it('never caches an unknown partner: one added later is usable at once', async () => {
    const late = { id: 'pk_test_late', secret: Buffer.alloc(32, 3).toString('base64') };
    const call = () => signedInject(t, { url: '/v1/introspect', body: { pass_token: 'p_x' }, partner: late });
    expect((await call()).json()).toMatchObject({ error: 'INVALID_PARTNER' });
    await t.deps.store.putPartner({
      id: late.id,
      secret: late.secret,
      name: 'Late',
      domain: 'https://late.example',
      rail: 'standard',
      blindAppId: null,
      allowedScopes: null,
      createdAt: t.clock.now(),
    });
    expect((await call()).statusCode).toBe(200);
  });
});
