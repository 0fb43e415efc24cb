import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../clock.ts';
import { originHash } from '../../crypto/blind.ts';
import { clearJwksCache, createPartnerClient } from '../../sdk/index.ts';
import { runBlindFlow } from '../../test/blind-flow.ts';
import { makeTestApp, PARTNERS, type TestApp, type TestPartner } from '../../test/helpers.ts';
import { injectFetch, type InjectFetch } from '../../test/inject-fetch.ts';
import type { PartnerContext } from '../context.ts';
import { createPageRenderer } from '../pages.ts';
import { createExchangeMemory } from '../results.ts';
import { createSessionCookies } from '../session.ts';
import { createBlindPages, readBlindScopes } from './blind.ts';

const SERVICE_URL = 'http://svc.test';
const ORIGIN = 'http://localhost:8788';

let service: TestApp;
let partner: FastifyInstance;
let serviceFetch: InjectFetch;

async function buildPartner(
  credentials: { id: string; secret: string } = PARTNERS.blindShop,
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  const context: PartnerContext = {
    origin: ORIGIN,
    serviceUrl: SERVICE_URL,
    apiUrl: SERVICE_URL,
    partner: PARTNERS.demo,
    client: createPartnerClient({
      apiUrl: SERVICE_URL,
      partnerId: PARTNERS.demo.id,
      secret: PARTNERS.demo.secret,
      fetch: serviceFetch,
    }),
    exchanges: createExchangeMemory({ now: () => service.clock.now() }),
    sessions: createSessionCookies({ secret: 'the blind pages test cookie secret' }),
    pages: createPageRenderer({ serviceOrigin: SERVICE_URL }),
  };
  createBlindPages({
    partner: credentials,
    appId: 'app_blind_shop',
    sessionOptions: { fetch: serviceFetch, clock: service.clock, sleep: async () => {} },
    verifyOptions: { fetch: serviceFetch, now: () => service.clock.now() },
  })(app, context);
  app.get<{ Params: { file: string } }>('/assets/:file', async (request, reply) => {
    const asset = context.pages.asset(request.params.file);
    return asset ? reply.type(asset.contentType).send(asset.body) : reply.code(404).send();
  });
  await app.ready();
  return app;
}

beforeEach(async () => {
  clearJwksCache();
  service = await makeTestApp({ clock: createFakeClock(Date.now()) });
  serviceFetch = injectFetch(service.app);
  partner = await buildPartner();
});
afterEach(async () => {
  await partner.close();
  await service.close();
});

function sessionTokenIn(html: string): string {
  return /data-session-token="([^"]+)"/.exec(html)![1]!;
}

async function attestation(
  input: { partner?: TestPartner; origin?: string; persona?: string; scopes?: string[] } = {},
): Promise<string> {
  const flow = await runBlindFlow(service, {
    partner: input.partner ?? PARTNERS.blindShop,
    origin: input.origin ?? ORIGIN,
    persona: input.persona ?? 'fr-adult-m',
    ...(input.scopes ? { scopes: input.scopes } : {}),
  });
  return flow.attestation;
}

const verify = (body: unknown, cookie?: string) =>
  partner.inject({
    method: 'POST',
    url: '/api/blind/verify',
    payload: body as object,
    headers: cookie ? { cookie } : {},
  });
/** The `name=value` of the session cookie a response set. */
const sessionCookie = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0]!;

