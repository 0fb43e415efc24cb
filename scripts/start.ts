/**
 * `npm start`: builds the widget if it is missing or older than its sources, then runs the
 * service (http://localhost:8787), the example partner (http://localhost:8788) and the example
 * identity provider (http://localhost:8789, design.md §12) as child processes, three origins, so
 * CORS, origin checks and the OpenID Connect redirects are real. `--service-only`
 * (npm run start:service) runs the service alone, and so does production (the example partner
 * signs with sandbox fixture partners, and production never loads the example provider); the
 * banner names the mode the service reports and lists only what that mode serves.
 *
 * Logs of each child are prefixed with its name, and the service's JSON log lines are printed
 * as readable ones through pino-pretty (a development dependency). `SVC_MODE=production` or
 * `SVC_LOG_FORMAT=json` keeps the JSON; `npm run start:production` never comes here. A signal is
 * forwarded to both and `npm start` exits once they have drained; if either child dies the other
 * is stopped and `npm start` exits non-zero.
 *
 * It checks first that the children's ports are free (one line naming what sets a port in use:
 * otherwise a second `npm start` got its health answers from the first and printed Ready), prints
 * the Ready banner only once every child answered its health check, and exits within a second or
 * two when one dies before that: its health checks end with it (docs/operations.md, `npm start`).
 *
 * Ctrl-C signals the whole process group, so each child gets the signal twice: from the terminal
 * and forwarded from here. The children treat a repeat as the same request (server/main.ts), and
 * package.json runs this file through tsx's loader rather than the tsx CLI, which would kill it
 * outright when it is slow to acknowledge a relayed signal.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { get } from 'node:http';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface ChildSpec {
  /** prefix of its log lines */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** answers 2xx once the child is ready */
  healthUrl?: string;
  /** where it listens, and what sets that port: checked free before anything starts */
  listens?: Listening;
  /**
   * Started again when it exits unasked, as a supervisor would (the cluster's redis-servers,
   * docs/operations.md "Redis high availability"), after `afterMs`, with the arguments `args`
   * gives then; absent: its exit stops the others.
   */
  restart?: { afterMs: number; args?: () => Promise<string[]> };
}

/** A port a child listens on, and what an operator changes to move it. */
export interface Listening {
  port: number;
  host: string;
  /** what sets the port, e.g. "SVC_PORT" */
  setBy: string;
  /** how to move it, e.g. "set SVC_PORT to a free port" */
  fix: string;
}

export interface Supervisor {
  /** resolves once every child with a healthUrl answered, rejects if one died first */
  ready: Promise<void>;
  /** resolves with the exit code `npm start` should use */
  done: Promise<number>;
  /** forwards `signal` to every child still running */
  stop(signal?: NodeJS.Signals): void;
  /** stops one child (SIGTERM) without counting its exit as a failure; the others run on */
  dismiss(name: string): void;
  /**
   * Restarts one child: SIGTERM, waits for its exit (a service drains first), starts it again and
   * resolves once its healthUrl answers (a rolling restart, docs/operations.md#rolling-restarts);
   * rejects if it died again first or everything is stopping.
   */
  restart(name: string): Promise<void>;
  /** stops every child and makes `done` report a failure */
  fail(): void;
}

/**
 * Runs `children` side by side: prefixes their output, stops all of them when one exits, and
 * reports 0 only when they ended because we asked them to.
 *
 * @example
 * const s = superviseChildren([{ name: 'svc', command: process.execPath, args: ['--import', 'tsx', 'server/main.ts'] }]);
 * process.once('SIGINT', () => s.stop('SIGINT'));
 * process.exitCode = await s.done;
 */
