/**
 * Rolling restarts under load (design.md §23; docs/operations.md "Rolling restarts"), for
 * rolling-restart.test.ts and `npm run bench:rolling`: the topology of `npm run start:cluster`
 * (one redis-server, two service processes, nginx in front with start-cluster's own
 * configuration, `nginxConfig`), all on free ports, while every instance in turn gets SIGTERM, is
 * waited for, started again and waited for until ready before the next one goes.
 *
 * The load runs through nginx the whole time, with the clients' own code and retry rules:
 * - visitors: a create as the loader sends it, read by the widget's `readCreateAnswer` (no retry
 *   of its own: a failed create is an error on screen); the widget's `pollUntilSettled` (its real
 *   long poll, backoff and gaps, src/widget/net/poll.ts); the phone's API client
 *   (src/phone/phone-client.ts, no retry either) opening the request and approving it with a sandbox
 *   persona after a short while, so that long polls are waiting when an instance stops;
 * - the partner's backend: the partner SDK (server/sdk, its retry rules) exchanging every grant
 *   the widget delivered and introspecting the pass token, plus a steady stream of introspections.
 *
 * What counts: partner calls that failed after the SDK's retries, visitor calls that failed after
 * the widget's (creates, phone calls, polls that never settled), completions lost (approved on
 * the phone, never seen completed by the widget, or the grant not exchangeable, or its pass token
 * not active). All must be 0. Every 5xx or network error a client met and retried is counted too.
 *
 * @example const figures = await runRollingRestarts({ rounds: 1 }); // figures.completionsLost === 0
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { REQUEST_TTL_MS, type VerifyRequestCreated } from '../src/protocol/wire.ts';
import { createPhoneApi } from '../src/phone/phone-client.ts';
import { createSandboxApi } from '../src/phone/sandbox/sandbox-client.ts';
import { readCreateAnswer } from '../src/widget/net/create.ts';
import { pollUntilSettled } from '../src/widget/net/poll.ts';
import { signal } from '../src/widget/model/signals.ts';
import { createPartnerClient } from '../server/sdk/client.ts';
import { makeTempDir, PARTNERS, REPO_ROOT, TEST_MASTER_KEY } from '../server/test/helpers.ts';
import { startRedisServer } from '../server/test/redis-server.ts';
import { handoffOf, PARTNER_ORIGIN } from '../server/test/verify-flow.ts';
import { nginxConfig } from './start-cluster.ts';
import { freePort } from '../server/test/free-port.ts';

export interface RollingOptions {
  /** restart rounds; each restarts every instance once, in turn (default 1) */
  rounds?: number;
  /** verifications started per second (default 2: each is 3 browser writes, nginx lets 10 a second through) */
  flowsPerSecond?: number;
  /** extra partner introspections per second (default 10) */
  introspectionsPerSecond?: number;
  /** load before the first restart, and between an instance being ready and the next one stopping (default 3000) */
  settleMs?: number;
  /** SVC_DRAIN_MS of the instances (default: theirs, 10000) */
  drainMs?: number;
  /** progress lines for a bench's log; default: dropped */
  log?: (line: string) => void;
}

export interface RollingFigures {
  restarts: number;
  seconds: number;
  /** calls made through nginx, by whom (retries included) */
  calls: { widget: number; phone: number; partner: number };
  verifications: number;
  /** approved on the phone (answered 200) */
  completions: number;
  /** partner SDK calls that failed after its retries: must be 0 */
  partnerCallsFailed: number;
  /** creates, phone calls and polls that failed after the widget's and the phone's own rules: must be 0 */
  widgetCallsFailed: number;
  /** approved on the phone, but never seen completed, not exchangeable, or the pass token inactive: must be 0 */
  completionsLost: number;
  /** 5xx answers and network errors the clients met (and retried where their rules say so) */
  retried: number;
  /** what failed, one line each (for the report) */
  failures: string[];
  /** each SIGTERM's time until the process exited, ms */
  drainsMs: number[];
  /** each restart's time from SIGTERM until the new process was ready, ms */
  restartsMs: number[];
  /** exit codes of the stopped processes: all 0 */
  exitCodes: Array<number | null>;
  /** calls in flight through nginx (waiting long polls included) at each SIGTERM */
  inFlightAtStop: number[];
  /** calls answered between each SIGTERM and the instance being ready again */
  answeredDuringRestart: number[];
}

