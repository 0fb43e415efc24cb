/**
 * `svc partners add|list|update|remove|rotate-secret|disable|enable`: partner onboarding and
 * lifecycle (how partners are issued is the service's own choice; design.md §2).
 *
 *   svc partners add --domain <origin> --rail standard|adult_blind
 *                    [--name <name>] [--blind-app-id <id>] [--scopes a,b] [--attestation jws|private] [--json]
 *     prints the new Partner ID and its secret, once (pk_live_ in production, pk_test_ in sandbox);
 *     adult_blind needs --blind-app-id; --attestation private opts in to docs/adult-blind.md#private-attestations
 *   svc partners list [--json]
 *     never prints secrets, and escapes unprintable characters of stored text
 *   svc partners update <id> [--name <name>] [--domain <origin>] [--blind-app-id <id>] [--attestation jws|private]
 *                       [--wallet-formats all|mso_mdoc|dc+sd-jwt]
 *   svc partners remove <id> --yes
 *     without --yes, says what it would remove and removes nothing
 *   svc partners rotate-secret <id> [--overlap-hours N] [--json]
 *     prints a new secret once; the old one keeps working for the overlap (default 24 h)
 *   svc partners disable <id> / enable <id>
 *     a disabled partner's signed calls answer INVALID_PARTNER (within the auth cache's 5 s)
 */
import { randomBytes } from 'node:crypto';
import { PREFIX, type Rail } from '../../src/protocol/wire.ts';
import { BLIND_SCOPES, SCOPES, isScope, type Scope } from '../../src/protocol/scopes.ts';
import { loadPartnerFixtures } from '../domain/index.ts';
import { escapeUnprintable, isPrintable, quote } from '../rules/printable.ts';
import { isOrigin, isSecureOrLoopbackUrl } from '../rules/urls.ts';
import type { PartnerRecord } from '../store/store.ts';
import { WALLET_FORMATS, type WalletFormat, type WalletFormats } from '../wallet/index.ts';
import { parseFlags } from './args.ts';
import type { CommandContext } from './dispatch.ts';
import { usageHint } from './usage-hint.ts';

const DEFAULT_OVERLAP_HOURS = 24;
const HOUR_MS = 3_600_000;

export const PARTNERS_USAGE = `Usage:
  svc partners add --domain <origin> --rail standard|adult_blind [--name <name>]
                   [--blind-app-id <id>] [--scopes <scope,scope>] [--attestation jws|private] [--json]
  svc partners list [--json]
  svc partners update <partner-id> [--name <name>] [--domain <origin>] [--blind-app-id <id>]
                      [--attestation jws|private] [--wallet-formats all|mso_mdoc|dc+sd-jwt]
  svc partners remove <partner-id> --yes
  svc partners rotate-secret <partner-id> [--overlap-hours <0-720>] [--json]
  svc partners disable <partner-id>
  svc partners enable <partner-id>

add prints the Partner ID and the Partner Secret once; store the secret in a secret manager.
--domain is the origin the widget runs on, e.g. https://shop.example (no path); https:// in
  production (http:// only on localhost, 127.0.0.0/8 or ::1, for local trials).
--blind-app-id (adult_blind only, and required there) names the application in attestations;
  [A-Za-z0-9_-]{1,64}, one partner each.
--attestation (adult_blind only): jws, the spec's Ed25519 attestation (the default), or private,
  Privacy Pass tokens the service signs blindly (docs/adult-blind.md#private-attestations).
--wallet-formats (standard only): the wallet credential format its requests ask, within the
  service's SVC_WALLET_FORMATS (design.md §19): mso_mdoc, dc+sd-jwt, or all (the service's setting).
--name is 1 to 100 printable characters (no control characters); default: the domain's host.
update changes what it is given and keeps the rest (the ID, the secret, the rail, the scopes).
remove deletes the partner: its signed calls answer INVALID_PARTNER. Without --yes it only says
  what it would remove; disable is the reversible way.
--scopes limits what the partner may request (default: every scope its rail allows):
  ${SCOPES.join(', ')}; adult_blind: ${BLIND_SCOPES.join(', ')}.
rotate-secret prints a new secret once; the old one is still accepted for --overlap-hours
  (default ${DEFAULT_OVERLAP_HOURS}), so the partner can deploy the new one without downtime.
disable stops every signed call of the partner (INVALID_PARTNER); enable undoes it.`;

