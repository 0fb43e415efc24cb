/**
 * The `svc` command line: one table of commands (in server/cli.ts), one dispatcher. Commands
 * that work on the store get the same environment as the service (loadConfig + openServiceStore), so
 * the CLI and a running service share one data directory; `svc --cluster …` points them at
 * `npm run start:cluster`'s store instead (cluster.ts).
 */
import { quote } from '../rules/printable.ts';
import type { Clock } from '../clock.ts';
import { systemClock } from '../clock.ts';
import { loadConfig, type Config } from '../config.ts';
import { ConfigError } from '../errors.ts';
import { openServiceStore, type ServiceStore } from '../boot.ts';
import { StoreUnavailableError, type Store } from '../store/store.ts';
import { CLUSTER_DEFAULTS, clusterEnvironment } from './cluster.ts';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** What a store command receives; the dispatcher opens the store and closes it afterwards. */
export interface CommandContext extends CliIo {
  config: Config;
  store: Store;
  clock: Clock;
  /** the master keyring and the unsealed-access store beneath `store` (svc master-key only) */
  sealing: ServiceStore['sealing'];
}

export type CliCommand =
  | { summary: string; run: (args: string[], context: CommandContext) => Promise<number> }
  /** a long-running command (serve): it owns the process from here on */
  | { summary: string; start: (args: string[], io: CliIo) => Promise<void> };

export interface RunCliOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  io?: CliIo;
  clock?: Clock;
  /** defaults to boot.ts's openStore (SQLite in SVC_DATA_DIR) */
  openStore?: (config: Config) => Store;
}

/**
 * Runs one command line; resolves to the exit code (0 ok, 1 failed, 2 usage error), or null when
 * a long-running command took over the process.
 *
 * @example process.exitCode = (await runCli(COMMANDS, process.argv.slice(2))) ?? undefined;
 */
export async function runCli(
  commands: Readonly<Record<string, CliCommand>>,
  argv: string[],
  options: RunCliOptions = {},
): Promise<number | null> {
  const io = options.io ?? { out: (line) => console.log(line), err: (line) => console.error(line) };
  let env = options.env ?? process.env;
  let cluster: string | null = null;
  // Before the command or among its flags: `svc --cluster partners list`, `svc partners list --cluster`.
  if (argv.includes('--cluster')) {
    const found = clusterEnvironment(env, options.cwd ?? process.cwd());
    if (!found.ok) {
      io.err(`svc --cluster: ${found.problem}`);
      return found.code;
    }
    ({ env, redisUrl: cluster } = found);
    argv = argv.filter((arg) => arg !== '--cluster');
  }
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    (name === undefined ? io.err : io.out)(usage(commands));
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    io.err(`svc: unknown command ${quote(name)}\n(the commands: npm run svc -- help)`);
    return 2;
  }
  if ('start' in command) {
    if (cluster !== null) {
      io.err(`svc --cluster: ${name} does not work on a store; run it without --cluster`);
      return 2;
    }
    await command.start(args, io);
    return null;
  }

  let config: Config;
  let store: Store;
  let sealing: ServiceStore['sealing'];
  let injected: Store | undefined;
  try {
    const requested = loadConfig(env, options.cwd);
    injected = options.openStore?.(requested);
    // The CLI obeys the store's mode as the service does (`partners add` on a production folder
    // issues pk_live_ IDs even with SVC_MODE unset), and seals as the service does.
    ({ config, store, sealing } = await openServiceStore(requested, { store: injected }));
  } catch (cause) {
    await injected?.close();
    if (cause instanceof ConfigError) {
      io.err(`svc: ${cause.message}`);
      return 1;
    }
    if (cause instanceof StoreUnavailableError) {
      io.err(
        `svc: ${cause.message}${cluster === null ? '' : ` (is npm run start:cluster running? it serves ${cluster})`}`,
      );
      return 1;
    }
    throw cause;
  }
  try {
    return await command.run(args, {
      config,
      store,
      sealing,
      clock: options.clock ?? systemClock,
      out: io.out,
      err: io.err,
    });
  } finally {
    await store.close();
  }
}

function usage(commands: Readonly<Record<string, CliCommand>>): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  const lines = Object.entries(commands).map(([n, c]) => `  svc ${n.padEnd(width)}  ${c.summary}`);
  return [
    'Usage:',
    ...lines,
    '',
    'The store comes from the environment, as for the service (SVC_DATA_DIR, SVC_MODE, …).',
    "svc --cluster <command> … works on npm run start:cluster's store instead: its Redis",
    `(127.0.0.1:${CLUSTER_DEFAULTS.redisPort}, SVC_CLUSTER_REDIS_PORT) and its master key`,
    `(${CLUSTER_DEFAULTS.dir}/master.key, SVC_CLUSTER_DIR), from the repository's folder.`,
  ].join('\n');
}
