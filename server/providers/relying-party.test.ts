import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../src/protocol/scopes.ts';
import { ServiceError } from '../errors.ts';
import { pickFacts, providerSubject } from '../rules/facts.ts';
import { personaClaims, personaFacts, findPersona } from '../sandbox/personas.ts';
import type { ExampleProvider } from '../sandbox/example-idp/provider.ts';
import { signInAtExampleProvider } from '../sandbox/example-idp/sign-in.ts';
import { createRelyingParty, type LoginOutcome, type ProviderClient, type RelyingParty } from './relying-party.ts';
import {
  clientsOf,
  clock,
  jwtPayload,
  personas,
  recordingFetch,
  REDIRECT_URI,
  startProvider,
  type WireCall,
} from '../test/providers.ts';

const ALL_SCOPES: Scope[] = [...SCOPES];
/** What an ID token carries whatever was asked (OpenID Connect Core §2). */
const PROTOCOL_CLAIMS = [
  'iss',
  'sub',
  'aud',
  'exp',
  'iat',
  'nonce',
  'auth_time',
  'at_hash',
  'sid',
  'acr',
  'amr',
  'azp',
];

let idp: ExampleProvider;
let provider: ProviderClient;

beforeAll(async () => {
  idp = await startProvider();
  provider = clientsOf(idp.issuer).client_secret_basic;
});
afterAll(() => idp.close());

async function login(
  rp: RelyingParty,
  target: ProviderClient,
  scopes: readonly Scope[],
  choice: { persona?: string; decision?: 'approve' | 'decline'; locale?: string } = {},
): Promise<{ outcome: LoginOutcome; authorizationUrl: URL; loginPage: { html: string; csp: string | null } }> {
  const start = await rp.startLogin(target, { redirectUri: REDIRECT_URI, scopes, locale: choice.locale ?? 'en' });
  const { callbackUrl, loginPage } = await signInAtExampleProvider(start.authorizationUrl, {
    persona: choice.persona ?? 'fr-adult-m',
    decision: choice.decision ?? 'approve',
    redirectUri: REDIRECT_URI,
  });
  const outcome = await rp.finishLogin(target, {
    callbackUrl,
    redirectUri: REDIRECT_URI,
    expected: start,
    scopes,
    now: clock.now(),
  });
  return { outcome, authorizationUrl: new URL(start.authorizationUrl), loginPage };
}

function idTokenOf(calls: readonly WireCall[]): Record<string, unknown> {
  const token = calls.find((c) => c.url.pathname === '/token');
  if (!token) throw new Error('no token request');
  return jwtPayload((JSON.parse(token.body) as { id_token: string }).id_token);
}

const personaFactsNow = (id: string): ReturnType<typeof personaFacts> =>
  personaFacts(findPersona(personas, id)!, clock.now());

