/**
 * Hostile and broken callbacks (design.md §12): each is sent for real, against a real provider, and
 * must come back `refused` with a log-safe code, so the route leaves the request untouched; and
 * nothing is logged on the way.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { Scope } from '../../src/protocol/scopes.ts';
import { providerSubject } from '../rules/facts.ts';
import type { ExampleProvider } from '../sandbox/example-idp/provider.ts';
import { signInAtExampleProvider } from '../sandbox/example-idp/sign-in.ts';
import { createFakeClock } from '../clock.ts';
import { createEcJwk, toPublicEcJwk } from '../wallet/keys.ts';
import {
  createRelyingParty,
  DISCOVERY_TTL_MS,
  type LoginStart,
  type ProviderClient,
  type RelyingParty,
} from './relying-party.ts';
import {
  clientsOf,
  clock,
  REDIRECT_URI,
  startHandMadeProvider,
  startProvider,
  type HandMadeProvider,
} from '../test/providers.ts';

const SCOPES: Scope[] = ['isAdult'];
const HOUR_MS = 3_600_000;

let idp: ExampleProvider;
let other: ExampleProvider;
let hand: HandMadeProvider;
let provider: ProviderClient;
let rp: RelyingParty;
let logSpies: MockInstance[] = [];

beforeAll(async () => {
  [idp, other, hand] = await Promise.all([startProvider(), startProvider(), startHandMadeProvider()]);
  provider = clientsOf(idp.issuer).client_secret_basic;
});
afterAll(() => Promise.all([idp.close(), other.close(), hand.close()]));

beforeEach(() => {
  hand.metadata = {};
  hand.nextJwks = { keys: [] };
  rp = createRelyingParty();
  logSpies = [
    ...(['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((name) => vi.spyOn(console, name)),
    vi.spyOn(process.stdout, 'write'),
    vi.spyOn(process.stderr, 'write'),
  ];
});
afterEach(() => {
  // nothing on the way logs a code, state, nonce, token or claim: nothing logs at all
  for (const spy of logSpies) expect(spy).not.toHaveBeenCalled();
  vi.restoreAllMocks();
});

/** A started login at `target` and the callback the provider sent back for it. */
async function approvedCallback(target: ProviderClient): Promise<{ start: LoginStart; callbackUrl: URL }> {
  const start = await rp.startLogin(target, { redirectUri: REDIRECT_URI, scopes: SCOPES, locale: 'en' });
  const { callbackUrl } = await signInAtExampleProvider(start.authorizationUrl, {
    persona: 'fr-adult-m',
    decision: 'approve',
    redirectUri: REDIRECT_URI,
  });
  return { start, callbackUrl };
}

function finish(
  target: ProviderClient,
  callbackUrl: URL,
  expected: LoginStart,
  now = clock.now(),
): ReturnType<RelyingParty['finishLogin']> {
  return rp.finishLogin(target, { callbackUrl, redirectUri: REDIRECT_URI, expected, scopes: SCOPES, now });
}

function withParams(url: URL, changes: Record<string, string | null>): URL {
  const changed = new URL(url);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) changed.searchParams.delete(name);
    else changed.searchParams.set(name, value);
  }
  return changed;
}

const approved = { outcome: 'approved', subject: expect.any(String), facts: { isAdult: true } };

