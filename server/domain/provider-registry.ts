/**
 * The identity-provider registry's rules (design.md §12), shared by `svc providers` and the sandbox
 * fixtures (fixtures/providers.json): ids, what an issuer, name, method, client id and scope list
 * may be, and a PEM private key turned into the JWK the store keeps for private_key_jwt.
 *
 * Each `…Problem` function returns why a value is refused (to follow the field's name, e.g.
 * "--issuer " or "issuer "), or null when it is accepted.
 */
import { createPrivateKey, randomBytes, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { SCOPES, isScope, type Scope } from '../../src/protocol/scopes.ts';
import { ConfigError } from '../errors.ts';
import { isPrintable } from '../rules/printable.ts';
import type { ProviderClientAuth, ProviderRecord } from '../store/store.ts';
import { isSecureOrLoopbackUrl } from '../rules/urls.ts';

export const PROVIDER_ID_PREFIX = 'idp_';
/** Issued ids (`idp_` + 22 base64url characters) and fixture ids such as `idp_example`. */
export const PROVIDER_ID_PATTERN = /^idp_[A-Za-z0-9_-]{1,64}$/;
export const PROVIDER_METHOD_PATTERN = /^[a-z0-9_]{1,40}$/;
/**
 * Verification methods no provider may yield: `eudi_wallet` is the wallet path's (design.md §11),
 * whose proofs the verifier checked itself; a provider's pass tokens never claim it.
 */
export const RESERVED_METHODS: readonly string[] = ['eudi_wallet'];
export const CLIENT_AUTH_METHODS: readonly ProviderClientAuth[] = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
];
const NAME_MAX = 80;
const CLIENT_ID_MAX = 255;
const MIN_RSA_BITS = 2048;

/**
 * A new provider id: `idp_` + 16 random bytes, base64url.
 *
 * @example newProviderId() // 'idp_3q2-7wAAAAAAAAAAAAAAAA'
 */
export function newProviderId(): string {
  return PROVIDER_ID_PREFIX + randomBytes(16).toString('base64url');
}

/**
 * The issuer is kept exactly as given, never normalised: it must equal, character for character,
 * the `issuer` of the provider's discovery document and the `iss` of its ID tokens (OpenID Connect
 * Discovery 1.0 §4.3), and some providers' issuers end in "/" while others do not.
 *
 * @example issuerProblem('http://id.example') // 'must be an https:// URL …'
 */
export function issuerProblem(value: string): string | null {
  const shown = JSON.stringify(value);
  if (!isSecureOrLoopbackUrl(value) || value !== value.trim())
    return `must be an https:// URL (http:// only on localhost, 127.0.0.0/8 or ::1), got ${shown}`;
  const url = new URL(value);
  if (url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#'))
    return `must have no query or fragment (OpenID Connect issuer identifier), got ${shown}`;
  if (url.username !== '' || url.password !== '') return `must not carry a user name or password, got ${shown}`;
  return null;
}

/** @example nameProblem('France Identité') // null */
export function nameProblem(value: string): string | null {
  const length = [...value].length;
  if (length < 1 || length > NAME_MAX || !isPrintable(value) || value !== value.trim())
    return `must be 1 to ${NAME_MAX} printable characters without leading or trailing spaces, got ${JSON.stringify(value)}`;
  return null;
}

/**
 * The stored method is checked again wherever a provider is used (provider-login.ts provesAll), so
 * a row written around the CLI cannot yield a reserved method either.
 *
 * @example methodProblem('face_check') // null
 * @example methodProblem('eudi_wallet') // 'is reserved for the EUDI wallet path …'
 */
export function methodProblem(value: string): string | null {
  if (RESERVED_METHODS.includes(value))
    return `is reserved for the EUDI wallet path (${value}): a provider's proofs must not claim it; use e.g. face_check or eid`;
  return PROVIDER_METHOD_PATTERN.test(value) ? null : `must match [a-z0-9_]{1,40}, got ${JSON.stringify(value)}`;
}

/** @example clientIdProblem('svc-prod') // null */
export function clientIdProblem(value: string): string | null {
  if (value.length < 1 || value.length > CLIENT_ID_MAX || !isPrintable(value) || value !== value.trim())
    return `must be 1 to ${CLIENT_ID_MAX} printable characters without leading or trailing spaces`;
  return null;
}

/**
 * Reads a comma-separated scope list: known scopes, at least one, none twice. Returns the scopes
 * or the problem.
 *
 * @example readProves('isAdult,isFrench') // ['isAdult', 'isFrench']
 */
export function readProves(value: string | readonly unknown[]): Scope[] | string {
  const items = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : [...value];
  if (items.length === 0 || items.some((s) => s === '')) return `must list at least one scope (${SCOPES.join(', ')})`;
  const unknown = items.find((s) => !isScope(s));
  if (unknown !== undefined) return `has an unknown scope ${JSON.stringify(unknown)}; scopes are ${SCOPES.join(', ')}`;
  if (new Set(items).size !== items.length) return 'lists a scope twice';
  return items as Scope[];
}

/**
 * A client secret as read from a file: its trailing newline(s) dropped; refused when empty or
 * when it spans lines or holds control characters (the wrong file, most likely).
 *
 * @example readClientSecret('s3cret\n') // 's3cret'
 */
export function readClientSecret(text: string): string | { problem: string } {
  const secret = text.replace(/[\r\n]+$/, '');
  if (secret === '') return { problem: 'is empty' };
  if (!isPrintable(secret)) return { problem: 'must hold the secret on one line, without control characters' };
  return secret;
}

/**
 * Turns a PEM private key (PKCS#8, SEC1 or PKCS#1) into the private JWK JSON the store keeps for
 * `private_key_jwt`, with `kid` (its RFC 7638 thumbprint) and `alg` (ES256 or RS256). Accepts EC
 * P-256 and RSA of at least 2048 bits; anything else is a `{ problem }` in one line.
 *
 * @example const jwk = await privateKeyJwkFromPem(readFileSync('client-key.pem', 'utf8'))
 */
export async function privateKeyJwkFromPem(pem: string): Promise<string | { problem: string }> {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    return { problem: 'is not a PEM private key (an unencrypted PKCS#8, SEC1 or PKCS#1 key is needed)' };
  }
  const details = key.asymmetricKeyDetails ?? {};
  let alg: 'ES256' | 'RS256';
  if (key.asymmetricKeyType === 'ec' && details.namedCurve === 'prime256v1') alg = 'ES256';
  else if (key.asymmetricKeyType === 'rsa' && (details.modulusLength ?? 0) >= MIN_RSA_BITS) alg = 'RS256';
  else {
    const what =
      key.asymmetricKeyType === 'ec'
        ? `an EC key on ${details.namedCurve ?? 'an unknown curve'}`
        : key.asymmetricKeyType === 'rsa'
          ? `a ${details.modulusLength}-bit RSA key`
          : `a ${key.asymmetricKeyType} key`;
    return { problem: `holds ${what}; private_key_jwt needs EC P-256 or RSA of at least ${MIN_RSA_BITS} bits` };
  }
  const jwk = key.export({ format: 'jwk' }) as JWK;
  const kid = await calculateJwkThumbprint(jwk);
  return JSON.stringify({ ...jwk, kid, alg });
}