describe('relying party: flows with the example provider', () => {
  it('proves every scope with the persona facts, asking through the claims parameter only what the scopes need', async () => {
    const wire = recordingFetch();
    const { outcome, authorizationUrl } = await login(createRelyingParty({ fetch: wire.fetch }), provider, ALL_SCOPES);

    const facts = pickFacts(personaFactsNow('fr-adult-m'), ALL_SCOPES);
    expect(Object.keys(facts)).toHaveLength(7);
    expect(outcome).toEqual({ outcome: 'approved', subject: providerSubject(idp.issuer, 'fr-adult-m'), facts });
    const asked = { birthdate: { essential: true }, nationalities: { essential: true }, gender: { essential: true } };
    expect(JSON.parse(authorizationUrl.searchParams.get('claims')!)).toEqual({ id_token: asked, userinfo: asked });
    // the provider answered the claims asked, in the ID token, so userinfo was not read
    const idToken = idTokenOf(wire.calls);
    const { birthdate, nationalities, gender } = personaClaims(findPersona(personas, 'fr-adult-m')!, clock.now());
    expect(idToken).toMatchObject({ sub: 'fr-adult-m', birthdate, nationalities, gender });
    expect(wire.calls.some((c) => c.url.pathname === '/me')).toBe(false);
  });

  it('sends the authorization request of design.md §12: code flow, PKCE S256, new state and nonce, prompt=login, max_age', async () => {
    const rp = createRelyingParty();
    const first = await rp.startLogin(provider, { redirectUri: REDIRECT_URI, scopes: ['isAdult'], locale: 'fr' });
    const second = await rp.startLogin(provider, { redirectUri: REDIRECT_URI, scopes: ['isAdult'], locale: 'fr' });
    const url = new URL(first.authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${idp.issuer}/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'svc-basic',
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      scope: 'openid',
      code_challenge_method: 'S256',
      prompt: 'login',
      max_age: '300',
      ui_locales: 'fr',
      state: first.state,
      nonce: first.nonce,
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const value of [first.state, first.nonce, first.codeVerifier]) expect(value).toMatch(/^[A-Za-z0-9_-]{43,}$/); // ≥ 256 bits
    expect(second.state).not.toBe(first.state);
    expect(second.nonce).not.toBe(first.nonce);
    expect(second.codeVerifier).not.toBe(first.codeVerifier);
    const strict = await createRelyingParty({ maxAgeSeconds: 60 }).startLogin(provider, {
      redirectUri: REDIRECT_URI,
      scopes: ['isAdult'],
      locale: 'fr',
    });
    expect(new URL(strict.authorizationUrl).searchParams.get('max_age')).toBe('60');
  });

  it('asks only the birthdate for isAdult, and the provider answers nothing more', async () => {
    const wire = recordingFetch();
    const { outcome, authorizationUrl } = await login(createRelyingParty({ fetch: wire.fetch }), provider, ['isAdult']);
    expect(outcome).toEqual({
      outcome: 'approved',
      subject: providerSubject(idp.issuer, 'fr-adult-m'),
      facts: { isAdult: true },
    });
    expect(JSON.parse(authorizationUrl.searchParams.get('claims')!)).toEqual({
      id_token: { birthdate: { essential: true } },
      userinfo: { birthdate: { essential: true } },
    });
    const extra = Object.keys(idTokenOf(wire.calls)).filter((claim) => !PROTOCOL_CLAIMS.includes(claim));
    expect(extra).toEqual(['birthdate']);
  });

  it('asks no claim at all for isUnique alone: the subject is enough', async () => {
    const wire = recordingFetch();
    const { outcome, authorizationUrl } = await login(createRelyingParty({ fetch: wire.fetch }), provider, [
      'isUnique',
    ]);
    expect(outcome).toEqual({ outcome: 'approved', subject: providerSubject(idp.issuer, 'fr-adult-m'), facts: {} });
    expect(authorizationUrl.searchParams.has('claims')).toBe(false);
    expect(Object.keys(idTokenOf(wire.calls)).filter((claim) => !PROTOCOL_CLAIMS.includes(claim))).toEqual([]);
  });

  it('proves a minor is not an adult, through the facts rule', async () => {
    const { outcome } = await login(createRelyingParty(), provider, ['isAdult', 'revealBirthYear'], {
      persona: 'fr-minor',
    });
    expect(outcome).toMatchObject({ outcome: 'approved', facts: { isAdult: false } });
    expect(outcome).toMatchObject({ facts: pickFacts(personaFactsNow('fr-minor'), ['isAdult', 'revealBirthYear']) });
  });

  it('counts the persona turning 18 today as an adult and the one turning 18 tomorrow as a minor', async () => {
    const rp = createRelyingParty();
    expect((await login(rp, provider, ['isAdult'], { persona: 'turns-18-today' })).outcome).toMatchObject({
      facts: { isAdult: true },
    });
    expect((await login(rp, provider, ['isAdult'], { persona: 'turns-18-tomorrow' })).outcome).toMatchObject({
      facts: { isAdult: false },
    });
  });

  it('works with each client authentication method: client_secret_basic, client_secret_post, private_key_jwt', async () => {
    for (const [method, target] of Object.entries(clientsOf(idp.issuer))) {
      const wire = recordingFetch();
      const { outcome } = await login(
        createRelyingParty({ fetch: wire.fetch }),
        target,
        ['isEU', 'revealNationality'],
        {
          persona: 'de-adult',
        },
      );
      expect(outcome, method).toEqual({
        outcome: 'approved',
        subject: providerSubject(idp.issuer, 'de-adult'),
        facts: { isEU: true, nationality: 'DEU' },
      });
      // the provider accepts a secret either way: the wire shows which way it went
      const { headers, body } = wire.calls.find((c) => c.url.pathname === '/token')!.request;
      const form = new URLSearchParams(body);
      const sent = {
        basic: headers.authorization?.startsWith('Basic ') ?? false,
        secretInBody: form.has('client_secret'),
        assertion: form.get('client_assertion_type') === 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      };
      expect(sent, method).toEqual({
        basic: method === 'client_secret_basic',
        secretInBody: method === 'client_secret_post',
        assertion: method === 'private_key_jwt',
      });
    }
  });

  it('fails as cancelled when the person declines at the provider', async () => {
    const { outcome } = await login(createRelyingParty(), provider, ['isAdult'], { decision: 'decline' });
    expect(outcome).toEqual({ outcome: 'failed', reason: 'cancelled', code: 'access_denied' });
  });

  it('shows the login page under a strict Content-Security-Policy, in French when ui_locales asks for it', async () => {
    const { loginPage } = await login(createRelyingParty(), provider, ['isAdult', 'isMale'], { locale: 'fr-FR' });
    expect(loginPage.csp).toMatch(/default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; form-action 'self' /);
    expect(loginPage.csp).not.toContain('unsafe-inline');
    expect(loginPage.html).not.toMatch(/<script|\son[a-z]+=|style="/i);
    expect(loginPage.html).toContain('<html lang="fr">');
    expect(loginPage.html).toContain('votre date de naissance');
    expect(loginPage.html).toContain('votre genre');
    expect(loginPage.html).not.toContain('vos nationalités');
  });
});

describe('relying party: claims a provider does not give', () => {
  it('reads userinfo when the ID token lacks a needed claim, and proves the fact from it', async () => {
    const other = await startProvider({
      claimsOf: (persona, now, use) => {
        const { nationalities, ...rest } = personaClaims(persona, now);
        return use === 'userinfo' ? { ...rest, nationalities } : rest;
      },
    });
    try {
      const wire = recordingFetch();
      const { outcome } = await login(
        createRelyingParty({ fetch: wire.fetch }),
        clientsOf(other.issuer).client_secret_post,
        ['isAdult', 'isFrench'],
      );
      expect(outcome).toMatchObject({ outcome: 'approved', facts: { isAdult: true, isFrench: true } });
      expect(wire.calls.filter((c) => c.url.pathname === '/me')).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('fails with claims_missing when neither the ID token nor userinfo carries a needed claim', async () => {
    const other = await startProvider({
      claimsOf: (persona, now) => {
        const claims: Record<string, unknown> = { ...personaClaims(persona, now) };
        delete claims.nationalities;
        return claims;
      },
    });
    try {
      const wire = recordingFetch();
      const target = clientsOf(other.issuer).client_secret_basic;
      const { outcome } = await login(createRelyingParty({ fetch: wire.fetch }), target, ['isAdult', 'isEU']);
      expect(outcome).toEqual({ outcome: 'failed', reason: 'claims_missing', code: 'missing_nationalities' });
      expect(wire.calls.filter((c) => c.url.pathname === '/me')).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('fails with provider_error when a needed claim cannot be read (a birthdate that is not a date)', async () => {
    const other = await startProvider({
      claimsOf: (persona, now) => ({ ...personaClaims(persona, now), birthdate: '14/03/1992' }),
    });
    try {
      const { outcome } = await login(createRelyingParty(), clientsOf(other.issuer).client_secret_basic, ['isAdult']);
      expect(outcome).toEqual({ outcome: 'failed', reason: 'provider_error', code: 'claim_invalid_birthdate' });
    } finally {
      await other.close();
    }
  });
});

describe('relying party: a provider that is down', () => {
  it('cannot start a login with a provider it cannot discover (SERVICE_UNAVAILABLE)', async () => {
    const gone = await startProvider();
    const target = clientsOf(gone.issuer).client_secret_basic;
    await gone.close();
    const error = await createRelyingParty()
      .startLogin(target, { redirectUri: REDIRECT_URI, scopes: ['isAdult'], locale: 'en' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe('SERVICE_UNAVAILABLE');
  });

  it('fails with provider_error when the provider goes down between start and callback, and discovers again next time', async () => {
    const wire = recordingFetch();
    const rp = createRelyingParty({ fetch: wire.fetch });
    const flaky = await startProvider();
    const target = clientsOf(flaky.issuer).client_secret_basic;
    const start = await rp.startLogin(target, { redirectUri: REDIRECT_URI, scopes: ['isAdult'], locale: 'en' });
    const { callbackUrl } = await signInAtExampleProvider(start.authorizationUrl, {
      persona: 'fr-adult-m',
      decision: 'approve',
      redirectUri: REDIRECT_URI,
    });
    await rp.startLogin(target, { redirectUri: REDIRECT_URI, scopes: ['isAdult'], locale: 'en' });
    const discoveries = (): number => wire.calls.filter((c) => c.url.pathname.endsWith('/openid-configuration')).length;
    expect(discoveries()).toBe(1); // cached

    await flaky.close();
    const outcome = await rp.finishLogin(target, {
      callbackUrl,
      redirectUri: REDIRECT_URI,
      expected: start,
      scopes: ['isAdult'],
      now: clock.now(),
    });
    expect(outcome).toEqual({ outcome: 'failed', reason: 'provider_error', code: 'unreachable' });

    const back = await startProvider({ port: Number(new URL(flaky.issuer).port) });
    try {
      await rp.startLogin(target, { redirectUri: REDIRECT_URI, scopes: ['isAdult'], locale: 'en' });
      expect(discoveries()).toBe(2); // the failure dropped the cache
    } finally {
      await back.close();
    }
  });
});

describe('relying party: its own configuration', () => {
  it('will not speak plain http to an issuer that is not on a loopback host', async () => {
    const target = { ...provider, issuer: 'http://id.example' };
    const error = await createRelyingParty()
      .startLogin(target, { redirectUri: REDIRECT_URI, scopes: ['isAdult'], locale: 'en' })
      .catch((e: unknown) => e);
    expect((error as ServiceError).code).toBe('SERVICE_UNAVAILABLE');
    expect(String((error as ServiceError).cause)).toMatch(/https/);
  });

  it('keeps an unreadable private key out of every error it reports', async () => {
    const credential = '{"kty":"EC","d":"SECRET-KEY-MATERIAL"';
    const target = { ...clientsOf(idp.issuer).private_key_jwt, credential };
    const error = (await createRelyingParty()
      .startLogin(target, { redirectUri: REDIRECT_URI, scopes: ['isAdult'], locale: 'en' })
      .catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(JSON.stringify({ message: error.message, cause: String(error.cause) })).not.toContain('SECRET');
    const start = await createRelyingParty().startLogin(clientsOf(idp.issuer).private_key_jwt, {
      redirectUri: REDIRECT_URI,
      scopes: ['isAdult'],
      locale: 'en',
    });
    const { callbackUrl } = await signInAtExampleProvider(start.authorizationUrl, {
      persona: 'fr-adult-m',
      decision: 'approve',
      redirectUri: REDIRECT_URI,
    });
    const outcome = await createRelyingParty().finishLogin(target, {
      callbackUrl,
      redirectUri: REDIRECT_URI,
      expected: start,
      scopes: ['isAdult'],
      now: clock.now(),
    });
    expect(outcome).toEqual({ outcome: 'failed', reason: 'provider_error', code: 'client_credential_invalid' });
  });
});