describe('ADULT_BLIND page', () => {
  it('embeds the loader with a fresh session token for this origin and the success path', async () => {
    const first = await partner.inject('/blind');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain(`<script async src="${SERVICE_URL}/v4/loader.min.js"`);
    expect(first.body).toContain('data-success-path="/blind/success"');
    expect(first.body).not.toContain('data-partner-id');
    const claims = await service.deps.blind.verifySessionToken(sessionTokenIn(first.body));
    expect(claims).toMatchObject({ app_id: 'app_blind_shop', origin_hash: originHash(ORIGIN), scope_mask: 1 });

    const second = await partner.inject('/blind');
    expect(sessionTokenIn(second.body)).not.toBe(sessionTokenIn(first.body));
    expect(serviceFetch.calls.filter((c) => c.path === '/api/billing/session')).toHaveLength(2);
  });

  it('never shows the partner ID or secret to the browser', async () => {
    const res = await partner.inject('/blind');
    expect(res.body).not.toContain(PARTNERS.blindShop.id);
    expect(res.body).not.toContain(PARTNERS.blindShop.secret);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('asks for the scopes in ?scopes= when the rail accepts them, and tells its success page what it asked', async () => {
    const res = await partner.inject('/blind?scopes=isAdult,isUnique');
    expect((await service.deps.blind.verifySessionToken(sessionTokenIn(res.body))).scope_mask).toBe(0b1001);
    expect(res.body).toContain('data-success-path="/blind/success?scopes=isAdult,isUnique"');
    expect(res.body).toContain('<span data-testid="scopes">18 or older · Your anonymous ID for this shop</span>');
    expect(readBlindScopes('isMale')).toEqual(['isAdult']);
    expect(readBlindScopes('isAdult,isAdult')).toEqual(['isAdult']);
    expect(readBlindScopes(undefined)).toEqual(['isAdult']);
  });

  it('is written in the language of ?locale=, with the widget and the success path in it too', async () => {
    const res = await partner.inject('/blind?locale=nl&scopes=isAdult,isEU');
    expect(res.body).toContain('<html lang="nl">');
    expect(res.body).toContain('<h1>Bevestig uw leeftijd anoniem</h1>');
    expect(res.body).toContain('data-locale="nl"');
    expect(res.body).toContain('data-success-path="/blind/success?locale=nl&amp;scopes=isAdult,isEU"');
  });

  it('turns on server-verify against its own confirm endpoint in the server-verify variant', async () => {
    const res = await partner.inject('/blind-server-verify');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('data-server-verify="true"');
    expect(res.body).toContain('data-server-verify-endpoint="/api/blind/confirm"');
    await expect(service.deps.blind.verifySessionToken(sessionTokenIn(res.body))).resolves.toBeTruthy();
  });

  it('shows an unavailable page with the service code when the billing session is refused', async () => {
    await partner.close();
    partner = await buildPartner(PARTNERS.demo);
    const res = await partner.inject('/blind?locale=de');
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('FORBIDDEN_RAIL');
    expect(res.body).toContain('<h1>Die Altersprüfung ist gerade nicht verfügbar</h1>');
    expect(res.body).not.toContain('data-session-token');
  });

  it('serves the success page and its script', async () => {
    const page = await partner.inject('/blind/success');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toContain('<h1>Your age check</h1>');
    expect(page.body).toContain('data-asked="isAdult"');
    expect(page.body).not.toContain('Welcome in');
    expect(page.body).toContain('<script src="/assets/blind-success.js"></script>');
    expect((await partner.inject('/assets/blind-success.js')).statusCode).toBe(200);
  });

  it('serves the success page in the language of ?locale=, knowing what the shop asked for', async () => {
    const page = await partner.inject('/blind/success?locale=fr&scopes=isAdult,isEU');
    expect(page.body).toContain('<html lang="fr">');
    expect(page.body).toContain('<h1>Votre vérification d’âge</h1>');
    expect(page.body).toContain('data-asked="isAdult,isEU"');
    expect((await partner.inject('/blind/success?scopes=isMale')).body).toContain('data-asked="isAdult"');
  });
});

describe('POST /api/blind/verify', () => {
  it('verifies an attestation offline and shows the facts it proves', async () => {
    const jws = await attestation({ scopes: ['isAdult', 'isFrench', 'isUnique'] });
    const before = serviceFetch.calls.length;
    const res = await verify({ attestation: jws, scopes: 'isAdult,isFrench,isUnique' });
    expect(res.statusCode).toBe(200);
    const nullifier = expect.stringMatching(/^0x[0-9a-f]{64}$/);
    expect(res.json()).toEqual({
      verified: true,
      source: 'verified',
      adult: true,
      french: true,
      eu: false,
      unique: true,
      nullifier,
      exp: expect.any(Number),
      facts: [
        { name: 'adult', label: '18 or older', value: 'yes' },
        { name: 'french', label: 'French nationality', value: 'yes' },
        { name: 'eu', label: 'EU citizen', value: 'not asked' },
        { name: 'nullifier', label: 'Your anonymous ID for this shop', value: nullifier },
      ],
    });
    // Offline: the only call is for the public keys, and it does not carry the attestation.
    const calls = serviceFetch.calls.slice(before);
    expect(calls.map((c) => c.path)).toEqual(['/api/billing/attestation-keys']);
    expect(JSON.stringify(calls)).not.toContain(jws);
  });

  it('says "not asked", not "no", for nationality and EU when the shop asked for isAdult only', async () => {
    // A French adult: only bit 0 is set because only isAdult was asked for.
    const jws = await attestation({ persona: 'fr-adult-m', scopes: ['isAdult'] });
    const res = await verify({ attestation: jws, scopes: 'isAdult' });
    const body = res.json();
    expect(body).toMatchObject({ adult: true, french: false, eu: false });
    const value = (name: string) => body.facts.find((f: { name: string }) => f.name === name)?.value;
    expect([value('adult'), value('french'), value('eu'), value('nullifier')]).toEqual([
      'yes',
      'not asked',
      'not asked',
      'not asked',
    ]);
  });

  it('says "no" for a fact asked for and not proven, in the language asked for', async () => {
    const jws = await attestation({ persona: 'us-adult', scopes: ['isAdult', 'isEU'] });
    const res = await verify({ attestation: jws, scopes: 'isAdult,isEU', locale: 'es' });
    expect(res.json().facts.map((f: { label: string; value: string }) => `${f.label}: ${f.value}`)).toEqual([
      '18 años o más: sí',
      'Nacionalidad francesa: no solicitado',
      'Ciudadano de la UE: no',
      'Su identificador anónimo para esta tienda: no solicitado',
    ]);
  });

  it('answers from memory when the same attestation comes back in the same session', async () => {
    const jws = await attestation();
    const first = await verify({ attestation: jws });
    expect(first.json()).toMatchObject({ source: 'verified' });
    expect((await verify({ attestation: jws }, sessionCookie(first))).json()).toMatchObject({
      source: 'remembered',
      adult: true,
    });
  });

  it('refuses the same attestation from another session with 409 ATTESTATION_ALREADY_USED', async () => {
    const jws = await attestation();
    expect((await verify({ attestation: jws })).statusCode).toBe(200);
    const replay = await verify({ attestation: jws });
    expect(replay.statusCode).toBe(409);
    expect(replay.json()).toMatchObject({ verified: false, error: 'ATTESTATION_ALREADY_USED' });
  });

  it('reports a minor as verified but not adult', async () => {
    const res = await verify({ attestation: await attestation({ persona: 'fr-minor' }) });
    expect(res.json()).toMatchObject({ verified: true, adult: false });
  });

  it("refuses another app's attestation, a tampered one and a missing one", async () => {
    const club = await attestation({ partner: PARTNERS.blindClub, origin: 'http://127.0.0.1:8788' });
    expect((await verify({ attestation: club })).json()).toMatchObject({ verified: false, error: 'WRONG_APP' });
    const [h, p, s] = (await attestation()).split('.') as [string, string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), scope_mask: 15 }),
    ).toString('base64url');
    const tampered = await verify({ attestation: `${h}.${forged}.${s}` });
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json()).toMatchObject({ error: 'BAD_SIGNATURE' });
    expect((await verify({})).statusCode).toBe(400);
    expect((await verify({ attestation: 42 })).statusCode).toBe(400);
  });

  it('refuses an attestation from its exp on', async () => {
    const jws = await attestation();
    service.clock.advance(300_000);
    expect((await verify({ attestation: jws })).json()).toMatchObject({ verified: false, error: 'EXPIRED' });
  });
});

