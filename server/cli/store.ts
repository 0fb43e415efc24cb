/**
 * `svc store copy`: moves a deployment from one store to another (SQLite → Redis, design.md §10).
 * The source is the store the environment names, as for every command; the destination is given
 * by flags. What is copied: partners, identity providers, ADULT_BLIND signing keys and service
 * secrets (the nullifier key, the result-reader key, the store's mode), each exactly as stored,
 * sealed under the master key, so the destination needs the same SVC_MASTER_KEY. Requests,
 * grants, pass tokens, login states, nonces and counters are not copied: they live minutes, so
 * stop the old service and let them lapse
 * (docs/operations.md, "Moving a SQLite deployment to Redis").
 *
 * A destination that already holds a different secret (another deployment's nullifier key, its
 * mode) is refused before anything is written.
 */
import { quote } from '../rules/printable.ts';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { backupSqliteStore, openConfiguredStore, restoreSqliteStore } from '../store/open.ts';
import { markRestored } from '../store/restored.ts';
import type { KeyPurpose, Store } from '../store/store.ts';
import { parseFlags } from './args.ts';
import type { CommandContext } from './dispatch.ts';
import { usageHint } from './usage-hint.ts';

export const STORE_USAGE = `Usage:
  svc store copy --to-redis-url URL [--to-redis-prefix P]   copy into Redis (prefix default "svc:")
  svc store copy --to-data-dir DIR                           copy into the SQLite store in DIR
  svc store backup FILE                                      SQLite: a consistent copy, while the service runs
  svc store restore FILE                                     SQLite: the backup over the store (every instance stopped)
  svc store mark-restored                                    Redis: record a restore of its persistence done by hand

After a restore, every single-use value made before it (grants, nonces, requests and their login
states, response codes and private-attestation rights) is refused; pass tokens stay valid.

Copies partners, identity providers, signing keys and service secrets, sealed as they are, from the store the
environment names (SVC_DATA_DIR, or SVC_REDIS_URL) into the destination. Run it with the old
service stopped; start the new instances with the same SVC_MASTER_KEY.`;

const PURPOSES: readonly KeyPurpose[] = ['attestation', 'session'];

/**
 * @example await runStoreCommand(['copy', '--to-redis-url', 'redis://127.0.0.1:6379'], context)
 */
export async function runStoreCommand(
  args: string[],
  context: CommandContext,
  options: { openDestination?: (target: Destination) => Promise<Store> } = {},
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === 'help' || sub === '--help') {
    context.out(STORE_USAGE);
    return 0;
  }
  if (sub === 'backup' || sub === 'restore' || sub === 'mark-restored') return backupCommand(sub, rest, context);
  if (sub !== 'copy') {
    context.err(`svc store: unknown subcommand ${quote(sub)}\n${usageHint('store')}`);
    return 2;
  }
  const parsed = parseFlags(rest, { 'to-redis-url': true, 'to-redis-prefix': true, 'to-data-dir': true });
  if (!parsed.ok) {
    context.err(`svc store copy: ${parsed.problem}\n${usageHint('store')}`);
    return 2;
  }
  const flag = (name: string) => parsed.flags.get(name) as string | undefined;
  const redisUrl = flag('to-redis-url') ?? null;
  const dataDir = flag('to-data-dir') ?? null;
  if ((redisUrl === null) === (dataDir === null) || (flag('to-redis-prefix') !== undefined && redisUrl === null)) {
    context.err(
      `svc store copy: give either --to-redis-url (with --to-redis-prefix if needed) or --to-data-dir\n${usageHint('store')}`,
    );
    return 2;
  }
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) {
    context.err('svc store copy: --to-redis-url must be a redis:// or rediss:// URL');
    return 2;
  }
  const target: Destination = { redisUrl, redisPrefix: flag('to-redis-prefix') ?? 'svc:', dataDir: dataDir ?? '' };
  if (target.dataDir && join(target.dataDir) === join(context.config.dataDir) && context.config.redisUrl === null) {
    context.err('svc store copy: the destination is the source');
    return 2;
  }
  const open = options.openDestination ?? ((t: Destination) => openConfiguredStore(t, { notice: context.err }));
  const destination = await open(target);
  try {
    return await copyStore(context.sealing.inner, destination, context);
  } finally {
    await destination.close();
  }
}

