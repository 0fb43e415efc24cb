import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelyingParty } from '../../providers/relying-party.ts';
import { REPO_ROOT } from '../../test/helpers.ts';
import { loadPersonas } from '../personas.ts';
import { startExampleProvider, type ExampleProvider } from './provider.ts';
import { readExampleSetup } from './setup.ts';
import { signInAtExampleProvider } from './sign-in.ts';
import { freePort } from '../../test/free-port.ts';

const REDIRECT_URI = 'http://localhost:8787/m/callback';
const SECRET = 'example-secret-0123456789';
const client = { issuer: '', clientId: 'svc-sandbox', clientAuth: 'client_secret_basic', credential: SECRET } as const;

let idp: ExampleProvider;
beforeAll(async () => {
  idp = await startExampleProvider({
    port: 0,
    personas: loadPersonas(),
    clients: [
      {
        client_id: 'svc-sandbox',
        client_secret: SECRET,
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
  });
});
afterAll(() => idp.close());

async function authorizationUrl(): Promise<URL> {
  const start = await createRelyingParty().startLogin(
    { ...client, issuer: idp.issuer },
    { redirectUri: REDIRECT_URI, scopes: ['isAdult', 'isFrench'], locale: 'en' },
  );
  return new URL(start.authorizationUrl);
}

describe('example identity provider', () => {
  it('announces the claims parameter, RFC 9207 iss, PKCE S256, ES256 ID tokens and the three client authentications', async () => {
    const metadata = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata).toMatchObject({
      issuer: idp.issuer,
      claims_parameter_supported: true,
      authorization_response_iss_parameter_supported: true,
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['ES256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
      response_types_supported: ['code'],
    });
    expect(metadata.claims_supported).toEqual(expect.arrayContaining(['sub', 'birthdate', 'gender', 'nationalities']));
  });

  it('answers the decline with error=access_denied, the state and its issuer', async () => {
    const url = await authorizationUrl();
    const { callbackUrl } = await signInAtExampleProvider(url.href, { decision: 'decline', redirectUri: REDIRECT_URI });
    expect(Object.fromEntries(callbackUrl.searchParams)).toMatchObject({
      error: 'access_denied',
      state: url.searchParams.get('state'),
      iss: idp.issuer,
    });
    expect(callbackUrl.searchParams.has('code')).toBe(false);
  });

  it('answers an approval with a code, the state and its issuer (RFC 9207)', async () => {
    const url = await authorizationUrl();
    const { callbackUrl } = await signInAtExampleProvider(url.href, {
      persona: 'us-adult',
      decision: 'approve',
      redirectUri: REDIRECT_URI,
    });
    expect(callbackUrl.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(callbackUrl.searchParams.get('state')).toBe(url.searchParams.get('state'));
    expect(callbackUrl.searchParams.get('iss')).toBe(idp.issuer);
  });

  it('shows its login page again on prompt=login, even to a browser that just signed in', async () => {
    const cookies = new Map<string, string>();
    const choice = { persona: 'fr-adult-f', decision: 'approve', redirectUri: REDIRECT_URI, cookies } as const;
    await signInAtExampleProvider((await authorizationUrl()).href, choice);
    // signInAtExampleProvider throws when no login page is shown on the way
    const again = await signInAtExampleProvider((await authorizationUrl()).href, choice);
    expect(again.loginPage.html).toContain('fr-adult-f');
  });

  it('lists the claims asked for and the personas by label, in English by default', async () => {
    const { loginPage } = await signInAtExampleProvider((await authorizationUrl()).href, {
      decision: 'decline',
      redirectUri: REDIRECT_URI,
    });
    expect(loginPage.html).toContain('<html lang="en">');
    expect(loginPage.html).toContain('The age verification service asks Example ID to confirm:');
    expect(loginPage.html).toContain('your date of birth');
    expect(loginPage.html).toContain('your nationalities');
    expect(loginPage.html).not.toContain('your gender');
    expect(loginPage.html).toContain('Léa Petit — French, 16, female');
  });

  it('refuses an authorization request without PKCE', async () => {
    const url = await authorizationUrl();
    url.searchParams.delete('code_challenge');
    url.searchParams.delete('code_challenge_method');
    const response = await fetch(url, { redirect: 'manual' });
    const location = new URL(response.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('asks again when an approval comes without a persona, and shows an expired page to a stranger', async () => {
    const url = await authorizationUrl();
    const first = await fetch(url, { redirect: 'manual' });
    const cookie = first.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const page = new URL(first.headers.get('location')!, url);
    const noPersona = await fetch(page, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=approve&persona=nobody',
      redirect: 'manual',
    });
    expect(noPersona.status).toBe(400);
    expect(await noPersona.text()).toContain('Pick an identity to approve, or decline.');
    const stranger = await fetch(page, { redirect: 'manual' });
    expect(stranger.status).toBe(400);
    expect(await stranger.text()).toContain('has expired or was already used');
  });
});

describe('example identity provider: setup for npm start', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'example-idp-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function writeFixtures(issuer: string): string {
    const path = join(dir, 'providers.json');
    writeFileSync(
      path,
      JSON.stringify([
        {
          id: 'idp_example',
          issuer,
          client_id: 'svc-sandbox',
          client_secret: SECRET,
          client_auth: 'client_secret_basic',
          name: 'Example ID',
          method: 'face_check',
          proves: ['isAdult'],
        },
      ]),
    );
    return path;
  }

  it('reads the issuer and the client from the fixture provider idp_example, and the redirect URI from the app URL', () => {
    const path = writeFixtures('http://localhost:8789');
    expect(readExampleSetup({ SVC_PROVIDER_FIXTURES: path })).toEqual({
      port: 8789,
      host: '127.0.0.1',
      issuer: 'http://localhost:8789',
      client: {
        client_id: 'svc-sandbox',
        client_secret: SECRET,
        redirect_uris: ['http://localhost:8787/m/callback'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    });
    const custom = readExampleSetup({ SVC_PROVIDER_FIXTURES: path, PORT: '9999', SVC_APP_URL: 'https://app.example/' });
    expect(custom).toMatchObject({ port: 9999, client: { redirect_uris: ['https://app.example/m/callback'] } });
    // Beside a production service (docs/providers.md): its SVC_PUBLIC_URL is the app URL
    const production = readExampleSetup({ SVC_PROVIDER_FIXTURES: path, SVC_PUBLIC_URL: 'https://verify.example.com' });
    expect(production.client.redirect_uris).toEqual(['https://verify.example.com/m/callback']);
  });

  it('fails at start with one clear line when the fixture is missing', () => {
    expect(() => readExampleSetup({ SVC_PROVIDER_FIXTURES: join(dir, 'absent.json') })).toThrow(
      /cannot read the provider fixtures/,
    );
    writeFileSync(join(dir, 'empty.json'), '[]');
    expect(() => readExampleSetup({ SVC_PROVIDER_FIXTURES: join(dir, 'empty.json') })).toThrow(
      /no provider "idp_example"/,
    );
  });

  it('runs as a process that serves discovery at its issuer and stops on SIGTERM', async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/sandbox/example-idp/main.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, SVC_PROVIDER_FIXTURES: writeFixtures(issuer), PORT: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 20_000;
      let metadata: { issuer?: string } | null = null;
      while (metadata === null && Date.now() < deadline && child.exitCode === null) {
        metadata = await fetch(`${issuer}/.well-known/openid-configuration`).then(
          (r) => r.json() as Promise<{ issuer: string }>,
          () => null,
        );
        if (metadata === null) await new Promise((r) => setTimeout(r, 100));
      }
      expect(metadata?.issuer).toBe(issuer);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
