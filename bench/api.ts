/**
 * `npm run bench`: throughput and p99 latency of the signed partner API, against a bare
 * node:http server that answers the very same signed requests (it checks the HMAC with
 * node:crypto and answers a fixed JSON), so the ratio shows what the service costs on top of
 * HTTP + HMAC: Fastify, authentication in design.md §6 order, the nonce and the token read or grant
 * taken in one store step (design.md §23: one transaction on SQLite, one round trip on Redis).
 *
 * Every request is pre-signed with its own nonce (none is a replay); exchanges each consume a
 * grant put in the store beforehand. The load generator (autocannon) runs in a child process
 * (load-worker.ts), off the servers' event loop and CPU account. Beside req/s, each run reports
 * the CPU time per request of the server under load (this process's user + system time during
 * the run, every thread, ÷ requests answered; the servers take turns, so the other one idles) and,
 * on Redis, redis-server's from /proc/<pid>/stat: steadier than req/s on a shared machine, and the
 * ratio service ÷ bare says what each signed call costs on top of HTTP + HMAC. Targets
 * (docs/operations.md, API benchmark; design.md §23): introspect ≥ 0.6× the bare server on SQLite
 * and ≥ 0.45× on Redis (AOF, appendfsync always), exchange ≥ 0.3× on both, the median of the
 * rounds, metrics on; p99 ≤ 20 ms at 10 connections.
 *
 * `--store sqlite|redis|both` (default both; BENCH_STORE too): the store under the service. Redis
 * is a throwaway redis-server (AOF, appendfsync always, noeviction) on a free port; with it the
 * bench also measures the cross-instance wake-up: two instances on that Redis, a long poll waiting
 * on A, the phone's completion sent to B, the time until A answers (median and p99).
 *
 * A third server shows what the store alone costs: the store floor, the bare server with the same
 * HMAC check plus the service's own store step (`Store.rememberNonceAnd`: the nonce and the token
 * read, or the grant taken and its pass token written, on the same store) and nothing else, no
 * Fastify, no routing, no metrics. No server that keeps the nonce and the token in this store can
 * go faster, so floor ÷ bare bounds the ratio any implementation reaches here, and service ÷ floor
 * is what the service itself costs on top of its store.
 *
 * These machines are noisy, and the servers feel noise differently (the bare server is bound by
 * CPU, the service by latency), so one bare run then one service run can give any ratio. Each
 * comparison is therefore made in rounds: bare, floor and service back to back, in alternating
 * order (ABC CBA), and the figure quoted is the median of the rounds' ratios, with their range.
 *
 *   BENCH_SECONDS (4)   length of each run
 *   BENCH_ROUNDS (5)    rounds per comparison
 *   BENCH_CONNECTIONS (10)
 *   BENCH_WAKEUPS (200) wake-ups measured
 *   BENCH_REDIS_FSYNC (always) Redis's appendfsync: always or everysec
 *   BENCH_IDEMPOTENCY (unset) 1: every exchange with an Idempotency-Key of its own, as the SDK sends them
 *   BENCH_METRICS (1)   0: the service without its Prometheus metrics (on by default, as `npm start` runs it, design.md §17)
 *   BENCH_PROFILE (unset) a directory: every run is sampled by the inspector's CPU profiler (this
 *                       process only: the server under load, never the load generator) into
 *                       <dir>/[bare-]<store>-<route>-<n>.cpuprofile; `tsx bench/profile-summary.ts <files>`
 *                       sums their self time by function and by owner
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createApp } from '../server/app.ts';
import { buildDeps } from '../server/boot.ts';
import { loadConfig } from '../server/config.ts';
import type { AppDeps } from '../server/deps.ts';
import { digestToken, newToken } from '../server/crypto/tokens.ts';
import { grantReadWithNonce, passTokenReadWithNonce } from '../server/domain/exchange.ts';
import { signRequest } from '../server/sdk/signing.ts';
import { createTelemetry } from '../server/telemetry/telemetry.ts';
import { makeTempDir, PARTNERS, REPO_ROOT } from '../server/test/helpers.ts';
import { startRedisServer, type RedisServer } from '../server/test/redis-server.ts';
import { completeOnPhone, getStatus, handoffOf, openOnPhone, PARTNER_ORIGIN } from '../server/test/verify-flow.ts';
import type { LoadJob, LoadMessage, LoadResult } from './load-worker.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const WAKEUPS = Number(process.env.BENCH_WAKEUPS ?? 200);
/** Redis's appendfsync: always (the default here, nothing acknowledged is lost) or everysec, for comparison. */
const FSYNC = process.env.BENCH_REDIS_FSYNC ?? 'always';
const METRICS = process.env.BENCH_METRICS !== '0';
/** Exchanges with an Idempotency-Key each, as the SDK sends them (off by default, as the targets were set). */
const IDEMPOTENCY_KEYS = process.env.BENCH_IDEMPOTENCY === '1';
const PROFILE_DIR = process.env.BENCH_PROFILE || null;
let profiled = 0;
type StoreKind = 'sqlite' | 'redis';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** More pre-signed requests than a run can send at the fastest rate seen on a small machine. */
const REQUESTS_PER_SECOND_CEILING = 40_000;
const partner = PARTNERS.demo;