const BLIND_APP_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Runs `svc partners …` with `args` (what follows `partners`); returns the exit code.
 *
 * @example await runPartnersCommand(['list'], { config, store, clock, out: console.log, err: console.error })
 */
export async function runPartnersCommand(args: string[], context: CommandContext): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'add') return addPartner(rest, context);
  if (sub === 'list') return listPartners(rest, context);
  if (sub === 'update') return updatePartner(rest, context);
  if (sub === 'remove') return removePartner(rest, context);
  if (sub === 'rotate-secret') return rotateSecret(rest, context);
  if (sub === 'disable' || sub === 'enable') return setDisabled(sub, rest, context);
  if (sub === undefined || sub === 'help' || sub === '--help') {
    context.out(PARTNERS_USAGE);
    return 0;
  }
  context.err(`svc partners: unknown subcommand ${quote(sub)}\n${usageHint('partners')}`);
  return 2;
}

async function addPartner(args: string[], context: CommandContext): Promise<number> {
  const usageError = (problem: string) => {
    context.err(`svc partners add: ${problem}\n${usageHint('partners')}`);
    return 2;
  };
  const parsed = parseFlags(args, {
    domain: true,
    rail: true,
    name: true,
    'blind-app-id': true,
    scopes: true,
    attestation: true,
    json: false,
  });
  if (!parsed.ok) return usageError(parsed.problem);
  const flags = parsed.flags;
  const text = (name: string) => flags.get(name) as string | undefined;

  const domain = text('domain');
  if (domain === undefined) return usageError('--domain is required');
  const domainRefused = domainProblem(domain, context);
  if (domainRefused) return usageError(domainRefused);

  const rail = text('rail');
  if (rail === undefined) return usageError('--rail is required');
  if (rail !== 'standard' && rail !== 'adult_blind')
    return usageError(`--rail must be standard or adult_blind, got ${quote(rail)}`);

  const blindAppId = text('blind-app-id') ?? null;
  if (blindAppId !== null) {
    if (rail !== 'adult_blind') return usageError('--blind-app-id is only for --rail adult_blind');
    const problem = await blindAppIdProblem(blindAppId, null, context);
    if (problem) return usageError(problem);
  }

  const scopes = readScopes(text('scopes'), rail);
  if (typeof scopes === 'string') return usageError(scopes);
  // Without it the billing session of every visitor answers MISSING_BLIND_APP_ID (docs/adult-blind.md).
  if (rail === 'adult_blind' && blindAppId === null)
    return usageError('--rail adult_blind needs --blind-app-id (the application its attestations name)');

  const attestation = readAttestation(text('attestation'), rail);
  if (typeof attestation === 'object' && attestation !== null) return usageError(attestation.problem);

  const name = text('name') ?? new URL(domain).host;
  const nameRefused = nameProblem(name);
  if (nameRefused) return usageError(nameRefused);

  const partner: PartnerRecord = {
    id: newPartnerId(context.config.mode === 'production' ? PREFIX.liveId : PREFIX.testId),
    secret: randomBytes(32).toString('base64'),
    name,
    domain,
    rail,
    blindAppId,
    allowedScopes: scopes,
    createdAt: context.clock.now(),
    ...(attestation === 'private' ? { attestation } : {}),
  };
  await context.store.putPartner(partner);

  if (flags.has('json')) {
    context.out(JSON.stringify({ ...describe(partner), secret: partner.secret }));
  } else {
    context.out(`Partner created (${context.config.mode}).`);
    context.out(`  Partner ID:      ${partner.id}`);
    context.out(`  Partner Secret:  ${partner.secret}`);
    context.out(
      `  rail ${rail}, domain ${domain}${blindAppId ? `, blind app ${blindAppId}` : ''}${scopes ? `, scopes ${scopes.join(',')}` : ''}` +
        `${attestation === 'private' ? ', private attestations' : ''}`,
    );
    context.out("The secret is shown this once: put it in the partner backend's secret store now.");
  }
  return 0;
}

