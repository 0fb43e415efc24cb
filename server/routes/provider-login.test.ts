/**
 * Identity providers through the HTTP surface (design.md §12), against a real
 * node-oidc-provider listening in this process (the example provider), in production mode: the
 * phone opens the request, starts the login, the visitor signs in at the provider, the callback
 * completes the request; the partner exchanges the grant or reads the attestation. Hostile
 * callbacks leave the request as it was and log only codes. The relying party's own checks (ID
 * token signature, nonce, expiry…) have their negative tests in server/providers/.
 */
import Database from 'better-sqlite3';
import { decodeJwt } from 'jose';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import personas from '../../fixtures/personas.json' with { type: 'json' };
import type { Persona } from '../../src/protocol/sandbox.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/protocol/scopes.ts';
import { createApp } from '../app.ts';
import { createFakeClock } from '../clock.ts';
import type { ExampleProvider } from '../sandbox/example-idp/provider.ts';
import { signInAtExampleProvider } from '../sandbox/example-idp/sign-in.ts';
import { liveIdOf, makeProductionTestDeps, PARTNERS, signedInject, type TestApp } from '../test/helpers.ts';
import {
  clientsOf,
  REDIRECT_URI,
  startHandMadeProvider,
  startProvider,
  type HandMadeProvider,
} from '../test/providers.ts';
import { createEcJwk } from '../wallet/keys.ts';
import { issueTestSessionToken, postVerifyRequest, type Flow } from '../test/verify-flow.ts';
import { pollStatus, startStandardFlow } from '../test/verify-flow.ts';
import { personaClaims } from '../sandbox/personas.ts';
import { openRedisStore } from '../store/redis.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import { startRedisServer, type RedisServer } from '../test/redis-server.ts';
import type { Store } from '../store/store.ts';

let provider: ExampleProvider;
let other: ExampleProvider;
/** A provider whose token endpoint answers the ID token a test made (server/test/providers.ts). */
let hand: HandMadeProvider;
/** A built phone page, as dist/ holds it after `npm run build`. */
const dist = mkdtempSync(join(tmpdir(), 'svc-dist-'));
mkdirSync(join(dist, 'phone'));
writeFileSync(join(dist, 'phone', 'index.html'), '<!doctype html><title>phone</title>');
beforeAll(async () => {
  [provider, other, hand] = [await startProvider(), await startProvider(), await startHandMadeProvider()];
});
afterAll(async () => {
  await provider.close();
  await other.close();
  await hand.close();
  rmSync(dist, { recursive: true, force: true });
});

/** Every scope a request may ask at once (isMale and isFemale exclude each other). */
const ALL_SCOPES = SCOPES.filter((scope) => scope !== 'isMale');

let t: TestApp | undefined;
let logLines: string[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  logLines = [];
});

/** Production, no wallet: the providers registered here are the only way to prove anything. */
async function productionApp(
  providers: Array<{ id: string; issuer: string; proves?: readonly string[] }> = [],
  options: { store?: Store } = {},
) {
  const base = await makeProductionTestDeps({
    clock: createFakeClock(Date.now()),
    env: { SVC_DIST_DIR: dist },
    ...options,
  });
  for (const [index, entry] of providers.entries()) {
    const client = clientsOf(entry.issuer).client_secret_basic;
    await base.store.putProvider({
      id: entry.id,
      issuer: client.issuer,
      clientId: client.clientId,
      clientAuth: client.clientAuth,
      credential: client.credential,
      name: `Provider ${index + 1}`,
      method: 'face_check',
      proves: [...((entry.proves ?? SCOPES) as typeof SCOPES)],
      enabled: true,
      createdAt: base.clock.now(),
    });
  }
  const app = await createApp(base.deps, {
    logger: { level: 'info', stream: { write: (line: string) => void logLines.push(line) } },
  });
  await app.ready();
  return { ...base, app, close: async () => (await app.close(), await base.store.close()) } as TestApp;
}

const persona = (id: string) => (personas as Persona[]).find((p) => p.id === id)!;

const standard = (scopes: readonly string[]) => ({ partner_id: liveIdOf(PARTNERS.demo.id), scopes });

function openOnPhone(target: TestApp, flow: Flow) {
  return target.app.inject({
    method: 'POST',
    url: `/api/m/requests/${flow.requestId}/open`,
    payload: { h: flow.handoff },
  });
}