/**
 * GET `url` on a connection of its own, closed after the answer: a probe must not hold a kept-alive
 * connection to an instance, which would keep it draining until SVC_DRAIN_MS.
 */
function answersOk(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    get(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    }).on('error', () => resolve(false));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function findNginx(): string {
  const found = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).stdout.trim();
  const path = found || ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
  if (!path)
    throw new Error('nginx not found: the rolling restart needs it (Debian/Ubuntu: apt-get install nginx-light)');
  return path;
}

interface Instance {
  port: number;
  child: ChildProcess;
  exited: Promise<number | null>;
  stderr(): string;
}

async function waitFor(what: string, check: () => Promise<boolean>, ms: number, alive: () => boolean = () => true) {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (!alive()) throw new Error(`${what}: the process exited`);
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}

/**
 * Runs the load, restarts each instance `rounds` times in turn, lets every flow finish, and
 * removes Redis, nginx and the instances.
 */
export async function runRollingRestarts(options: RollingOptions = {}): Promise<RollingFigures> {
  const { rounds = 1, flowsPerSecond = 2, introspectionsPerSecond = 10, settleMs = 3_000, log = () => {} } = options;
  const dir = makeTempDir('svc-rolling-');
  const redis = await startRedisServer({ appendOnly: true });
  const [servicePort, ...instancePorts] = await Promise.all([freePort(), freePort(), freePort()]);
  const base = `http://127.0.0.1:${servicePort}`;
  const children = new Set<ChildProcess>();
  let nginx: ChildProcess | undefined;
  // A run cut short (a test's timeout ends its worker) leaves no nginx or instance behind. nginx gets
  // SIGTERM, not SIGKILL: its master stops its workers first, where a killed master would orphan them.
  const killAll = () => {
    for (const child of children) child.kill(child === nginx ? 'SIGTERM' : 'SIGKILL');
  };
  process.once('exit', killAll);

  function startInstance(port: number): Instance {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        SVC_LOG_LEVEL: 'warn',
        SVC_PORT: String(port),
        SVC_HOST: '127.0.0.1',
        SVC_PUBLIC_URL: base,
        SVC_REDIS_URL: redis.url,
        SVC_MASTER_KEY: TEST_MASTER_KEY,
        SVC_TRUST_PROXY: '127.0.0.1',
        SVC_DATA_DIR: join(dir.path, `instance-${port}`),
        ...(options.drainMs ? { SVC_DRAIN_MS: String(options.drainMs) } : {}),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.add(child);
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => {
        children.delete(child);
        resolve(code);
      }),
    );
    return { port, child, exited, stderr: () => stderr };
  }
  const ready = (instance: Instance) =>
    waitFor(
      `instance :${instance.port} ready`,
      () => answersOk(`http://127.0.0.1:${instance.port}/readyz`),
      // a boot takes some 4 s of CPU (tsx): far longer on a busy machine
      120_000,
      () => instance.child.exitCode === null,
    );

  const instances = instancePorts.map(startInstance);
  let nginxLog = '';
  try {
    await Promise.all(instances.map(ready));
    writeFileSync(join(dir.path, 'nginx.conf'), nginxConfig({ servicePort: servicePort!, instancePorts }, dir.path));
    const proxy = spawn(findNginx(), ['-p', dir.path, '-c', join(dir.path, 'nginx.conf'), '-e', 'stderr'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    nginx = proxy;
    children.add(proxy);
    proxy.stderr!.on('data', (chunk) => (nginxLog += String(chunk)));
    await waitFor(
      'nginx',
      () => answersOk(`${base}/healthz`),
      10_000,
      () => proxy.exitCode === null,
    );

    // Every call's path and outcome, whoever made it (the widget's code calls the global fetch).
    const calls = { widget: 0, phone: 0, partner: 0 };
    let retried = 0;
    let inFlight = 0;
    let answered = 0;
    const failures: string[] = [];
    const who = (url: string) =>
      /\/api\/w\//.test(url) ? 'widget' : /\/api\/m\//.test(url) ? 'phone' : /\/v1\//.test(url) ? 'partner' : null;
    const originalFetch = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      const caller = who(url);
      if (caller) calls[caller] += 1;
      inFlight += 1;
      try {
        const response = await originalFetch(input, init);
        answered += 1;
        if (caller && response.status >= 500) {
          retried += 1;
          log(`${caller}: ${init?.method ?? 'GET'} ${new URL(url).pathname} answered ${response.status}`);
        }
        return response;
      } catch (error) {
        if (caller && !(init?.signal?.aborted ?? false)) {
          retried += 1;
          log(`${caller}: ${new URL(url).pathname} network error ${(error as Error).message}`);
        }
        throw error;
      } finally {
        inFlight -= 1;
      }
    };

    const partner = createPartnerClient({ apiUrl: base, partnerId: PARTNERS.demo.id, secret: PARTNERS.demo.secret });
    let partnerCallsFailed = 0;
    let widgetCallsFailed = 0;
    let completionsLost = 0;
    let completions = 0;
    let verifications = 0;
    const passTokens: string[] = [];
    const fail = (line: string) => {
      failures.push(line);
      log(line);
    };

    /** One visitor: the widget creates and polls, the phone opens and approves, the partner exchanges and introspects. */
    async function verification(n: number): Promise<void> {
      verifications += 1;
      // One address per visitor (as separate browsers), through the X-Forwarded-For nginx appends to.
      const address = `10.9.${(n >> 8) & 255}.${n & 255}`;
      const asVisitor: typeof fetch = (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), 'x-forwarded-for': address },
        });
      const controller = new AbortController();
      let created: VerifyRequestCreated;
      try {
        // As src/loader/create.ts sends it: a string body (text/plain), no cookies, from the partner's page.
        const sent = asVisitor(`${base}/api/w/verify-request`, {
          method: 'POST',
          body: JSON.stringify({ partner_id: PARTNERS.demo.id, locale: 'en' }),
          headers: { origin: PARTNER_ORIGIN },
          signal: controller.signal,
        }).then((response) =>
          response.json().then(
            (json: unknown): [number, unknown] => [response.status, json],
            (): [number] => [response.status],
          ),
        );
        created = await readCreateAnswer(sent, controller);
      } catch (error) {
        widgetCallsFailed += 1;
        return fail(`visitor ${n}: create failed (${(error as Error).message})`);
      }
      const giveUp = new AbortController();
      const polled = pollUntilSettled(created, giveUp.signal, {
        apiOrigin: base,
        secondsLeft: () => Math.floor((created.expires_at - Date.now()) / 1000),
        hidden: signal(false),
        onStatus: () => {},
      });
      await sleep(300 + Math.random() * 2_000); // the visitor takes out the phone
      const phone = createSandboxApi(createPhoneApi(asVisitor, base));
      const h = handoffOf(created.deep_link);
      const opened = await createPhoneApi(asVisitor, base).open(created.request_id, h);
      const approved = opened.ok
        ? await phone.complete(created.request_id, {
            h,
            persona: 'fr-adult-m',
            method: 'face_check',
            outcome: 'approved',
          })
        : opened;
      if (!approved.ok) {
        widgetCallsFailed += 1;
        giveUp.abort();
        return fail(`visitor ${n}: phone call answered ${approved.status} ${approved.code}`);
      }
      completions += 1;
      // The widget has until its request would expire; a completion it has not seen in 60 s is lost.
      const timer = setTimeout(() => giveUp.abort(), Math.min(60_000, REQUEST_TTL_MS));
      const settled = await polled;
      clearTimeout(timer);
      const grantCode = settled?.status === 'completed' && 'grant_code' in settled.result && settled.result.grant_code;
      if (!grantCode) {
        completionsLost += 1;
        widgetCallsFailed += 1;
        return fail(`visitor ${n}: approved, but the widget saw ${settled?.status ?? 'nothing'}`);
      }
      try {
        const exchanged = await partner.exchange(grantCode);
        const introspected = await partner.introspect(exchanged.pass_token);
        if (introspected.active !== true) {
          completionsLost += 1;
          return fail(`visitor ${n}: the pass token introspects inactive`);
        }
        passTokens.push(exchanged.pass_token);
      } catch (error) {
        partnerCallsFailed += 1;
        completionsLost += 1;
        return fail(`visitor ${n}: grant not exchangeable (${(error as Error).message})`);
      }
    }

    async function introspection(): Promise<void> {
      const token = passTokens[Math.floor(Math.random() * passTokens.length)];
      if (!token) return;
      try {
        const answer = await partner.introspect(token);
        if (answer.active !== true) {
          partnerCallsFailed += 1;
          fail('an exchanged pass token introspects inactive');
        }
      } catch (error) {
        partnerCallsFailed += 1;
        fail(`introspection failed (${(error as Error).message})`);
      }
    }

    const running = new Set<Promise<void>>();
    const track = (work: Promise<void>) => {
      running.add(work);
      void work.finally(() => running.delete(work));
    };
    let n = 0;
    const flowTicker = setInterval(() => track(verification(n++)), 1000 / flowsPerSecond);
    const introspectTicker =
      introspectionsPerSecond > 0 ? setInterval(() => track(introspection()), 1000 / introspectionsPerSecond) : null;

    const startedAt = performance.now();
    const drainsMs: number[] = [];
    const restartsMs: number[] = [];
    const exitCodes: Array<number | null> = [];
    const inFlightAtStop: number[] = [];
    const answeredDuringRestart: number[] = [];
    try {
      await sleep(settleMs);
      for (let round = 1; round <= rounds; round++) {
        for (const [i, instance] of instances.entries()) {
          const stoppedAt = performance.now();
          inFlightAtStop.push(inFlight);
          const answeredBefore = answered;
          instance.child.kill('SIGTERM');
          const code = await instance.exited;
          const drained = performance.now() - stoppedAt;
          drainsMs.push(drained);
          exitCodes.push(code);
          if (code !== 0) fail(`instance :${instance.port} exited ${code}: ${instance.stderr().slice(-2000)}`);
          const next = startInstance(instance.port);
          instances[i] = next;
          await ready(next);
          restartsMs.push(performance.now() - stoppedAt);
          answeredDuringRestart.push(answered - answeredBefore);
          const back = Math.round(restartsMs.at(-1)!);
          log(`round ${round}: :${instance.port} drained in ${Math.round(drained)} ms, ready again after ${back} ms`);
          await sleep(settleMs);
        }
      }
    } finally {
      clearInterval(flowTicker);
      if (introspectTicker) clearInterval(introspectTicker);
    }
    while (running.size > 0) await Promise.all([...running]);
    globalThis.fetch = originalFetch;
    const upstreamErrors = nginxLog
      .split('\n')
      .filter((line) => /prematurely|reset by peer|upstream timed out/.test(line));
    for (const line of upstreamErrors) log(`nginx: ${line}`);
    return {
      restarts: drainsMs.length,
      seconds: (performance.now() - startedAt) / 1000,
      calls,
      verifications,
      completions,
      partnerCallsFailed,
      widgetCallsFailed,
      completionsLost,
      retried,
      failures,
      drainsMs,
      restartsMs,
      exitCodes,
      inFlightAtStop,
      answeredDuringRestart,
    };
  } finally {
    killAll();
    process.off('exit', killAll);
    if (nginx && nginx.exitCode === null && nginx.signalCode === null)
      await new Promise((resolve) => nginx!.once('exit', resolve));
    await redis.remove();
    dir.remove();
  }
}
