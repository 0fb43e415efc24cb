/**
 * The service as an OpenID Connect relying party of identity providers (design.md §12), on
 * openid-client, the certified RP library: it does discovery, PKCE, state and nonce checks, ID token
 * validation (signature against the provider's JWKS, iss, aud, exp, nonce), RFC 9207 `iss` and
 * userinfo. This module only chooses what to ask, and turns the answer into facts at once through
 * the one facts rule (rules/facts.ts): the claims themselves never leave it.
 *
 * Nothing here logs; an outcome carries a log-safe code, never a code, state, nonce, token or claim.
 */
import * as client from 'openid-client';
import { importJWK, type JWK } from 'jose';
import type { Scope } from '../../src/protocol/scopes.ts';
import { systemClock, type Clock } from '../clock.ts';
import { ServiceError } from '../errors.ts';
import {
  claimsForScopes,
  factsFromClaims,
  InvalidClaimError,
  pickFacts,
  providerSubject,
  unprovenScopes,
  type IdentityClaims,
  type ProvenFacts,
} from '../rules/facts.ts';
import { capResponses } from './capped-fetch.ts';
import { classifyError, failed, refused, type LoginFailure } from './outcome.ts';

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/** An identity provider as the registry holds it (design.md §12). */
export interface ProviderConfig {
  /** `idp_…` */
  id: string;
  /** `https://…`; `http://` only for loopback hosts (local trials and tests) */
  issuer: string;
  clientId: string;
  clientAuth: ClientAuthMethod;
  /** the client secret, or for private_key_jwt the private key as JWK JSON */
  credential: string;
  /** shown to the visitor */
  name: string;
  /** the pass token's verification_method, e.g. face_check */
  method: string;
  proves: readonly Scope[];
}

/** What the relying party needs of a provider. */
export type ProviderClient = Pick<ProviderConfig, 'issuer' | 'clientId' | 'clientAuth' | 'credential'>;

export interface LoginStart {
  /** where to send the visitor */
  authorizationUrl: string;
  /** keep these three with the request, single use, until its deadline; never log them */
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface StartLoginInput {
  /** `{app_url}/m/callback`, as registered at the provider */
  redirectUri: string;
  scopes: readonly Scope[];
  /** BCP 47 tag for the provider's pages (`ui_locales`) */
  locale: string;
}

export interface FinishLoginInput {
  /** the callback URL as received: its query holds code, state and iss (or error) */
  callbackUrl: URL;
  /** the redirect URI the login was started with; sent again with the code */
  redirectUri: string;
  expected: Pick<LoginStart, 'state' | 'nonce' | 'codeVerifier'>;
  scopes: readonly Scope[];
  /** ms since the epoch: the service clock, for ID token times and ages */
  now: number;
}

export type LoginOutcome =
  | {
      outcome: 'approved';
      /** the nullifier's user id: the registered issuer + sub (facts.ts providerSubject) */
      subject: string;
      /** the facts of the requested scopes, and nothing else */
      facts: ProvenFacts;
    }
  | LoginFailure;

/**
 * How far a provider's clock may be from ours: the same 5 minutes as partner timestamps and wallet
 * credentials (docs/partner-api.md, docs/operations.md), for exp, auth_time and iat alike.
 */
export const PROVIDER_SKEW_SECONDS = 300;

/** A provider's metadata is discovered again after an hour (docs/providers.md, "A real one"). */
export const DISCOVERY_TTL_MS = 3_600_000;
/** …and after a refused login, when the one in hand is at least this old: at most once a minute. */
export const REDISCOVERY_AFTER_REFUSAL_MS = 60_000;

export interface RelyingPartyOptions {
  /** the service clock: how old a provider's metadata is (default: the system clock) */
  clock?: Clock;
  /** per HTTP request to a provider; default 10 s */
  timeoutSeconds?: number;
  /**
   * `max_age` sent with every login (SVC_PROVIDER_MAX_AGE_S, default 300): an ID token whose
   * `auth_time` is older, or absent, is refused (docs/providers.md, "A fresh check")
   */
  maxAgeSeconds?: number;
  /** replaces fetch for every request to providers (tests watch the wire with it); answers are capped at 1 MB over it */
  fetch?: client.CustomFetch;
}

export interface RelyingParty {
  /**
   * The authorization request for these scopes: code flow with PKCE (S256), fresh state and
   * nonce (256 bits each), `prompt=login`, `max_age`, `ui_locales`, scope `openid` and a `claims` parameter
   * asking, as essential, exactly the claims the scopes need. Throws SERVICE_UNAVAILABLE when the
   * provider cannot be discovered.
   */
  startLogin(provider: ProviderClient, input: StartLoginInput): Promise<LoginStart>;
  /**
   * The callback's verdict; never throws. `refused`: a hostile or broken callback (wrong state,
   * wrong iss, a code the provider rejects, an ID token that fails a check): leave the request
   * untouched. `failed`: the request fails with `reason`. `approved`: the facts to approve with.
   */
  finishLogin(provider: ProviderClient, input: FinishLoginInput): Promise<LoginOutcome>;
  /** Drops what is cached about an issuer (its metadata and keys); the next login discovers again. */
  forget(issuer: string): void;
}

interface Discovered {
  /** the provider's metadata, as plain JSON */
  metadata: client.ServerMetadata;
  jwks?: client.ExportedJWKSCache;
}

/**
 * Loopback hosts may be reached over plain http (local trials and tests); every other issuer
 * must be https.
 */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname;
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

function checkIssuer(issuer: string): URL {
  const url = new URL(issuer);
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackUrl(url))) return url;
  throw new Error('the issuer must be https (http only on a loopback host)');
}

