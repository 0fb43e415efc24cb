/**
 * `npm run start:cluster`: the several-instance topology (design.md §10) on one machine, at the same
 * URLs as `npm start`: a local redis-server (AOF, appendfsync always, noeviction), two service
 * instances on it, nginx in front on :8787 (round robin, long-poll timeouts above 25 s,
 * X-Forwarded-For set, the instances trusting it through SVC_TRUST_PROXY, slow clients and
 * floods stopped as deploy/nginx.conf does), and the example
 * partner on :8788. Needs redis-server and nginx from the OS packages (Debian: redis-server,
 * nginx-light) and says so when one is missing.
 *
 * The instances share one master key (SVC_MASTER_KEY), generated once into the cluster folder,
 * as they would share it from a secret manager; everything else they share lives in Redis.
 *
 * Environment: SVC_CLUSTER_DIR (default ./data/cluster: Redis's AOF, the master key, nginx's
 * files), SVC_CLUSTER_REDIS_PORT (6380), SVC_CLUSTER_INSTANCE_PORTS ("8791,8792"), SVC_PORT
 * (8787), PARTNER_PORT (8788), SVC_METRICS_PORT (9464: the first instance's metrics, the next
 * instances' on the ports after it). SIGINT/SIGTERM/SIGHUP to this script stop the instances
 * (gracefully), nginx and the partner together, then Redis once they have exited. SIGUSR2 restarts
 * the instances one at a time, each once the one before is ready again (a rolling restart). A terminal's
 * Ctrl-C also reaches every child directly (one process group), Redis included, at the same moment.
 *
 * `--ha` (design.md §17): Redis with Sentinel instead of one redis-server: a primary on
 * SVC_CLUSTER_REDIS_PORT, a replica on the next port and three sentinels on that port + 20000,
 * + 20001, + 20002 (master name "svc", quorum 2); the instances find the primary through them
 * (SVC_REDIS_SENTINELS) with SVC_REDIS_MIN_REPLICAS=1. Each start gives the first port the
 * primary's role again, and the sentinels a fresh configuration in the cluster folder.
 *
 * A redis-server or sentinel that dies is started again 1 s later, as a supervisor would; under
 * `--ha` a dead primary first waits for the sentinels to promote its replica, then rejoins as a
 * replica of the new primary (docs/operations.md "Redis high availability").
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
// `svc --cluster` finds the store with the same defaults.
import { CLUSTER_DEFAULTS } from '../server/cli/cluster.ts';
import { newMasterKey } from '../server/crypto/master-key.ts';
import {
  devLogFormatter,
  ensureBuilt,
  readServiceMode,
  exampleProviderOf,
  readyBanner,
  superviseChildren,
  type ChildSpec,
} from './start.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface ClusterOptions {
  /** where nginx and the instances listen, as `npm start` does */
  servicePort: number;
  partnerPort: number;
  redisPort: number;
  instancePorts: readonly number[];
  dir: string;
  /** --ha: a primary, a replica and three sentinels instead of one redis-server */
  ha: boolean;
}

/** The master name the sentinels of `--ha` watch. */
export const HA_MASTER_NAME = 'svc';

/** What every redis-server of the cluster runs with (design.md §10: AOF, fsync always, noeviction). */
function redisArgs(port: number, dir: string): string[] {
  return [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--appendonly',
    'yes',
    '--appendfsync',
    'always',
    '--save',
    '',
    '--maxmemory-policy',
    'noeviction',
    '--daemonize',
    'no',
    '--logfile',
    '',
    '--loglevel',
    'warning',
  ];
}

/** The ports of `--ha`: the primary, its replica, the three sentinels. */
export function haPorts(redisPort: number): { primary: number; replica: number; sentinels: number[] } {
  return { primary: redisPort, replica: redisPort + 1, sentinels: [0, 1, 2].map((i) => redisPort + 20_000 + i) };
}

/**
 * The sentinel configuration file of `--ha` (each sentinel rewrites its own as it learns):
 * failures detected within 5 s, a failover given 10 s.
 */