export interface Destination {
  redisUrl: string | null;
  redisPrefix: string;
  dataDir: string;
}

/** Copies partners, providers, keys and secrets from `source` to `destination` as stored (sealed). */
async function copyStore(
  source: Store,
  destination: Store,
  context: Pick<CommandContext, 'out' | 'err'>,
): Promise<number> {
  const secrets = await source.listSecrets();
  const existing = await destination.listSecrets();
  const clashes = Object.keys(secrets).filter(
    (name) => existing[name] !== undefined && existing[name] !== secrets[name],
  );
  if (clashes.length > 0) {
    context.err(
      `svc store copy: the destination already holds a different ${clashes.join(', ')} (another deployment, or another ` +
        'master key); nothing was copied. Use an empty destination or another --to-redis-prefix.',
    );
    return 1;
  }
  for (const [name, value] of Object.entries(secrets)) await destination.getOrCreateSecret(name, value);
  const partners = await source.listPartners();
  for (const partner of partners) await destination.putPartner(partner);
  const providers = await source.listProviders();
  for (const provider of providers) await destination.putProvider(provider);
  let keys = 0;
  for (const purpose of PURPOSES) {
    const list = await source.listKeys(purpose);
    const stale = (await destination.listKeys(purpose))
      .map((k) => k.kid)
      .filter((kid) => !list.some((k) => k.kid === kid));
    // One atomic step per purpose, so the destination never has zero or two current keys.
    await destination.updateKeys({ put: list, drop: stale });
    keys += list.length;
  }
  context.out(
    `copied ${partners.length} partner${partners.length === 1 ? '' : 's'}, ` +
      `${providers.length} identity provider${providers.length === 1 ? '' : 's'}, ${keys} signing key${keys === 1 ? '' : 's'} ` +
      `and ${Object.keys(secrets).length} service secret${Object.keys(secrets).length === 1 ? '' : 's'} (sealed as they were)`,
  );
  return 0;
}

/**
 * `svc store backup FILE`, `svc store restore FILE`, `svc store mark-restored`
 * (docs/operations.md#backups-and-restores, design.md §23). On Redis the first two only say how:
 * its files live on its own host (or behind a managed service), where this command does not run,
 * and putting them back means stopping Redis there.
 */
const REDIS_WAY = {
  backup:
    "copy the primary's appendonlydir on its host while no AOF rewrite runs, or take a snapshot from anywhere " +
    'with redis-cli --rdb FILE',
  restore:
    "stop every instance, put the copy in place of the primary's files, start it, then run svc store mark-restored",
};

async function backupCommand(
  sub: 'backup' | 'restore' | 'mark-restored',
  rest: string[],
  context: CommandContext,
): Promise<number> {
  const onRedis = context.config.redisUrl !== null || context.config.redisSentinels !== null;
  const now = context.clock.now();
  if (sub === 'mark-restored') {
    if (rest.length > 0) {
      context.err(`svc store mark-restored: takes no arguments\n\n${STORE_USAGE}`);
      return 2;
    }
    await markRestored(context.sealing.inner, now);
    context.out(`restored_at ${new Date(now).toISOString()}: single-use values from before it are refused`);
    return 0;
  }
  if (rest.length !== 1 || rest[0]!.startsWith('-')) {
    context.err(`svc store ${sub}: give one FILE\n\n${STORE_USAGE}`);
    return 2;
  }
  if (onRedis) {
    context.err(`svc store ${sub}: on Redis, ${REDIS_WAY[sub]} (docs/operations.md, "Backups and restores")`);
    return 2;
  }
  const file = resolve(rest[0]!);
  const live = join(context.config.dataDir, 'svc.sqlite');
  if (file === resolve(live)) {
    context.err(`svc store ${sub}: FILE is the store itself`);
    return 2;
  }
  if (sub === 'backup') {
    const { pages } = await backupSqliteStore(live, file);
    context.out(`backed up ${live} to ${file} (${pages} pages)`);
    return 0;
  }
  if (!existsSync(file)) {
    context.err(`svc store restore: no such file ${quote(rest[0]!)}`);
    return 2;
  }
  await restoreSqliteStore(file, live, now);
  context.out(
    `restored ${live} from ${file}; restored_at ${new Date(now).toISOString()}: single-use values from before it are refused`,
  );
  return 0;
}