export function superviseChildren(
  children: readonly ChildSpec[],
  options: { cwd?: string; out?: NodeJS.WritableStream; healthTimeoutMs?: number; formatLine?: LineFormatter } = {},
): Supervisor {
  const out = options.out ?? process.stdout;
  const format = options.formatLine ?? ((line: string) => line);
  const running = new Map<string, ChildProcess>();
  const dismissed = new Set<string>();
  let stopping = false;
  let firstFailure: number | null = null;
  let resolveDone!: (code: number) => void;
  const done = new Promise<number>((r) => (resolveDone = r));
  let rejectReady!: (error: Error) => void;
  const died = new Promise<never>((_, reject) => (rejectReady = reject));
  died.catch(() => {});
  // Ends the health checks once a child died: a check left polling would hold `npm start` open
  // for its whole timeout after the children are gone.
  const checks = new AbortController();

  const width = Math.max(...children.map((c) => c.name.length));
  const launch = (spec: ChildSpec, args: string[]) => {
    const child = spawn(spec.command, args, {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.set(spec.name, child);
    const prefix = `${spec.name.padEnd(width)} │ `;
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream! }).on('line', (line) => {
        for (const part of format(line).split('\n')) out.write(`${prefix}${part}\n`);
      });
    }
    child.on('exit', (code, signal) => {
      running.delete(spec.name);
      if (!stopping && restarting.has(spec.name)) {
        restarting.delete(spec.name);
        out.write(`${prefix}exited (${signal ?? `code ${code}`}) as asked; starting it again\n`);
        launch(spec, spec.args);
        return;
      }
      if (!stopping && !dismissed.has(spec.name) && spec.restart) {
        const { afterMs, args: argsNow } = spec.restart;
        out.write(`${prefix}exited (${signal ?? `code ${code}`}); starting it again in ${afterMs} ms\n`);
        away.add(spec.name);
        setTimeout(() => {
          const relaunch = (args: string[]) => {
            away.delete(spec.name);
            if (stopping) settle();
            else launch(spec, args);
          };
          void (argsNow ? argsNow().catch(() => spec.args) : Promise.resolve(spec.args)).then(relaunch);
        }, afterMs);
        return;
      }
      if (!stopping && !dismissed.has(spec.name)) {
        out.write(`${prefix}exited (${signal ?? `code ${code}`}); stopping the others\n`);
        firstFailure ??= code && code !== 0 ? code : 1;
        rejectReady(new Error(`${spec.name} exited before it was ready`));
        checks.abort();
        stop('SIGTERM');
      }
      settle();
    });
    child.on('error', (error) => out.write(`${prefix}${error.message}\n`));
  };
  /** Children between an unasked exit and their restart (ChildSpec.restart): `done` waits for them too. */
  const away = new Set<string>();
  /** Children asked to restart (`restart(name)`): their exit starts them again. */
  const restarting = new Set<string>();
  const settle = () => {
    if (running.size === 0 && away.size === 0) resolveDone(firstFailure ?? 0);
  };
  for (const spec of children) launch(spec, spec.args);

  function stop(signal: NodeJS.Signals = 'SIGTERM'): void {
    stopping = true;
    checks.abort();
    for (const child of running.values()) child.kill(signal);
  }

  const timeoutMs = options.healthTimeoutMs ?? 60_000;
  const ready = Promise.race([
    Promise.all(
      children.filter((c) => c.healthUrl).map((c) => waitForHealth(c.healthUrl!, timeoutMs, checks.signal)),
    ).then(() => {}),
    died,
  ]);
  return {
    ready,
    done,
    stop,
    dismiss(name) {
      dismissed.add(name);
      running.get(name)?.kill('SIGTERM');
    },
    async restart(name) {
      const spec = children.find((c) => c.name === name);
      const child = running.get(name);
      if (!spec || !child || stopping) throw new Error(`${name} is not running`);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      restarting.add(name);
      child.kill('SIGTERM');
      await exited;
      if (stopping) throw new Error(`${name}: stopping`);
      if (spec.healthUrl) await Promise.race([waitForHealth(spec.healthUrl, timeoutMs, checks.signal), died]);
    },
    fail() {
      firstFailure ??= 1;
      stop('SIGTERM');
    },
  };
}

/** Turns one line a child printed into what `npm start` shows (possibly several lines). */
export type LineFormatter = (line: string) => string;

/**
 * The formatter for the children's log lines: pino-pretty's readable lines in development, null
 * (the JSON as printed) when `SVC_MODE=production`, when `SVC_LOG_FORMAT=json`, or when
 * pino-pretty is not installed (a production install has no development dependencies).
 * Lines that are not pino's JSON pass through unchanged.
 *
 * @example const formatLine = await devLogFormatter(process.env, { colorize: process.stdout.isTTY });
 */