interface ProviderFixture {
  id: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  client_auth?: string;
  name: string;
  method: string;
  proves: string[];
}

/**
 * A fixture (fixtures/providers.json) as a store record, checked by the CLI's rules; throws
 * ConfigError naming the provider and the field. Fixtures carry a client secret only.
 */
export function toProviderRecord(fixture: ProviderFixture, createdAt: number): ProviderRecord {
  const where = `SVC_PROVIDER_FIXTURES: provider ${JSON.stringify(fixture.id)}`;
  const field = (name: string, value: unknown, problem: (v: string) => string | null) => {
    const found = typeof value === 'string' ? problem(value) : 'is missing';
    if (found) throw new ConfigError(`${where}: ${name} ${found}`);
  };
  if (typeof fixture.id !== 'string' || !PROVIDER_ID_PATTERN.test(fixture.id))
    throw new ConfigError(`${where}: id must match idp_[A-Za-z0-9_-]{1,64}`);
  field('issuer', fixture.issuer, issuerProblem);
  field('client_id', fixture.client_id, clientIdProblem);
  field('name', fixture.name, nameProblem);
  field('method', fixture.method, methodProblem);
  const clientAuth = fixture.client_auth ?? 'client_secret_basic';
  if (clientAuth !== 'client_secret_basic' && clientAuth !== 'client_secret_post')
    throw new ConfigError(`${where}: client_auth must be client_secret_basic or client_secret_post`);
  const secret = typeof fixture.client_secret === 'string' ? readClientSecret(fixture.client_secret) : null;
  if (secret === null || typeof secret !== 'string')
    throw new ConfigError(`${where}: client_secret ${secret?.problem ?? 'is missing'}`);
  const proves = Array.isArray(fixture.proves) ? readProves(fixture.proves) : 'is missing';
  if (typeof proves === 'string') throw new ConfigError(`${where}: proves ${proves}`);
  return {
    id: fixture.id,
    issuer: fixture.issuer,
    clientId: fixture.client_id,
    clientAuth,
    credential: secret,
    name: fixture.name,
    method: fixture.method,
    proves,
    enabled: true,
    createdAt,
  };
}

/**
 * The sandbox's identity providers, from SVC_PROVIDER_FIXTURES (default fixtures/providers.json).
 *
 * @example for (const p of loadProviderFixtures(config.providerFixturesPath, clock.now())) await store.putProvider(p)
 */
export function loadProviderFixtures(path: string, now: number): ProviderRecord[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new ConfigError(`SVC_PROVIDER_FIXTURES: cannot read providers from ${path}: ${(cause as Error).message}`);
  }
  if (!Array.isArray(raw)) throw new ConfigError(`SVC_PROVIDER_FIXTURES: ${path} must hold a JSON array of providers`);
  return raw.map((p) => toProviderRecord(p as ProviderFixture, now));
}