async function rotateSecret(args: string[], context: CommandContext): Promise<number> {
  const [id, ...rest] = args;
  const usageError = (problem: string) => {
    context.err(`svc partners rotate-secret: ${problem}\n${usageHint('partners')}`);
    return 2;
  };
  if (id === undefined || id.startsWith('--')) return usageError('the partner ID is required');
  const parsed = parseFlags(rest, { 'overlap-hours': true, json: false });
  if (!parsed.ok) return usageError(parsed.problem);
  const overlapText = (parsed.flags.get('overlap-hours') as string | undefined) ?? String(DEFAULT_OVERLAP_HOURS);
  const overlapHours = Number(overlapText);
  if (!/^\d+$/.test(overlapText) || overlapHours > 720)
    return usageError(`--overlap-hours must be a whole number from 0 to 720, got ${JSON.stringify(overlapText)}`);

  const partner = await context.store.getPartner(id);
  if (!partner) {
    context.err(`svc partners rotate-secret: no partner ${quote(id)}`);
    return 1;
  }
  const now = context.clock.now();
  const rotated: PartnerRecord = {
    ...partner,
    secret: randomBytes(32).toString('base64'),
    previousSecret: overlapHours > 0 ? partner.secret : null,
    previousSecretUntil: overlapHours > 0 ? now + overlapHours * HOUR_MS : null,
  };
  await context.store.putPartner(rotated);
  const until = !rotated.previousSecretUntil ? null : new Date(rotated.previousSecretUntil).toISOString();
  if (parsed.flags.has('json')) {
    context.out(JSON.stringify({ id, secret: rotated.secret, previous_secret_valid_until: until }));
    return 0;
  }
  context.out(`New secret for ${id}.`);
  context.out(`  Partner Secret:  ${rotated.secret}`);
  context.out(
    until
      ? `The previous secret is still accepted until ${until}, then refused.`
      : 'The previous secret is refused from now on.',
  );
  if (
    context.config.mode === 'sandbox' &&
    loadPartnerFixtures(context.config.fixturesPath, now).some((f) => f.id === id)
  ) {
    context.out('Note: fixture partners are reloaded from fixtures/partners.json at every sandbox boot.');
  }
  return 0;
}

async function setDisabled(sub: 'disable' | 'enable', args: string[], context: CommandContext): Promise<number> {
  const [id, ...rest] = args;
  if (id === undefined || rest.length > 0) {
    context.err(`svc partners ${sub}: give exactly one partner ID\n${usageHint('partners')}`);
    return 2;
  }
  const partner = await context.store.getPartner(id);
  if (!partner) {
    context.err(`svc partners ${sub}: no partner ${quote(id)}`);
    return 1;
  }
  if (sub === 'enable' && context.config.mode === 'production' && !isSecureOrLoopbackUrl(partner.domain)) {
    context.err(
      `svc partners enable: ${id} has ${partner.domain}; production serves https:// partner domains only: add it again with its https:// origin`,
    );
    return 1;
  }
  const disabledAt = sub === 'disable' ? (partner.disabledAt ?? context.clock.now()) : null;
  await context.store.putPartner({ ...partner, disabledAt });
  context.out(sub === 'disable' ? `${id} is disabled: its signed calls answer INVALID_PARTNER.` : `${id} is enabled.`);
  return 0;
}