describe('GET /api/blind/confirm', () => {
  const confirm = (value?: string) =>
    partner.inject({ url: '/api/blind/confirm', headers: value === undefined ? {} : { 'X-SVC-Attestation': value } });

  it('confirms a valid attestation from the X-SVC-Attestation header', async () => {
    const res = await confirm(await attestation());
    expect(res.json()).toEqual({ verified: true });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('does not confirm a missing, malformed or foreign attestation', async () => {
    expect((await confirm()).json()).toEqual({ verified: false });
    expect((await confirm('a.b.c')).json()).toEqual({ verified: false });
    expect(
      (await confirm(await attestation({ partner: PARTNERS.blindClub, origin: 'http://127.0.0.1:8788' }))).json(),
    ).toEqual({ verified: false });
  });

  it('lets the success page of the same session show the result after server-verify confirmed it', async () => {
    const jws = await attestation();
    const confirmed = await confirm(jws);
    expect(confirmed.json()).toEqual({ verified: true });
    expect((await verify({ attestation: jws }, sessionCookie(confirmed))).json()).toMatchObject({
      verified: true,
      source: 'remembered',
    });
  });

  it('does not confirm an attestation another session presented first', async () => {
    const jws = await attestation();
    expect((await verify({ attestation: jws })).statusCode).toBe(200);
    const replay = await confirm(jws);
    expect(replay.statusCode).toBe(409);
    expect(replay.json()).toEqual({ verified: false, error: 'ATTESTATION_ALREADY_USED' });
  });
});
