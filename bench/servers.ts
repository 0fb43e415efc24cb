/**
 * What the widget benchmarks share: the service and the example partner on 8787/8788 (the ones
 * already running, or both started for the run), and the percentile they report.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_URL } from '../e2e/support/urls.ts';
import { superviseChildren, type Supervisor } from '../scripts/start.ts';

/** @example percentile([3, 1, 2], 0.5) // 2 */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const rank = p * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

async function isUp(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/**
 * The service and the example partner already running on 8787 and 8788 (npm start), or both
 * started on the built bundle with a temporary data directory; `stop()` stops only what it started.
 */
export async function ensureServers(): Promise<{ stop(): Promise<void> }> {
  const serviceUp = await isUp('http://127.0.0.1:8787/healthz');
  const partnerUp = await isUp('http://127.0.0.1:8788/healthz');
  if (serviceUp && partnerUp) {
    console.log('bench: using the service and example partner already running on 8787 and 8788');
    return { stop: async () => {} };
  }
  if (serviceUp !== partnerUp) throw new Error('only one of 8787 / 8788 answers; stop it or start both with npm start');
  if (!existsSync(new URL('../dist/v4/loader.min.js', import.meta.url)))
    throw new Error('dist/v4/loader.min.js is missing: run npm run build first');
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const env = { NODE_ENV: 'test', SVC_LOG_LEVEL: 'warn', SVC_PUBLIC_URL: SERVICE_URL, SVC_DATA_DIR: dataDir };
  const node = (entry: string) => ({ command: process.execPath, args: ['--import', 'tsx', entry] });
  const supervisor: Supervisor = superviseChildren([
    {
      name: 'service',
      ...node('server/main.ts'),
      env: { ...env, SVC_PORT: '8787' },
      healthUrl: 'http://127.0.0.1:8787/healthz',
    },
    {
      name: 'partner',
      ...node('server/example-partner/main.ts'),
      env: { ...env, PARTNER_PORT: '8788' },
      healthUrl: 'http://127.0.0.1:8788/healthz',
    },
  ]);
  await supervisor.ready;
  return {
    async stop() {
      supervisor.stop('SIGTERM');
      await supervisor.done;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
