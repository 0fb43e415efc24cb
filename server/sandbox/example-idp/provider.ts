/**
 * The example identity provider (design.md §12): node-oidc-provider, a development dependency, with
 * the sandbox personas as its accounts, so the production path (the service as an OpenID Connect
 * relying party) can be seen and tested end to end. Production never loads it.
 *
 * What it serves: the authorization code flow with PKCE required, the `claims` request parameter
 * (only the claims asked for are answered), the `iss` authorization response parameter (RFC 9207;
 * oidc-provider always sends it), client_secret_basic, client_secret_post and private_key_jwt
 * clients, ES256 ID tokens. A persona's claims are `birthdate`, `gender` and `nationalities`
 * (OpenID Connect for Identity Assurance; the persona's one ISO 3166-1 alpha-3 code), and `sub` is
 * the persona id.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { InteractionDetails } from 'oidc-provider';
import type { Persona } from '../../../src/protocol/sandbox.ts';
import { systemClock, type Clock } from '../../clock.ts';
import { createEcJwk } from '../../wallet/index.ts';
import { findPersona, personaClaims, summarizePersonas } from '../personas.ts';
import { createMemoryAdapter } from './memory-adapter.ts';
import { loginPageCsp, pickLocale, renderExpiredPage, renderLoginPage } from './login-page.ts';

/** The claims an account can answer, beyond `sub`. */
export const EXAMPLE_CLAIMS = ['birthdate', 'gender', 'nationalities'] as const;

export interface ExampleClient {
  client_id: string;
  /** shown on the login page; a default name in the page's language otherwise */
  client_name?: string;
  /** client_secret_basic and client_secret_post */
  client_secret?: string;
  /** private_key_jwt: the client's public keys */
  jwks?: { keys: readonly object[] };
  redirect_uris: readonly string[];
  token_endpoint_auth_method: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
}

export interface ExampleProviderOptions {
  /** 0 or absent: any free port */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** default `http://{host}:{port}` once listening */
  issuer?: string;
  clients: readonly ExampleClient[];
  personas: readonly Persona[];
  /** the personas' ages follow it ("turns 18 today" stays true); the protocol's own times are oidc-provider's */
  clock?: Clock;
  /**
   * What an account answers, in the ID token (`id_token`) or from userinfo; tests use it to make a
   * provider omit or garble a claim. Default: the persona's claims (personas.ts personaClaims).
   */
  claimsOf?: (persona: Persona, now: number, use: 'id_token' | 'userinfo') => Record<string, unknown>;
}

export interface ExampleProvider {
  /** the issuer identifier, e.g. http://127.0.0.1:8789 */
  issuer: string;
  /** where it listens */
  url: string;
  close(): Promise<void>;
}

const FORM_LIMIT_BYTES = 4096;

function requestedClaims(details: InteractionDetails): string[] {
  const raw = details.params.claims;
  if (typeof raw !== 'string') return [];
  try {
    const parsed = JSON.parse(raw) as Record<string, unknown>;
    const names = new Set<string>();
    for (const member of ['id_token', 'userinfo']) {
      const asked = parsed[member];
      if (asked !== null && typeof asked === 'object') for (const name of Object.keys(asked)) names.add(name);
    }
    return [...names].filter((name) => (EXAMPLE_CLAIMS as readonly string[]).includes(name));
  } catch {
    return [];
  }
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT_BYTES) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, html: string, csp: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  });
  res.end(html);
}

/**
 * Starts the example provider on its own HTTP server.
 *
 * @example
 * const idp = await startExampleProvider({ port: 0, clients: [{ client_id: 'svc-sandbox', client_secret: 's3cret',
 *   redirect_uris: ['http://localhost:8787/m/callback'], token_endpoint_auth_method: 'client_secret_basic' }], personas });
 * // idp.issuer → http://127.0.0.1:40123; await idp.close()
 */
