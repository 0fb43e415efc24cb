/**
 * The EUDI wallet path through the HTTP surface (design.md §11): verify-request's
 * wallet_link and dc_request, POST /oid4vp/response/:id and POST /api/w/wallet-response/:id, each
 * outcome, and the sandbox phone's eudi_wallet method going through the sandbox wallet over HTTP.
 * The verifier's own checks have their negative tests in server/wallet/.
 */
import type { FastifyInstance } from 'fastify';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PhoneMethod, PhoneOpened, VerifyRequestCreated } from '../../src/protocol/wire.ts';
import { parseWalletLink } from '../wallet/request/wallet-request.ts';
import { createFakeClock } from '../clock.ts';
import { makeTestApp, PARTNERS, signedInject, type TestApp } from '../test/helpers.ts';
import { personaOf } from '../test/personas.ts';
import { PARTNER_ORIGIN, pollStatus, startBlindFlow, startStandardFlow, type Flow } from '../test/verify-flow.ts';
import { createIssuerCertificates, loadSandboxIssuer, type SandboxIssuer } from '../sandbox/wallet/sandbox-issuer.ts';
import {
  ATTACKER_TEXT,
  createDcApiCredential,
  createDirectPost,
  type WalletTamper,
} from '../sandbox/wallet/sandbox-wallet.ts';
import { freePort } from '../test/free-port.ts';

const issuer = loadSandboxIssuer();
// A date inside the committed sandbox issuer's validity.
const clockAt = () => createFakeClock(Date.now());

let t: TestApp;
let logLines: string[] = [];

afterEach(async () => {
  await t?.close();
  logLines = [];
});

async function walletApp(env: Record<string, string> = {}): Promise<TestApp> {
  return makeTestApp({ clock: clockAt(), env, log: { lines: logLines } });
}

/** Exchange, then introspect: the pass token's verification_method. */
async function methodOf(t: TestApp, grantCode: string): Promise<unknown> {
  const exchanged = (await signedInject(t, { url: '/v1/exchange', body: { grant_code: grantCode } })).json();
  expect(exchanged).toMatchObject({ age_over_18: true, scopes: ['isAdult'], attributes: { age_over_18: true } });
  const { pass_token } = exchanged;
  return (await signedInject(t, { url: '/v1/introspect', body: { pass_token } })).json().attributes.verification_method;
}

async function proofFlow(t: TestApp): Promise<Flow> {
  return startStandardFlow(t, { scopes: ['isAdult'], client_proof_mode: true });
}

function postDirect(
  app: FastifyInstance,
  responseUri: string,
  body: string,
  contentType = 'application/x-www-form-urlencoded',
) {
  return app.inject({
    method: 'POST',
    url: new URL(responseUri).pathname,
    headers: { 'content-type': contentType },
    payload: body,
  });
}

async function present(
  t: TestApp,
  flow: Flow,
  options: { persona?: string; tamper?: WalletTamper; encoding?: 'json' | 'brackets'; issuer?: SandboxIssuer } = {},
) {
  const { responseUri, body } = await createDirectPost({
    link: flow.created.wallet_link!,
    issuer: options.issuer ?? issuer,
    persona: personaOf(options.persona ?? 'fr-adult-m'),
    now: t.clock.now(),
    ...(options.tamper ? { tamper: options.tamper } : {}),
    ...(options.encoding ? { encoding: options.encoding } : {}),
  });
  return postDirect(t.app, responseUri, body);
}

describe('POST /api/w/verify-request offers the wallet path (design.md §11)', () => {
  it('answers wallet_link and dc_request in client proof mode with scopes exactly [isAdult], and the QR encodes the link', async () => {
    t = await walletApp();
    const flow = await proofFlow(t);
    const link = flow.created.wallet_link!;
    expect(link).toMatch(/^av:\/\/\?response_type=vp_token&response_mode=direct_post&client_id=redirect_uri%3A/);
    const params = new URLSearchParams(link.slice('av://?'.length));
    expect(params.get('response_uri')).toBe(`${t.deps.config.apiUrl}/oid4vp/response/${flow.requestId}`);
    expect(params.get('client_id')).toBe(`redirect_uri:${params.get('response_uri')}`);
    expect(JSON.parse(params.get('dcql_query')!)).toEqual({
      credentials: [
        {
          id: 'proof_of_age',
          format: 'mso_mdoc',
          meta: { doctype_value: 'eu.europa.ec.av.1' },
          claims: [{ path: ['eu.europa.ec.av.1', 'age_over_18'] }],
        },
      ],
    });
    expect(flow.created.dc_request).toMatchObject({
      protocol: 'org-iso-mdoc',
      data: { deviceRequest: expect.any(String), encryptionInfo: expect.any(String) },
    });
    const { encodeQr } = await import('../rules/qr.ts');
    expect(flow.created.qr).toEqual(encodeQr(link));
  });

  it('keeps the HPKE private key sealed in the store', async () => {
    t = await walletApp();
    const flow = await proofFlow(t);
    const record = (await t.store.getRequest(flow.requestId, t.clock.now()))!;
    expect(record.wallet!.dc.recipientPrivateKey).toMatch(/^v1\./);
    expect(record.wallet!.nonce).toBe(new URLSearchParams(flow.created.wallet_link!.slice(6)).get('nonce'));
  });

  it.each([
    ['not in client proof mode', { scopes: ['isAdult'], client_proof_mode: false }],
    ['with a scope no credential proves (isUnique)', { scopes: ['isAdult', 'isUnique'], client_proof_mode: true }],
  ])('offers nothing %s', async (_label, body) => {
    t = await walletApp();
    const created = (await startStandardFlow(t, body)).created;
    expect(created.wallet_link).toBeUndefined();
    expect(created.dc_request).toBeUndefined();
  });

  it('offers it on ADULT_BLIND: av:// for an isAdult-only session token, openid4vp:// for isAdult + isEU, none with isUnique', async () => {
    t = await walletApp();
    expect((await startBlindFlow(t, { clientProofMode: true })).created.wallet_link).toMatch(/^av:/);
    expect(
      (await startBlindFlow(t, { clientProofMode: true, scopes: ['isAdult', 'isEU'] })).created.wallet_link,
    ).toMatch(/^openid4vp:\/\/\?response_type=vp_token&/);
    expect(
      (await startBlindFlow(t, { clientProofMode: true, scopes: ['isEU', 'isUnique'] })).created.wallet_link,
    ).toBeUndefined();
  });
});