/** The phone's browser: the login cookie the last start set (`name=value`), sent back as a browser would. */
let jar: string | undefined;
afterEach(() => {
  jar = undefined;
});

async function startLogin(target: TestApp, flow: Flow, providerId = 'idp_test', h = flow.handoff) {
  const res = await target.app.inject({
    method: 'POST',
    url: `/api/m/requests/${flow.requestId}/providers/${providerId}/start`,
    payload: { h },
    headers: jar === undefined ? {} : { cookie: jar },
  });
  const set = res.headers['set-cookie'];
  if (set !== undefined) jar = String(set).split(';')[0];
  return res;
}

/** The phone starts the login; the visitor signs in (or declines) at the provider: the callback URL. */
async function signIn(target: TestApp, flow: Flow, choice: { persona?: string; decision?: 'approve' | 'decline' }) {
  const started = await startLogin(target, flow);
  expect(started.statusCode).toBe(200);
  const { callbackUrl } = await signInAtExampleProvider(started.json().authorization_url, {
    decision: choice.decision ?? 'approve',
    redirectUri: REDIRECT_URI,
    ...(choice.persona ? { persona: choice.persona } : {}),
  });
  return callbackUrl;
}

/** The provider's redirect, followed in the phone's browser (`cookie`: the jar's by default; null: none). */
function callback(target: TestApp, url: URL, cookie: string | null | undefined = jar) {
  return target.app.inject({
    method: 'GET',
    url: url.pathname + url.search,
    headers: cookie === undefined || cookie === null ? {} : { cookie },
  });
}

/** The callback's answer: the phone page in its finished state, `?login=<result>`. */
async function finish(target: TestApp, flow: Flow, url: URL): Promise<string> {
  const res = await callback(target, url);
  expect(res.statusCode).toBe(303);
  const location = new URL(res.headers.location as string);
  expect(location.pathname).toBe(`/m/v/${flow.requestId}`);
  return location.searchParams.get('login')!;
}

async function exchange(target: TestApp, flow: Flow) {
  const status = await pollStatus(target, flow);
  const grant_code = (status.result as { grant_code: string }).grant_code;
  const partner = { id: liveIdOf(PARTNERS.demo.id), secret: PARTNERS.demo.secret };
  return (await signedInject(target, { url: '/v1/exchange', body: { grant_code }, partner })).json();
}