/** A bare server: the same HMAC check (node:crypto), a fixed answer, nothing else. */
function startBareServer(): Promise<Server> {
  const key = Buffer.from(partner.secret, 'base64');
  const fixed = JSON.stringify({ active: false });
  return startServer((req, body) => {
    if (!signedByPartner(req.headers, body, key)) return [401, '{"error":"INVALID_SIGNATURE"}'];
    JSON.parse(body.toString('utf8'));
    return [200, fixed];
  });
}

/** True when the request carries the demo partner's valid signature (the bare servers' one check). */
function signedByPartner(headers: IncomingMessage['headers'], body: Buffer, key: Buffer): boolean {
  const bodyHash = createHash('sha256').update(body).digest('base64url');
  const canonical = `${bodyHash}.${headers['x-partner-timestamp']}.${headers['x-partner-id']}.${headers['x-partner-nonce']}`;
  const expected = createHmac('sha256', key).update(canonical).digest();
  const given = Buffer.from(String(headers['x-partner-signature']), 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A node:http server answering every request with `answer(req, body)` once it is read whole. */
function startServer(answer: (req: IncomingMessage, body: Buffer) => Promise<[number, string]> | [number, string]) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const [status, text] = await answer(req, Buffer.concat(chunks));
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(text);
    });
  });
  return new Promise<Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The request's Idempotency-Key, or null. */
const idempotencyKeyOf = (req: IncomingMessage) => {
  const key = req.headers['idempotency-key'];
  return typeof key === 'string' ? key : null;
};

/**
 * The store floor: the bare server's HMAC check, then the service's own store step on `deps.store`
 * (the nonce with the pass token read, or the grant taken and its pass token and, with a key, its
 * replay written) and the record found as JSON. Nothing else: no framework, no routing, no answer
 * shape, no metrics.
 */
function startStoreFloor(deps: AppDeps): Promise<Server> {
  const key = Buffer.from(partner.secret, 'base64');
  return startServer(async (req, raw) => {
    if (!signedByPartner(req.headers, raw, key)) return [401, '{"error":"INVALID_SIGNATURE"}'];
    const body = JSON.parse(raw.toString('utf8')) as { pass_token?: string; grant_code?: string };
    const now = deps.clock.now();
    const read =
      req.url === '/v1/exchange'
        ? grantReadWithNonce(partner.id, String(body.grant_code), idempotencyKeyOf(req), now)
        : passTokenReadWithNonce(body);
    if (!read) return [400, '{"error":"INVALID_REQUEST"}'];
    const nonceExpiresAt = now + 11 * 60_000;
    const nonce = String(req.headers['x-partner-nonce']);
    const found = await deps.store.rememberNonceAnd(partner.id, nonce, nonceExpiresAt, now, read);
    if (!found.fresh) return [401, '{"error":"REPLAY_DETECTED"}'];
    const record = found.pass ?? found.issued;
    return record ? [200, JSON.stringify(record)] : [401, '{"error":"GRANT_INVALID"}'];
  });
}