export async function devLogFormatter(
  env: NodeJS.ProcessEnv,
  options: { colorize?: boolean } = {},
): Promise<LineFormatter | null> {
  if (env.SVC_MODE === 'production' || env.SVC_LOG_FORMAT === 'json') return null;
  let prettyFactory: typeof import('pino-pretty').prettyFactory;
  try {
    ({ prettyFactory } = await import('pino-pretty'));
  } catch {
    return null;
  }
  const pretty = prettyFactory({
    colorize: options.colorize ?? false,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
  });
  return (line) => {
    if (!line.startsWith('{')) return line;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      return line;
    }
    const isPino = typeof record === 'object' && record !== null && 'level' in record && 'time' in record;
    return isPino ? pretty(record).replace(/\n+$/, '') : line;
  };
}

/**
 * GET `url` on a connection of its own, closed after the answer: a kept-alive one would hold a
 * service behind a proxy (SVC_TRUST_PROXY) in its drain until SVC_DRAIN_MS
 * (docs/operations.md#rolling-restarts).
 */
function getOnce(url: string, signal?: AbortSignal): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, signal }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += String(chunk)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * The mode the service runs in, from its /healthz: SVC_MODE, or the store's own mode when that
 * is unset (server/mode.ts). Null when it does not say.
 *
 * @example const mode = await readServiceMode('http://127.0.0.1:8787/healthz') // 'sandbox'
 */
export async function readServiceMode(healthUrl: string): Promise<'sandbox' | 'production' | null> {
  try {
    const { mode } = JSON.parse((await getOnce(healthUrl)).body) as { mode?: unknown };
    return mode === 'sandbox' || mode === 'production' ? mode : null;
  } catch {
    return null;
  }
}

/**
 * What `npm start` prints once everything answers: the mode, and only what that mode serves.
 * Production has no designers' demo and no example partner (it knows no sandbox partner).
 *
 * @example console.log(readyBanner({ mode: 'production', serviceUrl: 'https://svc.example', partnerUrl: null }))
 */
export function readyBanner(input: {
  mode: 'sandbox' | 'production';
  serviceUrl: string;
  /** the example partner's URL while it runs */
  partnerUrl: string | null;
  /** what follows the mode in the title, e.g. ", 2 instances on Redis" */
  detail?: string;
  /** after the service's URL, e.g. the cluster's "(nginx → :8791, :8792)" */
  serviceNote?: string;
  /** the example identity provider's URL while it runs (sandbox) */
  providerUrl?: string | null;
  /** each instance's Prometheus endpoint (design.md §17), e.g. "http://127.0.0.1:9464/metrics" */
  metricsUrls?: readonly string[];
  /** lines after the mode's own, e.g. the cluster's Redis */
  extra?: readonly string[];
  /** what Ctrl-C stops; default "both" with the example partner, else "it" */
  stops?: string;
}): string {
  const { mode, serviceUrl, partnerUrl } = input;
  const lines = [`  Service          ${serviceUrl}${input.serviceNote ? `  ${input.serviceNote}` : ''}`];
  if (mode === 'sandbox') lines.push(`  Designers' demo  ${serviceUrl}/demo`);
  lines.push(`  API docs         ${serviceUrl}/docs`);
  if (mode === 'sandbox' && partnerUrl) lines.push(`  Example partner  ${partnerUrl}`);
  if (mode === 'sandbox' && input.providerUrl)
    lines.push(`  Example ID       ${input.providerUrl}  (identity provider)`);
  for (const [i, url] of (input.metricsUrls ?? []).entries())
    lines.push(`  ${i === 0 ? 'Metrics' : '       '}          ${url}`);
  lines.push(...(input.extra ?? []));
  const stops = input.stops ?? (mode === 'sandbox' && partnerUrl ? 'them all' : 'it');
  return `\nReady (${mode} mode${input.detail ?? ''}):\n${lines.join('\n')}\n\nCtrl-C stops ${stops}.\n`;
}