async function updatePartner(args: string[], context: CommandContext): Promise<number> {
  const [id, ...rest] = args;
  const usageError = (problem: string) => {
    context.err(`svc partners update: ${problem}\n${usageHint('partners')}`);
    return 2;
  };
  if (id === undefined || id.startsWith('--')) return usageError('the partner ID is required');
  const parsed = parseFlags(rest, {
    name: true,
    domain: true,
    'blind-app-id': true,
    attestation: true,
    'wallet-formats': true,
  });
  if (!parsed.ok) return usageError(parsed.problem);
  const text = (name: string) => parsed.flags.get(name) as string | undefined;
  if (parsed.flags.size === 0)
    return usageError('give at least one of --name, --domain, --blind-app-id, --attestation and --wallet-formats');

  const partner = await context.store.getPartner(id);
  if (!partner) {
    context.err(`svc partners update: no partner ${quote(id)}`);
    return 1;
  }
  const name = text('name');
  const domain = text('domain');
  const blindAppId = text('blind-app-id');
  const refused =
    (name !== undefined && nameProblem(name)) ||
    (domain !== undefined && domainProblem(domain, context)) ||
    (blindAppId !== undefined &&
      (partner.rail !== 'adult_blind'
        ? `--blind-app-id is only for adult_blind partners; ${id} is on the ${partner.rail} rail`
        : await blindAppIdProblem(blindAppId, id, context)));
  if (refused) return usageError(refused);
  const attestationFlag = text('attestation');
  const attestation =
    attestationFlag === undefined ? (partner.attestation ?? null) : readAttestation(attestationFlag, partner.rail);
  if (typeof attestation === 'object' && attestation !== null) return usageError(attestation.problem);
  const formatsFlag = text('wallet-formats');
  const walletFormats =
    formatsFlag === undefined
      ? (partner.walletFormats ?? null)
      : readWalletFormats(formatsFlag, partner.rail, context.config.walletFormats);
  if (typeof walletFormats === 'object' && walletFormats !== null) return usageError(walletFormats.problem);

  const updated: PartnerRecord = {
    ...partner,
    name: name ?? partner.name,
    domain: domain ?? partner.domain,
    blindAppId: blindAppId ?? partner.blindAppId,
    attestation,
    walletFormats,
  };
  await context.store.putPartner(updated);
  const changes = (
    [
      ['name', partner.name, updated.name],
      ['domain', partner.domain, updated.domain],
      ['blind app', partner.blindAppId ?? '-', updated.blindAppId ?? '-'],
      ['attestation', partner.attestation ?? 'jws', updated.attestation ?? 'jws'],
      ['wallet formats', partner.walletFormats ?? 'all', updated.walletFormats ?? 'all'],
    ] as const
  ).filter(([, before, after]) => before !== after);
  context.out(
    changes.length === 0
      ? `${id} is unchanged.`
      : `${id} is updated: ${changes.map(([what, before, after]) => `${what} ${quote(before)} → ${quote(after)}`).join(', ')}.`,
  );
  if (domain !== undefined && domain !== partner.domain)
    context.out(
      `Widgets on ${escapeUnprintable(partner.domain)} answer ORIGIN_NOT_ALLOWED from now on (within the service's 5 s partner cache).`,
    );
  if (updated.rail === 'adult_blind' && updated.blindAppId === null)
    context.out(
      `Note: ${id} still has no blind app id, so its billing sessions answer MISSING_BLIND_APP_ID: add --blind-app-id.`,
    );
  if (isSandboxFixture(id, context))
    context.out('Note: fixture partners are reloaded from fixtures/partners.json at every sandbox boot.');
  return 0;
}