describe('POST /oid4vp/response/:requestId', () => {
  it('completes the request exactly as a phone approval, with verification_method eudi_wallet', async () => {
    t = await walletApp();
    const flow = await proofFlow(t);
    const res = await present(t, flow);
    expect(res.statusCode).toBe(200);
    // design.md §19: the way back to the phone page's done view
    expect(res.json()).toEqual({
      redirect_uri: expect.stringMatching(/\/m\/v\/vr_[\w-]+\/done#response_code=[\w-]{43}$/),
    });
    const status = await pollStatus(t, flow);
    expect(status.status).toBe('completed');
    const { grant_code } = status.result as { grant_code: string };
    expect(await methodOf(t, grant_code)).toBe('eudi_wallet');
    expect(logLines.join('\n')).toContain('wallet response accepted');
  });

  it('accepts vp_token as bracket keys too', async () => {
    t = await walletApp();
    const flow = await proofFlow(t);
    expect((await present(t, flow, { encoding: 'brackets' })).statusCode).toBe(200);
    expect((await pollStatus(t, flow)).status).toBe('completed');
  });

  it('fails the request (not adult) when age_over_18 is false', async () => {
    t = await walletApp();
    const flow = await proofFlow(t);
    expect((await present(t, flow, { persona: 'fr-minor' })).statusCode).toBe(200);
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'failed', reason: 'failed' });
  });

  it.each<WalletTamper>(['digest', 'nonce', 'state', 'untrusted-issuer', 'swap-device-key'])(
    'refuses a presentation tampered by %s with 400 invalid_request, logs the check, and the request stays waiting',
    async (tamper) => {
      t = await walletApp();
      const flow = await proofFlow(t);
      const res = await present(t, flow, { tamper });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
      expect((await pollStatus(t, flow)).status).toBe('pending');
      const refused = logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'wallet response refused');
      expect(refused).toMatchObject({ requestId: flow.requestId, check: expect.any(String) });
      expect(logLines.join('\n')).not.toMatch(/vp_token|proof_of_age/);
      // the genuine wallet can still answer
      expect((await present(t, flow)).statusCode).toBe(200);
    },
  );

  it.each([
    ['unsigned-element', 'a disclosed value does not match its digest: unexpected_element'],
    ['unsigned-namespace', 'the MSO has no digests for unexpected_namespace'],
  ] as const)(
    'refuses a credential with a 6 KB name (%s) with a log line under 512 bytes that quotes none of it',
    async (tamper, detail) => {
      t = await walletApp();
      const flow = await proofFlow(t);
      const res = await present(t, flow, { tamper });
      expect(res.statusCode).toBe(400);
      expect((await pollStatus(t, flow)).status).toBe('pending');
      const line = logLines.find((l) => (JSON.parse(l) as { msg: string }).msg === 'wallet response refused')!;
      expect(JSON.parse(line)).toMatchObject({ requestId: flow.requestId, check: 'digests', detail });
      expect(Buffer.byteLength(line)).toBeLessThan(512);
      expect(ATTACKER_TEXT.length).toBeGreaterThanOrEqual(6144);
      expect(logLines.join('\n')).not.toMatch(/family_name|Doe/);
    },
  );

  it('logs a 6 KB request path cut to 200 characters, the query never', async () => {
    t = await walletApp();
    const path = `/oid4vp/response/${'family_name'.repeat(600)}`;
    const res = await t.app.inject({ method: 'POST', url: `${path}?pt=secret-ish`, payload: 'state=x' });
    expect(res.statusCode).toBe(404);
    const urls = logLines.map((l) => (JSON.parse(l) as { req?: { url: string } }).req?.url).filter(Boolean);
    expect(urls).toEqual([`${path.slice(0, 200)}…`]);
    expect(logLines.every((line) => Buffer.byteLength(line) < 1024 && !line.includes('secret-ish'))).toBe(true);
  });

  it('refuses a DS certificate without the mdlDS EKU under an SVC_WALLET_TRUST IACA: 400 trust_chain, request waiting', async () => {
    const DAY_MS = 86_400_000;
    const now = Date.now();
    const profiled = {
      name: 'Route Test',
      country: 'FR',
      notBefore: new Date(now - DAY_MS),
      notAfter: new Date(now + 365 * DAY_MS),
    };
    const bad = await createIssuerCertificates({ ...profiled, signer: { extendedKeyUsage: ['1.3.6.1.5.5.7.3.1'] } });
    const trustPath = join(mkdtempSync(join(tmpdir(), 'svc-wallet-')), 'roots.pem');
    writeFileSync(trustPath, bad.iaca.toString('pem'));
    t = await walletApp({ SVC_WALLET_TRUST: trustPath });
    const flow = await proofFlow(t);
    const res = await present(t, flow, { issuer: bad });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'invalid_request', error_description: 'the credential issuer is not trusted' });
    const refused = logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'wallet response refused');
    expect(refused).toMatchObject({
      check: 'trust_chain',
      detail: 'the DS certificate extendedKeyUsage is not exactly mdlDS',
    });
    expect((await pollStatus(t, flow)).status).toBe('pending');
  });

  it('accepts one answer only: a second valid post is refused (request_not_waiting)', async () => {
    t = await walletApp();
    const flow = await proofFlow(t);
    const { responseUri, body } = await createDirectPost({
      link: flow.created.wallet_link!,
      issuer,
      persona: personaOf('fr-adult-m'),
      now: t.clock.now(),
    });
    const [first, second] = await Promise.all([
      postDirect(t.app, responseUri, body),
      postDirect(t.app, responseUri, body),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 400]);
    const again = await postDirect(t.app, responseUri, body);
    expect(again.statusCode).toBe(400);
    expect(again.json().error_description).toMatch(/not waiting/);
  });

  it('fails the request as cancelled on error=access_denied with the right state, and ignores it with another state', async () => {
    t = await walletApp();
    const flow = await proofFlow(t);
    const state = new URLSearchParams(flow.created.wallet_link!.slice(6)).get('state')!;
    const path = `/oid4vp/response/${flow.requestId}`;
    const wrong = await postDirect(
      t.app,
      `http://x${path}`,
      new URLSearchParams({ error: 'access_denied', state: 'nope' }).toString(),
    );
    expect(wrong.statusCode).toBe(400);
    expect((await pollStatus(t, flow)).status).toBe('pending');
    const res = await postDirect(
      t.app,
      `http://x${path}`,
      new URLSearchParams({ error: 'access_denied', state }).toString(),
    );
    expect(res.statusCode).toBe(200);
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'failed', reason: 'cancelled' });
  });

  it('refuses an answer to an expired request, an unknown request, and a body that is not form-encoded', async () => {
    t = await walletApp();
    const flow = await proofFlow(t);
    const { responseUri, body } = await createDirectPost({
      link: flow.created.wallet_link!,
      issuer,
      persona: personaOf('fr-adult-m'),
      now: t.clock.now(),
    });
    expect((await postDirect(t.app, responseUri, body, 'application/json')).statusCode).toBe(400);
    expect(
      (await postDirect(t.app, responseUri.replace(flow.requestId, 'vr_AAAAAAAAAAAAAAAAAAAAAA'), body)).statusCode,
    ).toBe(400);
    t.clock.advance(t.deps.config.requestTtlMs);
    const late = await postDirect(t.app, responseUri, body);
    expect(late.statusCode).toBe(400);
    expect(late.json().error_description).toMatch(/expired/);
  });

  it('refuses a request that was not offered the wallet path', async () => {
    t = await walletApp();
    const flow = await startStandardFlow(t, { scopes: ['isAdult'], client_proof_mode: false });
    const res = await postDirect(t.app, `http://x/oid4vp/response/${flow.requestId}`, 'state=x&vp_token=y');
    expect(res.statusCode).toBe(400);
  });

  it('completes an ADULT_BLIND request with an attestation, and no log line of the verifier path names the partner', async () => {
    t = await walletApp();
    const flow = await startBlindFlow(t, { clientProofMode: true });
    expect((await present(t, flow)).statusCode).toBe(200);
    const status = await pollStatus(t, flow);
    const attestation = (status.result as { attestation: string }).attestation;
    const claims = JSON.parse(Buffer.from(attestation.split('.')[1]!, 'base64url').toString('utf8'));
    expect(claims).toMatchObject({ scope_mask: 1, app_id: 'app_blind_shop', aud: 'svc-attestation', ver: '1' });
    expect(Object.keys(claims).sort()).toEqual([
      'app_id',
      'aud',
      'exp',
      'iat',
      'jti',
      'nullifier',
      'origin_hash',
      'scope_mask',
      'ver',
    ]);
    expect(logLines.join('\n')).not.toContain(PARTNERS.blindShop.id);
  });
});