describe('a production request proven by an identity provider', () => {
  it('is refused with NO_METHOD while no provider proves its scopes, and created once one does', async () => {
    t = await productionApp([{ id: 'idp_age', issuer: provider.issuer, proves: ['isAdult'] }]);
    const refused = await postVerifyRequest(t, standard(['isAdult', 'isFrench']));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('NO_METHOD');
    expect((await postVerifyRequest(t, standard(['isAdult']))).statusCode).toBe(201);
  });

  it('completes STANDARD with every scope: the attributes equal the account’s facts, nothing more', async () => {
    t = await productionApp([{ id: 'idp_test', issuer: provider.issuer }]);
    const flow = await startStandardFlow(t, standard(ALL_SCOPES));
    const opened = await openOnPhone(t, flow);
    expect(opened.json().methods).toEqual([{ id: 'idp_test', name: 'Provider 1', method: 'face_check' }]);
    expect(await finish(t, flow, await signIn(t, flow, { persona: 'fr-adult-f' }))).toBe('approved');
    const exchanged = await exchange(t, flow);
    expect(exchanged.attributes).toEqual({
      age_over_18: true,
      is_french: true,
      is_eu: true,
      is_female: true,
      nationality: 'FRA',
      birth_year: Number(personaClaims(persona('fr-adult-f'), Date.now()).birthdate!.slice(0, 4)),
      nullifier: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    const partner = { id: liveIdOf(PARTNERS.demo.id), secret: PARTNERS.demo.secret };
    const introspected = await signedInject(t, {
      url: '/v1/introspect',
      body: { pass_token: exchanged.pass_token },
      partner,
    });
    expect(introspected.json().attributes.verification_method).toBe('face_check');
  });

  it('keeps minimal disclosure: [isAdult] yields age_over_18 only', async () => {
    t = await productionApp([{ id: 'idp_test', issuer: provider.issuer }]);
    const flow = await startStandardFlow(t, standard(['isAdult']));
    expect(await finish(t, flow, await signIn(t, flow, { persona: 'de-adult' }))).toBe('approved');
    expect((await exchange(t, flow)).attributes).toEqual({ age_over_18: true });
  });

  it('proves a minor not adult: age_over_18 false', async () => {
    t = await productionApp([{ id: 'idp_test', issuer: provider.issuer }]);
    const flow = await startStandardFlow(t, standard(['isAdult']));
    expect(await finish(t, flow, await signIn(t, flow, { persona: 'fr-minor' }))).toBe('approved');
    expect((await exchange(t, flow)).attributes.age_over_18).toBe(false);
  });

  it('completes ADULT_BLIND with an attestation whose bits are the facts proven', async () => {
    t = await productionApp([{ id: 'idp_test', issuer: provider.issuer }]);
    const token = await issueTestSessionToken(t, { scopes: ['isAdult', 'isFrench', 'isEU'] });
    const created = await postVerifyRequest(t, { session_token: token, client_proof_mode: false });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    const flow: Flow = {
      requestId: body.request_id,
      pollToken: body.poll_token,
      handoff: new URL(body.deep_link).hash.slice(3),
      created: body,
    };
    const opened = await openOnPhone(t, flow);
    expect(opened.json().audience_label).toBe('app_blind_shop');
    expect(await finish(t, flow, await signIn(t, flow, { persona: 'de-adult' }))).toBe('approved');
    const { attestation } = (await pollStatus(t, flow)).result as { attestation: string };
    // isAdult (bit 0) and isEU (bit 2) proven true, isFrench (bit 1) false.
    expect(decodeJwt(attestation).scope_mask).toBe(0b101);
  });

  it('fails the request as cancelled when the visitor declines at the provider, and tells the phone why', async () => {
    t = await productionApp([{ id: 'idp_test', issuer: provider.issuer }]);
    const flow = await startStandardFlow(t, standard(['isAdult']));
    expect(await finish(t, flow, await signIn(t, flow, { decision: 'decline' }))).toBe('failed');
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'failed', reason: 'cancelled' });
    // the phone page, back with ?login=failed, reads the reason with its handoff token
    expect((await openOnPhone(t, flow)).json()).toMatchObject({ status: 'failed', reason: 'cancelled', methods: [] });
  });

  it('fails the request with claims_missing when the provider leaves out a needed claim', async () => {
    const forgetful = await startProvider({
      claimsOf: (persona, now) => ({ ...personaClaims(persona, now), nationalities: undefined }),
    });
    try {
      t = await productionApp([{ id: 'idp_test', issuer: forgetful.issuer }]);
      const flow = await startStandardFlow(t, standard(['isFrench']));
      const started = await startLogin(t, flow);
      const { callbackUrl } = await signInAtExampleProvider(started.json().authorization_url, {
        persona: 'fr-adult-m',
        decision: 'approve',
        redirectUri: REDIRECT_URI,
      });
      expect(await finish(t, flow, callbackUrl)).toBe('failed');
      expect(await pollStatus(t, flow)).toMatchObject({ status: 'failed', reason: 'claims_missing' });
      expect((await openOnPhone(t, flow)).json()).toMatchObject({ status: 'failed', reason: 'claims_missing' });
    } finally {
      await forgetful.close();
    }
  });

  it('fails the request with provider_error when the provider is gone at the callback, and keeps serving', async () => {
    const fleeting = await startProvider();
    t = await productionApp([{ id: 'idp_test', issuer: fleeting.issuer }]);
    const flow = await startStandardFlow(t, standard(['isAdult']));
    const started = await startLogin(t, flow);
    const { callbackUrl } = await signInAtExampleProvider(started.json().authorization_url, {
      persona: 'fr-adult-m',
      decision: 'approve',
      redirectUri: REDIRECT_URI,
    });
    await fleeting.close();
    expect(await finish(t, flow, callbackUrl)).toBe('failed');
    expect(await pollStatus(t, flow)).toMatchObject({ status: 'failed', reason: 'provider_error' });
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    const next = await startStandardFlow(t, standard(['isAdult']));
    expect((await startLogin(t, next)).statusCode).toBe(503);
  });

  it('refuses a provider that cannot prove the scopes, a wrong h, and a finished request', async () => {
    t = await productionApp([
      { id: 'idp_test', issuer: provider.issuer },
      { id: 'idp_age', issuer: other.issuer, proves: ['isAdult'] },
    ]);
    const flow = await startStandardFlow(t, standard(['isAdult', 'isFrench']));
    expect((await startLogin(t, flow, 'idp_age')).json().error).toBe('INVALID_REQUEST');
    expect((await startLogin(t, flow, 'idp_nobody')).json().error).toBe('INVALID_REQUEST');
    expect((await startLogin(t, flow, 'idp_test', `h_${'A'.repeat(43)}`)).statusCode).toBe(404);
    await t.store.putProvider({ ...(await t.store.getProvider('idp_test'))!, enabled: false });
    expect((await startLogin(t, flow, 'idp_test')).json().error).toBe('INVALID_REQUEST');
    await t.store.putProvider({ ...(await t.store.getProvider('idp_test'))!, enabled: true });
    await finish(t, flow, await signIn(t, flow, { persona: 'fr-adult-m' }));
    expect((await startLogin(t, flow)).statusCode).toBe(409);
  });
});