export function sentinelConfig(port: number, primaryPort: number, dir: string): string {
  return [
    `# Written by scripts/start-cluster.ts --ha at each start; Sentinel rewrites it as it learns.`,
    `port ${port}`,
    'bind 127.0.0.1',
    `dir ${dir}`,
    `sentinel monitor ${HA_MASTER_NAME} 127.0.0.1 ${primaryPort} 2`,
    `sentinel down-after-milliseconds ${HA_MASTER_NAME} 5000`,
    `sentinel failover-timeout ${HA_MASTER_NAME} 10000`,
    `sentinel parallel-syncs ${HA_MASTER_NAME} 1`,
    '',
  ].join('\n');
}

/**
 * The Redis children of the cluster: one redis-server, or with `ha` a primary, a replica and
 * three sentinels. `dir` is the cluster folder.
 */
export function redisChildren(
  redisBin: string,
  options: Pick<ClusterOptions, 'redisPort' | 'ha'>,
  dir: string,
): ChildSpec[] {
  // A redis-server that dies is started again, as a supervisor would (docs/operations.md "Redis high availability").
  if (!options.ha)
    return [
      {
        name: 'redis',
        command: redisBin,
        args: redisArgs(options.redisPort, join(dir, 'redis')),
        restart: { afterMs: RESTART_AFTER_MS },
      },
    ];
  const ports = haPorts(options.redisPort);
  // a replica that (re)joins is synced at once, not after the 5 s Redis waits for others by default
  const node = (port: number, sub: string) => [...redisArgs(port, join(dir, sub)), '--repl-diskless-sync-delay', '0'];
  const rejoin = (port: number, sub: string) => ({
    afterMs: RESTART_AFTER_MS,
    args: () => rejoinArgs(port, node(port, sub), ports.sentinels),
  });
  return [
    {
      name: 'redis-primary',
      command: redisBin,
      args: node(ports.primary, 'redis'),
      restart: rejoin(ports.primary, 'redis'),
    },
    {
      name: 'redis-replica',
      command: redisBin,
      args: [...node(ports.replica, 'redis-replica'), '--replicaof', '127.0.0.1', String(ports.primary)],
      restart: rejoin(ports.replica, 'redis-replica'),
    },
    ...ports.sentinels.map((port, i) => ({
      name: `sentinel-${i + 1}`,
      command: redisBin,
      args: [join(dir, 'sentinel', `sentinel-${port}.conf`), '--sentinel', '--loglevel', 'warning'],
      restart: { afterMs: RESTART_AFTER_MS },
    })),
  ];
}

/** A dead redis-server is started again after this (a supervisor's restart delay). */
const RESTART_AFTER_MS = 1_000;
/** How long a dead primary waits for Sentinel to promote its replica before it starts again as it was. */
const FAILOVER_WAIT_MS = 30_000;

/** The port the sentinels name as the primary now; null when none answers. */
async function primaryPortNow(sentinels: readonly number[]): Promise<number | null> {
  for (const port of sentinels) {
    const client = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      const answer = (await client.call('SENTINEL', 'get-master-addr-by-name', HA_MASTER_NAME)) as string[] | null;
      if (answer) return Number(answer[1]);
    } catch {
      // the next sentinel
    } finally {
      client.disconnect();
    }
  }
  return null;
}

/**
 * The arguments a dead redis-server of `--ha` starts again with: as a replica of the primary the
 * sentinels name. A node that died as the primary first waits (up to FAILOVER_WAIT_MS) for them
 * to promote another, so a `kill -9` of the primary reaches the failover docs/operations.md
 * describes, and then rejoins as a replica (as the docs ask of a lost node), never as a second primary.
 */
async function rejoinArgs(port: number, args: string[], sentinels: readonly number[]): Promise<string[]> {
  const deadline = Date.now() + FAILOVER_WAIT_MS;
  let primary = await primaryPortNow(sentinels);
  while (primary === port && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    primary = await primaryPortNow(sentinels);
  }
  if (primary === null || primary === port) return args;
  return [...args, '--replicaof', '127.0.0.1', String(primary)];
}

/** Finds a binary on PATH or at one of `extra`; null when absent. */
function findBinary(name: string, extra: readonly string[] = []): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  return extra.find((path) => existsSync(path)) ?? null;
}

/**
 * The nginx configuration of the local cluster: one worker, everything under `dir` (no root
 * needed), round robin over the instances.
 */
