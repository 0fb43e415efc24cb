import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../clock.ts';
import { originHash } from '../../crypto/blind.ts';
import { createPartnerClient } from '../../sdk/index.ts';
import { makeTestApp, PARTNERS, type TestApp } from '../../test/helpers.ts';
import { injectFetch, type InjectFetch } from '../../test/inject-fetch.ts';
import { issuePrivateToken } from '../../test/private-client.ts';
import { completeOnPhone, handoffOf } from '../../test/verify-flow.ts';
import type { PartnerContext } from '../context.ts';
import { createPageRenderer } from '../pages.ts';
import { createExchangeMemory } from '../results.ts';
import { createSessionCookies } from '../session.ts';
import { createPrivatePages, readPrivateScopes } from './private.ts';

const SERVICE_URL = 'http://svc.test';
const ORIGIN = 'http://localhost:8788';

// One service and one partner for the file: the service's first private key set takes a second or two.
let service: TestApp;
let partner: FastifyInstance;
let serviceFetch: InjectFetch;

beforeAll(async () => {
  service = await makeTestApp({ clock: createFakeClock(Date.now()) });
  serviceFetch = injectFetch(service.app);
  partner = Fastify({ logger: false });
  const context: PartnerContext = {
    origin: ORIGIN,
    serviceUrl: SERVICE_URL,
    apiUrl: SERVICE_URL,
    partner: PARTNERS.demo,
    client: createPartnerClient({ apiUrl: SERVICE_URL, partnerId: PARTNERS.demo.id, secret: PARTNERS.demo.secret }),
    exchanges: createExchangeMemory({ now: () => service.clock.now() }),
    sessions: createSessionCookies({ secret: 'the private pages test cookie secret' }),
    pages: createPageRenderer({ serviceOrigin: SERVICE_URL }),
  };
  createPrivatePages({
    partner: PARTNERS.blindPrivate,
    appId: 'app_blind_private',
    fetch: serviceFetch,
    now: () => service.clock.now(),
  })(partner, context);
  await partner.ready();
});
afterAll(async () => {
  await partner?.close();
  await service?.close();
});

const attributeIn = (html: string, name: string): string => new RegExp(`data-${name}="([^"]+)"`).exec(html)![1]!;
const sessionCookie = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0]!;

/** The page, then the widget's whole part: the request, the phone, the blinding chunk's token. */
async function visitAndVerify(cookie?: string) {
  const page = await partner.inject({ url: '/private', headers: cookie ? { cookie } : {} });
  expect(page.statusCode).toBe(200);
  const created = await service.app.inject({
    method: 'POST',
    url: '/api/w/verify-request',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN },
    payload: JSON.stringify({ session_token: attributeIn(page.body, 'session-token'), client_proof_mode: false }),
  });
  const request = created.json() as { request_id: string; poll_token: string; deep_link: string; attestation?: string };
  expect(request.attestation).toBe('private');
  const flow = { requestId: request.request_id, handoff: handoffOf(request.deep_link) };
  expect((await completeOnPhone(service, flow)).statusCode).toBe(200);
  // the widget's part, as the blinding chunk does it (src/private/attest.ts; the journeys run the chunk itself)
  const { attestation } = await issuePrivateToken(
    service,
    { requestId: request.request_id, pollToken: request.poll_token },
    { redemptionContext: new Uint8Array(Buffer.from(attributeIn(page.body, 'redemption-context'), 'base64url')) },
  );
  return { page, attestation, cookie: cookie ?? sessionCookie(page) };
}

const verify = (attestation: string, cookie: string) =>
  partner.inject({ method: 'POST', url: '/api/private/verify', payload: { attestation }, headers: { cookie } });

describe('the example partner’s private page', () => {
  it('embeds the loader with a fresh session token and a fresh redemption context on every load', async () => {
    const first = await partner.inject('/private');
    const second = await partner.inject('/private');
    expect(first.body).toContain(`<script async src="${SERVICE_URL}/v4/loader.min.js"`);
    expect(first.body).toContain('data-success-path="/private/success"');
    expect(attributeIn(first.body, 'redemption-context')).toMatch(/^[\w-]{43}$/);
    expect(attributeIn(second.body, 'redemption-context')).not.toBe(attributeIn(first.body, 'redemption-context'));
    expect(first.body).not.toContain(PARTNERS.blindPrivate.secret);
    const claims = await service.deps.blind.verifySessionToken(attributeIn(first.body, 'session-token'));
    expect(claims).toMatchObject({ app_id: 'app_blind_private', origin_hash: originHash(ORIGIN), scope_mask: 1 });
    expect(readPrivateScopes('isAdult,isUnique')).toEqual(['isAdult']);
    expect(readPrivateScopes('isAdult,isEU')).toEqual(['isAdult', 'isEU']);
  });

  it('verifies the token offline for its page’s context, once: the same token again is refused as REUSED', async () => {
    const { attestation, cookie } = await visitAndVerify();
    const first = await verify(attestation, cookie);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ verified: true, adult: true, french: false, eu: false });
    expect(first.json().facts[0]).toMatchObject({ name: 'adult', value: 'yes' });
    const again = await verify(attestation, cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ verified: false, error: 'REUSED' });
  });

  it('refuses a token from another session’s page, and a token that is not one', async () => {
    const { attestation } = await visitAndVerify();
    const stranger = sessionCookie(await partner.inject('/private'));
    const res = await verify(attestation, stranger);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ verified: false, error: 'WRONG_CONTEXT' });
    expect((await verify('not-a-token', stranger)).json()).toMatchObject({ error: 'MALFORMED' });
    expect((await verify('', stranger)).statusCode).toBe(400);
  });

  it('finds the right context among several open pages of one session', async () => {
    const { cookie } = await visitAndVerify();
    const second = await visitAndVerify(cookie);
    expect((await verify(second.attestation, cookie)).json()).toMatchObject({ verified: true });
  });
});