describe('one browser: the login counts only in the browser that started it', () => {
  it('sets an HttpOnly, SameSite=Lax login cookie at the start, living no longer than the request', async () => {
    t = await productionApp([{ id: 'idp_test', issuer: provider.issuer }]);
    const flow = await startStandardFlow(t, standard(['isAdult']));
    const started = await startLogin(t, flow);
    const cookie = String(started.headers['set-cookie']);
    // an http app URL on loopback: the plain name, no Secure
    expect(cookie).toMatch(/^svc_login=[A-Za-z0-9_-]{43}; Max-Age=(\d+); Path=\/; HttpOnly; SameSite=Lax$/);
    const deadlineAt = (await t.store.getRequest(flow.requestId, t.clock.now()))!.deadlineAt;
    expect(Number(/Max-Age=(\d+)/.exec(cookie)![1])).toBeLessThanOrEqual((deadlineAt - t.clock.now()) / 1000);
    // the store keeps no cookie value, only its digest
    expect(JSON.stringify(logLines)).not.toContain(jar!.split('=')[1]);
  });

  it('refuses the callback in another cookie jar like an unknown state: 400 page, request untouched, one log line', async () => {
    t = await productionApp([{ id: 'idp_test', issuer: provider.issuer }]);
    const flow = await startStandardFlow(t, standard(['isAdult']));
    // The phone starts; the authorization URL alone goes to another person, who signs in.
    const url = await signIn(t, flow, { persona: 'fr-adult-m' });
    for (const cookie of [null, `svc_login=${randomBytes(32).toString('base64url')}`]) {
      const other = await startStandardFlow(t, standard(['isAdult']));
      const otherUrl = await signIn(t, other, { persona: 'fr-adult-m' });
      logLines = [];
      const res = await callback(t, otherUrl, cookie);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      const status = await pollStatus(t, other);
      expect(status.status).toBe('in_progress');
      expect(status).not.toHaveProperty('result');
      const logged = logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'identity provider login');
      expect(logged).toEqual([expect.objectContaining({ outcome: 'other_browser' })]);
      expect(Object.keys(logged[0]).filter((key) => ['provider', 'code', 'reason', 'requestId'].includes(key))).toEqual(
        [],
      );
      // spent: carried back to the phone that started it, it is an unknown state
      expect((await callback(t, otherUrl)).statusCode).toBe(400);
      expect((await pollStatus(t, other)).status).toBe('in_progress');
    }
    // the same jar completes
    expect(await finish(t, flow, url)).toBe('approved');
  });

  it('keeps one login cookie per browser: a second start in the same browser reuses it', async () => {
    t = await productionApp([{ id: 'idp_test', issuer: provider.issuer }]);
    const [a, b] = [
      await startStandardFlow(t, standard(['isAdult'])),
      await startStandardFlow(t, standard(['isAdult'])),
    ];
    const urlA = await signIn(t, a, { persona: 'fr-adult-m' });
    const first = jar;
    const urlB = await signIn(t, b, { persona: 'fr-adult-m' });
    expect(jar).toBe(first);
    expect(await finish(t, a, urlA)).toBe('approved');
    expect(await finish(t, b, urlB)).toBe('approved');
  });

  it('names the cookie __Host-svc_login, Secure, where the app URL is https', async () => {
    const { loginCookieName, setLoginCookie, readLoginCookie } = await import('./login-cookie.ts');
    const value = randomBytes(32).toString('base64url');
    expect(loginCookieName('https://verify.example')).toBe('__Host-svc_login');
    expect(setLoginCookie('https://verify.example', value, 240.7)).toBe(
      `__Host-svc_login=${value}; Max-Age=240; Path=/; HttpOnly; SameSite=Lax; Secure`,
    );
    expect(readLoginCookie(`a=b; __Host-svc_login=${value}`, 'https://verify.example')).toBe(value);
    // on https the plain name, which any subdomain could set, is not read
    expect(readLoginCookie(`svc_login=${value}`, 'https://verify.example')).toBeNull();
    expect(readLoginCookie(`svc_login=${value}; svc_login=${'A'.repeat(43)}`, 'http://localhost:8787')).toBeNull();
    expect(readLoginCookie('svc_login=short', 'http://localhost:8787')).toBeNull();
  });
});

