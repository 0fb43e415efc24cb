/**
 * Shared set-up for the relying party's tests (not a test file): the example identity provider
 * with one client per authentication method, a fetch that records the wire, and a hand-made
 * provider whose token endpoint answers whatever a test sets.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, importJWK, type JWK } from 'jose';
import type * as client from 'openid-client';
import type { Persona } from '../../src/protocol/sandbox.ts';
import { createFakeClock } from '../clock.ts';
import { loadPersonas } from '../sandbox/personas.ts';
import {
  startExampleProvider,
  type ExampleProvider,
  type ExampleProviderOptions,
} from '../sandbox/example-idp/provider.ts';
import { createEcJwk, toPublicEcJwk } from '../wallet/keys.ts';
import type { ClientAuthMethod, ProviderClient } from '../providers/relying-party.ts';

export const REDIRECT_URI = 'http://localhost:8787/m/callback';
export const personas: Persona[] = loadPersonas();
/** The personas' clock: today, so the ID tokens' real times and the facts' day agree. */
export const clock = createFakeClock(Date.now());

const SECRET = 'sandbox-secret-0123456789abcdef';
const CLIENT_KEY = createEcJwk('ES256');

/** One registered client per authentication method, as the relying party sees them. */
export function clientsOf(issuer: string): Record<ClientAuthMethod, ProviderClient> {
  return {
    client_secret_basic: { issuer, clientId: 'svc-basic', clientAuth: 'client_secret_basic', credential: SECRET },
    client_secret_post: { issuer, clientId: 'svc-post', clientAuth: 'client_secret_post', credential: SECRET },
    private_key_jwt: {
      issuer,
      clientId: 'svc-jwt',
      clientAuth: 'private_key_jwt',
      credential: JSON.stringify({ ...CLIENT_KEY, kid: 'svc-key-1' }),
    },
  };
}

/** The example provider with the three clients of clientsOf. */
export function startProvider(options: Partial<ExampleProviderOptions> = {}): Promise<ExampleProvider> {
  const redirect_uris = [REDIRECT_URI];
  return startExampleProvider({
    port: 0,
    personas,
    clock,
    clients: [
      {
        client_id: 'svc-basic',
        client_secret: SECRET,
        redirect_uris,
        token_endpoint_auth_method: 'client_secret_basic',
      },
      { client_id: 'svc-post', client_secret: SECRET, redirect_uris, token_endpoint_auth_method: 'client_secret_post' },
      {
        client_id: 'svc-jwt',
        jwks: { keys: [{ ...toPublicEcJwk(CLIENT_KEY), kid: 'svc-key-1' }] },
        redirect_uris,
        token_endpoint_auth_method: 'private_key_jwt',
      },
    ],
    ...options,
  });
}

export interface WireCall {
  url: URL;
  method: string;
  /** what the relying party sent */
  request: { headers: Record<string, string>; body: string };
  status: number;
  /** the answer's body, as text */
  body: string;
}

/** A fetch for the relying party that keeps every exchange with providers. */
export function recordingFetch(): { calls: WireCall[]; fetch: client.CustomFetch } {
  const calls: WireCall[] = [];
  return {
    calls,
    fetch: async (url, init) => {
      const response = await fetch(url, init as RequestInit);
      const body = init.body;
      calls.push({
        url: new URL(url),
        method: init.method,
        request: {
          headers: init.headers,
          body: typeof body === 'string' || body instanceof URLSearchParams ? String(body) : '',
        },
        status: response.status,
        body: await response.clone().text(),
      });
      return response;
    },
  };
}

/** The payload of a compact JWS, unverified (tests read what a provider sent). */
export function jwtPayload(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

export interface HandMadeProvider {
  issuer: string;
  client: ProviderClient;
  /** signs an ID token with the provider's published key, or with `key` (one it never published) */
  sign(claims: Record<string, unknown>, options?: { key?: JWK; kid?: string }): Promise<string>;
  /**
   * what the token endpoint answers next; `hang`: it never answers; `chunked`: the body in 64 kB
   * chunks without a Content-Length, written as fast as the connection takes them
   */
  tokenAnswer: { status: number; contentType: string; body: string; hang?: boolean; chunked?: boolean };
  /** fields the discovery document answers in place of the honest ones (e.g. another `issuer`) */
  metadata: Record<string, unknown>;
  /** how many times the discovery document was read */
  discoveries: number;
  /** what `/jwks-next` answers: the keys of a provider that moved its JWKS (point `metadata.jwks_uri` at it) */
  nextJwks: { keys: JWK[] };
  close(): Promise<void>;
}

/**
 * A provider written by hand, real HTTP: discovery, JWKS (one P-256 key) and a token endpoint
 * that answers `tokenAnswer`, so a test can send ID tokens no real provider would.
 */
export async function startHandMadeProvider(): Promise<HandMadeProvider> {
  const key = createEcJwk('ES256');
  const kid = 'published-key';
  let issuer = '';
  const provider: Pick<HandMadeProvider, 'tokenAnswer' | 'metadata' | 'discoveries' | 'nextJwks'> = {
    nextJwks: { keys: [] },
    tokenAnswer: { status: 500, contentType: 'text/plain', body: 'not set' },
    metadata: {},
    discoveries: 0,
  };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    req.resume();
    if (path === '/.well-known/openid-configuration') {
      provider.discoveries += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          userinfo_endpoint: `${issuer}/me`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['ES256'],
          authorization_response_iss_parameter_supported: true,
          claims_parameter_supported: true,
          ...provider.metadata,
        }),
      );
    } else if (path === '/jwks') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [{ ...toPublicEcJwk(key), kid, alg: 'ES256', use: 'sig' }] }));
    } else if (path === '/jwks-next') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(provider.nextJwks));
    } else if (path === '/token' && req.method === 'POST') {
      if (provider.tokenAnswer.hang) return;
      res.writeHead(provider.tokenAnswer.status, { 'content-type': provider.tokenAnswer.contentType });
      if (!provider.tokenAnswer.chunked) return void res.end(provider.tokenAnswer.body);
      const body = Buffer.from(provider.tokenAnswer.body);
      let closed = false;
      res.on('close', () => (closed = true));
      const writeFrom = (offset: number): void => {
        if (closed) return;
        if (offset >= body.length) return void res.end();
        const chunk = body.subarray(offset, offset + 65_536);
        const more = res.write(chunk);
        if (more) setImmediate(() => writeFrom(offset + chunk.length));
        else res.once('drain', () => writeFrom(offset + chunk.length));
      };
      writeFrom(0);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(provider, {
    issuer,
    client: { issuer, clientId: 'svc-hand', clientAuth: 'client_secret_basic', credential: SECRET } as ProviderClient,
    async sign(claims: Record<string, unknown>, options: { key?: JWK; kid?: string } = {}) {
      const signingKey = await importJWK(options.key ?? key, 'ES256');
      return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: options.kid ?? kid }).sign(signingKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}
