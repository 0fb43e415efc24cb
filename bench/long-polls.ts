/**
 * `npm run bench:long-polls`: what idle long polls cost the service. Starts the real
 * service as its own process, creates BENCH_WAITERS requests (each from its own address, through
 * X-Forwarded-For from a trusted loopback proxy, so the per-address create limit is not the
 * thing measured), opens one 25 s long poll on each, and reads the service process's CPU time
 * (/proc/<pid>/stat) and RSS while they wait — against the same process idle, in the same run.
 * Goal: 5,000 idle waiters < 5% of one core.
 *
 *   BENCH_WAITERS (5000)   BENCH_SECONDS (5) length of each measurement (three while waiting, within 25 s)
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { makeTempDir, PARTNERS, REPO_ROOT } from '../server/test/helpers.ts';
import { freePort } from '../server/test/free-port.ts';

const WAITERS = Number(process.env.BENCH_WAITERS ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** user + system CPU seconds and RSS bytes of `pid`, from /proc. */
function usage(pid: number): { cpuSeconds: number; rssBytes: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpuSeconds, rssBytes: Number(rss?.[1] ?? 0) * 1024 };
}

async function measure(pid: number): Promise<{ corePercent: number; rssBytes: number }> {
  const before = usage(pid);
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const after = usage(pid);
  return { corePercent: ((after.cpuSeconds - before.cpuSeconds) / SECONDS) * 100, rssBytes: after.rssBytes };
}

const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

function call(
  port: number,
  method: string,
  path: string,
  forwardedFor: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          'x-forwarded-for': forwardedFor,
          ...(payload ? { 'content-type': 'application/json', origin: 'http://localhost:8788' } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const addressOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

async function main(): Promise<void> {
  const dir = makeTempDir('svc-bench-');
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      SVC_PORT: String(port),
      SVC_DATA_DIR: dir.path,
      SVC_LOG_LEVEL: 'silent',
      SVC_TRUST_PROXY: 'loopback',
      SVC_LONG_POLL_PER_ADDRESS: String(WAITERS),
      SVC_LONG_POLL_MAX: String(WAITERS),
    },
    stdio: 'inherit',
  });
  try {
    for (let i = 0; ; i++) {
      const up = await call(port, 'GET', '/healthz', '127.0.0.1').catch(() => null);
      if (up?.status === 200) break;
      if (i > 200) throw new Error('the service did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const idle = await measure(child.pid!);

    const created: Array<{ request_id: string; poll_token: string }> = [];
    for (let i = 0; i < WAITERS; i += 100) {
      const batch = Array.from({ length: Math.min(100, WAITERS - i) }, (_, j) =>
        call(port, 'POST', '/api/w/verify-request', addressOf(i + j + 1), {
          partner_id: PARTNERS.demo.id,
          scopes: ['isAdult'],
        }),
      );
      for (const res of await Promise.all(batch)) {
        if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.json)}`);
        created.push(res.json as { request_id: string; poll_token: string });
      }
    }
    const polls = created.map((c, i) =>
      call(port, 'GET', `/api/w/verify-status/${c.request_id}?pt=${c.poll_token}&wait=25`, addressOf(i + 1)),
    );
    // Every poll has arrived once the service's CPU settles (parsing 5,000 requests takes a while
    // on a small machine): measure in short windows and keep the last.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const windows = [];
    for (let i = 0; i < 3; i++) windows.push(await measure(child.pid!));
    const waiting = windows.at(-1)!;
    console.log(`  windows: ${windows.map((w) => `${w.corePercent.toFixed(2)}%`).join(', ')}`);

    const cpu = waiting.corePercent - idle.corePercent;
    console.log(`long polls: ${WAITERS} idle waiters, ${SECONDS} s each measurement, service process ${child.pid}`);
    console.log(
      `  idle service           ${idle.corePercent.toFixed(2)}% of a core, RSS ${(idle.rssBytes / 2 ** 20).toFixed(1)} MiB`,
    );
    console.log(
      `  with ${WAITERS} waiters     ${waiting.corePercent.toFixed(2)}% of a core, RSS ${(waiting.rssBytes / 2 ** 20).toFixed(1)} MiB`,
    );
    console.log(
      `  waiters cost           ${cpu.toFixed(2)}% of a core (goal < 5%), ` +
        `${((waiting.rssBytes - idle.rssBytes) / WAITERS / 1024).toFixed(1)} KiB RSS per waiter`,
    );
    child.kill('SIGTERM');
    await Promise.allSettled(polls);
  } finally {
    child.kill('SIGKILL');
    agent.destroy();
    dir.remove();
  }
}

await main();