describe('one browser, behind a load balancer: two instances on one Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis.remove());

  it('completes at the callback on instance B a login started on instance A, in the same browser only', async () => {
    const prefix = `providers-${randomBytes(4).toString('hex')}:`;
    const shared = () => openRedisStore({ url: redis.url, prefix, notice: () => {} });
    const providers = [{ id: 'idp_test', issuer: provider.issuer }];
    const a = await productionApp(providers, { store: await shared() });
    const b = await productionApp(providers, { store: await shared() });
    try {
      const [flow, other] = [
        await startStandardFlow(a, standard(['isAdult'])),
        await startStandardFlow(a, standard(['isAdult'])),
      ];
      const url = await signIn(a, flow, { persona: 'fr-adult-m' });
      const otherUrl = await signIn(a, other, { persona: 'fr-adult-m' });
      expect((await callback(b, otherUrl, null)).statusCode).toBe(400);
      expect((await pollStatus(a, other)).status).toBe('in_progress');
      expect(await finish(b, flow, url)).toBe('approved');
      expect((await pollStatus(a, flow)).status).toBe('completed');
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('limits on provider starts', () => {
  it('answers 429 with Retry-After past 10 starts of one request: its login states stay at 10, the first still completes', async () => {
    const path = join(dist, `limits-${randomBytes(4).toString('hex')}.db`);
    t = await productionApp([{ id: 'idp_test', issuer: provider.issuer }], { store: openSqliteStore(path) });
    const flow = await startStandardFlow(t, standard(['isAdult']));
    const url = await signIn(t, flow, { persona: 'fr-adult-m' });
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) statuses.push((await startLogin(t, flow)).statusCode);
    expect(statuses).toEqual([...Array<number>(9).fill(200), ...Array<number>(15).fill(429)]);
    const refused = await startLogin(t, flow);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(300);
    const db = new Database(path, { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM login_states').get()).toEqual({ n: 10 });
    } finally {
      db.close();
    }
    const status = await pollStatus(t, flow);
    expect(status.status).toBe('in_progress');
    expect(status).not.toHaveProperty('result');
    expect(await finish(t, flow, url)).toBe('approved');
  });

  it('answers 429 with Retry-After past 30 starts a minute from one address, across requests; a minute later, 200', async () => {
    t = await productionApp([{ id: 'idp_test', issuer: provider.issuer }]);
    const flows = [];
    for (let i = 0; i < 4; i++) flows.push(await startStandardFlow(t, standard(['isAdult'])));
    for (const flow of flows.slice(0, 3))
      for (let i = 0; i < 10; i++) expect((await startLogin(t, flow)).statusCode).toBe(200);
    const refused = await startLogin(t, flows[3]!);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // refused before anything: the fourth request was not even opened
    expect((await pollStatus(t, flows[3]!)).status).toBe('pending');
    t.clock.advance(60_000);
    expect((await startLogin(t, flows[3]!)).statusCode).toBe(200);
  });
});

describe('hostile callbacks', () => {
  it('answer an unknown state with the phone page and 400, touching nothing', async () => {
    t = await productionApp([{ id: 'idp_test', issuer: provider.issuer }]);
    const flow = await startStandardFlow(t, standard(['isAdult']));
    const url = await signIn(t, flow, { persona: 'fr-adult-m' });
    for (const state of ['nope', '', 'x'.repeat(500)]) {
      const forged = new URL(url);
      forged.searchParams.set('state', state);
      const res = await callback(t, forged);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/text\/html/);
    }
    expect((await callback(t, new URL(`${url.origin}${url.pathname}`))).statusCode).toBe(400);
    expect((await pollStatus(t, flow)).status).toBe('in_progress');
    // The genuine callback still completes it afterwards.
    expect(await finish(t, flow, url)).toBe('approved');
  });

  it('refuse a replay of the whole callback URL: the state is single use', async () => {
    t = await productionApp([{ id: 'idp_test', issuer: provider.issuer }]);
    const flow = await startStandardFlow(t, standard(['isAdult']));
    const url = await signIn(t, flow, { persona: 'fr-adult-m' });
    expect(await finish(t, flow, url)).toBe('approved');
    const grant = (await pollStatus(t, flow)).result;
    expect((await callback(t, url)).statusCode).toBe(400);
    expect((await pollStatus(t, flow)).result).toEqual(grant);
  });

  it('refuse a code from one request’s login with the state of another’s: neither request is touched by it', async () => {
    t = await productionApp([{ id: 'idp_test', issuer: provider.issuer }]);
    const [a, b] = [
      await startStandardFlow(t, standard(['isAdult'])),
      await startStandardFlow(t, standard(['isAdult'])),
    ];
    const [urlA, urlB] = [await signIn(t, a, { persona: 'fr-minor' }), await signIn(t, b, { persona: 'fr-adult-m' })];
    const swapped = new URL(urlB);
    swapped.searchParams.set('code', urlA.searchParams.get('code')!);
    expect(await finish(t, b, swapped)).toBe('refused');
    expect((await pollStatus(t, b)).status).toBe('in_progress');
    expect((await pollStatus(t, a)).status).toBe('in_progress');
  });

  it('refuse a code from another provider (mix-up: its iss), the request left in progress', async () => {
    t = await productionApp([
      { id: 'idp_test', issuer: provider.issuer },
      { id: 'idp_other', issuer: other.issuer },
    ]);
    const flow = await startStandardFlow(t, standard(['isAdult']));
    const started = await startLogin(t, flow, 'idp_test');
    const state = new URL(started.json().authorization_url).searchParams.get('state')!;
    // A sign-in at the other provider comes back under this login's state.
    const otherFlow = await startStandardFlow(t, standard(['isAdult']));
    const atOther = await startLogin(t, otherFlow, 'idp_other');
    const { callbackUrl } = await signInAtExampleProvider(atOther.json().authorization_url, {
      persona: 'fr-adult-m',
      decision: 'approve',
      redirectUri: REDIRECT_URI,
    });
    expect(callbackUrl.searchParams.get('iss')).toBe(other.issuer);
    const mixed = new URL(callbackUrl);
    mixed.searchParams.set('state', state);
    expect(await finish(t, flow, mixed)).toBe('refused');
    expect((await pollStatus(t, flow)).status).toBe('in_progress');
    expect(logLines.some((l) => JSON.parse(l).code === 'iss_mismatch')).toBe(true);
  });

  it('log the provider and the outcome only: never a code, a state or a claim', async () => {
    t = await productionApp([{ id: 'idp_test', issuer: provider.issuer }]);
    const flow = await startStandardFlow(t, standard(['isAdult', 'revealNationality']));
    const url = await signIn(t, flow, { persona: 'fr-adult-m' });
    await finish(t, flow, url);
    const lines = logLines.join('\n');
    for (const secret of [url.searchParams.get('code')!, url.searchParams.get('state')!, 'FRA', 'fr-adult-m'])
      expect(lines).not.toContain(secret);
    const line = logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'identity provider login');
    expect(line).toMatchObject({ outcome: 'approved', provider: 'Provider 1' });
  });
});

describe('hostile ID tokens, through the callback route (a hand-made provider answers the token request)', () => {
  const SUBJECT = 'hostile-subject-7f3a';
  const BIRTHDATE = '1987-06-05';

  /**
   * A started login at the hand-made provider, its token endpoint set to answer the ID token
   * `claimsOf` and `sign` make, and the callback the provider would send: the phone's answer, the
   * request's status and every secret of the exchange, for the log checks.
   */
  async function loginWith(
    make: (claims: Record<string, unknown>) => Promise<string>,
    changes: (now: number, nonce: string) => Record<string, unknown> = () => ({}),
  ) {
    t = await productionApp([{ id: 'idp_hand', issuer: hand.issuer, proves: ['isAdult'] }]);
    const flow = await startStandardFlow(t, standard(['isAdult']));
    const started = await startLogin(t, flow, 'idp_hand');
    expect(started.statusCode).toBe(200);
    const authorization = new URL(started.json().authorization_url);
    const state = authorization.searchParams.get('state')!;
    const nonce = authorization.searchParams.get('nonce')!;
    const now = Math.floor(t.clock.now() / 1000);
    const idToken = await make({
      iss: hand.issuer,
      aud: (await t.store.getProvider('idp_hand'))!.clientId,
      sub: SUBJECT,
      nonce,
      iat: now,
      auth_time: now - 5,
      exp: now + 300,
      birthdate: BIRTHDATE,
      ...changes(now, nonce),
    });
    hand.tokenAnswer = {
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        access_token: `at-${randomBytes(8).toString('hex')}`,
        token_type: 'Bearer',
        id_token: idToken,
      }),
    };
    const code = `code-${randomBytes(16).toString('base64url')}`;
    const url = new URL(`${REDIRECT_URI}?code=${code}&state=${state}&iss=${encodeURIComponent(hand.issuer)}`);
    const login = await finish(t, flow, url);
    return { flow, login, secrets: [code, state, nonce, idToken, SUBJECT, BIRTHDATE] };
  }

  /** The callback's one log line; no line carries a code, state, nonce, token or claim. */
  function loggedLogin(secrets: string[]): Record<string, unknown> {
    const lines = logLines.join('\n');
    for (const secret of secrets) expect(lines).not.toContain(secret);
    const logged = logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'identity provider login');
    expect(logged).toHaveLength(1);
    return logged[0];
  }

  it('completes with a well-made ID token (the control: the same set-up, honest)', async () => {
    const { flow, login, secrets } = await loginWith((claims) => hand.sign(claims));
    expect(login).toBe('approved');
    expect((await pollStatus(t!, flow)).status).toBe('completed');
    expect(loggedLogin(secrets)).toMatchObject({ outcome: 'approved', provider: 'Provider 1' });
  });

  it("refuses to start at a provider whose discovery says the issuer with a trailing '/': 503, the request still pending", async () => {
    hand.metadata = { issuer: `${hand.issuer}/` };
    try {
      t = await productionApp([{ id: 'idp_hand', issuer: hand.issuer, proves: ['isAdult'] }]);
      const flow = await startStandardFlow(t, standard(['isAdult']));
      expect((await startLogin(t, flow, 'idp_hand')).statusCode).toBe(503);
      const status = await pollStatus(t, flow);
      expect(status.status).toBe('pending');
      expect(status).not.toHaveProperty('result');
    } finally {
      hand.metadata = {};
    }
  });

  it("refuses an ID token signed by a key not in the provider's JWKS: the phone reads refused, the request waits", async () => {
    const stranger = createEcJwk('ES256');
    for (const [kid, code] of [
      ['unknown-key', 'id_token_key_unknown'],
      // claiming the published key's id
      [undefined, 'answer_invalid'],
    ] as const) {
      const { flow, login, secrets } = await loginWith((claims) =>
        hand.sign(claims, { key: stranger, ...(kid ? { kid } : {}) }),
      );
      expect(login, code).toBe('refused');
      const status = await pollStatus(t!, flow);
      expect(status.status).toBe('in_progress');
      expect(status).not.toHaveProperty('result');
      expect(loggedLogin(secrets)).toEqual(
        expect.objectContaining({ outcome: 'refused', provider: 'Provider 1', code }),
      );
      await t!.close();
      t = undefined;
      logLines = [];
    }
  });

  it('refuses an ID token whose sub is empty or 200,000 characters long: the phone reads refused, the request waits', async () => {
    for (const sub of ['', 'x'.repeat(200_000)]) {
      const { flow, login, secrets } = await loginWith(
        (claims) => hand.sign(claims),
        () => ({ sub }),
      );
      expect(login).toBe('refused');
      const status = await pollStatus(t!, flow);
      expect(status.status).toBe('in_progress');
      expect(status).not.toHaveProperty('result');
      expect(loggedLogin(secrets)).toMatchObject({
        outcome: 'refused',
        code: 'id_token_sub',
      });
      await t!.close();
      t = undefined;
      logLines = [];
    }
  });

  it('refuses an ID token of a sign-in 30 days old (max_age 300): the phone reads refused, the request waits', async () => {
    const { flow, login, secrets } = await loginWith(
      (claims) => hand.sign(claims),
      (now) => ({ auth_time: now - 30 * 86_400 }),
    );
    expect(login).toBe('refused');
    const status = await pollStatus(t!, flow);
    expect(status.status).toBe('in_progress');
    expect(status).not.toHaveProperty('result');
    expect(loggedLogin(secrets)).toMatchObject({ outcome: 'refused', code: 'id_token_auth_time' });
  });

  it('refuses an ID token issued a day in the future: the phone reads refused, the request waits', async () => {
    const { flow, login, secrets } = await loginWith(
      (claims) => hand.sign(claims),
      (now) => ({ iat: now + 86_400, exp: now + 86_700 }),
    );
    expect(login).toBe('refused');
    const status = await pollStatus(t!, flow);
    expect(status.status).toBe('in_progress');
    expect(status).not.toHaveProperty('result');
    expect(loggedLogin(secrets)).toMatchObject({ outcome: 'refused', code: 'id_token_iat' });
  });

  it('refuses a 5 MB token answer: the phone reads refused, the request waits', async () => {
    t = await productionApp([{ id: 'idp_hand', issuer: hand.issuer, proves: ['isAdult'] }]);
    const flow = await startStandardFlow(t, standard(['isAdult']));
    const started = await startLogin(t, flow, 'idp_hand');
    const state = new URL(started.json().authorization_url).searchParams.get('state')!;
    hand.tokenAnswer = {
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ access_token: 'at', token_type: 'Bearer', padding: 'x'.repeat(5 * 1_048_576) }),
      chunked: true,
    };
    const url = new URL(`${REDIRECT_URI}?code=c0de&state=${state}&iss=${encodeURIComponent(hand.issuer)}`);
    expect(await finish(t, flow, url)).toBe('refused');
    const status = await pollStatus(t, flow);
    expect(status.status).toBe('in_progress');
    expect(status).not.toHaveProperty('result');
    expect(loggedLogin([state])).toMatchObject({ outcome: 'refused', code: 'answer_too_large' });
  });

  it('refuses an ID token whose nonce is not the one sent: the phone reads refused, the request waits', async () => {
    const { flow, login, secrets } = await loginWith(
      (claims) => hand.sign(claims),
      () => ({ nonce: randomBytes(32).toString('base64url') }),
    );
    expect(login).toBe('refused');
    const status = await pollStatus(t!, flow);
    expect(status.status).toBe('in_progress');
    expect(status).not.toHaveProperty('result');
    expect(loggedLogin(secrets)).toMatchObject({ outcome: 'refused', code: 'id_token_nonce' });
  });

  it('refuses an expired ID token: the phone reads refused, the request waits', async () => {
    const { flow, login, secrets } = await loginWith(
      (claims) => hand.sign(claims),
      (now) => ({ iat: now - 3660, exp: now - 3600 }),
    );
    expect(login).toBe('refused');
    const status = await pollStatus(t!, flow);
    expect(status.status).toBe('in_progress');
    expect(status).not.toHaveProperty('result');
    expect(loggedLogin(secrets)).toMatchObject({ outcome: 'refused', code: 'id_token_exp' });
  });
});

describe('the partner variant', () => {
  it('creates a provider-provable request from a signed partner call too', async () => {
    t = await productionApp([{ id: 'idp_test', issuer: provider.issuer }]);
    const partner = { id: liveIdOf(PARTNERS.demo.id), secret: PARTNERS.demo.secret };
    const res = await signedInject(t, {
      url: '/api/partner/verify-request',
      body: { scopes: ['isAdult', 'isFrench'], client_proof_mode: false },
      partner,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().deep_link).toMatch(/\/m\/v\/vr_/);
  });
});