async function waitForHealth(url: string, timeoutMs: number, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !signal.aborted) {
    const answer = await getOnce(url, signal).catch(() => null);
    if (answer && answer.status >= 200 && answer.status < 300) return;
    await sleep(150, undefined, { signal }).catch(() => {});
  }
  throw new Error(signal.aborted ? `${url}: no longer checked` : `${url} did not answer within ${timeoutMs} ms`);
}

/**
 * One line for each port a child would listen on that something else holds already (often a
 * `npm start` still running), naming what sets it; empty when all are free. Checked before any
 * child starts: a health check would otherwise get its answer from whatever holds the port.
 *
 * @example await portsInUse([{ port: 8787, host: '127.0.0.1', setBy: 'SVC_PORT', fix: 'set SVC_PORT to a free port' }])
 * // ['port 8787 (SVC_PORT) on 127.0.0.1 is in use by another process (another npm start?); stop it or set SVC_PORT to a free port']
 */
export async function portsInUse(listening: readonly Listening[]): Promise<string[]> {
  const lines: string[] = [];
  for (const { port, host, setBy, fix } of listening) {
    if (port === 0) continue; // the system picks a free one
    const free = await new Promise<boolean>((answer) => {
      const probe = createServer()
        .once('error', () => answer(false))
        .listen(port, host, () => probe.close(() => answer(true)));
    });
    if (!free)
      lines.push(
        `port ${port} (${setBy}) on ${host} is in use by another process (another npm start?); stop it or ${fix}`,
      );
  }
  return lines;
}

/** What the widget, phone and demo builds are made from: a newer file here means dist/ is stale. */
const BUILD_SOURCES = ['src', 'public', 'vite.config.ts', 'scripts/build.ts', 'package-lock.json'];

/** The newest modification time (ms) of a file under `paths`, 0 when none exists. */
export function newestMtime(paths: readonly string[]): number {
  let newest = 0;
  const visit = (path: string): void => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const path of paths) visit(path);
  return newest;
}

/**
 * Why dist/ must be built again (missing, or older than a source file), or null when it is current.
 *
 * @example buildReason('/repo') // 'src/ changed since the last build'
 */
export function buildReason(root: string, distDir: string): string | null {
  const loader = join(distDir, 'v4', 'loader.min.js');
  if (!existsSync(loader)) return 'dist/v4/loader.min.js is missing';
  const built = statSync(loader).mtimeMs;
  return newestMtime(BUILD_SOURCES.map((path) => join(root, path))) > built
    ? 'the sources changed since the last build'
    : null;
}

/**
 * Where the example identity provider listens: the issuer of the fixture provider `idp_example`
 * (SVC_PROVIDER_FIXTURES, default fixtures/providers.json), which the service registers too.
 *
 * @example exampleProviderOf(process.env) // { issuer: 'http://localhost:8789', port: 8789, fixtures: 'fixtures/providers.json' }
 */
export function exampleProviderOf(env: NodeJS.ProcessEnv): { issuer: string; port: number; fixtures: string } {
  const named = env.SVC_PROVIDER_FIXTURES || 'fixtures/providers.json';
  const path = resolve(ROOT, named);
  const fixtures = JSON.parse(readFileSync(path, 'utf8')) as Array<{ id?: unknown; issuer?: unknown }>;
  const issuer = fixtures.find((fixture) => fixture.id === 'idp_example')?.issuer;
  if (typeof issuer !== 'string') throw new Error(`${path} has no provider idp_example`);
  return { issuer, port: Number(new URL(issuer).port || 80), fixtures: named };
}

export function ensureBuilt(): void {
  const distDir = resolve(ROOT, process.env.SVC_DIST_DIR || 'dist');
  const reason = buildReason(ROOT, distDir);
  if (reason === null) return;
  console.log(`start: ${reason}, running \`npm run build\` first`);
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('start: the build failed; fix it and run npm start again');
    process.exit(build.status ?? 1);
  }
}