describe('wallet posts from one address', () => {
  it('answer 429 Too many requests with Retry-After past 120 a minute over the three routes, and again after the minute', async () => {
    t = await walletApp();
    const flow = await proofFlow(t);
    const post = (route: 'direct' | 'dc' | 'phone', remoteAddress = '198.51.100.20') =>
      t.app.inject(
        route === 'direct'
          ? {
              method: 'POST',
              url: `/oid4vp/response/${flow.requestId}`,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: 'state=wrong&vp_token=x',
              remoteAddress,
            }
          : route === 'dc'
            ? {
                method: 'POST',
                url: `/api/w/wallet-response/${flow.requestId}?pt=${flow.pollToken}`,
                headers: { 'content-type': 'text/plain', origin: PARTNER_ORIGIN },
                payload: '{"protocol":"org-iso-mdoc","data":{"response":"x"}}',
                remoteAddress,
              }
            : {
                method: 'POST',
                url: `/api/m/requests/${flow.requestId}/wallet-response`,
                headers: { 'content-type': 'application/json', origin: t.deps.config.appUrl },
                payload: { h: flow.handoff, credential: { protocol: 'org-iso-mdoc', data: { response: 'x' } } },
                remoteAddress,
              },
      );
    const routes = ['direct', 'dc', 'phone'] as const;
    for (let i = 0; i < 120; i++) expect((await post(routes[i % 3]!)).statusCode).toBe(400);
    for (const route of routes) {
      const limited = await post(route);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ error: 'Too many requests', message: expect.any(String) });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    }
    // another address is not limited by this one, and the wallet's real answer still goes through from it
    expect((await post('direct', '198.51.100.21')).statusCode).toBe(400);
    expect((await present(t, flow)).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await post('direct')).statusCode).toBe(400);
  });
});

