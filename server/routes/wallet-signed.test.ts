/**
 * Signed wallet requests through the HTTP surface (docs/design.md §16) on a real app listening on a
 * port, with the sandbox access certificate: the openid4vp:// link by reference, GET
 * /oid4vp/request/:id, `svc wallet present` and the sandbox phone answering with a JWE over HTTP,
 * and forged answers refused with the request left waiting. Without a certificate nothing changes
 * (server/routes/wallet.test.ts).
 */
import { compactVerify, decodeProtectedHeader, importX509 } from 'jose';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runWalletCommand } from '../cli/wallet.ts';
import { createFakeClock } from '../clock.ts';
import type { DcApiRequest, Oid4vpSignedDcRequest, PhoneMethod, PhoneOpened } from '../../src/protocol/wire.ts';
import {
  createDcApiCredential,
  createDirectPost,
  type PresentOptions,
  type WalletTamper,
} from '../sandbox/wallet/sandbox-wallet.ts';
import { loadSandboxIssuer } from '../sandbox/wallet/sandbox-issuer.ts';
import { makeTestApp, type TestApp } from '../test/helpers.ts';
import { personaOf } from '../test/personas.ts';
import { PARTNER_ORIGIN, pollStatus, startStandardFlow, type Flow } from '../test/verify-flow.ts';
import { DEFAULT_WALLET_FIXTURES } from '../wallet/trust/anchors.ts';
import { freePort } from '../test/free-port.ts';

const ACCESS_ENV = {
  SVC_WALLET_ACCESS_CERT: join(DEFAULT_WALLET_FIXTURES, 'sandbox-access.pem'),
  SVC_WALLET_ACCESS_KEY: join(DEFAULT_WALLET_FIXTURES, 'sandbox-access.key.pem'),
};

const pemOf = (base64: string) => `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----`;

let t: TestApp;
let logLines: string[] = [];
afterEach(async () => {
  await t?.close();
  logLines = [];
});

/** The app on a real port, so the wallet's fetch and post go over HTTP. */
async function listening(env: Record<string, string> = ACCESS_ENV): Promise<TestApp & { apiUrl: string }> {
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const app = await makeTestApp({
    clock: createFakeClock(Date.now()),
    env: { SVC_API_URL: apiUrl, ...env },
    log: { lines: logLines },
  });
  await app.app.listen({ port, host: '127.0.0.1' });
  return { ...app, apiUrl };
}

const frenchAdult = (app: TestApp) =>
  startStandardFlow(app, { scopes: ['isAdult', 'isFrench'], client_proof_mode: true });

async function present(flow: Flow, tamper?: WalletTamper, credential = 'pid') {
  const out: string[] = [];
  const args = ['present', flow.created.wallet_link!, '--persona', 'fr-adult-f', '--credential', credential];
  const code = await runWalletCommand(tamper ? [...args, '--tamper', tamper] : args, {
    out: (l) => out.push(l),
    err: (l) => out.push(l),
  });
  return { code, out: out.join('\n') };
}

