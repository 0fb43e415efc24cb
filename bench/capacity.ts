/**
 * `npm run bench:capacity`: what one verification costs Redis and the service (design.md §17,
 * §23; docs/operations.md, "Capacity"). One instance (createApp, in process) on a fresh
 * SQLite file, then on a fresh redis-server, runs BENCH_FLOWS verifications end to end, six at a
 * time: create, open, complete, poll, exchange with an Idempotency-Key, introspect. On Redis it
 * prints per verification the Redis commands (INFO commandstats), the bytes on the wire to and from
 * Redis, the memory still held afterwards, and the CPU time of redis-server and of the service's
 * process. For each store, the capacity line: completed verifications per second per core, i.e.
 * per CPU-second of the service and its store (redis-server's included), end to end. With
 * BENCH_MIN_REPLICAS=1 a replica is attached and every single-use write waits for it.
 *
 *   BENCH_FLOWS (300)   BENCH_MIN_REPLICAS (0)   BENCH_STORE (both, or sqlite or redis)
 */
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { createFakeClock } from '../server/clock.ts';
import { openRedisStore } from '../server/store/redis.ts';
import { openSqliteStore } from '../server/store/sqlite.ts';
import { makeTempDir, makeTestApp, PARTNERS, signedInject, type TestApp } from '../server/test/helpers.ts';
import { startRedisServer } from '../server/test/redis-server.ts';
import { completeOnPhone, handoffOf, openOnPhone, PARTNER_ORIGIN } from '../server/test/verify-flow.ts';

const FLOWS = Number(process.env.BENCH_FLOWS ?? 300);
const MIN_REPLICAS = Number(process.env.BENCH_MIN_REPLICAS ?? 0);
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

async function flow(t: TestApp, n: number): Promise<void> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/w/verify-request',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_ORIGIN },
    payload: JSON.stringify({ partner_id: PARTNERS.demo.id }),
    remoteAddress: `10.${(n >> 8) & 255}.${n & 255}.1`,
  });
  const body = created.json() as { request_id: string; poll_token: string; deep_link: string };
  const f = { requestId: body.request_id, pollToken: body.poll_token, handoff: handoffOf(body.deep_link) };
  if ((await openOnPhone(t, f)).statusCode !== 200) throw new Error('open failed');
  if ((await completeOnPhone(t, f)).statusCode !== 200) throw new Error('complete failed');
  const status = await t.app.inject({ method: 'GET', url: `/api/w/verify-status/${f.requestId}?pt=${f.pollToken}` });
  const grantCode = (status.json() as { result: { grant_code: string } }).result.grant_code;
  const exchanged = await signedInject(t, {
    url: '/v1/exchange',
    body: { grant_code: grantCode },
    headers: { 'Idempotency-Key': `cap-${n}` },
  });
  if (exchanged.statusCode !== 200) throw new Error(`exchange answered ${exchanged.statusCode}`);
  const introspected = await signedInject(t, {
    url: '/v1/introspect',
    body: { pass_token: exchanged.json().pass_token },
  });
  if (introspected.json().active !== true) throw new Error('introspection not active');
}

async function runFlows(t: TestApp, from: number, count: number): Promise<void> {
  let next = from;
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      while (next < from + count) await flow(t, next++);
    }),
  );
}

const STORES = (process.env.BENCH_STORE ?? 'both') === 'both' ? ['redis', 'sqlite'] : [process.env.BENCH_STORE];

/** The capacity line: verifications per CPU-second of the service and its store, and per wall second. */
function capacityLine(store: string, seconds: number, cpuSeconds: number): string {
  return (
    `capacity (${store}): ${(FLOWS / cpuSeconds).toFixed(0)} completed verifications per second per core ` +
    `(${((cpuSeconds / FLOWS) * 1e6).toFixed(0)} µs CPU each, service + store), ${(FLOWS / seconds).toFixed(0)}/s ` +
    `wall clock on this machine`
  );
}

if (STORES.includes('sqlite')) {
  const dir = makeTempDir('svc-capacity-');
  const t = await makeTestApp({ store: openSqliteStore(`${dir.path}/svc.sqlite`), clock: createFakeClock() });
  await runFlows(t, 0, 30); // warm up
  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  await runFlows(t, 1_000, FLOWS);
  const cpu = process.cpuUsage(cpuBefore);
  const seconds = (performance.now() - startedAt) / 1000;
  await t.close();
  dir.remove();
  console.log(`${FLOWS} verifications on SQLite in ${seconds.toFixed(1)} s`);
  console.log(capacityLine('sqlite', seconds, (cpu.user + cpu.system) / 1e6));
  if (!STORES.includes('redis')) process.exit(0);
}