describe('relying party: hostile callbacks at the example provider', () => {
  it('refuses a callback whose state is not the one expected, and leaves its code unspent', async () => {
    const { start, callbackUrl } = await approvedCallback(provider);
    const stranger = await rp.startLogin(provider, { redirectUri: REDIRECT_URI, scopes: SCOPES, locale: 'en' });
    expect(await finish(provider, callbackUrl, stranger)).toEqual({ outcome: 'refused', code: 'state_mismatch' });
    expect(await finish(provider, withParams(callbackUrl, { state: null }), start)).toEqual({
      outcome: 'refused',
      code: 'state_mismatch',
    });
    // the code was never sent: the real callback still completes
    expect(await finish(provider, callbackUrl, start)).toEqual(approved);
  });

  it("refuses another provider's code sent to this login (mix-up: iss names the other issuer)", async () => {
    const victim = await rp.startLogin(provider, { redirectUri: REDIRECT_URI, scopes: SCOPES, locale: 'en' });
    const { callbackUrl: otherCallback } = await approvedCallback(clientsOf(other.issuer).client_secret_basic);
    const mixed = withParams(otherCallback, { state: victim.state });
    expect(mixed.searchParams.get('iss')).toBe(other.issuer);
    expect(await finish(provider, mixed, victim)).toEqual({ outcome: 'refused', code: 'iss_mismatch' });
  });

  it('refuses a callback without iss from a provider that announces RFC 9207, and leaves its code unspent', async () => {
    const { start, callbackUrl } = await approvedCallback(provider);
    expect(await finish(provider, withParams(callbackUrl, { iss: null }), start)).toEqual({
      outcome: 'refused',
      code: 'iss_missing',
    });
    expect(await finish(provider, callbackUrl, start)).toEqual(approved);
  });

  it('refuses a forged cancellation: error=access_denied naming another issuer or another state', async () => {
    const start = await rp.startLogin(provider, { redirectUri: REDIRECT_URI, scopes: SCOPES, locale: 'en' });
    const cancel = new URL(
      `${REDIRECT_URI}?error=access_denied&state=${start.state}&iss=${encodeURIComponent(other.issuer)}`,
    );
    expect(await finish(provider, cancel, start)).toEqual({ outcome: 'refused', code: 'iss_mismatch' });
    expect(await finish(provider, withParams(cancel, { iss: idp.issuer, state: 'x'.repeat(43) }), start)).toEqual({
      outcome: 'refused',
      code: 'state_mismatch',
    });
    expect(await finish(provider, withParams(cancel, { iss: idp.issuer }), start)).toEqual({
      outcome: 'failed',
      reason: 'cancelled',
      code: 'access_denied',
    });
  });

  it('fails with provider_error naming a standard authorization error, never a value the provider made up', async () => {
    const start = await rp.startLogin(provider, { redirectUri: REDIRECT_URI, scopes: SCOPES, locale: 'en' });
    const error = (code: string): URL =>
      new URL(`${REDIRECT_URI}?error=${code}&state=${start.state}&iss=${encodeURIComponent(idp.issuer)}`);
    expect(await finish(provider, error('temporarily_unavailable'), start)).toEqual({
      outcome: 'failed',
      reason: 'provider_error',
      code: 'temporarily_unavailable',
    });
    expect(await finish(provider, error('%3Cscript%3Ealert(1)%3C%2Fscript%3E'), start)).toEqual({
      outcome: 'failed',
      reason: 'provider_error',
      code: 'authorization_error',
    });
  });

  it('refuses an ID token whose nonce is not the one sent', async () => {
    const { start, callbackUrl } = await approvedCallback(provider);
    const outcome = await finish(provider, callbackUrl, { ...start, nonce: 'n'.repeat(43) });
    expect(outcome).toEqual({ outcome: 'refused', code: 'id_token_nonce' });
  });

  it('refuses an ID token that has expired by the service clock', async () => {
    const { start, callbackUrl } = await approvedCallback(provider);
    // the example provider's ID tokens live 10 minutes
    expect(await finish(provider, callbackUrl, start, clock.now() + HOUR_MS)).toEqual({
      outcome: 'refused',
      code: 'id_token_exp',
    });
  });

  it('refuses a code presented twice: the provider rejects it the second time', async () => {
    const { start, callbackUrl } = await approvedCallback(provider);
    expect(await finish(provider, callbackUrl, start)).toEqual(approved);
    expect(await finish(provider, callbackUrl, start)).toEqual({ outcome: 'refused', code: 'code_rejected' });
  });

  it('refuses a PKCE verifier that is not the one of the challenge', async () => {
    const { start, callbackUrl } = await approvedCallback(provider);
    expect(await finish(provider, callbackUrl, { ...start, codeVerifier: 'v'.repeat(43) })).toEqual({
      outcome: 'refused',
      code: 'code_rejected',
    });
  });
});

