/**
 * `svc providers add|list|disable|enable|remove`: the identity providers the service asks to prove
 * facts, as an OpenID Connect relying party (design.md §12). Works in sandbox mode too, so operators
 * can try a provider locally (an http:// issuer is accepted on loopback hosts only).
 *
 *   svc providers add --issuer <URL> --client-id <id>
 *                     (--client-secret-file <path> | --private-key-file <pem>)
 *                     [--client-auth client_secret_basic|client_secret_post|private_key_jwt]
 *                     --name <shown> --method <label> --proves <scope,scope> [--skip-check] [--json]
 *     checks the issuer's discovery document first (cli/discovery.ts), unless --skip-check; then
 *     prints the new idp_… id (with --json: { id, issuer, client_id, name, method, proves });
 *     the secret or key is stored sealed and never printed
 *   svc providers list [--json]
 *   svc providers disable <id> / enable <id> / remove <id>
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SCOPES } from '../../src/protocol/scopes.ts';
import {
  CLIENT_AUTH_METHODS,
  clientIdProblem,
  issuerProblem,
  loadProviderFixtures,
  methodProblem,
  nameProblem,
  newProviderId,
  privateKeyJwkFromPem,
  readClientSecret,
  readProves,
} from '../domain/index.ts';
import { escapeUnprintable, quote } from '../rules/printable.ts';
import type { ProviderClientAuth, ProviderRecord } from '../store/store.ts';
import { parseFlags } from './args.ts';
import { discoveryProblem, type DiscoveryCheckOptions } from './discovery.ts';
import type { CommandContext } from './dispatch.ts';
import { usageHint } from './usage-hint.ts';

export const PROVIDERS_USAGE = `Usage:
  svc providers add --issuer <URL> --client-id <id>
                    (--client-secret-file <path> | --private-key-file <pem>)
                    [--client-auth client_secret_basic|client_secret_post|private_key_jwt]
                    --name <shown to the visitor> --method <label> --proves <scope,scope>
                    [--skip-check] [--json]
  svc providers list [--json]
  svc providers disable <provider-id>
  svc providers enable <provider-id>
  svc providers remove <provider-id>

add prints the new provider id (idp_…); the provider must register the redirect URI
  {app_url}/m/callback for the client id. Before writing, add fetches
  <issuer>/.well-known/openid-configuration (10 s, 1 MB at most) and refuses the provider unless
  its issuer is --issuer character for character and it gives authorization_endpoint,
  token_endpoint and jwks_uri (https://); --skip-check registers it unchecked (offline set-ups).
--issuer is the provider's issuer exactly as its discovery document spells it (a trailing "/"
  matters): https://, or http:// on localhost, 127.0.0.0/8 or ::1 for local trials.
--client-secret-file holds the client secret (a trailing newline is dropped); the default client
  auth is then client_secret_basic. --private-key-file holds an EC P-256 or RSA (2048 bits or
  more) private key in PEM; the client auth is then private_key_jwt. Neither is ever printed.
--name is shown to the visitor (1 to 80 printable characters, unlike any other provider's name,
  case aside); --method is the
  verification_method the provider yields, [a-z0-9_]{1,40} (e.g. face_check; eudi_wallet is the
  wallet path's and refused); --proves lists what it can prove:
  ${SCOPES.join(', ')}.
disable stops offering the provider to visitors; enable undoes it; remove deletes it.`;

/**
 * Runs `svc providers …` with `args` (what follows `providers`); returns the exit code (0 ok,
 * 1 failed, 2 usage error).
 *
 * @example await runProvidersCommand(['list', '--json'], context)
 */
export async function runProvidersCommand(
  args: string[],
  context: CommandContext,
  options: { discovery?: DiscoveryCheckOptions } = {},
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'add') return addProvider(rest, context, options.discovery);
  if (sub === 'list') return listProviders(rest, context);
  if (sub === 'disable' || sub === 'enable' || sub === 'remove') return changeProvider(sub, rest, context);
  if (sub === undefined || sub === 'help' || sub === '--help') {
    context.out(PROVIDERS_USAGE);
    return 0;
  }
  context.err(`svc providers: unknown subcommand ${quote(sub)}\n${usageHint('providers')}`);
  return 2;
}

