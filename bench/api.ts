/**
 * `npm run bench`: throughput and p99 latency of the signed partner API, against a bare
 * node:http server that answers the very same signed requests (it checks the HMAC with
 * node:crypto and answers a fixed JSON), so the ratio shows what the service costs on top of
 * HTTP + HMAC: Fastify, authentication in DESIGN §6 order, the nonce and token writes in SQLite.
 *
 * Every request is pre-signed with its own nonce (none is a replay); exchanges each consume a
 * grant put in the store beforehand. The load generator (autocannon) runs in a worker thread
 * (load-worker.ts), off the servers' event loop. Targets (issue 2): introspect ≥ 0.3× the bare
 * server, p99 ≤ 20 ms at 10 connections.
 *
 *   BENCH_SECONDS (10)  length of each run
 *   BENCH_CONNECTIONS (10)
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { createApp } from '../server/app.ts';
import { buildDeps } from '../server/boot.ts';
import { loadConfig } from '../server/config.ts';
import type { AppDeps } from '../server/deps.ts';
import { digestToken, newToken } from '../server/domain/tokens.ts';
import { signRequest } from '../server/sdk/signing.ts';
import { makeTempDir, PARTNERS, REPO_ROOT } from '../server/test/helpers.ts';
import type { LoadJob, LoadResult } from './load-worker.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** More pre-signed requests than a run can send at the fastest rate seen on a small machine. */
const REQUESTS_PER_SECOND_CEILING = 40_000;
const partner = PARTNERS.demo;

/** A bare server: the same HMAC check (node:crypto), a fixed answer, nothing else. */
function startBareServer(): Promise<Server> {
  const key = Buffer.from(partner.secret, 'base64');
  const fixed = JSON.stringify({ active: false });
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const h = req.headers;
      const canonical = `${createHash('sha256').update(body).digest('base64url')}.${h['x-partner-timestamp']}.${h['x-partner-id']}.${h['x-partner-nonce']}`;
      const expected = createHmac('sha256', key).update(canonical).digest();
      const given = Buffer.from(String(h['x-partner-signature']), 'base64url');
      const ok = given.length === expected.length && timingSafeEqual(given, expected);
      if (ok) JSON.parse(body.toString('utf8'));
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(ok ? fixed : '{"error":"INVALID_SIGNATURE"}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function putGrants(deps: AppDeps, count: number): Promise<string[]> {
  const now = deps.clock.now();
  const codes: string[] = [];
  for (let i = 0; i < count; i++) {
    const code = newToken('grant');
    await deps.store.putGrant({
      digest: digestToken(code),
      partnerId: partner.id,
      requestId: `vr_bench${i}`,
      scopes: ['isAdult'],
      attributes: { age_over_18: true },
      method: 'face_check',
      verifiedAt: now,
      generationTimeMs: 1000,
      expiresAt: now + 5 * 60_000,
    });
    codes.push(code);
  }
  return codes;
}

interface Measured extends LoadResult {
  label: string;
}

/** Runs one load in a worker thread, so that the load generator does not share the server's event loop. */
async function run(label: string, url: string, path: string, bodies: string[]): Promise<Measured> {
  process.stdout.write(`  ${label.padEnd(24)} `);
  const job: LoadJob = { url, path, bodies, connections: CONNECTIONS, seconds: SECONDS, partnerId: partner.id, secret: partner.secret };
  // The worker is TypeScript too: it registers tsx's loader before importing it (Node 20 does not
  // hand the parent's loader hooks to workers).
  const entry = new URL('./load-worker.ts', import.meta.url).href;
  const worker = new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`, { eval: true, workerData: job });
  const result = await new Promise<LoadResult>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  const measured = { label, ...result };
  console.log(
    `${Math.round(measured.rps).toString().padStart(6)} req/s   p50 ${measured.p50} ms   p99 ${measured.p99} ms   (${measured.total} requests, ${measured.non2xx} non-2xx, ${measured.errors} errors)`,
  );
  return measured;
}

async function main(): Promise<void> {
  const dir = makeTempDir('svc-bench-');
  const config = loadConfig({ NODE_ENV: 'production', SVC_MODE: 'sandbox', SVC_DATA_DIR: dir.path, SVC_LOG_LEVEL: 'silent' }, REPO_ROOT);
  const deps = await buildDeps(config);
  const app = await createApp(deps, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const serviceUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const bare = await startBareServer();
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

  console.log(`bench: ${CONNECTIONS} connections, ${SECONDS} s per run, node ${process.version}, SQLite in ${dir.path}`);
  const poolSize = REQUESTS_PER_SECOND_CEILING * SECONDS;
  try {
    // A pass token to introspect, so the service answers the full active shape.
    const [grant] = await putGrants(deps, 1);
    const grantBody = JSON.stringify({ grant_code: grant });
    const exchanged = await app.inject({ method: 'POST', url: '/v1/exchange', headers: { ...signRequest({ partnerId: partner.id, secret: partner.secret, body: grantBody }) }, payload: grantBody });
    const introspectBodies = new Array<string>(poolSize).fill(JSON.stringify({ pass_token: (exchanged.json() as { pass_token: string }).pass_token }));

    console.log('introspect (signed, active token)');
    const bareIntrospect = await run('bare node:http + HMAC', bareUrl, '/v1/introspect', introspectBodies);
    const serviceIntrospect = await run('service', serviceUrl, '/v1/introspect', introspectBodies);

    // Enough grants for the exchange run (exchange writes more than introspection does).
    const grantCount = Math.ceil(serviceIntrospect.rps * SECONDS * 1.5) + 1000;
    const started = Date.now();
    const grants = await putGrants(deps, grantCount);
    console.log(`exchange (signed; ${grantCount} grants put in the store in ${Date.now() - started} ms)`);
    const bareExchange = await run('bare node:http + HMAC', bareUrl, '/v1/exchange', Array.from({ length: poolSize }, () => JSON.stringify({ grant_code: newToken('grant') })));
    const serviceExchange = await run('service', serviceUrl, '/v1/exchange', grants.map((code) => JSON.stringify({ grant_code: code })));
    const consumed = serviceExchange.total - serviceExchange.non2xx;
    console.log(`  grants consumed: ${consumed} of ${grantCount}${serviceExchange.used >= grantCount ? ' (all: the run stopped when they ran out)' : ''}`);

    const ratio = serviceIntrospect.rps / bareIntrospect.rps;
    console.log('\nsummary');
    console.log(`  introspect: service/bare = ${ratio.toFixed(2)}x (target >= 0.30x): ${ratio >= 0.3 ? 'met' : 'NOT met'}`);
    console.log(`  introspect p99 = ${serviceIntrospect.p99} ms (target <= 20 ms): ${serviceIntrospect.p99 <= 20 ? 'met' : 'NOT met'}`);
    console.log(`  exchange:   service/bare = ${(serviceExchange.rps / bareExchange.rps).toFixed(2)}x, p99 = ${serviceExchange.p99} ms`);
    const runs = { 'introspect/bare': bareIntrospect, 'introspect/service': serviceIntrospect, 'exchange/bare': bareExchange, 'exchange/service': serviceExchange };
    const failures = Object.entries(runs).filter(([, m]) => m.non2xx > 0 || m.errors > 0);
    if (failures.length > 0) console.log(`  WARNING: non-2xx answers or errors in ${failures.map(([name]) => name).join(', ')}`);
  } finally {
    await app.close();
    await new Promise((resolve) => bare.close(resolve));
    await deps.store.close();
    dir.remove();
  }
}

await main();