async function putGrants(deps: AppDeps, count: number): Promise<string[]> {
  const now = deps.clock.now();
  const codes = Array.from({ length: count }, () => newToken('grant'));
  // In batches: on Redis each put is a round trip (and an fsync with appendfsync always).
  for (let start = 0; start < count; start += 200) {
    await Promise.all(
      codes.slice(start, start + 200).map((code, j) =>
        deps.store.putGrant({
          digest: digestToken(code),
          partnerId: partner.id,
          requestId: `vr_bench${start + j}`,
          scopes: ['isAdult'],
          attributes: { age_over_18: true },
          method: 'face_check',
          verifiedAt: now,
          generationTimeMs: 1000,
          expiresAt: now + 5 * 60_000,
        }),
      ),
    );
  }
  return codes;
}

interface Measured extends LoadResult {
  label: string;
  /** CPU time of this process (the server under load: user + system, every thread) per request, µs */
  cpuUs: number;
  /** CPU time of redis-server per request, µs (Redis runs only) */
  storeCpuUs: number | null;
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** User + system CPU time of process `pid` so far, in µs (/proc/<pid>/stat, fields 14 and 15). */
function processCpuUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
}

/** The child's next message; fails if it exits first. Each is awaited before the step that causes it. */
function nextMessage(child: ChildProcess): Promise<LoadMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      stop();
      resolve(message as LoadMessage);
    };
    const onExit = (code: number | null) => {
      stop();
      reject(new Error(`load generator exited with ${code}`));
    };
    const stop = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/**
 * Runs one load from a child process (load-worker.ts), so that the load generator shares neither
 * the server's event loop nor this process's CPU account: this process's CPU time while the load
 * runs is the server's (the bare server and the service take turns; the other one idles).
 */