const primary = await startRedisServer({ args: ['--repl-diskless-sync-delay', '0'] });
const replica =
  MIN_REPLICAS > 0 ? await startRedisServer({ args: ['--replicaof', '127.0.0.1', String(primary.port)] }) : null;
const admin = new Redis(primary.url);
try {
  while (replica && !/connected_slaves:1/.test(await admin.info('replication')))
    await new Promise((r) => setTimeout(r, 50));
  const store = await openRedisStore({ url: primary.url, minReplicas: MIN_REPLICAS, notice: () => {} });
  const t = await makeTestApp({ store, clock: createFakeClock() });
  await runFlows(t, 0, 30); // warm up: scripts loaded, keys and partners cached

  const snapshot = async () => {
    const stats = await admin.info('commandstats');
    const calls = Object.fromEntries(
      [...stats.matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm)].map(([, name, n]) => [name!, Number(n)]),
    );
    const info = await admin.info();
    const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1]);
    return {
      calls,
      netIn: field('total_net_input_bytes'),
      netOut: field('total_net_output_bytes'),
      memory: field('used_memory'),
      redisCpu: cpuSecondsOf(primary.pid!),
      nodeCpu: process.cpuUsage(),
      at: performance.now(),
    };
  };
  const before = await snapshot();
  await runFlows(t, 1_000, FLOWS);
  const after = await snapshot();
  await t.close();

  // What stays, by kind of key, and for how long (its TTL): steady-state memory is the sum of size × rate × TTL.
  const kinds = new Map<string, { bytes: number; keys: number; ttlMs: number }>();
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const kind = /^svc:([a-z-]+)/.exec(key)?.[1] ?? key;
      const entry = kinds.get(kind) ?? { bytes: 0, keys: 0, ttlMs: -1 };
      entry.bytes += Number(await admin.memory('USAGE', key));
      entry.keys += 1;
      entry.ttlMs = Math.max(entry.ttlMs, await admin.pttl(key));
      kinds.set(kind, entry);
    }
  } while (cursor !== '0');

  const per = (x: number) => x / FLOWS;
  const commands = Object.entries(after.calls)
    .map(([name, n]) => [name, per(n - (before.calls[name] ?? 0))] as const)
    .filter(([name, n]) => n > 0 && !['info', 'config|get'].includes(name))
    .sort((a, b) => b[1] - a[1]);
  const total = commands.reduce((sum, [, n]) => sum + n, 0);
  const nodeCpuMs = (after.nodeCpu.user + after.nodeCpu.system - before.nodeCpu.user - before.nodeCpu.system) / 1000;
  const seconds = (after.at - before.at) / 1000;
  console.log(
    `${FLOWS} verifications (create, open, complete, poll, exchange, introspect), ` +
      `SVC_REDIS_MIN_REPLICAS=${MIN_REPLICAS}, in ${seconds.toFixed(1)} s`,
  );
  console.log(`Redis commands per verification: ${total.toFixed(1)}`);
  for (const [name, n] of commands) console.log(`  ${name.padEnd(14)} ${n.toFixed(2)}`);
  console.log(`bytes to Redis per verification:     ${per(after.netIn - before.netIn).toFixed(0)}`);
  console.log(`bytes from Redis per verification:   ${per(after.netOut - before.netOut).toFixed(0)}`);
  console.log(
    `memory held per verification:        ${per(after.memory - before.memory).toFixed(0)} B (until the TTLs collect it)`,
  );
  console.log('keys after the run, by kind (verifications before it included): count, bytes each, longest TTL');
  for (const [kind, { bytes, keys, ttlMs }] of [...kinds].sort((x, y) => y[1].bytes - x[1].bytes)) {
    const ttl = ttlMs < 0 ? 'none' : `${(ttlMs / 60_000).toFixed(0)} min`;
    console.log(`  ${kind.padEnd(14)} ${String(keys).padStart(6)}  ${(bytes / keys).toFixed(0).padStart(6)} B  ${ttl}`);
  }
  console.log(`redis-server CPU per verification:   ${(per(after.redisCpu - before.redisCpu) * 1e6).toFixed(0)} µs`);
  console.log(
    `service CPU per verification:        ${(per(nodeCpuMs) * 1000).toFixed(0)} µs (in process, inject included)`,
  );
  console.log(capacityLine('redis', seconds, nodeCpuMs / 1000 + (after.redisCpu - before.redisCpu)));
} finally {
  admin.disconnect();
  await replica?.remove();
  await primary.remove();
}
process.exit(0);
