/**
 * What `npm start` runs the example provider with: the fixture provider `idp_example` of
 * fixtures/providers.json (the service's side of the same registration) gives the issuer and the
 * client; the service's app URL gives the redirect URI `{app_url}/m/callback` (design.md §12).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../../config.ts';
import { PROJECT_ROOT } from '../../paths.ts';
import type { ExampleClient } from './provider.ts';

export const EXAMPLE_PROVIDER_ID = 'idp_example';
export const DEFAULT_PORT = 8789;

/** One entry of fixtures/providers.json, as far as the example provider reads it. */
interface ProviderFixture {
  id: string;
  issuer: string;
  client_id: string;
  client_secret?: string;
  client_auth?: string;
  name?: string;
}

export interface ExampleSetup {
  port: number;
  host: string;
  issuer: string;
  client: ExampleClient;
}

/**
 * The example provider's setup from the environment: `SVC_PROVIDER_FIXTURES` (default
 * fixtures/providers.json), `PORT` (default: the issuer's port, else 8789), `SVC_EXAMPLE_IDP_HOST`
 * (default 127.0.0.1), and the service's `SVC_APP_URL` / `SVC_PUBLIC_URL`.
 *
 * @example readExampleSetup(process.env).issuer // 'http://localhost:8789'
 */
export function readExampleSetup(env: NodeJS.ProcessEnv, cwd = PROJECT_ROOT): ExampleSetup {
  const path = resolve(cwd, env.SVC_PROVIDER_FIXTURES || 'fixtures/providers.json');
  let fixtures: ProviderFixture[];
  try {
    fixtures = JSON.parse(readFileSync(path, 'utf8')) as ProviderFixture[];
  } catch (cause) {
    throw new Error(`cannot read the provider fixtures at ${path}`, { cause });
  }
  const fixture = Array.isArray(fixtures) ? fixtures.find((f) => f.id === EXAMPLE_PROVIDER_ID) : undefined;
  if (!fixture) throw new Error(`${path} has no provider "${EXAMPLE_PROVIDER_ID}"`);
  const auth = fixture.client_auth ?? 'client_secret_basic';
  if ((auth !== 'client_secret_basic' && auth !== 'client_secret_post') || !fixture.client_secret)
    throw new Error(`${EXAMPLE_PROVIDER_ID} must be a client_secret_basic or client_secret_post client with a secret`);
  const issuerUrl = new URL(fixture.issuer);
  const port = env.PORT ? Number(env.PORT) : Number(issuerUrl.port || DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const { appUrl } = loadConfig({ ...env, SVC_MODE: 'sandbox' }, cwd);
  return {
    port,
    host: env.SVC_EXAMPLE_IDP_HOST || '127.0.0.1',
    issuer: fixture.issuer,
    client: {
      client_id: fixture.client_id,
      client_secret: fixture.client_secret,
      redirect_uris: [`${appUrl}/m/callback`],
      token_endpoint_auth_method: auth,
    },
  };
}