describe('with SVC_WALLET_ACCESS_CERT (the sandbox access certificate)', () => {
  it('links openid4vp:// by reference: client_id x509_hash of the leaf, request_uri beside response_uri', async () => {
    const app = await listening();
    t = app;
    const flow = await frenchAdult(t);
    const clientId = t.deps.wallet.access!.clientId;
    expect(flow.created.wallet_link).toBe(
      `openid4vp://?client_id=${encodeURIComponent(clientId)}&request_uri=` +
        encodeURIComponent(`${app.apiUrl}/oid4vp/request/${flow.requestId}`) +
        '&request_uri_method=post',
    );
    // The AV profile's [isAdult] link stays unsigned.
    const av = await startStandardFlow(t, { scopes: ['isAdult'], client_proof_mode: true });
    expect(av.created.wallet_link).toMatch(/^av:\/\/\?response_type=vp_token&response_mode=direct_post&/);
    expect((await t.app.inject({ method: 'GET', url: `/oid4vp/request/${av.requestId}` })).statusCode).toBe(404);
  });

  it('serves the request object at request_uri: oauth-authz-req+jwt, no-store, verified against its x5c leaf', async () => {
    const app = await listening();
    t = app;
    const flow = await frenchAdult(t);
    const res = await fetch(`${app.apiUrl}/oid4vp/request/${flow.requestId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/oauth-authz-req+jwt');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const jws = await res.text();
    const header = decodeProtectedHeader(jws);
    const leaf = `-----BEGIN CERTIFICATE-----\n${header.x5c![0]}\n-----END CERTIFICATE-----`;
    const payload = JSON.parse(
      new TextDecoder().decode((await compactVerify(jws, await importX509(leaf, 'ES256'))).payload),
    );
    const hash = createHash('sha256').update(Buffer.from(header.x5c![0]!, 'base64')).digest('base64url');
    expect(payload).toMatchObject({
      client_id: `x509_hash:${hash}`,
      response_mode: 'direct_post.jwt',
      response_uri: `${app.apiUrl}/oid4vp/response/${flow.requestId}`,
    });
    expect((await t.app.inject({ method: 'GET', url: '/oid4vp/request/vr_unknown' })).statusCode).toBe(404);
  });

  it('answers a POST to request_uri with an object signed now echoing the wallet_nonce; GET too, neither single use', async () => {
    const app = await listening();
    t = app;
    const flow = await frenchAdult(t);
    const url = `${app.apiUrl}/oid4vp/request/${flow.requestId}`;
    const leafKey = async (jws: string) => importX509(pemOf(decodeProtectedHeader(jws).x5c![0]!), 'ES256');
    const payloadOf = async (jws: string) =>
      JSON.parse(new TextDecoder().decode((await compactVerify(jws, await leafKey(jws))).payload));
    const post = (body: string, type = 'application/x-www-form-urlencoded') =>
      fetch(url, { method: 'POST', headers: { 'content-type': type }, body });
    const gotten = await payloadOf(await (await fetch(url)).text());
    expect(gotten.wallet_nonce).toBeUndefined();
    t.clock.advance(5_000);
    for (const nonce of ['n-1_abcdefghijklmnop', 'another~nonce.2']) {
      const res = await post(
        `wallet_nonce=${encodeURIComponent(nonce)}&wallet_metadata=${encodeURIComponent('{"vp_formats_supported":{}}')}`,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/oauth-authz-req+jwt');
      const jws = await res.text();
      expect(decodeProtectedHeader(jws)).toMatchObject({ alg: 'ES256', typ: 'oauth-authz-req+jwt' });
      const payload = await payloadOf(jws);
      expect(payload.wallet_nonce).toBe(nonce);
      expect(payload.iat).toBe(Math.floor(t.clock.now() / 1000));
      expect({ ...payload, wallet_nonce: undefined, iat: undefined }).toEqual({ ...gotten, iat: undefined });
    }
    expect((await fetch(url)).status).toBe(200);
    // a missing, repeated or malformed wallet_nonce, bad metadata, another body type: 400, the request still waiting
    for (const [body, type] of [
      ['wallet_metadata=%7B%7D', undefined],
      ['wallet_nonce=a&wallet_nonce=b', undefined],
      ['wallet_nonce=has%20space', undefined],
      ['wallet_nonce=ok&wallet_metadata=%5B%5D', undefined],
      ['{"wallet_nonce":"x"}', 'application/json'],
    ] as const) {
      const res = await post(body, type ?? 'application/x-www-form-urlencoded');
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
    }
    expect((await post('wallet_nonce=x')).status).toBe(200);
    const unknown = await fetch(`${app.apiUrl}/oid4vp/request/vr_unknown`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'wallet_nonce=x',
    });
    expect(unknown.status).toBe(404);
    expect((await pollStatus(t, flow)).status).toBe('pending');
  });

  it('svc wallet present fetches, verifies and answers it with a JWE; the request completes, then its object is gone', async () => {
    const app = await listening();
    t = app;
    const flow = await frenchAdult(t);
    const { code, out } = await present(flow);
    expect(out).toMatch(/→ 200 \{"redirect_uri":"[^"]+\/done#response_code=[\w-]{43}"\}/);
    expect(code).toBe(0);
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'completed' });
    expect(logLines.join('\n')).toContain('wallet response accepted');
    expect((await t.app.inject({ method: 'GET', url: `/oid4vp/request/${flow.requestId}` })).statusCode).toBe(404);
  });

  it('completes with the SD-JWT VC PID too: its key binding JWT names the x509_hash client id (design.md §15, §16)', async () => {
    const app = await listening();
    t = app;
    const flow = await frenchAdult(t);
    const { code, out } = await present(flow, undefined, 'pid-sd-jwt');
    expect(out).toMatch(/→ 200 \{"redirect_uri":"[^"]+\/done#response_code=[\w-]{43}"\}/);
    expect(code).toBe(0);
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'completed' });
  });

  it('refuses an SD-JWT VC PID whose key binding JWT names another client id, and the request stays waiting', async () => {
    const app = await listening();
    t = app;
    const flow = await frenchAdult(t);
    const { code, out } = await present(flow, 'client-id', 'pid-sd-jwt');
    expect(code).toBe(1);
    expect(out).toContain('the key binding JWT does not cover this request');
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'pending' });
  });

  it('refuses a revoked SD-JWT VC PID over the signed path, and the request stays waiting', async () => {
    const app = await listening();
    t = app;
    const flow = await frenchAdult(t);
    const out: string[] = [];
    const args = ['present', flow.created.wallet_link!, '--persona', 'fr-adult-f', '--credential', 'pid-sd-jwt'];
    const code = await runWalletCommand([...args, '--revoked'], { out: (l) => out.push(l), err: (l) => out.push(l) });
    expect(code).toBe(1);
    expect(out.join('\n')).toContain('credential revoked');
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'pending' });
  });

  it.each([
    ['answer-key', 'a signed request is answered by one JWE, in response, that opens with its key'],
    ['no-thumbprint', 'the device signature does not cover this request'],
    ['client-id', 'the device signature does not cover this request'],
    ['state', 'state does not match the request'],
  ] as const)('refuses the forged answer %s with 400, and the request stays waiting', async (tamper, description) => {
    const app = await listening();
    t = app;
    const flow = await frenchAdult(t);
    const { code, out } = await present(flow, tamper);
    expect(code).toBe(1);
    expect(out).toContain(`→ 400 ${JSON.stringify({ error: 'invalid_request', error_description: description })}`);
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'pending' });
    // The genuine answer still completes it.
    expect((await present(flow)).code).toBe(0);
  });

  it("refuses an answer made for another request's object, and a clear vp_token; the request stays waiting", async () => {
    const app = await listening();
    t = app;
    const [mine, other] = [await frenchAdult(t), await frenchAdult(t)];
    const forOther = await createDirectPost({
      link: other.created.wallet_link!,
      issuer: loadSandboxIssuer(),
      persona: personaOf('fr-adult-f'),
      now: t.clock.now(),
      credential: 'pid',
    });
    const post = (body: string) =>
      t.app.inject({
        method: 'POST',
        url: `/oid4vp/response/${mine.requestId}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: body,
      });
    const refused = await post(forOther.body);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error_description).toBe(
      'a signed request is answered by one JWE, in response, that opens with its key',
    );
    const clear = await post('vp_token=%7B%22pid%22%3A%5B%22AAAA%22%5D%7D&state=x');
    expect(clear.statusCode).toBe(400);
    expect(await pollStatus(t, mine)).toMatchObject({ status: 'pending' });
    expect(logLines.join('\n')).toMatch(/"check":"response".*wallet response refused/);
  });

  it('the sandbox phone answers it through the sandbox wallet over HTTP', async () => {
    const app = await listening();
    t = app;
    const flow = await frenchAdult(t);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/m/requests/${flow.requestId}/complete`,
      payload: {
        h: flow.handoff,
        persona: 'fr-adult-f',
        method: 'eudi_wallet',
        outcome: 'approved',
        credential: 'pid',
      },
    });
    expect(res.json()).toEqual({ status: 'completed' });
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'completed' });
  });
});

describe('GET /oid4vp/request/:id from one address', () => {
  it('answers 429 with Retry-After past 120 fetches a minute, on its own budget: the answer still goes through', async () => {
    t = await makeTestApp({ env: ACCESS_ENV });
    const flow = await frenchAdult(t);
    const fetchObject = (remoteAddress = '198.51.100.30') =>
      t.app.inject({ method: 'GET', url: `/oid4vp/request/${flow.requestId}`, remoteAddress });
    for (let i = 0; i < 120; i++) expect((await fetchObject()).statusCode).toBe(200);
    const limited = await fetchObject();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await fetchObject('198.51.100.31')).statusCode).toBe(200);
    // a wallet's answer from the limited address is counted apart
    const res = await t.app.inject({
      method: 'POST',
      url: `/oid4vp/response/${flow.requestId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'response=x',
      remoteAddress: '198.51.100.30',
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('the Digital Credentials API with SVC_WALLET_ACCESS_CERT', () => {
  const dcPost = (flow: Flow, credential: unknown, origin = PARTNER_ORIGIN) =>
    t.app.inject({
      method: 'POST',
      url: `/api/w/wallet-response/${flow.requestId}?pt=${flow.pollToken}`,
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin },
      payload: JSON.stringify(credential),
    });
  const answer = (dcRequest: DcApiRequest, origin = PARTNER_ORIGIN, extra: Partial<PresentOptions> = {}) =>
    createDcApiCredential({
      dcRequest,
      origin,
      issuer: loadSandboxIssuer(),
      persona: personaOf('fr-adult-f'),
      now: t.clock.now(),
      credential: 'pid',
      ...extra,
    });

  it('hands the partner page openid4vp-v1-signed (expected_origins its origin), org-iso-mdoc with readerAuth, then unsigned', async () => {
    t = await makeTestApp({ env: ACCESS_ENV });
    const flow = await frenchAdult(t);
    const requests = flow.created.dc_requests!;
    expect(requests.map((r) => r.protocol)).toEqual(['openid4vp-v1-signed', 'org-iso-mdoc', 'openid4vp-v1-unsigned']);
    const jws = (requests[0] as Oid4vpSignedDcRequest).data.request;
    const { x5c } = decodeProtectedHeader(jws);
    const verified = await compactVerify(jws, await importX509(pemOf(x5c![0]!), 'ES256'));
    expect(JSON.parse(new TextDecoder().decode(verified.payload))).toMatchObject({
      client_id: t.deps.wallet.access!.clientId,
      expected_origins: [PARTNER_ORIGIN],
      response_mode: 'dc_api.jwt',
    });
  });

  it('[isAdult, isFrench] completes through openid4vp-v1-signed from the partner page', async () => {
    t = await makeTestApp({ env: ACCESS_ENV });
    const flow = await frenchAdult(t);
    const credential = await answer(flow.created.dc_requests![0]!);
    expect(credential.protocol).toBe('openid4vp-v1-signed');
    const res = await dcPost(flow, credential);
    expect(res.statusCode).toBe(200);
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'completed' });
  });

  it('refuses a signed answer bound to another origin, or posted by another page, and the request stays waiting', async () => {
    t = await makeTestApp({ env: ACCESS_ENV });
    const flow = await frenchAdult(t);
    const signed = flow.created.dc_requests![0]!;
    const elsewhere = await dcPost(flow, await answer(signed, PARTNER_ORIGIN, { tamper: 'origin' }));
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().error_description).toBe('the device signature does not cover this request');
    const genuine = await answer(signed);
    expect((await dcPost(flow, genuine, 'https://attacker.example')).statusCode).toBe(400);
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'pending' });
    expect((await dcPost(flow, genuine)).statusCode).toBe(200);
  });

  it('gives the phone page requests signed for its own origin, and completes from it over openid4vp-v1-signed', async () => {
    t = await makeTestApp({ env: ACCESS_ENV });
    const flow = await frenchAdult(t);
    const opened = await t.app.inject({
      method: 'POST',
      url: `/api/m/requests/${flow.requestId}/open`,
      headers: { 'content-type': 'application/json' },
      payload: { h: flow.handoff },
    });
    const wallet = (opened.json() as PhoneOpened).methods.find((m) => m.id === 'eudi_wallet') as Extract<
      PhoneMethod,
      { id: 'eudi_wallet' }
    >;
    const appOrigin = new URL(t.deps.config.appUrl).origin;
    const signed = wallet.dc_requests[0] as Oid4vpSignedDcRequest;
    expect(signed.protocol).toBe('openid4vp-v1-signed');
    expect(
      JSON.parse(Buffer.from(signed.data.request.split('.')[1]!, 'base64url').toString()).expected_origins,
    ).toEqual([appOrigin]);
    // the partner page's signed request is not the phone's: a wallet on the phone refuses it
    await expect(answer(flow.created.dc_requests![0]!, appOrigin)).rejects.toThrow(/expected_origins/);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/m/requests/${flow.requestId}/wallet-response`,
      headers: { 'content-type': 'application/json', origin: appOrigin },
      payload: { h: flow.handoff, credential: await answer(signed, appOrigin) },
    });
    expect(res.json()).toMatchObject({ status: 'completed' });
  });
});

describe('without an access certificate', () => {
  it('keeps the unsigned openid4vp:// link and serves no request object', async () => {
    const app = await listening({});
    t = app;
    expect(t.deps.wallet.access).toBeNull();
    const flow = await frenchAdult(t);
    expect(flow.created.wallet_link).toMatch(/^openid4vp:\/\/\?response_type=vp_token&response_mode=direct_post&/);
    expect((await t.app.inject({ method: 'GET', url: `/oid4vp/request/${flow.requestId}` })).statusCode).toBe(404);
  });
});