export async function startExampleProvider(options: ExampleProviderOptions): Promise<ExampleProvider> {
  const Provider = await loadOidcProvider();
  const clock = options.clock ?? systemClock;
  const host = options.host ?? '127.0.0.1';
  const claimsOf = options.claimsOf ?? personaClaims;
  const csp = loginPageCsp([...new Set(options.clients.flatMap((c) => c.redirect_uris.map((u) => new URL(u).origin)))]);

  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.writeHead(503).end();
  };
  const server: Server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const issuer = options.issuer ?? url;

  const provider = new Provider(issuer, {
    adapter: createMemoryAdapter(),
    clients: options.clients.map(({ client_name: _name, ...client }) => ({
      ...client,
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    // A P-256 key made from random bytes: oidc-provider's built-in development keys are public.
    jwks: { keys: [{ ...createEcJwk('ES256'), use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], birthdate: null, gender: null, nationalities: null },
    scopes: ['openid'],
    responseTypes: ['code'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      claimsParameter: { enabled: true },
      userinfo: { enabled: true },
    },
    conformIdTokenClaims: true,
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, sub: string) {
      const persona = findPersona(options.personas, sub);
      if (persona === null) return undefined;
      return {
        accountId: persona.id,
        claims: (use: 'id_token' | 'userinfo') => ({ ...claimsOf(persona, clock.now(), use), sub: persona.id }),
      };
    },
    renderError(ctx: { type: string; body: string }, out: { error?: string }) {
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>Example ID</title><p>${out.error === 'invalid_request' ? 'Invalid request' : 'Error'}</p>`;
    },
  });

  const oidcHandler = provider.callback();
  const clientName = (clientId: unknown): string | null =>
    options.clients.find((c) => c.client_id === clientId)?.client_name ?? null;

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    let details: InteractionDetails;
    try {
      details = await provider.interactionDetails(req, res);
      if (details.uid !== uid) throw new Error('interaction cookie for another uid');
    } catch {
      send(res, 400, renderExpiredPage('en'), csp);
      return;
    }
    const locale = pickLocale(details.params.ui_locales);
    const claims = requestedClaims(details);
    const page = (missingPersona = false): string =>
      renderLoginPage({
        locale,
        clientName: clientName(details.params.client_id),
        claims,
        personas: summarizePersonas(options.personas),
        action: `/interaction/${uid}`,
        missingPersona,
      });
    if (req.method === 'GET') return send(res, 200, page(), csp);
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'GET, POST' }).end();

    const form = await readForm(req);
    if (form?.get('decision') === 'decline') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The person declined.' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const persona = form?.get('decision') === 'approve' ? findPersona(options.personas, form.get('persona')) : null;
    if (persona === null) return send(res, 400, page(true), csp);
    // Sign-in and consent in one step: the grant holds exactly what was asked for.
    const grant = new provider.Grant({ accountId: persona.id, clientId: String(details.params.client_id) });
    grant.addOIDCScope('openid');
    if (claims.length > 0) grant.addOIDCClaims(claims);
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: persona.id, remember: false }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  handle = (req, res) => {
    const match = /^\/interaction\/([A-Za-z0-9_-]{1,64})$/.exec(new URL(req.url ?? '/', 'http://x').pathname);
    if (match === null) return oidcHandler(req, res);
    interaction(req, res, match[1]!).catch(() => {
      if (!res.headersSent) send(res, 500, renderExpiredPage('en'), csp);
      else res.end();
    });
  };

  return {
    issuer,
    url,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** oidc-provider's warning at import on any Node older than its newest LTS line (its lib/index.js). */
export const UNSUPPORTED_RUNTIME_WARNING =
  'oidc-provider WARNING: Unsupported runtime. Use Node.js v22.x LTS, or a later LTS release.';

/**
 * oidc-provider, imported without its "Unsupported runtime" line on a Node this project supports
 * (package.json `engines`, >= 20.19; docs/development.md#node--2019-and-two-overrides): the library
 * prints it at import on every Node before 22 LTS, though the example provider runs on 20.19 (the
 * sandbox's and CI's Node). Only that exact line is dropped, only while the module loads, and only
 * on Node >= 20.19; on an older Node it still prints.
 *
 * @example const Provider = await loadOidcProvider()
 */
export async function loadOidcProvider(
  version: string = process.versions.node,
): Promise<typeof import('oidc-provider').default> {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const supported = major > 20 || (major === 20 && minor >= 19);
  const warn = console.warn;
  if (supported)
    console.warn = (...args: unknown[]) => {
      // attention.js colours the line on a terminal: the text is inside the escape codes
      if (args.length !== 1 || !String(args[0]).includes(UNSUPPORTED_RUNTIME_WARNING)) warn(...args);
    };
  try {
    return (await import('oidc-provider')).default;
  } finally {
    console.warn = warn;
  }
}
