/**
 * A second service instance for journeys that need different settings (e.g. a 3 s request
 * life), on a free port, with its own temporary data directory.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../server/test/free-port.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RunningService {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * @example
 * const svc = await startService({ SVC_REQUEST_TTL_MS: '3000' });
 * // … svc.url is http://localhost:<port> …
 * await svc.stop();
 */
export async function startService(env: Record<string, string> = {}): Promise<RunningService> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-e2e-extra-'));
  const url = `http://localhost:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      SVC_LOG_LEVEL: 'warn',
      SVC_PORT: String(port),
      SVC_PUBLIC_URL: url,
      SVC_DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited at start: ${stderr}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`service on ${port} did not become healthy: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    url,
    port,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