export function nginxConfig(options: Pick<ClusterOptions, 'servicePort' | 'instancePorts'>, dir: string): string {
  const upstreams = options.instancePorts.map((port) => `    server 127.0.0.1:${port} max_fails=0;`).join('\n');
  return `# Written by scripts/start-cluster.ts; deploy/nginx.conf is the same for real hosts.
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  # Slow clients, connections per address and writes per address: as deploy/nginx.conf, which
  # says why for each.
  client_header_timeout 10s;
  client_body_timeout 10s;
  limit_conn_zone $binary_remote_addr zone=per_address:10m;
  map "$request_method:$uri" $browser_write {
    "~^POST:/(v1|api/partner|api/billing)/" "";
    "~^POST:" $binary_remote_addr;
    default "";
  }
  map "$request_method:$uri" $partner_write {
    "~^POST:/(v1|api/partner|api/billing)/" $binary_remote_addr;
    default "";
  }
  limit_req_zone $browser_write zone=browser_writes:10m rate=10r/s;
  limit_req_zone $partner_write zone=partner_writes:10m rate=200r/s;
  limit_req_status 429;
  limit_conn_status 429;
  upstream svc {
${upstreams}
    keepalive 64;
    # Below the instances' SVC_DRAIN_MS: nginx closes an idle kept connection, never a draining instance.
    keepalive_timeout 4s;
  }
  server {
    listen 127.0.0.1:${options.servicePort};
    client_max_body_size 32k;
    limit_conn per_address 200;
    error_page 429 = @too_many_requests;
    location / {
      limit_req zone=browser_writes burst=60 nodelay;
      limit_req zone=partner_writes burst=400 nodelay;
      proxy_pass http://svc;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # Long polls wait up to 25 s: the proxy waits longer.
      proxy_read_timeout 60s;
      proxy_send_timeout 60s;
      proxy_buffering off;
      # A draining instance refuses new connections: every request goes to the other. After
      # sending, a GET is tried on the other; a POST never twice.
      proxy_next_upstream error timeout http_503;
    }
    location @too_many_requests {
      default_type application/json;
      add_header Retry-After 1 always;
      add_header Access-Control-Allow-Origin * always;
      return 429 '{"error":"Too many requests"}';
    }
  }
}
`;
}

/** One line naming what to install when redis-server or nginx is missing; null when both are there. */
export function missingPackagesLine(found: { redis: string | null; nginx: string | null }): string | null {
  const missing = [
    ...(found.redis ? [] : ['redis-server (Debian/Ubuntu: apt-get install redis-server)']),
    ...(found.nginx ? [] : ['nginx (Debian/Ubuntu: apt-get install nginx-light)']),
  ];
  if (missing.length === 0) return null;
  return `start:cluster needs ${missing.join(' and ')}; \`npm start\` runs one instance without them.`;
}

function redisAnswers(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    socket.setTimeout(500, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += String(chunk);
      if (reply.includes('\r\n')) socket.end();
    });
    socket.on('close', () => done(reply.startsWith('+PONG')));
    socket.on('error', () => {});
  });
}

function readOptions(env: NodeJS.ProcessEnv): ClusterOptions {
  const number = (name: string, fallback: number) => {
    const n = Number(env[name] || fallback);
    if (!Number.isInteger(n) || n < 1 || n > 65535)
      throw new Error(`${name} must be a port number, got "${env[name]}"`);
    return n;
  };
  const instancePorts = (env.SVC_CLUSTER_INSTANCE_PORTS || '8791,8792').split(',').map((p) => Number(p.trim()));
  if (instancePorts.length < 2 || instancePorts.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
    throw new Error(`SVC_CLUSTER_INSTANCE_PORTS must list two or more ports, got "${env.SVC_CLUSTER_INSTANCE_PORTS}"`);
  }
  return {
    servicePort: number('SVC_PORT', 8787),
    partnerPort: number('PARTNER_PORT', 8788),
    redisPort: number('SVC_CLUSTER_REDIS_PORT', CLUSTER_DEFAULTS.redisPort),
    instancePorts,
    dir: resolve(ROOT, env.SVC_CLUSTER_DIR || CLUSTER_DEFAULTS.dir),
    ha: process.argv.includes('--ha'),
  };
}

