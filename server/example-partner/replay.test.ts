import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../clock.ts';
import { clearJwksCache } from '../sdk/index.ts';
import { runBlindFlow } from '../test/blind-flow.ts';
import { makeTestApp, PARTNERS, putTestGrant, type TestApp } from '../test/helpers.ts';
import { createPartnerApp } from './app.ts';
import { SESSION_COOKIE } from './session.ts';

// The service and the example partner both over real HTTP, each on a free port; visitors are
// fetch() calls that keep the partner's session cookie like a browser does.

let service: TestApp;
let partner: FastifyInstance;
let partnerUrl: string;
let serviceUrl: string;

beforeAll(async () => {
  clearJwksCache();
  // The SDK signs with the real time, so the service's clock starts at the real time too.
  service = await makeTestApp({ clock: createFakeClock(Date.now()) });
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  serviceUrl = `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}`;
  // partnerPort only names the origin the attestations are bound to (the one the fixtures
  // register for the blind shop); the partner itself listens on a free port.
  partner = await createPartnerApp({
    partnerPort: 8788,
    serviceUrl,
    partner: PARTNERS.demo,
    blind: { partner: PARTNERS.blindShop, appId: 'app_blind_shop' },
  });
  await partner.listen({ port: 0, host: '127.0.0.1' });
  partnerUrl = `http://127.0.0.1:${(partner.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await partner?.close();
  await service?.close();
});

/** A visitor's browser: sends the partner's session cookie back once it has one. */
function visitor() {
  let cookie: string | undefined;
  const setCookies: string[] = [];
  async function send(path: string, init: { method?: string; headers?: Record<string, string>; body?: object } = {}) {
    const res = await fetch(partnerUrl + path, {
      method: init.method ?? 'GET',
      headers: {
        ...init.headers,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...(cookie ? { cookie } : {}),
      },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    });
    for (const value of res.headers.getSetCookie()) {
      setCookies.push(value);
      cookie = value.split(';')[0];
    }
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  return {
    setCookies,
    /** the success page's POST */
    exchange: (grantCode: string) => send('/api/exchange', { method: 'POST', body: { grant_code: grantCode } }),
    /** the loader's server-verify call */
    confirm: (grantCode: string) => send('/api/confirm', { headers: { 'X-SVC-Grant-Code': grantCode } }),
    verifyAttestation: (attestation: string) => send('/api/blind/verify', { method: 'POST', body: { attestation } }),
    confirmAttestation: (attestation: string) =>
      send('/api/blind/confirm', { headers: { 'X-SVC-Attestation': attestation } }),
  };
}

async function attestation(): Promise<string> {
  const origin = 'http://localhost:8788';
  return (
    await runBlindFlow(service, { partner: PARTNERS.blindShop, origin, persona: 'fr-adult-m', scopes: ['isAdult'] })
  ).attestation;
}

describe('a fresh flow', () => {
  it('is verified, and the result is bound to a signed HttpOnly SameSite=Lax session cookie', async () => {
    const alice = visitor();
    const res = await alice.exchange(await putTestGrant(service.deps, { scopes: ['isAdult'] }));
    expect(res).toMatchObject({
      status: 200,
      body: { verified: true, source: 'exchange', attributes: { age_over_18: true } },
    });
    expect(alice.setCookies).toHaveLength(1);
    expect(alice.setCookies[0]).toMatch(
      new RegExp(`^${SESSION_COOKIE}=[\\w-]{22}\\.[\\w-]{43}; Path=/; HttpOnly; SameSite=Lax$`),
    );

    const blind = await alice.verifyAttestation(await attestation());
    expect(blind).toMatchObject({ status: 200, body: { verified: true, source: 'verified', adult: true } });
    expect(alice.setCookies).toHaveLength(1);
  });

  it('with server-verify: the success page of the same session gets the result the confirm endpoint checked', async () => {
    const alice = visitor();
    const grant = await putTestGrant(service.deps);
    expect(await alice.confirm(grant)).toEqual({ status: 200, body: { verified: true } });
    expect(await alice.exchange(grant)).toMatchObject({ status: 200, body: { verified: true, source: 'remembered' } });

    const jws = await attestation();
    expect(await alice.confirmAttestation(jws)).toEqual({ status: 200, body: { verified: true } });
    expect(await alice.verifyAttestation(jws)).toMatchObject({
      status: 200,
      body: { verified: true, source: 'remembered' },
    });
  });
});

describe('a replayed grant', () => {
  it('is refused with 409 GRANT_ALREADY_USED once exchanged, not answered verified: true', async () => {
    const grant = await putTestGrant(service.deps);
    expect((await visitor().exchange(grant)).status).toBe(200);
    const replay = await visitor().exchange(grant);
    expect(replay).toMatchObject({ status: 409, body: { verified: false, error: 'GRANT_ALREADY_USED' } });
  });

  it('is refused by the service when the partner no longer remembers it (restart, another instance)', async () => {
    const grant = await putTestGrant(service.deps);
    expect((await visitor().exchange(grant)).status).toBe(200);
    const restarted = await createPartnerApp({ partnerPort: 8788, serviceUrl, partner: PARTNERS.demo });
    try {
      const res = await restarted.inject({ method: 'POST', url: '/api/exchange', payload: { grant_code: grant } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ verified: false, error: 'GRANT_INVALID' });
    } finally {
      await restarted.close();
    }
  });
});

describe('a replayed attestation', () => {
  it('is refused with 409 ATTESTATION_ALREADY_USED once its jti was seen, although its signature is still valid', async () => {
    const jws = await attestation();
    expect((await visitor().verifyAttestation(jws)).status).toBe(200);
    const replay = await visitor().verifyAttestation(jws);
    expect(replay).toMatchObject({ status: 409, body: { verified: false, error: 'ATTESTATION_ALREADY_USED' } });
  });
});

describe('a result presented from another session', () => {
  it('is refused on the success page and by server-verify, for a grant and for an attestation', async () => {
    const alice = visitor();
    const mallory = visitor();
    const grant = await putTestGrant(service.deps);
    expect((await alice.confirm(grant)).body).toEqual({ verified: true });
    expect(await mallory.exchange(grant)).toMatchObject({
      status: 409,
      body: { verified: false, error: 'GRANT_ALREADY_USED' },
    });
    expect(await mallory.confirm(grant)).toMatchObject({ status: 409, body: { verified: false } });

    const jws = await attestation();
    expect((await alice.confirmAttestation(jws)).body).toEqual({ verified: true });
    const replay = await mallory.verifyAttestation(jws);
    expect(replay).toMatchObject({ status: 409, body: { verified: false, error: 'ATTESTATION_ALREADY_USED' } });
    expect(await mallory.confirmAttestation(jws)).toMatchObject({ status: 409, body: { verified: false } });
    // Alice's own session still gets her result.
    expect((await alice.exchange(grant)).body).toMatchObject({ verified: true });
    expect((await alice.verifyAttestation(jws)).body).toMatchObject({ verified: true });
  });

  it('is refused when the session cookie was forged rather than issued by the partner', async () => {
    const alice = visitor();
    const grant = await putTestGrant(service.deps);
    expect((await alice.exchange(grant)).status).toBe(200);
    const aliceId = alice.setCookies[0]!.split(';')[0]!.split('=')[1]!.split('.')[0]!;
    const forged = await fetch(`${partnerUrl}/api/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `${SESSION_COOKIE}=${aliceId}.${'A'.repeat(43)}` },
      body: JSON.stringify({ grant_code: grant }),
    });
    expect(forged.status).toBe(409);
    expect(forged.headers.getSetCookie()).toHaveLength(1);
  });
});