describe('POST /api/w/wallet-response/:requestId (Digital Credentials API)', () => {
  async function dcPost(t: TestApp, flow: Flow, credential: unknown, origin = PARTNER_ORIGIN, pt = flow.pollToken) {
    return t.app.inject({
      method: 'POST',
      url: `/api/w/wallet-response/${flow.requestId}?pt=${pt}`,
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin },
      payload: JSON.stringify(credential),
    });
  }

  async function credentialFor(
    t: TestApp,
    created: VerifyRequestCreated,
    options: { origin?: string; tamper?: WalletTamper } = {},
  ) {
    return createDcApiCredential({
      dcRequest: created.dc_request!,
      origin: options.origin ?? PARTNER_ORIGIN,
      issuer,
      persona: personaOf('fr-adult-m'),
      now: t.clock.now(),
      ...(options.tamper ? { tamper: options.tamper } : {}),
    });
  }

  it('completes the request from the page with its poll token, CORS open', async () => {
    t = await walletApp();
    const flow = await proofFlow(t);
    const res = await dcPost(t, flow, await credentialFor(t, flow.created));
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect((await pollStatus(t, flow)).status).toBe('completed');
  });

  it('refuses another origin, a wrong poll token, a response signed for another origin, and a body that is not JSON', async () => {
    t = await walletApp();
    const flow = await proofFlow(t);
    const credential = await credentialFor(t, flow.created);
    expect((await dcPost(t, flow, credential, 'http://evil.example')).statusCode).toBe(400);
    expect((await dcPost(t, flow, credential, PARTNER_ORIGIN, `pt_${'A'.repeat(43)}`)).statusCode).toBe(400);
    expect((await dcPost(t, flow, await credentialFor(t, flow.created, { tamper: 'origin' }))).statusCode).toBe(400);
    const notJson = await t.app.inject({
      method: 'POST',
      url: `/api/w/wallet-response/${flow.requestId}?pt=${flow.pollToken}`,
      headers: { 'content-type': 'text/plain', origin: PARTNER_ORIGIN },
      payload: 'nope',
    });
    expect(notJson.statusCode).toBe(400);
    expect((await pollStatus(t, flow)).status).toBe('pending');
    expect((await dcPost(t, flow, credential)).statusCode).toBe(200);
  });

  it('answers the preflight', async () => {
    t = await walletApp();
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/w/wallet-response/vr_x',
      headers: { origin: PARTNER_ORIGIN },
    });
    expect(res.statusCode).toBe(204);
  });
});