/** The private_key_jwt key: a private JWK, its algorithm from `alg` or its curve. */
async function importClientKey(credential: string): Promise<client.PrivateKey> {
  let jwk: JWK;
  try {
    jwk = JSON.parse(credential) as JWK;
  } catch {
    // JSON.parse quotes the text it fails on: the key must not reach a log through it
    throw new Error('the private_key_jwt credential is not JSON');
  }
  const alg =
    jwk.alg ??
    (jwk.kty === 'EC'
      ? { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' }[jwk.crv ?? '']
      : jwk.kty === 'OKP'
        ? 'Ed25519'
        : jwk.kty === 'RSA'
          ? 'RS256'
          : undefined);
  if (alg === undefined || jwk.d === undefined) throw new Error('not a private signing JWK');
  const key = await importJWK(jwk, alg);
  if (key instanceof Uint8Array) throw new Error('not an asymmetric key');
  return jwk.kid === undefined ? { key } : { key, kid: jwk.kid };
}

async function clientAuthFor(provider: ProviderClient): Promise<client.ClientAuth> {
  switch (provider.clientAuth) {
    case 'client_secret_basic':
      return client.ClientSecretBasic(provider.credential);
    case 'client_secret_post':
      return client.ClientSecretPost(provider.credential);
    case 'private_key_jwt':
      return client.PrivateKeyJwt(await importClientKey(provider.credential));
  }
}

/** The `claims` request parameter: each needed claim, essential, in the ID token and from userinfo. */
function claimsRequest(scopes: readonly Scope[]): string | null {
  const names = claimsForScopes(scopes);
  if (names.length === 0) return null;
  const asked = Object.fromEntries(names.map((name) => [name, { essential: true }]));
  return JSON.stringify({ id_token: asked, userinfo: asked });
}

/** Only the claims these scopes need (an `age_over_18` answer stands in for a birthdate). */
function neededClaims(source: Record<string, unknown>, scopes: readonly Scope[]): IdentityClaims {
  const claims: Record<string, unknown> = {};
  for (const name of claimsForScopes(scopes)) if (source[name] !== undefined) claims[name] = source[name];
  if (scopes.includes('isAdult') && source.age_over_18 !== undefined) claims.age_over_18 = source.age_over_18;
  return claims as IdentityClaims;
}

/**
 * A relying party with its own cache of provider metadata and keys, keyed by issuer: discovered
 * again after an hour, after a provider_error, and after a refused login when the metadata is at
 * least a minute old (docs/providers.md, "A real one").
 *
 * @example
 * const rp = createRelyingParty();
 * const start = await rp.startLogin(provider, { redirectUri: `${appUrl}/m/callback`, scopes: ['isAdult'], locale: 'fr' });
 * // … later, on the callback:
 * const outcome = await rp.finishLogin(provider, { callbackUrl, redirectUri, expected: start, scopes, now: clock.now() });
 */
export function createRelyingParty(options: RelyingPartyOptions = {}): RelyingParty {
  const timeout = options.timeoutSeconds ?? 10;
  const maxAge = options.maxAgeSeconds ?? 300;
  // every request to a provider, through one fetch that stops reading an answer at 1 MB
  const fetchCapped = capResponses(options.fetch ?? ((url, init) => fetch(url, init as RequestInit)));
  const clock = options.clock ?? systemClock;
  /** per issuer: the discovery in flight or done, and when it started (service clock, ms) */
  const discovered = new Map<string, { entry: Promise<Discovered>; at: number }>();

  function discover(issuer: string): Promise<Discovered> {
    const now = clock.now();
    const cached = discovered.get(issuer);
    if (cached !== undefined && now - cached.at < DISCOVERY_TTL_MS) return cached.entry;
    const url = checkIssuer(issuer);
    // The client id is not used: only the metadata is kept, each exchange builds its own configuration.
    const entry: Promise<Discovered> = client
      .discovery(url, 'discovery', undefined, undefined, {
        timeout,
        [client.customFetch]: fetchCapped,
        // deprecated only to stand out: loopback issuers only (checkIssuer)
        execute: url.protocol === 'http:' ? [client.allowInsecureRequests] : [],
      })
      .then((config) => {
        const metadata = JSON.parse(JSON.stringify(config.serverMetadata())) as client.ServerMetadata;
        // character for character, no trailing "/" forgiven (docs/providers.md, "A real one"):
        // the ID tokens' iss is then the registered issuer too, and so is the nullifier's user
        if (metadata.issuer !== issuer) throw new Error('the discovery document names another issuer');
        return { metadata };
      });
    discovered.set(issuer, { entry, at: now });
    entry.catch(() => {
      if (discovered.get(issuer)?.entry === entry) discovered.delete(issuer);
    });
    return entry;
  }

  /** A configuration for one exchange, its clock at `now` (the service clock, not Date.now()). */
  async function configure(
    provider: ProviderClient,
    found: Discovered,
    now: number | null,
  ): Promise<client.Configuration> {
    const skewSeconds = now === null ? 0 : Math.round((now - Date.now()) / 1000);
    const config = new client.Configuration(
      found.metadata,
      provider.clientId,
      { [client.clockSkew]: skewSeconds, [client.clockTolerance]: PROVIDER_SKEW_SECONDS },
      await clientAuthFor(provider),
    );
    config.timeout = timeout;
    config[client.customFetch] = fetchCapped;
    // deprecated only to stand out: loopback issuers only (checkIssuer)
    if (new URL(provider.issuer).protocol === 'http:') client.allowInsecureRequests(config);
    // openid-client trusts an ID token from the token endpoint on TLS alone (OpenID Connect Core
    // §3.1.3.7 allows it); design.md §12 checks its signature against the provider's JWKS too.
    client.enableNonRepudiationChecks(config);
    if (found.jwks) client.setJwksCache(config, found.jwks);
    return config;
  }

  function forget(issuer: string): void {
    discovered.delete(issuer);
  }

  async function startLogin(provider: ProviderClient, input: StartLoginInput): Promise<LoginStart> {
    let config: client.Configuration;
    try {
      config = await configure(provider, await discover(provider.issuer), null);
    } catch (cause) {
      throw new ServiceError('SERVICE_UNAVAILABLE', { cause });
    }
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    const parameters: Record<string, string> = {
      redirect_uri: input.redirectUri,
      scope: 'openid',
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      prompt: 'login',
      max_age: String(maxAge),
      ui_locales: input.locale,
    };
    const claims = claimsRequest(input.scopes);
    if (claims !== null) parameters.claims = claims;
    return { authorizationUrl: client.buildAuthorizationUrl(config, parameters).href, state, nonce, codeVerifier };
  }

  async function finishLogin(provider: ProviderClient, input: FinishLoginInput): Promise<LoginOutcome> {
    const { expected, now } = input;
    const params = input.callbackUrl.searchParams;
    // Checked here first for a precise code; openid-client checks them again.
    if (params.get('state') !== expected.state) return refused('state_mismatch');
    const iss = params.get('iss');
    if (iss !== null && iss !== provider.issuer) return refused('iss_mismatch');

    let found: Discovered;
    try {
      found = await discover(provider.issuer);
    } catch {
      return failed('provider_error', 'discovery_failed');
    }
    if (iss === null && found.metadata.authorization_response_iss_parameter_supported === true)
      return refused('iss_missing');
    let config: client.Configuration;
    try {
      config = await configure(provider, found, now);
    } catch {
      return failed('provider_error', 'client_credential_invalid');
    }

    // The code is exchanged with the registered redirect URI, whatever host the callback reached.
    const callback = new URL(input.redirectUri);
    callback.search = params.toString();
    const outcome = await exchange(config, callback, { issuer: provider.issuer, maxAge }, input).catch(
      (error: unknown) => classifyError(error),
    );
    const jwks = client.getJwksCache(config);
    if (jwks) found.jwks = jwks;
    if (outcome.outcome === 'failed' && outcome.reason === 'provider_error') forget(provider.issuer);
    // A refusal may come from metadata the provider has since changed (new keys, new endpoints):
    // discover again, but not more than once a minute, so forged callbacks cannot make us hammer it.
    const at = discovered.get(provider.issuer)?.at;
    if (outcome.outcome === 'refused' && at !== undefined && clock.now() - at >= REDISCOVERY_AFTER_REFUSAL_MS)
      forget(provider.issuer);
    return outcome;
  }

  return { startLogin, finishLogin, forget };
}

/**
 * The code for tokens, the ID token (and userinfo when needed) for facts. openid-client throws on
 * any failed check. The nullifier's user is the registered `issuer` + `sub`.
 */
async function exchange(
  config: client.Configuration,
  callback: URL,
  { issuer, maxAge }: { issuer: string; maxAge: number },
  input: FinishLoginInput,
): Promise<LoginOutcome> {
  const { expected, scopes, now } = input;
  // maxAge: auth_time required, and no older than max_age (with the skew) by the service clock
  const tokens = await client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: expected.codeVerifier,
    expectedState: expected.state,
    expectedNonce: expected.nonce,
    idTokenExpected: true,
    maxAge,
  });
  const idToken = tokens.claims()!;
  if (!isSubject(idToken.sub)) return refused('id_token_sub');
  // openid-client checks that auth_time is not too old, not that it or iat is not in the future
  if (isInFuture(idToken.auth_time, now)) return refused('id_token_auth_time');
  if (isInFuture(idToken.iat, now)) return refused('id_token_iat');
  const claims = neededClaims(idToken, scopes);
  let facts = readFacts(claims, now);
  // userinfo only when the ID token leaves a requested fact unproven; the ID token's claims win
  if (!(facts instanceof InvalidClaimError) && unprovenScopes(facts, scopes).length > 0) {
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
    facts = readFacts({ ...neededClaims(userinfo, scopes), ...claims }, now);
  }
  if (facts instanceof InvalidClaimError) return failed('provider_error', `claim_invalid_${facts.claim}`);
  const missing = unprovenScopes(facts, scopes);
  if (missing.length > 0) return failed('claims_missing', `missing_${claimsForScopes(missing).join('_')}`);
  return { outcome: 'approved', subject: providerSubject(issuer, idToken.sub), facts: pickFacts(facts, scopes) };
}

/**
 * OpenID Connect Core §2: `sub` is non-empty and at most 255 ASCII characters (printable here:
 * it becomes the nullifier's user, and an empty one would be shared by everyone at a provider).
 */
function isSubject(sub: unknown): boolean {
  return typeof sub === 'string' && /^[\x20-\x7e]{1,255}$/.test(sub);
}

/** A time claim (seconds) later than the service clock allows, skew included. */
function isInFuture(seconds: unknown, now: number): boolean {
  return typeof seconds === 'number' && seconds > Math.floor(now / 1000) + PROVIDER_SKEW_SECONDS;
}

function readFacts(claims: IdentityClaims, now: number): ProvenFacts | InvalidClaimError {
  try {
    return factsFromClaims(claims, now);
  } catch (error) {
    if (error instanceof InvalidClaimError) return error;
    throw error;
  }
}