async function removePartner(args: string[], context: CommandContext): Promise<number> {
  const [id, ...rest] = args;
  const usageError = (problem: string) => {
    context.err(`svc partners remove: ${problem}\n${usageHint('partners')}`);
    return 2;
  };
  if (id === undefined || id.startsWith('--')) return usageError('the partner ID is required');
  const parsed = parseFlags(rest, { yes: false });
  if (!parsed.ok) return usageError(parsed.problem);
  const partner = await context.store.getPartner(id);
  if (!partner) {
    context.err(`svc partners remove: no partner ${quote(id)}`);
    return 1;
  }
  const what =
    `${id} (${quote(partner.name)}, ${escapeUnprintable(partner.domain)}, rail ${partner.rail}` +
    `${partner.blindAppId ? `, blind app ${escapeUnprintable(partner.blindAppId)}` : ''})`;
  if (!parsed.flags.has('yes')) {
    context.err(
      `svc partners remove: this would remove ${what} and its secret for good; its signed calls would answer ` +
        `INVALID_PARTNER. Nothing was removed: run it again with --yes, or use svc partners disable ${id} (reversible).`,
    );
    return 1;
  }
  await context.store.removePartner(id);
  context.out(`Removed ${what}: its signed calls answer INVALID_PARTNER (within the service's 5 s partner cache).`);
  if (isSandboxFixture(id, context))
    context.out('Note: fixture partners are reloaded from fixtures/partners.json at every sandbox boot.');
  return 0;
}

function isSandboxFixture(id: string, context: CommandContext): boolean {
  if (context.config.mode !== 'sandbox') return false;
  try {
    return loadPartnerFixtures(context.config.fixturesPath, 0).some((f) => f.id === id);
  } catch {
    return false; // a broken fixture file stops the next boot with its own message
  }
}

/** Why a partner name is refused (after the flag's name), or null. */
function nameProblem(name: string): string | null {
  const length = [...name].length;
  if (length < 1 || length > 100 || !isPrintable(name))
    return `--name must be 1 to 100 printable characters (no control characters), got ${quote(name)}`;
  return null;
}

/** Why a partner domain is refused, or null: an origin, https:// in production (loopback excepted). */
function domainProblem(domain: string, context: CommandContext): string | null {
  if (!isOrigin(domain))
    return `--domain must be an origin such as https://shop.example (scheme and host, no path or trailing slash), got ${quote(domain)}`;
  if (context.config.mode === 'production' && !isSecureOrLoopbackUrl(domain))
    return `--domain must be https:// in production (http:// only on localhost, 127.0.0.0/8 or ::1), got ${quote(domain)}`;
  return null;
}

/** Why a blind app id is refused, or null: its pattern, and no other partner (than `self`) has it. */
/**
 * `--attestation`: null for jws (absent, the default), 'private' for docs/adult-blind.md#private-attestations, or the
 * problem: another value, or private on the STANDARD rail (it has no attestation).
 */
function readAttestation(value: string | undefined, rail: string): 'private' | null | { problem: string } {
  if (value === undefined || value === 'jws') return null;
  if (value !== 'private') return { problem: `--attestation must be jws or private, got ${quote(value)}` };
  if (rail !== 'adult_blind') return { problem: '--attestation private is only for the adult_blind rail' };
  return 'private';
}

/**
 * `--wallet-formats` (design.md §19): null for `all` (the operator's SVC_WALLET_FORMATS), the one
 * format, or the problem: another value, a format outside the operator's setting (its requests
 * could ask nothing), or an adult_blind partner (its requests never name it, design.md §8).
 */
function readWalletFormats(
  value: string,
  rail: string,
  operator: WalletFormats,
): WalletFormat | null | { problem: string } {
  if (!(WALLET_FORMATS as readonly string[]).includes(value))
    return { problem: `--wallet-formats must be one of ${WALLET_FORMATS.join(', ')}, got ${quote(value)}` };
  if (rail !== 'standard')
    return {
      problem: '--wallet-formats is only for standard partners: an adult_blind request never names its partner',
    };
  if (value === 'all') return null;
  if (operator !== 'all' && operator !== value)
    return {
      problem: `--wallet-formats ${value} is outside the service's SVC_WALLET_FORMATS=${operator}: its requests could ask no format`,
    };
  return value as WalletFormat;
}