describe('relying party: ID tokens no honest provider sends', () => {
  async function handMadeLogin(
    idToken: (start: LoginStart) => Promise<string>,
  ): ReturnType<RelyingParty['finishLogin']> {
    const start = await rp.startLogin(hand.client, { redirectUri: REDIRECT_URI, scopes: SCOPES, locale: 'en' });
    hand.tokenAnswer = {
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ access_token: 'at', token_type: 'Bearer', id_token: await idToken(start) }),
    };
    const callbackUrl = new URL(
      `${REDIRECT_URI}?code=c0de&state=${start.state}&iss=${encodeURIComponent(hand.issuer)}`,
    );
    return finish(hand.client, callbackUrl, start);
  }

  const claims = (start: LoginStart, changes: Record<string, unknown> = {}): Record<string, unknown> => {
    const now = Math.floor(clock.now() / 1000);
    return {
      iss: hand.issuer,
      aud: hand.client.clientId,
      sub: 'person-1',
      nonce: start.nonce,
      iat: now,
      auth_time: now - 5,
      exp: now + 300,
      age_over_18: true,
      ...changes,
    };
  };

  it('accepts a well-made ID token answering age_over_18 in place of a birthdate (the control)', async () => {
    expect(await handMadeLogin((start) => hand.sign(claims(start)))).toEqual({
      outcome: 'approved',
      subject: providerSubject(hand.issuer, 'person-1'),
      facts: { isAdult: true },
    });
  });

  it('refuses an ID token whose iss spells the issuer with a trailing slash: the issuer is compared exactly', async () => {
    expect(await handMadeLogin((start) => hand.sign(claims(start, { iss: `${hand.issuer}/` })))).toEqual({
      outcome: 'refused',
      code: 'id_token_iss',
    });
  });

  it("does not start a login at a provider whose discovery document spells the issuer otherwise (a trailing '/')", async () => {
    hand.metadata = { issuer: `${hand.issuer}/` };
    await expect(
      rp.startLogin(hand.client, { redirectUri: REDIRECT_URI, scopes: SCOPES, locale: 'en' }),
    ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    // spelled exactly again, the same relying party discovers it afresh and starts
    hand.metadata = {};
    await expect(
      rp.startLogin(hand.client, { redirectUri: REDIRECT_URI, scopes: SCOPES, locale: 'en' }),
    ).resolves.toHaveProperty('authorizationUrl');
  });

  it('refuses an ID token whose sub is empty, longer than 255 characters or not ASCII', async () => {
    for (const sub of ['', 'x'.repeat(256), 'x'.repeat(200_000), 'personne-é', 'line\nbreak']) {
      expect(
        await handMadeLogin((start) => hand.sign(claims(start, { sub }))),
        JSON.stringify(sub.slice(0, 20)),
      ).toEqual({
        outcome: 'refused',
        code: 'id_token_sub',
      });
    }
    // 255 printable ASCII characters are a subject
    expect(await handMadeLogin((start) => hand.sign(claims(start, { sub: '~'.repeat(255) })))).toMatchObject({
      outcome: 'approved',
    });
  });

  it('refuses an ID token whose sign-in is older than max_age, in the future, or without auth_time', async () => {
    const now = Math.floor(clock.now() / 1000);
    for (const auth_time of [now - 30 * 86_400, now - 300 - 360, now + 86_400]) {
      expect(await handMadeLogin((start) => hand.sign(claims(start, { auth_time }))), String(auth_time - now)).toEqual({
        outcome: 'refused',
        code: 'id_token_auth_time',
      });
    }
    expect(await handMadeLogin((start) => hand.sign(claims(start, { auth_time: undefined })))).toEqual({
      outcome: 'refused',
      code: 'answer_invalid',
    });
    // within max_age and the 5-minute skew: a sign-in 9 minutes ago, or one 4 minutes ahead
    for (const auth_time of [now - 540, now + 240])
      expect(await handMadeLogin((start) => hand.sign(claims(start, { auth_time })))).toMatchObject({
        outcome: 'approved',
      });
  });

  it('refuses an ID token issued a day in the future; 4 minutes ahead is within the skew', async () => {
    const now = Math.floor(clock.now() / 1000);
    expect(await handMadeLogin((start) => hand.sign(claims(start, { iat: now + 86_400, exp: now + 86_700 })))).toEqual({
      outcome: 'refused',
      code: 'id_token_iat',
    });
    expect(await handMadeLogin((start) => hand.sign(claims(start, { iat: now + 240 })))).toMatchObject({
      outcome: 'approved',
    });
  });

  it("refuses an ID token signed by a key that is not in the provider's JWKS", async () => {
    const stranger = createEcJwk('ES256');
    expect(await handMadeLogin((start) => hand.sign(claims(start), { key: stranger, kid: 'unknown-key' }))).toEqual({
      outcome: 'refused',
      code: 'id_token_key_unknown',
    });
    // the same, claiming the published key's id
    expect(await handMadeLogin((start) => hand.sign(claims(start), { key: stranger }))).toEqual({
      outcome: 'refused',
      code: 'answer_invalid',
    });
  });

  it('refuses an ID token issued by another issuer, or for another client', async () => {
    expect(await handMadeLogin((start) => hand.sign(claims(start, { iss: other.issuer })))).toEqual({
      outcome: 'refused',
      code: 'id_token_iss',
    });
    expect(await handMadeLogin((start) => hand.sign(claims(start, { aud: 'someone-else' })))).toEqual({
      outcome: 'refused',
      code: 'id_token_aud',
    });
  });

  it('refuses an ID token past its exp', async () => {
    const past = Math.floor(clock.now() / 1000) - 3600;
    expect(await handMadeLogin((start) => hand.sign(claims(start, { iat: past - 60, exp: past })))).toEqual({
      outcome: 'refused',
      code: 'id_token_exp',
    });
  });

  it('fails with provider_error when the token endpoint answers an error or something that is not OAuth', async () => {
    const start = await rp.startLogin(hand.client, { redirectUri: REDIRECT_URI, scopes: SCOPES, locale: 'en' });
    const callbackUrl = new URL(
      `${REDIRECT_URI}?code=c0de&state=${start.state}&iss=${encodeURIComponent(hand.issuer)}`,
    );
    hand.tokenAnswer = { status: 401, contentType: 'application/json', body: '{"error":"invalid_client"}' };
    expect(await finish(hand.client, callbackUrl, start)).toEqual({
      outcome: 'failed',
      reason: 'provider_error',
      code: 'endpoint_error',
    });
    hand.tokenAnswer = { status: 502, contentType: 'text/html', body: '<h1>Bad gateway</h1>' };
    expect(await finish(hand.client, callbackUrl, start)).toEqual({
      outcome: 'failed',
      reason: 'provider_error',
      code: 'answer_malformed',
    });
  });

  it('refuses a 5 MB token answer, with or without a Content-Length', async () => {
    const huge = JSON.stringify({ access_token: 'at', token_type: 'Bearer', padding: 'x'.repeat(5 * 1_048_576) });
    for (const chunked of [false, true]) {
      const start = await rp.startLogin(hand.client, { redirectUri: REDIRECT_URI, scopes: SCOPES, locale: 'en' });
      const callbackUrl = new URL(
        `${REDIRECT_URI}?code=c0de&state=${start.state}&iss=${encodeURIComponent(hand.issuer)}`,
      );
      hand.tokenAnswer = { status: 200, contentType: 'application/json', body: huge, chunked };
      expect(await finish(hand.client, callbackUrl, start), `chunked: ${chunked}`).toEqual({
        outcome: 'refused',
        code: 'answer_too_large',
      });
    }
  });

  it('does not start a login at a provider whose discovery document is over 1 MB', async () => {
    hand.metadata = { padding: 'x'.repeat(1_100_000) };
    await expect(
      rp.startLogin(hand.client, { redirectUri: REDIRECT_URI, scopes: SCOPES, locale: 'en' }),
    ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('fails with provider_error when the token endpoint does not answer in time', async () => {
    const impatient = createRelyingParty({ timeoutSeconds: 1 });
    const start = await impatient.startLogin(hand.client, { redirectUri: REDIRECT_URI, scopes: SCOPES, locale: 'en' });
    const callbackUrl = new URL(
      `${REDIRECT_URI}?code=c0de&state=${start.state}&iss=${encodeURIComponent(hand.issuer)}`,
    );
    hand.tokenAnswer = { status: 200, contentType: 'application/json', body: '{}', hang: true };
    const outcome = await impatient.finishLogin(hand.client, {
      callbackUrl,
      redirectUri: REDIRECT_URI,
      expected: start,
      scopes: SCOPES,
      now: clock.now(),
    });
    expect(outcome).toEqual({ outcome: 'failed', reason: 'provider_error', code: 'unreachable' });
  });
});

describe('relying party: discovery kept fresh (a fake clock)', () => {
  const fake = createFakeClock(clock.now());
  const timed = () => createRelyingParty({ clock: fake });
  const start = (party: RelyingParty) =>
    party.startLogin(hand.client, { redirectUri: REDIRECT_URI, scopes: SCOPES, locale: 'en' });

  /** A login at the hand-made provider, its ID token signed by `key` (default: the published one). */
  async function loginAt(party: RelyingParty, key?: { key: ReturnType<typeof createEcJwk>; kid: string }) {
    const begun = await start(party);
    const now = Math.floor(fake.now() / 1000);
    const claims = {
      iss: hand.issuer,
      aud: hand.client.clientId,
      sub: 'person-1',
      nonce: begun.nonce,
      iat: now,
      auth_time: now - 5,
      exp: now + 300,
      age_over_18: true,
    };
    hand.tokenAnswer = {
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ access_token: 'at', token_type: 'Bearer', id_token: await hand.sign(claims, key) }),
    };
    const callbackUrl = new URL(
      `${REDIRECT_URI}?code=c0de&state=${begun.state}&iss=${encodeURIComponent(hand.issuer)}`,
    );
    return party.finishLogin(hand.client, {
      callbackUrl,
      redirectUri: REDIRECT_URI,
      expected: begun,
      scopes: SCOPES,
      now: fake.now(),
    });
  }

  it('discovers a provider again once its metadata is an hour old, not before', async () => {
    const party = timed();
    const before = hand.discoveries;
    await start(party);
    await start(party);
    fake.advance(DISCOVERY_TTL_MS - 1);
    await start(party);
    expect(hand.discoveries).toBe(before + 1);
    fake.advance(1);
    await start(party);
    expect(hand.discoveries).toBe(before + 2);
  });

  it('after a refused login, discovers again at most once a minute: a provider that moved its keys is not wedged', async () => {
    const party = timed();
    expect(await loginAt(party)).toMatchObject({ outcome: 'approved' });
    const before = hand.discoveries;
    // The provider moves to a new key at a new jwks_uri; the metadata in hand still names the old one.
    const next = createEcJwk('ES256');
    hand.nextJwks = { keys: [{ ...toPublicEcJwk(next), kid: 'next', alg: 'ES256', use: 'sig' }] };
    hand.metadata = { jwks_uri: `${hand.issuer}/jwks-next` };
    const rotated = { key: next, kid: 'next' };
    // within the minute: refused, and no new discovery however many refusals
    for (let i = 0; i < 3; i++) expect(await loginAt(party, rotated)).toMatchObject({ outcome: 'refused' });
    expect(hand.discoveries).toBe(before);
    // a minute on: the next refusal drops the metadata, the login after it discovers and completes
    fake.advance(60_000);
    expect(await loginAt(party, rotated)).toMatchObject({ outcome: 'refused' });
    expect(await loginAt(party, rotated)).toMatchObject({ outcome: 'approved' });
    expect(hand.discoveries).toBe(before + 1);
  });
});