async function run(
  label: string,
  url: string,
  path: string,
  bodies: string[],
  store?: RedisServer,
  profileAs?: string,
  seconds = SECONDS,
): Promise<Measured> {
  process.stdout.write(`  ${label.padEnd(24)} `);
  const job: LoadJob = {
    url,
    path,
    bodies,
    connections: CONNECTIONS,
    seconds,
    partnerId: partner.id,
    secret: partner.secret,
    idempotencyKeys: IDEMPOTENCY_KEYS && path === '/v1/exchange',
  };
  const child = fork(fileURLToPath(new URL('./load-worker.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((done) => child.once('exit', done));
  const next = () => nextMessage(child);
  child.send(job);
  if ((await next()).type !== 'ready') throw new Error('load generator: expected ready');
  const profiler = PROFILE_DIR && profileAs ? new Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const cpuBefore = process.cpuUsage();
  const storeBefore = store?.pid ? processCpuUs(store.pid) : null;
  child.send('go');
  const answer = await next();
  const cpu = process.cpuUsage(cpuBefore);
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    profiler.disconnect();
    mkdirSync(PROFILE_DIR!, { recursive: true });
    writeFileSync(join(PROFILE_DIR!, `${profileAs}-${++profiled}.cpuprofile`), JSON.stringify(profile));
  }
  const storeAfter = store?.pid ? processCpuUs(store.pid) : null;
  await exited;
  if (answer.type !== 'result') throw new Error('load generator: expected a result');
  const result = answer.result;
  const requests = Math.max(1, result.total);
  const measured: Measured = {
    label,
    ...result,
    cpuUs: (cpu.user + cpu.system) / requests,
    storeCpuUs: storeBefore === null || storeAfter === null ? null : (storeAfter - storeBefore) / requests,
  };
  const storeCpu = measured.storeCpuUs === null ? '' : ` + redis ${Math.round(measured.storeCpuUs)} µs`;
  console.log(
    `${Math.round(measured.rps).toString().padStart(6)} req/s   p50 ${measured.p50} ms   p99 ${measured.p99} ms   ` +
      `CPU ${Math.round(measured.cpuUs).toString().padStart(4)} µs/req${storeCpu}   ` +
      `(${measured.total} requests, ${measured.non2xx} non-2xx, ${measured.errors} errors)`,
  );
  return measured;
}

function readStores(argv: readonly string[]): StoreKind[] {
  const i = argv.indexOf('--store');
  const inline = argv.find((a) => a.startsWith('--store='));
  const value = inline ? inline.slice('--store='.length) : i >= 0 ? argv[i + 1] : (process.env.BENCH_STORE ?? 'both');
  if (value === 'both') return ['sqlite', 'redis'];
  if (value === 'sqlite' || value === 'redis') return [value];
  throw new Error(`--store must be sqlite, redis or both, got "${value}"`);
}

/** One comparison, in rounds: the service and the store floor against the bare server run beside them. */
interface Comparison {
  bare: Measured[];
  floor: Measured[];
  service: Measured[];
  /** service ÷ bare, per round */
  ratios: number[];
  /** store floor ÷ bare, per round: the most any server on this store reaches */
  floorRatios: number[];
  /** service ÷ store floor, per round */
  ofFloor: number[];
  /** CPU per request, service ÷ bare, per round */
  cpuRatios: number[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

type Runs = Record<'bare' | 'floor' | 'service', () => Promise<Measured>>;

/** Runs bare, floor and service back to back ROUNDS times, in ABC CBA order, so drift falls on all alike. */
async function compare(runs: Runs): Promise<Comparison> {
  const result: Comparison = {
    bare: [],
    floor: [],
    service: [],
    ratios: [],
    floorRatios: [],
    ofFloor: [],
    cpuRatios: [],
  };
  const order = ['bare', 'floor', 'service'] as const;
  for (let round = 0; round < ROUNDS; round++) {
    const measured: Partial<Record<keyof Runs, Measured>> = {};
    for (const name of round % 2 === 0 ? order : [...order].reverse()) measured[name] = await runs[name]();
    const { bare, floor, service } = measured as Record<keyof Runs, Measured>;
    result.bare.push(bare);
    result.floor.push(floor);
    result.service.push(service);
    result.ratios.push(service.rps / bare.rps);
    result.floorRatios.push(floor.rps / bare.rps);
    result.ofFloor.push(service.rps / floor.rps);
    result.cpuRatios.push(service.cpuUs / bare.cpuUs);
  }
  return result;
}

interface StoreResult {
  store: StoreKind;
  introspect: Comparison;
  exchange: Comparison;
}

function storeEnv(kind: StoreKind, redis: RedisServer | null, prefix: string): Record<string, string> {
  return kind === 'redis' ? { SVC_REDIS_URL: redis!.url, SVC_REDIS_PREFIX: prefix } : {};
}

async function benchStore(kind: StoreKind, redis: RedisServer | null): Promise<StoreResult> {
  const dir = makeTempDir('svc-bench-');
  const config = loadConfig(
    {
      NODE_ENV: 'production',
      SVC_MODE: 'sandbox',
      SVC_DATA_DIR: dir.path,
      SVC_LOG_LEVEL: 'silent',
      ...storeEnv(kind, redis, 'bench:'),
    },
    REPO_ROOT,
  );
  const built = await buildDeps(config, { notice: () => {} });
  const deps = METRICS
    ? { ...built, telemetry: await createTelemetry({ metrics: { processMetrics: true, longPollWaiters: () => 0 } }) }
    : built;
  const app = await createApp(deps, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const serviceUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const bare = await startBareServer();
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  const floor = await startStoreFloor(deps);
  const floorUrl = `http://127.0.0.1:${(floor.address() as AddressInfo).port}`;

  // Redis's own CPU per call is read from its process too; SQLite runs inside the service.
  const storeProcess = kind === 'redis' ? redis! : undefined;
  const where = kind === 'redis' ? `Redis at ${redis!.url} (AOF, appendfsync ${FSYNC})` : `SQLite in ${dir.path}`;
  console.log(
    `\nbench: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s runs, node ${process.version}, ${where}, ` +
      `metrics ${METRICS ? 'on' : 'off'}`,
  );
  const poolSize = REQUESTS_PER_SECOND_CEILING * SECONDS;
  try {
    // A pass token to introspect, so the service answers the full active shape.
    const [grant] = await putGrants(deps, 1);
    const grantBody = JSON.stringify({ grant_code: grant });
    const headers = { ...signRequest({ partnerId: partner.id, secret: partner.secret, body: grantBody }) };
    const exchanged = await app.inject({ method: 'POST', url: '/v1/exchange', headers, payload: grantBody });
    const passToken = (exchanged.json() as { pass_token: string }).pass_token;
    const introspectBodies = new Array<string>(poolSize).fill(JSON.stringify({ pass_token: passToken }));

    // One short run of each first, not counted: the rounds then compare code the JIT has warmed alike.
    console.log('warm-up (1 s each, not counted)');
    for (const [label, url] of [
      ['bare node:http + HMAC', bareUrl],
      [`store floor (${kind})`, floorUrl],
      [`service (${kind})`, serviceUrl],
    ])
      await run(label!, url!, '/v1/introspect', introspectBodies, undefined, undefined, 1);

    console.log('introspect (signed, active token)');
    const introspect = await compare({
      bare: () =>
        run('bare node:http + HMAC', bareUrl, '/v1/introspect', introspectBodies, undefined, `bare-${kind}-introspect`),
      floor: () =>
        run(
          `store floor (${kind})`,
          floorUrl,
          '/v1/introspect',
          introspectBodies,
          storeProcess,
          `floor-${kind}-introspect`,
        ),
      service: () =>
        run(`service (${kind})`, serviceUrl, '/v1/introspect', introspectBodies, storeProcess, `${kind}-introspect`),
    });

    console.log('exchange (signed; each service and floor run consumes grants put in the store just before it)');
    const unknownGrants = Array.from({ length: poolSize }, () => JSON.stringify({ grant_code: newToken('grant') }));
    // Enough grants for one run (exchange writes more than introspection does, so it is slower).
    const grantCounts = { floor: 0, service: 0 };
    grantCounts.floor = Math.ceil(median(introspect.floor.map((m) => m.rps)) * SECONDS * 1.5) + 1000;
    grantCounts.service = Math.ceil(median(introspect.service.map((m) => m.rps)) * SECONDS * 1.5) + 1000;
    const exchangeWithGrants = async (who: 'floor' | 'service', label: string, url: string) => {
      const grants = await putGrants(deps, grantCounts[who]);
      const bodies = grants.map((code) => JSON.stringify({ grant_code: code }));
      const profileAs = who === 'floor' ? `floor-${kind}-exchange` : `${kind}-exchange`;
      const measured = await run(label, url, '/v1/exchange', bodies, storeProcess, profileAs);
      if (measured.used >= grantCounts[who])
        console.log('    (the run used every grant put before it: it stopped early)');
      grantCounts[who] = Math.ceil(measured.rps * SECONDS * 1.5) + 1000;
      return measured;
    };
    const exchange = await compare({
      bare: () =>
        run('bare node:http + HMAC', bareUrl, '/v1/exchange', unknownGrants, undefined, `bare-${kind}-exchange`),
      floor: () => exchangeWithGrants('floor', `store floor (${kind})`, floorUrl),
      service: () => exchangeWithGrants('service', `service (${kind})`, serviceUrl),
    });
    return { store: kind, introspect, exchange };
  } finally {
    await app.close();
    await new Promise((resolve) => bare.close(resolve));
    await new Promise((resolve) => floor.close(resolve));
    await deps.store.close();
    dir.remove();
  }
}

/**
 * Two instances on one Redis (each its own store handle and subscriber, as two processes): a
 * long poll waits on A, the phone completes on B; ms from sending the completion to A's answer.
 */
async function benchWakeups(redis: RedisServer): Promise<{ median: number; p99: number; max: number }> {
  const instance = async (masterKey: string) => {
    const dir = makeTempDir('svc-bench-');
    const config = loadConfig(
      {
        NODE_ENV: 'production',
        SVC_MODE: 'sandbox',
        SVC_DATA_DIR: dir.path,
        SVC_LOG_LEVEL: 'silent',
        SVC_MASTER_KEY: masterKey,
        ...storeEnv('redis', redis, 'wake:'),
      },
      REPO_ROOT,
    );
    const deps = await buildDeps(config, { notice: () => {} });
    const app = await createApp(deps, { logger: false });
    await app.ready();
    return { app, deps, dir };
  };
  // Instances share one master key, as a cluster does (SVC_MASTER_KEY from a secret manager).
  const masterKey = randomBytes(32).toString('base64');
  const a = await instance(masterKey);
  const b = await instance(masterKey);
  const latencies: number[] = [];
  try {
    for (let i = 0; i < WAKEUPS; i++) {
      // Each from its own address: 200 creates from one would meet the 120-a-minute limit.
      const created = await a.app.inject({
        method: 'POST',
        url: '/api/w/verify-request',
        headers: { 'content-type': 'text/plain', origin: PARTNER_ORIGIN },
        payload: JSON.stringify({ partner_id: partner.id }),
        remoteAddress: `10.9.${i >> 8}.${i & 255}`,
      });
      const body = created.json() as { request_id: string; poll_token: string; deep_link: string };
      const flow = { requestId: body.request_id, pollToken: body.poll_token, handoff: handoffOf(body.deep_link) };
      await openOnPhone(b, flow);
      let answeredAt = 0;
      const waited = getStatus(a, flow.requestId, { pt: flow.pollToken, wait: '25', known: 'in_progress' }).then(
        (res) => {
          answeredAt = performance.now();
          return res;
        },
      );
      await new Promise((r) => setTimeout(r, 5)); // the poll is waiting on A
      const sentAt = performance.now();
      await completeOnPhone(b, flow);
      const res = await waited;
      if ((res.json() as { status: string }).status !== 'completed') throw new Error(`wake-up ${i}: ${res.body}`);
      latencies.push(answeredAt - sentAt);
    }
  } finally {
    for (const t of [a, b]) {
      await t.app.close();
      await t.deps.store.close();
      t.dir.remove();
    }
  }
  latencies.sort((x, y) => x - y);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * q) - 1)]!;
  return { median: at(0.5), p99: at(0.99), max: latencies[latencies.length - 1]! };
}

async function main(): Promise<void> {
  const stores = readStores(process.argv.slice(2));
  let redis: RedisServer | null = null;
  const results: StoreResult[] = [];
  let wakeups: Awaited<ReturnType<typeof benchWakeups>> | null = null;
  try {
    if (stores.includes('redis')) {
      redis = await startRedisServer({
        appendOnly: true,
        args: ['--maxmemory-policy', 'noeviction', '--appendfsync', FSYNC],
      });
    }
    for (const kind of stores) results.push(await benchStore(kind, redis));
    if (redis) {
      console.log(`\ncross-instance wake-up (${WAKEUPS} long polls on A answered by a completion on B)`);
      wakeups = await benchWakeups(redis);
    }
  } finally {
    await redis?.remove();
  }

  const targets: Record<StoreKind, number> = { sqlite: 0.6, redis: 0.45 };
  const exchangeTarget = 0.3;
  const range = (c: Comparison) => `${Math.min(...c.ratios).toFixed(2)}–${Math.max(...c.ratios).toFixed(2)}`;
  const rps = (runs: Measured[]) => `${Math.round(median(runs.map((m) => m.rps)))} req/s`;
  const worstP99 = (c: Comparison) => Math.max(...c.service.map((m) => m.p99));
  console.log(
    `\nsummary, metrics ${METRICS ? 'on' : 'off'} (median of ${ROUNDS} rounds; ratio = service ÷ the bare run beside it; ` +
      `p99 = the worst round's)`,
  );
  console.log(
    '| store | introspect service | bare node:http + HMAC | ratio (range) | target | p99 ' +
      '| exchange ratio (range) | target | exchange p99 |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of results) {
    const ratio = median(r.introspect.ratios);
    const met = ratio >= targets[r.store] && worstP99(r.introspect) <= 20;
    const exchangeMet = median(r.exchange.ratios) >= exchangeTarget;
    console.log(
      `| ${r.store} | ${rps(r.introspect.service)} | ${rps(r.introspect.bare)} | ` +
        `${ratio.toFixed(2)}x (${range(r.introspect)}) | >= ${targets[r.store]}x${met ? ', met' : ', NOT met'} | ` +
        `${worstP99(r.introspect)} ms | ${median(r.exchange.ratios).toFixed(2)}x (${range(r.exchange)}) | ` +
        `>= ${exchangeTarget}x${exchangeMet ? ', met' : ', NOT met'} | ${worstP99(r.exchange)} ms |`,
    );
    const runs = [r.introspect, r.exchange].flatMap((c) => [...c.bare, ...c.floor, ...c.service]);
    const failures = runs.filter((m) => m.non2xx > 0 || m.errors > 0);
    const names = [...new Set(failures.map((m) => m.label))].join(', ');
    if (failures.length > 0) console.log(`  WARNING (${r.store}): non-2xx answers or errors in ${names}`);
  }
  const spread = (values: number[]) =>
    `${median(values).toFixed(2)}x (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;
  console.log(
    "\nthe store floor: bare node:http + HMAC + the service's store step alone (median of the rounds; range). " +
      'floor ÷ bare is the most any server on this store reaches here; service ÷ floor what the service adds',
  );
  console.log('| store | introspect floor ÷ bare | service ÷ floor | exchange floor ÷ bare | service ÷ floor |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const r of results) {
    const { introspect: i, exchange: e } = r;
    console.log(
      `| ${r.store} | ${spread(i.floorRatios)} | ${spread(i.ofFloor)} | ${spread(e.floorRatios)} | ${spread(e.ofFloor)} |`,
    );
  }
  const us = (runs: Measured[], key: 'cpuUs' | 'storeCpuUs' = 'cpuUs') => {
    const values = runs.map((m) => m[key]).filter((v): v is number => v !== null);
    return values.length ? `${Math.round(median(values))} µs` : '–';
  };
  const cpuRange = (c: Comparison) => `${Math.min(...c.cpuRatios).toFixed(1)}–${Math.max(...c.cpuRatios).toFixed(1)}`;
  console.log(
    `\nCPU time per request (median of ${ROUNDS} rounds; this process's user + system time during the run ÷ ` +
      `requests answered; redis-server's from /proc; ratio = service ÷ the bare run beside it)`,
  );
  console.log(
    '| store | introspect CPU, service | bare node:http + HMAC | ratio (range) | redis-server ' +
      '| exchange CPU, service | exchange ratio (range) | redis-server |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of results) {
    console.log(
      `| ${r.store} | ${us(r.introspect.service)} | ${us(r.introspect.bare)} | ` +
        `${median(r.introspect.cpuRatios).toFixed(1)}x (${cpuRange(r.introspect)}) | ${us(r.introspect.service, 'storeCpuUs')} | ` +
        `${us(r.exchange.service)} | ${median(r.exchange.cpuRatios).toFixed(1)}x (${cpuRange(r.exchange)}) | ` +
        `${us(r.exchange.service, 'storeCpuUs')} |`,
    );
  }
  if (wakeups) {
    const ok = wakeups.p99 <= 100;
    console.log(
      `  wake-up A←B: median ${wakeups.median.toFixed(1)} ms, p99 ${wakeups.p99.toFixed(1)} ms, max ${wakeups.max.toFixed(1)} ms ` +
        `(target <= 100 ms: ${ok ? 'met' : 'NOT met'})`,
    );
  }
}

await main();