async function blindAppIdProblem(blindAppId: string, self: string | null, context: CommandContext) {
  if (!BLIND_APP_ID_PATTERN.test(blindAppId))
    return `--blind-app-id must match [A-Za-z0-9_-]{1,64}, got ${quote(blindAppId)}`;
  const taken = (await context.store.listPartners()).find((p) => p.blindAppId === blindAppId && p.id !== self);
  return taken ? `--blind-app-id ${blindAppId} already belongs to ${taken.id}` : null;
}

async function listPartners(args: string[], context: CommandContext): Promise<number> {
  const parsed = parseFlags(args, { json: false });
  if (!parsed.ok) {
    context.err(`svc partners list: ${parsed.problem}\n${usageHint('partners')}`);
    return 2;
  }
  const partners = (await context.store.listPartners()).map(describe);
  // Stored text is escaped as it is printed: a row written by other means cannot steer the terminal.
  if (parsed.flags.has('json')) {
    context.out(escapeUnprintable(JSON.stringify(partners)));
    return 0;
  }
  const rows = [
    ['PARTNER ID', 'RAIL', 'DOMAIN', 'BLIND APP', 'SCOPES', 'STATUS', 'NAME', 'CREATED'],
    ...partners
      .map((p) => [
        p.id,
        p.rail,
        p.domain,
        p.blind_app_id ?? '-',
        p.allowed_scopes?.join(',') ?? '(all)',
        p.status,
        p.name,
        p.created_at,
      ])
      .map((row) => row.map(escapeUnprintable)),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows)
    context.out(
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    );
  if (partners.length === 0) context.out('(no partners yet: svc partners add --domain … --rail …)');
  return 0;
}

/** What the CLI shows of a partner: everything but the secret. */
function describe(partner: PartnerRecord) {
  return {
    id: partner.id,
    name: partner.name,
    domain: partner.domain,
    rail: partner.rail,
    blind_app_id: partner.blindAppId,
    allowed_scopes: partner.allowedScopes,
    ...(partner.rail === 'adult_blind' ? { attestation: partner.attestation ?? 'jws' } : {}),
    ...(partner.rail === 'standard' ? { wallet_formats: partner.walletFormats ?? 'all' } : {}),
    status: partner.disabledAt ? 'disabled' : 'active',
    previous_secret_valid_until: partner.previousSecretUntil
      ? new Date(partner.previousSecretUntil).toISOString()
      : null,
    created_at: new Date(partner.createdAt).toISOString(),
  };
}

function readScopes(value: string | undefined, rail: Rail): Scope[] | null | string {
  if (value === undefined) return null;
  const scopes = value.split(',').map((s) => s.trim());
  const unknown = scopes.filter((s) => !isScope(s));
  if (scopes.length === 0 || scopes.some((s) => s === '')) return '--scopes must be a comma-separated list of scopes';
  if (unknown.length > 0)
    return `--scopes: unknown scope ${JSON.stringify(unknown[0])}; scopes are ${SCOPES.join(', ')}`;
  if (new Set(scopes).size !== scopes.length) return '--scopes lists a scope twice';
  if (rail === 'adult_blind') {
    const outside = scopes.find((s) => !(BLIND_SCOPES as readonly string[]).includes(s));
    if (outside) return `--scopes: ${outside} is not available on the adult_blind rail (${BLIND_SCOPES.join(', ')})`;
  }
  return scopes as Scope[];
}

/** `pk_live_` or `pk_test_` + 24 hex characters (96 random bits): matches [A-Za-z0-9_]{1,64}. */
function newPartnerId(prefix: string): string {
  return prefix + randomBytes(12).toString('hex');
}
