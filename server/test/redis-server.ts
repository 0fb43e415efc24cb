/**
 * A throwaway `redis-server` for tests: the OS package's binary (Debian: redis-server) on a free
 * port of 127.0.0.1, in its own folder, no persistence unless asked. No Docker, no shared state.
 * Fails with one clear line when the binary is missing: the Redis tests never skip.
 *
 * @example
 * const redis = await startRedisServer();
 * afterAll(() => redis.remove());
 * const store = await openRedisStore({ url: redis.url, prefix: 'test-1:' });
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

export interface RedisServerOptions {
  /** AOF with `appendfsync always`: every acknowledged write is on disk. Default: no persistence. */
  appendOnly?: boolean;
  /** further `--name value` arguments, e.g. ['--maxmemory-policy', 'allkeys-lru'] */
  args?: string[];
  /**
   * A sentinel (`redis-server <file> --sentinel`) with these lines in its config file, e.g.
   * ['sentinel monitor m 127.0.0.1 6379 2'] (see redis-ha.ts)
   */
  sentinel?: string[];
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** its data folder (the AOF lives here) */
  readonly dir: string;
  /** the running process's id (undefined while stopped): bench/api.ts reads its CPU time */
  readonly pid: number | undefined;
  /**
   * starts it again on the same port and folder after stop() or kill(); `args` for this start
   * only, after the others (a later `--name value` wins, e.g. ['--appendonly', 'no'])
   */
  start(args?: string[]): Promise<void>;
  /** SIGTERM, and waits for it to exit */
  stop(): Promise<void>;
  /** SIGKILL (kill -9), and waits for it to exit */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: the port stays open, nothing answers */
  pause(): void;
  resume(): void;
  /** stops it and deletes its folder */
  remove(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function findBinary(): string {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  if (found.status !== 0 || path === '') {
    throw new Error(
      'redis-server not found on PATH: the Redis store tests need it (Debian/Ubuntu: apt-get install redis-server)',
    );
  }
  return path;
}

/** Resolves once the server answers PING with PONG (not LOADING). */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    socket.setTimeout(500, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) socket.end();
    });
    socket.on('close', () => resolve(reply.startsWith('+PONG')));
    socket.on('error', () => {});
  });
}

/**
 * Starts a redis-server on a free port and waits until it answers.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const binary = findBinary();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'svc-redis-'));
  const sentinelFile = join(dir, 'sentinel.conf');
  if (options.sentinel) writeFileSync(sentinelFile, `${options.sentinel.join('\n')}\n`);
  const args = [
    ...(options.sentinel ? [sentinelFile, '--sentinel'] : []),
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--daemonize',
    'no',
    '--logfile',
    '',
    '--loglevel',
    'warning',
    ...(options.appendOnly ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
    ...(options.args ?? []),
  ];
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();

  async function start(once: string[] = []): Promise<void> {
    if (child) throw new Error('redis-server is already running');
    let output = '';
    const started = spawn(binary, [...args, ...once], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    running.add(started);
    started.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let gone = false;
    exited = new Promise((resolve) =>
      started.once('exit', () => {
        gone = true;
        running.delete(started);
        if (child === started) child = null;
        resolve();
      }),
    );
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(port))) {
      if (gone) throw new Error(`redis-server exited at start: ${output.trim()}`);
      if (Date.now() > deadline)
        throw new Error(`redis-server did not answer on port ${port} within 10 s: ${output.trim()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function signal(name: NodeJS.Signals): Promise<void> {
    if (!child) return;
    child.kill(name);
    await exited;
  }

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    get pid() {
      return child?.pid;
    },
    start,
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    async remove() {
      child?.kill('SIGCONT');
      await signal('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