describe('POST /api/m/requests/:requestId/wallet-response (the wallet on the phone, design.md §12)', () => {
  const appOrigin = () => new URL(t.deps.config.appUrl).origin;

  function phonePost(flow: Flow, credential: unknown, options: { origin?: string | null; h?: string } = {}) {
    const origin = options.origin === undefined ? appOrigin() : options.origin;
    return t.app.inject({
      method: 'POST',
      url: `/api/m/requests/${flow.requestId}/wallet-response`,
      headers: { 'content-type': 'application/json', ...(origin === null ? {} : { origin }) },
      payload: JSON.stringify({ h: options.h ?? flow.handoff, credential }),
    });
  }

  async function credentialFor(flow: Flow, options: { persona?: string; origin?: string; tamper?: WalletTamper } = {}) {
    return createDcApiCredential({
      dcRequest: flow.created.dc_request!,
      origin: options.origin ?? appOrigin(),
      issuer,
      persona: personaOf(options.persona ?? 'fr-adult-m'),
      now: t.clock.now(),
      ...(options.tamper ? { tamper: options.tamper } : {}),
    });
  }

  it('completes the request from the phone page with its handoff token, verification_method eudi_wallet', async () => {
    t = await walletApp();
    const flow = await proofFlow(t);
    const res = await phonePost(flow, await credentialFor(flow));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'completed' });
    const { grant_code } = (await pollStatus(t, flow)).result as { grant_code: string };
    expect(await methodOf(t, grant_code)).toBe('eudi_wallet');
    expect(logLines.join('\n')).toContain('wallet response accepted');
  });

  it('answers a minor as failed, with the reason the phone page explains', async () => {
    t = await walletApp();
    const flow = await proofFlow(t);
    const res = await phonePost(flow, await credentialFor(flow, { persona: 'fr-minor' }));
    expect(res.json()).toEqual({ status: 'failed', reason: 'failed' });
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'failed', reason: 'failed' });
  });

  it('refuses another origin, no origin, and a response signed for the partner page; the request stays waiting', async () => {
    t = await walletApp();
    const flow = await proofFlow(t);
    const credential = await credentialFor(flow);
    for (const origin of [PARTNER_ORIGIN, 'http://evil.example', null]) {
      const res = await phonePost(flow, credential, { origin });
      expect(res.statusCode, String(origin)).toBe(400);
      expect(res.json()).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(/origin/) });
    }
    // signed for the partner's origin, posted from the phone's: the device signature does not match
    const forPartner = await phonePost(flow, await credentialFor(flow, { origin: PARTNER_ORIGIN }));
    expect(forPartner.statusCode).toBe(400);
    expect((await pollStatus(t, flow)).status).toBe('pending');
    expect((await phonePost(flow, credential)).statusCode).toBe(200);
  });

  it('answers 404 NOT_FOUND for a wrong handoff token, and 400 invalid_request without one, touching nothing', async () => {
    t = await walletApp();
    const flow = await proofFlow(t);
    const credential = await credentialFor(flow);
    const wrong = await phonePost(flow, credential, { h: `h_${'A'.repeat(43)}` });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json()).toMatchObject({ error: 'NOT_FOUND' });
    const missing = await t.app.inject({
      method: 'POST',
      url: `/api/m/requests/${flow.requestId}/wallet-response`,
      headers: { origin: appOrigin() },
      payload: { credential },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'invalid_request' });
    expect((await pollStatus(t, flow)).status).toBe('pending');
  });

  it.each(['digest', 'origin', 'device-key', 'untrusted-issuer'] as const)(
    'refuses a presentation tampered with (%s) and leaves the request waiting for the genuine one',
    async (tamper) => {
      t = await walletApp();
      const flow = await proofFlow(t);
      const res = await phonePost(flow, await credentialFor(flow, { tamper }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_request' });
      expect((await pollStatus(t, flow)).status).toBe('pending');
      expect(logLines.join('\n')).toContain('wallet response refused');
      expect((await phonePost(flow, await credentialFor(flow))).json()).toEqual({ status: 'completed' });
    },
  );

  it('answers once: a replayed credential finds the request no longer waiting', async () => {
    t = await walletApp();
    const flow = await proofFlow(t);
    const credential = await credentialFor(flow);
    expect((await phonePost(flow, credential)).statusCode).toBe(200);
    const replay = await phonePost(flow, credential);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses a request that carries no wallet request (not in client proof mode)', async () => {
    t = await walletApp();
    const flow = await startStandardFlow(t, { scopes: ['isAdult'] });
    const res = await phonePost(flow, { protocol: 'org-iso-mdoc', data: { response: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('the sandbox phone with the wallet path offered', () => {
  async function listening(): Promise<TestApp> {
    const port = await freePort();
    const app = await walletApp({ SVC_API_URL: `http://127.0.0.1:${port}` });
    await app.app.listen({ port, host: '127.0.0.1' });
    return app;
  }

  it('eudi_wallet approved goes through the sandbox wallet and the verifier over HTTP', async () => {
    t = await listening();
    const flow = await proofFlow(t);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/m/requests/${flow.requestId}/complete`,
      payload: { h: flow.handoff, persona: 'fr-adult-f', method: 'eudi_wallet', outcome: 'approved' },
    });
    expect(res.json()).toEqual({ status: 'completed' });
    const { grant_code } = (await pollStatus(t, flow)).result as { grant_code: string };
    expect(await methodOf(t, grant_code)).toBe('eudi_wallet');
    expect(logLines.join('\n')).toContain('wallet response accepted');
  });

  it('presents the PID without age_over_18 when the phone chose it: its birth date proves isAdult (design.md §15)', async () => {
    t = await listening();
    const flow = await startStandardFlow(t, { scopes: ['isAdult', 'isFrench'], client_proof_mode: true });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/m/requests/${flow.requestId}/complete`,
      payload: {
        h: flow.handoff,
        persona: 'fr-adult-f',
        method: 'eudi_wallet',
        outcome: 'approved',
        credential: 'pid-no-age',
      },
    });
    expect(res.json()).toEqual({ status: 'completed' });
    const { grant_code } = (await pollStatus(t, flow)).result as { grant_code: string };
    const exchanged = (await signedInject(t, { url: '/v1/exchange', body: { grant_code } })).json();
    expect(exchanged.attributes).toEqual({ age_over_18: true, is_french: true });
    expect(logLines.join('\n')).not.toMatch(/1998-07-02|birth_date/);
  });

  it('presents the credential the phone chose (an mDL), the PID by default, and refuses one the link does not accept', async () => {
    t = await listening();
    const post = (flow: Flow, body: Record<string, unknown>, verb = 'complete') =>
      t.app.inject({
        method: 'POST',
        url: `/api/m/requests/${flow.requestId}/${verb}`,
        payload: { h: flow.handoff, persona: 'de-adult', method: 'eudi_wallet', outcome: 'approved', ...body },
      });
    const mdl = await startStandardFlow(t, { scopes: ['isFrench', 'isEU'], client_proof_mode: true });
    expect((await post(mdl, { credential: 'mdl' })).json()).toEqual({ status: 'completed' });
    const { grant_code } = (await pollStatus(t, mdl)).result as { grant_code: string };
    const exchanged = (await signedInject(t, { url: '/v1/exchange', body: { grant_code } })).json();
    expect(exchanged.attributes).toEqual({ is_french: false, is_eu: true });

    const byDefault = await startStandardFlow(t, { scopes: ['isFrench'], client_proof_mode: true });
    const tampered = await post(byDefault, { tamper: 'nationality' }, 'wallet');
    expect(tampered.json()).toMatchObject({ status: 'pending', verifier: { status: 400 } });
    const refusedCredential = await post(byDefault, { credential: 'av' });
    expect(refusedCredential.statusCode).toBe(400);
    expect(refusedCredential.json().error).toBe('INVALID_REQUEST');
    expect((await post(byDefault, { credential: 'passport' })).statusCode).toBe(400);
    expect((await post(byDefault, {})).json()).toEqual({ status: 'completed' });
    expect(logLines.join('\n')).toMatch(/"outcome":"completed"/);
  });

  it('cancel is the wallet declining (access_denied); a tampered presentation leaves the request waiting', async () => {
    t = await listening();
    const flow = await proofFlow(t);
    const tampered = await t.app.inject({
      method: 'POST',
      url: `/api/m/requests/${flow.requestId}/wallet`,
      payload: { h: flow.handoff, persona: 'fr-adult-m', tamper: 'digest' },
    });
    expect(tampered.statusCode).toBe(200);
    expect(tampered.json()).toEqual({
      status: 'pending',
      verifier: { status: 400, error_description: expect.stringMatching(/digest/) },
    });
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/m/requests/${flow.requestId}/complete`,
      payload: { h: flow.handoff, method: 'eudi_wallet', outcome: 'cancelled' },
    });
    expect(cancelled.json()).toEqual({ status: 'failed' });
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'failed', reason: 'cancelled' });
  });

  it('the wallet action refuses a request without the wallet path and an unknown tamper', async () => {
    t = await listening();
    const plain = await startStandardFlow(t, { scopes: ['isAdult'], client_proof_mode: false });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/m/requests/${plain.requestId}/wallet`,
      payload: { h: plain.handoff, persona: 'fr-adult-m' },
    });
    expect(res.statusCode).toBe(400);
    const flow = await proofFlow(t);
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/m/requests/${flow.requestId}/wallet`,
      payload: { h: flow.handoff, persona: 'fr-adult-m', tamper: 'x' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('production', () => {
  it('offers no wallet path and registers no wallet route without SVC_WALLET_TRUST', async () => {
    t = await makeTestApp({ clock: clockAt() });
    // Sandbox mode always offers it; production's rule is the trust's `enabled` flag.
    const { loadWalletTrust } = await import('../wallet/index.ts');
    expect(loadWalletTrust({ mode: 'production' }).enabled).toBe(false);
    const { isWalletOffered } = await import('../domain/wallet-offer.ts');
    const off = { wallet: { ...t.deps.wallet, trust: { enabled: false, anchors: [], refusedKeys: [] } } };
    expect(isWalletOffered(off, { scopes: ['isAdult'], clientProofMode: true, channel: 'widget' })).toBe(false);
    const { registerWalletRoutes } = await import('./wallet.ts');
    const Fastify = (await import('fastify')).default;
    const bare = Fastify();
    registerWalletRoutes(bare, { ...t.deps, wallet: off.wallet });
    await bare.ready();
    expect((await bare.inject({ method: 'POST', url: '/oid4vp/response/vr_x' })).statusCode).toBe(404);
    await bare.close();
  });
});

describe('client proof mode for isAdult, isFrench and isEU: the PID and the mDL (design.md §13)', () => {
  async function frenchFlow(scopes: string[] = ['isAdult', 'isFrench']): Promise<Flow> {
    return startStandardFlow(t, { scopes, client_proof_mode: true });
  }

  async function presentAs(
    flow: Flow,
    credential: 'av' | 'pid' | 'mdl',
    options: {
      persona?: string;
      tamper?: WalletTamper;
      elements?: Record<string, unknown>;
      discloseAll?: boolean;
    } = {},
  ) {
    const { responseUri, body } = await createDirectPost({
      link: flow.created.wallet_link!,
      issuer,
      persona: personaOf(options.persona ?? 'fr-adult-f'),
      now: t.clock.now(),
      credential,
      ...(options.tamper ? { tamper: options.tamper } : {}),
      ...(options.elements ? { elements: options.elements } : {}),
      ...(options.discloseAll ? { discloseAll: true } : {}),
    });
    return postDirect(t.app, responseUri, body);
  }

  async function exchanged(flow: Flow): Promise<Record<string, unknown>> {
    const status = await pollStatus(t, flow);
    expect(status.status).toBe('completed');
    const { grant_code } = status.result as { grant_code: string };
    return (await signedInject(t, { url: '/v1/exchange', body: { grant_code } })).json();
  }

  it('answers an openid4vp:// link, dc_request and dc_requests (org-iso-mdoc, then openid4vp-v1-unsigned) for [isAdult, isFrench]', async () => {
    t = await walletApp();
    const { created } = await frenchFlow();
    expect(created.wallet_link).toMatch(/^openid4vp:\/\/\?response_type=vp_token&response_mode=direct_post&/);
    expect(created.dc_request?.protocol).toBe('org-iso-mdoc');
    expect(created.dc_requests?.map((r) => r.protocol)).toEqual(['org-iso-mdoc', 'openid4vp-v1-unsigned']);
    expect(created.dc_requests![0]).toEqual(created.dc_request);
    const { encodeQr } = await import('../rules/qr.ts');
    expect(created.qr).toEqual(encodeQr(created.wallet_link!));
  });

  it('keeps both private keys sealed in the store', async () => {
    t = await walletApp();
    const flow = await frenchFlow();
    const record = (await t.store.getRequest(flow.requestId, t.clock.now()))!;
    expect(record.wallet!.dc.recipientPrivateKey).toMatch(/^v1\./);
    expect(record.wallet!.oid4vpDc!.privateKey).toMatch(/^v1\./);
    expect(record.wallet!.scopes).toEqual(['isAdult', 'isFrench']);
  });

  it("completes with a French adult's PID: the partner reads age_over_18 and is_french, nothing else", async () => {
    t = await walletApp();
    const flow = await frenchFlow(['isAdult', 'isFrench', 'isEU']);
    expect((await presentAs(flow, 'pid', { discloseAll: true })).statusCode).toBe(200);
    const answer = await exchanged(flow);
    expect(answer).toMatchObject({
      scopes: ['isAdult', 'isFrench', 'isEU'],
      attributes: { age_over_18: true, is_french: true, is_eu: true },
    });
    expect(Object.keys(answer.attributes as object).sort()).toEqual(['age_over_18', 'is_eu', 'is_french']);
    // The birth date the wallet over-shared is neither kept nor logged. (Its full date: a bare
    // "1998" also turns up by chance in a log line's millisecond timestamp or a random id.)
    expect(JSON.stringify(answer)).not.toMatch(/1998-07-02|birth/);
    expect(logLines.join('\n')).not.toMatch(/1998-07-02|birth_date|"FR"/);
  });

  it("completes a German adult's PID for isFrench false and isEU true", async () => {
    t = await walletApp();
    const flow = await frenchFlow(['isFrench', 'isEU']);
    expect((await presentAs(flow, 'pid', { persona: 'de-adult' })).statusCode).toBe(200);
    expect((await exchanged(flow)).attributes).toEqual({ is_french: false, is_eu: true });
  });

  it('completes with an mDL too', async () => {
    t = await walletApp();
    const flow = await frenchFlow();
    expect((await presentAs(flow, 'mdl', { persona: 'fr-adult-m' })).statusCode).toBe(200);
    expect((await exchanged(flow)).attributes).toEqual({ age_over_18: true, is_french: true });
  });

  it('fails the request with reason claims_missing for an mDL without nationality, answering the wallet 200', async () => {
    t = await walletApp();
    const flow = await frenchFlow();
    const res = await presentAs(flow, 'mdl', { elements: { nationality: undefined } });
    expect(res.statusCode).toBe(200);
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'failed', reason: 'claims_missing' });
    const accepted = logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'wallet response accepted');
    expect(accepted).toMatchObject({ requestId: flow.requestId, outcome: 'failed', reason: 'claims_missing' });
  });

  it('fails a minor as not adult even when the nationality is there', async () => {
    t = await walletApp();
    const flow = await frenchFlow();
    expect((await presentAs(flow, 'pid', { persona: 'fr-minor' })).statusCode).toBe(200);
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'failed', reason: 'failed' });
  });

  it.each([
    ['a nationality rewritten after signing', 'pid', 'nationality', 'digests'],
    ['a PID keyed as mdl', 'pid', 'credential-id', 'doctype'],
    ['an mDL keyed as pid', 'mdl', 'credential-id', 'doctype'],
  ] as const)('refuses %s with 400 (%s) and the request stays waiting', async (_label, credential, tamper, check) => {
    t = await walletApp();
    const flow = await frenchFlow();
    const res = await presentAs(flow, credential, { persona: 'de-adult', tamper });
    expect(res.statusCode).toBe(400);
    const refused = logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'wallet response refused');
    expect(refused).toMatchObject({ requestId: flow.requestId, check });
    expect((await pollStatus(t, flow)).status).toBe('pending');
    expect((await presentAs(flow, credential)).statusCode).toBe(200);
  });

  it('refuses a proof of age for isFrench: the link does not ask for it (vp_token)', async () => {
    t = await walletApp();
    const flow = await frenchFlow();
    const age = await proofFlow(t);
    const { body } = await createDirectPost({
      link: age.created.wallet_link!,
      issuer,
      persona: personaOf('fr-adult-f'),
      now: t.clock.now(),
    });
    const form = new URLSearchParams(body);
    form.set('state', parseWalletLink(flow.created.wallet_link!).state);
    const res = await postDirect(t.app, `http://x/oid4vp/response/${flow.requestId}`, form.toString());
    expect(res.statusCode).toBe(400);
    expect((await pollStatus(t, flow)).status).toBe('pending');
  });

  it('completes an ADULT_BLIND request for isAdult and isEU: the attestation sets the bits proven true', async () => {
    t = await walletApp();
    const flow = await startBlindFlow(t, { clientProofMode: true, scopes: ['isAdult', 'isFrench', 'isEU'] });
    expect((await presentAs(flow, 'pid', { persona: 'de-adult' })).statusCode).toBe(200);
    const { attestation } = (await pollStatus(t, flow)).result as { attestation: string };
    const claims = JSON.parse(Buffer.from(attestation.split('.')[1]!, 'base64url').toString('utf8'));
    expect(claims.scope_mask).toBe(0b101);
  });

  describe('through the Digital Credentials API, both protocols', () => {
    function dcPost(flow: Flow, credential: unknown, origin = PARTNER_ORIGIN) {
      return t.app.inject({
        method: 'POST',
        url: `/api/w/wallet-response/${flow.requestId}?pt=${flow.pollToken}`,
        headers: { 'content-type': 'text/plain;charset=UTF-8', origin },
        payload: JSON.stringify(credential),
      });
    }

    it.each(['org-iso-mdoc', 'openid4vp-v1-unsigned'] as const)(
      "completes with a French adult's PID over %s",
      async (protocol) => {
        t = await walletApp();
        const flow = await frenchFlow(['isAdult', 'isFrench']);
        const credential = await createDcApiCredential({
          dcRequest: flow.created.dc_requests!.find((r) => r.protocol === protocol)!,
          origin: PARTNER_ORIGIN,
          issuer,
          persona: personaOf('fr-adult-f'),
          now: t.clock.now(),
          credential: 'pid',
        });
        expect(credential.protocol).toBe(protocol);
        expect((await dcPost(flow, credential)).statusCode).toBe(200);
        expect((await exchanged(flow)).attributes).toEqual({ age_over_18: true, is_french: true });
      },
    );

    it.each(['org-iso-mdoc', 'openid4vp-v1-unsigned'] as const)(
      'binds %s to the page origin: another Origin header, or a transcript for another origin, is refused and the request waits',
      async (protocol) => {
        t = await walletApp();
        const flow = await frenchFlow(['isFrench']);
        const make = (tamper?: WalletTamper) =>
          createDcApiCredential({
            dcRequest: flow.created.dc_requests!.find((r) => r.protocol === protocol)!,
            origin: PARTNER_ORIGIN,
            issuer,
            persona: personaOf('fr-adult-f'),
            now: t.clock.now(),
            ...(tamper ? { tamper } : {}),
          });
        const genuine = await make();
        const otherOrigin = await dcPost(flow, genuine, 'https://attacker.example');
        expect(otherOrigin.statusCode).toBe(400);
        expect(otherOrigin.json().error_description).toMatch(/origin/);
        const signedElsewhere = await dcPost(flow, await make('origin'));
        expect(signedElsewhere.statusCode).toBe(400);
        expect(signedElsewhere.json().error_description).toBe('the device signature does not cover this request');
        expect((await pollStatus(t, flow)).status).toBe('pending');
        expect((await dcPost(flow, genuine)).statusCode).toBe(200);
      },
    );

    it('offers the phone page the same dc_requests, and completes from it over openid4vp-v1-unsigned', async () => {
      t = await walletApp();
      const flow = await frenchFlow();
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
      expect(wallet.wallet_link).toBe(flow.created.wallet_link);
      expect(wallet.dc_requests).toEqual(flow.created.dc_requests);
      const appOrigin = new URL(t.deps.config.appUrl).origin;
      const credential = await createDcApiCredential({
        dcRequest: wallet.dc_requests[1]!,
        origin: appOrigin,
        issuer,
        persona: personaOf('fr-adult-f'),
        now: t.clock.now(),
        credential: 'mdl',
        elements: { nationality: undefined },
      });
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/m/requests/${flow.requestId}/wallet-response`,
        headers: { 'content-type': 'application/json', origin: appOrigin },
        payload: { h: flow.handoff, credential },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'failed', reason: 'claims_missing' });
    });
  });
});