async function addProvider(
  args: string[],
  context: CommandContext,
  discovery: DiscoveryCheckOptions = {},
): Promise<number> {
  const usageError = (problem: string) => {
    context.err(`svc providers add: ${problem}\n${usageHint('providers')}`);
    return 2;
  };
  const failed = (problem: string) => {
    context.err(`svc providers add: ${problem}`);
    return 1;
  };
  const parsed = parseFlags(args, {
    issuer: true,
    'client-id': true,
    'client-secret-file': true,
    'private-key-file': true,
    'client-auth': true,
    name: true,
    method: true,
    proves: true,
    'skip-check': false,
    json: false,
  });
  if (!parsed.ok) return usageError(parsed.problem);
  const text = (name: string) => parsed.flags.get(name) as string | undefined;
  const required = ['issuer', 'client-id', 'name', 'method', 'proves'].find((name) => text(name) === undefined);
  if (required) return usageError(`--${required} is required`);
  const issuer = text('issuer')!;
  const clientId = text('client-id')!;
  const name = text('name')!;
  const method = text('method')!;

  const checks: [string, string | null][] = [
    ['--issuer', issuerProblem(issuer)],
    ['--client-id', clientIdProblem(clientId)],
    ['--name', nameProblem(name)],
    ['--method', methodProblem(method)],
  ];
  const refused = checks.find(([, problem]) => problem !== null);
  if (refused) return usageError(`${refused[0]} ${refused[1]}`);
  const proves = readProves(text('proves')!);
  if (typeof proves === 'string') return usageError(`--proves ${proves}`);
  // Visitors choose a provider by its name: two alike ("Continue with Example ID" twice) cannot be told apart.
  const twin = (await context.store.listProviders()).find((p) => sameName(p.name, name));
  if (twin)
    return usageError(`--name ${quote(name)} is already the name of ${twin.id}; visitors could not tell them apart`);

  const secretFile = text('client-secret-file');
  const keyFile = text('private-key-file');
  if ((secretFile === undefined) === (keyFile === undefined))
    return usageError('give exactly one of --client-secret-file and --private-key-file');
  const requestedAuth = text('client-auth');
  if (requestedAuth !== undefined && !(CLIENT_AUTH_METHODS as readonly string[]).includes(requestedAuth))
    return usageError(
      `--client-auth must be one of ${CLIENT_AUTH_METHODS.join(', ')}, got ${JSON.stringify(requestedAuth)}`,
    );
  const clientAuth = (requestedAuth ?? (keyFile ? 'private_key_jwt' : 'client_secret_basic')) as ProviderClientAuth;
  if (keyFile && clientAuth !== 'private_key_jwt')
    return usageError(`--client-auth ${clientAuth} needs --client-secret-file, not --private-key-file`);
  if (secretFile && clientAuth === 'private_key_jwt')
    return usageError('--client-auth private_key_jwt needs --private-key-file, not --client-secret-file');

  const flag = secretFile ? '--client-secret-file' : '--private-key-file';
  let content: string;
  try {
    content = readFileSync(resolve(secretFile ?? keyFile!), 'utf8');
  } catch (cause) {
    return failed(
      `${flag}: cannot read ${JSON.stringify(secretFile ?? keyFile)} (${(cause as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  const credential = secretFile ? readClientSecret(content) : await privateKeyJwkFromPem(content);
  if (typeof credential !== 'string') return failed(`${flag} ${credential.problem}`);

  if (parsed.flags.has('skip-check')) {
    context.err(`svc providers add: --skip-check: ${issuer} was not asked for its discovery document`);
  } else {
    const problem = await discoveryProblem(issuer, discovery);
    if (problem) return failed(`${problem}. Nothing was written (--skip-check registers it unchecked).`);
  }

  const provider: ProviderRecord = {
    id: newProviderId(),
    issuer,
    clientId,
    clientAuth,
    credential,
    name,
    method,
    proves,
    enabled: true,
    createdAt: context.clock.now(),
  };
  await context.store.putProvider(provider);
  // design.md §12 names the --json keys; the credential is never among them.
  context.out(
    parsed.flags.has('json')
      ? JSON.stringify({ id: provider.id, issuer, client_id: clientId, name, method, proves })
      : provider.id,
  );
  return 0;
}

async function changeProvider(
  sub: 'disable' | 'enable' | 'remove',
  args: string[],
  context: CommandContext,
): Promise<number> {
  const [id, ...rest] = args;
  if (id === undefined || id.startsWith('--') || rest.length > 0) {
    context.err(`svc providers ${sub}: give exactly one provider id\n${usageHint('providers')}`);
    return 2;
  }
  const provider = await context.store.getProvider(id);
  if (!provider) {
    context.err(`svc providers ${sub}: no provider ${quote(id)}`);
    return 1;
  }
  if (sub === 'remove') {
    await context.store.removeProvider(id);
    context.out(`${id} is removed.`);
  } else {
    await context.store.putProvider({ ...provider, enabled: sub === 'enable' });
    context.out(sub === 'enable' ? `${id} is enabled.` : `${id} is disabled: it is no longer offered to visitors.`);
  }
  if (sub !== 'enable' && isSandboxFixture(id, context))
    context.out('Note: fixture providers are reloaded from fixtures/providers.json at every sandbox boot.');
  return 0;
}

/** Names a visitor would read as the same: equal once Unicode-normalised and case-folded. */
function sameName(a: string, b: string): boolean {
  const fold = (s: string) => s.normalize('NFKC').toLocaleLowerCase('und');
  return fold(a) === fold(b);
}

function isSandboxFixture(id: string, context: CommandContext): boolean {
  if (context.config.mode !== 'sandbox') return false;
  try {
    return loadProviderFixtures(context.config.providerFixturesPath, 0).some((f) => f.id === id);
  } catch {
    return false; // a broken fixture file stops the next boot with its own message
  }
}

async function listProviders(args: string[], context: CommandContext): Promise<number> {
  const parsed = parseFlags(args, { json: false });
  if (!parsed.ok) {
    context.err(`svc providers list: ${parsed.problem}\n${usageHint('providers')}`);
    return 2;
  }
  const providers = (await context.store.listProviders()).map(describe);
  // Stored text is escaped as it is printed: a row written by other means cannot steer the terminal.
  if (parsed.flags.has('json')) {
    context.out(escapeUnprintable(JSON.stringify(providers)));
    return 0;
  }
  const rows = [
    ['PROVIDER ID', 'NAME', 'ISSUER', 'METHOD', 'PROVES', 'ENABLED'],
    ...providers.map((p) =>
      [p.id, p.name, p.issuer, p.method, p.proves.join(','), p.enabled ? 'yes' : 'no'].map(escapeUnprintable),
    ),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => [...row[column]!].length)));
  for (const row of rows)
    context.out(
      row
        .map((cell, column) => cell + ' '.repeat(widths[column]! - [...cell].length))
        .join('  ')
        .trimEnd(),
    );
  if (providers.length === 0) context.out('(no identity providers yet: svc providers add --issuer … --client-id … )');
  return 0;
}

/** What the CLI shows of a provider: everything but its credential. */
function describe(provider: ProviderRecord) {
  return {
    id: provider.id,
    issuer: provider.issuer,
    client_id: provider.clientId,
    client_auth: provider.clientAuth,
    name: provider.name,
    method: provider.method,
    proves: provider.proves,
    enabled: provider.enabled,
    created_at: new Date(provider.createdAt).toISOString(),
  };
}