/** The replicas the primary on `port` reports connected; 0 when it cannot be asked. */
async function connectedReplicas(port: number): Promise<number> {
  const client = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return Number(/^connected_slaves:(\d+)/m.exec(await client.info('replication'))?.[1] ?? 0);
  } catch {
    return 0;
  } finally {
    client.disconnect();
  }
}

/** The cluster's one master key, made once (mode 0600), as a secret manager would hand it out. */
function clusterMasterKey(dir: string): string {
  const file = join(dir, 'master.key');
  if (!existsSync(file)) writeFileSync(file, `${newMasterKey()}\n`, { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

async function main(): Promise<void> {
  const redisBin = findBinary('redis-server');
  const nginxBin = findBinary('nginx', ['/usr/sbin/nginx']);
  const missing = missingPackagesLine({ redis: redisBin, nginx: nginxBin });
  if (missing) {
    console.error(missing);
    process.exit(1);
  }
  const options = readOptions(process.env);
  ensureBuilt();
  const haDirs = options.ha ? ['redis-replica', 'sentinel'] : [];
  for (const sub of ['redis', ...haDirs, 'nginx', ...options.instancePorts.map((p) => `instance-${p}`)])
    mkdirSync(join(options.dir, sub), { recursive: true });
  const ports = haPorts(options.redisPort);
  if (options.ha) {
    for (const port of ports.sentinels) {
      const file = join(options.dir, 'sentinel', `sentinel-${port}.conf`);
      writeFileSync(file, sentinelConfig(port, ports.primary, join(options.dir, 'sentinel')));
    }
  }
  const nginxDir = join(options.dir, 'nginx');
  writeFileSync(join(nginxDir, 'nginx.conf'), nginxConfig(options, nginxDir));
  const masterKey = clusterMasterKey(options.dir);
  const serviceUrl = process.env.SVC_PUBLIC_URL || `http://localhost:${options.servicePort}`;
  const redisUrl = `redis://127.0.0.1:${options.redisPort}`;

  // Redis first: an instance that cannot reach it stops at boot (fail closed).
  const redisPorts = options.ha ? [ports.primary, ports.replica, ...ports.sentinels] : [options.redisPort];
  for (const port of redisPorts) {
    if (await redisAnswers(port)) {
      console.error(`start:cluster: something already answers on port ${port}; set SVC_CLUSTER_REDIS_PORT`);
      process.exit(1);
    }
  }
  const redis = superviseChildren(redisChildren(redisBin!, options, options.dir));
  const redisDeadline = Date.now() + 10_000;
  const redisReady = async () =>
    (await Promise.all(redisPorts.map(redisAnswers))).every(Boolean) &&
    (!options.ha || (await connectedReplicas(ports.primary)) >= 1);
  while (!(await redisReady())) {
    if (Date.now() > redisDeadline) {
      console.error(`start:cluster: Redis did not answer on ports ${redisPorts.join(', ')} within 10 s`);
      redis.fail();
      process.exitCode = await redis.done;
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const storeEnv: NodeJS.ProcessEnv = options.ha
    ? {
        SVC_REDIS_SENTINELS: ports.sentinels.map((port) => `127.0.0.1:${port}`).join(','),
        SVC_REDIS_MASTER_NAME: HA_MASTER_NAME,
        SVC_REDIS_MIN_REPLICAS: '1',
      }
    : { SVC_REDIS_URL: redisUrl };

  const tsx = (entry: string) => ({ command: process.execPath, args: ['--import', 'tsx', entry] });
  // Each instance's Prometheus listener (design.md §17): SVC_METRICS_PORT (9464) for the first, the next ports after.
  const metricsPortOf = (i: number) => Number(process.env.SVC_METRICS_PORT || 9464) + i;
  const instances: ChildSpec[] = options.instancePorts.map((port, i) => ({
    name: `service-${String.fromCharCode(97 + i)}`,
    ...tsx('server/main.ts'),
    env: {
      SVC_PORT: String(port),
      SVC_HOST: '127.0.0.1',
      SVC_PUBLIC_URL: serviceUrl,
      ...storeEnv,
      SVC_MASTER_KEY: masterKey,
      SVC_TRUST_PROXY: '127.0.0.1',
      SVC_DATA_DIR: join(options.dir, `instance-${port}`),
      SVC_METRICS_PORT: String(metricsPortOf(i)),
    },
    healthUrl: `http://127.0.0.1:${port}/healthz`,
  }));
  // The instances' and the partner's log lines as `npm start` shows them (SVC_LOG_FORMAT=json keeps JSON).
  const formatLine = await devLogFormatter(process.env, { colorize: Boolean(process.stdout.isTTY) });
  const exampleProvider = exampleProviderOf(process.env);
  const rest = superviseChildren(
    [
      ...instances,
      {
        name: 'nginx',
        command: nginxBin!,
        // No health URL: polled before the instances listen, nginx would log every refused connection.
        args: ['-p', nginxDir, '-c', join(nginxDir, 'nginx.conf'), '-e', 'stderr'],
      },
      // The example partner signs with sandbox fixture partners, and the example identity provider
      // is the sandbox's idp_example: production knows neither.
      ...(process.env.SVC_MODE === 'production'
        ? []
        : [
            {
              name: 'partner',
              ...tsx('server/example-partner/main.ts'),
              env: { PARTNER_PORT: String(options.partnerPort), SVC_PUBLIC_URL: serviceUrl },
              healthUrl: `http://127.0.0.1:${options.partnerPort}/healthz`,
            },
            {
              name: 'idp',
              ...tsx('server/sandbox/example-idp/main.ts'),
              env: { SVC_PUBLIC_URL: serviceUrl },
              healthUrl: `http://127.0.0.1:${exampleProvider.port}/.well-known/openid-configuration`,
            },
          ]),
    ],
    formatLine ? { formatLine } : {},
  );

  let stopping = false;
  const stopAll = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    rest.stop(signal === 'SIGINT' ? 'SIGTERM' : signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stopAll(signal));
  // SIGUSR2: a rolling restart (docs/operations.md#rolling-restarts). Each instance in turn drains
  // (SIGTERM), exits and is started again; the next one goes once it answers its health URL.
  let rolling = false;
  process.on('SIGUSR2', () => {
    if (rolling || stopping) return;
    rolling = true;
    void (async () => {
      for (const instance of instances) {
        console.log(`start:cluster: restarting ${instance.name}`);
        await rest.restart(instance.name);
      }
      console.log('start:cluster: rolling restart done');
    })()
      .catch((error: Error) => console.error(`start:cluster: rolling restart stopped: ${error.message}`))
      .finally(() => (rolling = false));
  });
  // Every redis-server is restarted when it dies (redisChildren): `done` means they were stopped or never started.
  void redis.done.then(() => {
    if (!stopping) {
      console.error('start:cluster: a redis-server stopped; stopping the rest');
      stopping = true;
      rest.fail();
    }
  });

  rest.ready.then(
    async () => {
      const mode = (await readServiceMode(instances[0]!.healthUrl!)) ?? 'sandbox';
      const banner = readyBanner({
        mode,
        serviceUrl,
        serviceNote: `(nginx → ${options.instancePorts.map((p) => `:${p}`).join(', ')})`,
        partnerUrl: process.env.SVC_MODE === 'production' ? null : `http://localhost:${options.partnerPort}`,
        providerUrl: process.env.SVC_MODE === 'production' ? null : exampleProvider.issuer,
        detail: `, ${instances.length} instances on Redis${options.ha ? ' through Sentinel' : ''}`,
        metricsUrls: options.instancePorts.map((port, i) => `http://127.0.0.1:${metricsPortOf(i)}/metrics  (:${port})`),
        extra: options.ha
          ? [
              `  Redis primary    redis://127.0.0.1:${ports.primary}, replica :${ports.replica}  (SVC_REDIS_MIN_REPLICAS=1)`,
              `  Sentinels        ${storeEnv.SVC_REDIS_SENTINELS}  (master name ${HA_MASTER_NAME})`,
            ]
          : [`  Redis            ${redisUrl}  (AOF in ${join(options.dir, 'redis')})`],
        stops: 'them all',
      });
      console.log(banner);
    },
    (error: Error) => {
      console.error(`start:cluster: ${error.message}`);
      rest.fail();
    },
  );
  const code = await rest.done;
  // The instances closed their Redis connections first; Redis flushes its AOF on SIGTERM.
  redis.stop('SIGTERM');
  await redis.done;
  process.exitCode = code;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