async function main(argv: readonly string[]): Promise<void> {
  const serviceOnly = argv.includes('--service-only');
  const svcPort = process.env.SVC_PORT || '8787';
  const partnerPort = process.env.PARTNER_PORT || '8788';
  const serviceUrl = process.env.SVC_PUBLIC_URL || `http://localhost:${svcPort}`;
  // Through tsx's loader rather than the tsx CLI, so signals reach the server itself.
  const tsx = (entry: string) => ({ command: process.execPath, args: ['--import', 'tsx', entry] });

  // The Prometheus listener (design.md §17): on by default here, never on the public port.
  const metricsPort = process.env.SVC_METRICS_PORT || '9464';
  const metricsUrl = `http://${process.env.SVC_METRICS_HOST || '127.0.0.1'}:${metricsPort}/metrics`;
  const healthUrl = `http://127.0.0.1:${svcPort}/healthz`;
  const exampleProvider = exampleProviderOf(process.env);
  const children: ChildSpec[] = [
    {
      name: 'service',
      ...tsx('server/main.ts'),
      env: { SVC_PORT: svcPort, SVC_METRICS_PORT: metricsPort },
      healthUrl,
      listens: {
        port: Number(svcPort),
        host: process.env.SVC_HOST || '127.0.0.1',
        setBy: 'SVC_PORT',
        fix: 'set SVC_PORT to a free port',
      },
    },
  ];
  // The example partner signs with sandbox fixture partners, and the example identity provider
  // is the sandbox's idp_example: production knows neither.
  if (!serviceOnly && process.env.SVC_MODE !== 'production') {
    children.push(
      {
        name: 'partner',
        ...tsx('server/example-partner/main.ts'),
        env: { PARTNER_PORT: partnerPort, SVC_PUBLIC_URL: serviceUrl },
        healthUrl: `http://127.0.0.1:${partnerPort}/healthz`,
        listens: {
          port: Number(partnerPort),
          host: process.env.PARTNER_HOST || '127.0.0.1',
          setBy: 'PARTNER_PORT',
          fix: 'set PARTNER_PORT to a free port',
        },
      },
      {
        // Its issuer (so its port) is the fixture idp_example's, which the service registers too.
        name: 'idp',
        ...tsx('server/sandbox/example-idp/main.ts'),
        env: { SVC_PUBLIC_URL: serviceUrl },
        healthUrl: `http://127.0.0.1:${exampleProvider.port}/.well-known/openid-configuration`,
        listens: {
          port: exampleProvider.port,
          host: process.env.SVC_EXAMPLE_IDP_HOST || '127.0.0.1',
          setBy: `the example identity provider's: idp_example's issuer in ${exampleProvider.fixtures}`,
          fix: 'point SVC_PROVIDER_FIXTURES at providers whose idp_example has an issuer on a free port',
        },
      },
    );
  }

  // Before anything starts: a second `npm start` used to print Ready off the first one's answers.
  const taken = await portsInUse(children.flatMap((child) => (child.listens ? [child.listens] : [])));
  if (taken.length > 0) {
    for (const line of taken) console.error(`start: ${line}`);
    process.exitCode = 1;
    return;
  }
  ensureBuilt();

  const formatLine = await devLogFormatter(process.env, { colorize: Boolean(process.stdout.isTTY) });
  const supervisor = superviseChildren(children, formatLine ? { formatLine } : {});
  let signalled = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      signalled = true;
      supervisor.stop(signal);
    });
  }

  supervisor.ready.then(
    async () => {
      const mode = (await readServiceMode(healthUrl)) ?? 'sandbox';
      const partnerRuns = children.some((child) => child.name === 'partner');
      // SVC_MODE unset on a production data folder: the service found out; the sandbox's helpers go.
      if (mode === 'production' && partnerRuns) for (const name of ['partner', 'idp']) supervisor.dismiss(name);
      const sandboxRuns = partnerRuns && mode === 'sandbox';
      const partnerUrl = sandboxRuns ? `http://localhost:${partnerPort}` : null;
      const providerUrl = sandboxRuns ? exampleProvider.issuer : null;
      console.log(readyBanner({ mode, serviceUrl, partnerUrl, providerUrl, metricsUrls: [metricsUrl] }));
    },
    (error: Error) => {
      // Ctrl-C before the banner is a stop asked for, not a failure.
      if (signalled) return;
      console.error(`start: ${error.message}`);
      supervisor.fail();
    },
  );
  process.exitCode = await supervisor.done;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main(process.argv.slice(2));
}
