/**
 * Journeys through the several-instance topology (design.md §10): `npm run start:cluster` on a fresh
 * folder (redis-server, two instances, nginx on :8787, the example partner on :8788), the same
 * URLs as the main journeys, so they cannot run side by side: run them after the others, under
 * the same lock. One engine, Chromium: what these journeys test is the servers (wake-ups, keys
 * and budgets across instances), which the engine does not change, and the browser side is
 * covered in both engines by the main journeys; a second engine would double the cluster's CI
 * time for nothing.
 *
 *   npm run build && CI=1 flock /tmp/e2e.lock npx playwright test -c playwright.cluster.config.ts
 */
import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_LAUNCH } from './e2e/support/browsers.ts';
import { CLUSTER_INSTANCE_PORTS } from './e2e/cluster/instances.ts';

const CI = Boolean(process.env.CI);

process.env.SVC_E2E_CLUSTER_DIR ??= mkdtempSync(join(tmpdir(), 'svc-e2e-cluster-'));

export default defineConfig({
  testDir: './e2e/cluster',
  testMatch: '*.spec.ts',
  globalSetup: './e2e/support/global-setup.ts',
  workers: 1,
  fullyParallel: false,
  forbidOnly: CI,
  retries: CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: CI ? [['list'], ['html', { open: 'never', outputFolder: 'playwright-report/cluster' }]] : 'list',
  outputDir: 'test-results/cluster',
  use: {
    baseURL: 'http://localhost:8788',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [{ name: 'cluster-chromium', use: { ...devices['Desktop Chrome'], launchOptions: CHROMIUM_LAUNCH } }],
  webServer: {
    name: 'cluster',
    command: 'node --import tsx scripts/start-cluster.ts',
    // Printed once Redis, both instances, nginx and the partner answer.
    wait: { stdout: /Ready \(sandbox mode, 2 instances on Redis\)/ },
    env: {
      NODE_ENV: 'test',
      SVC_LOG_LEVEL: 'warn',
      SVC_CLUSTER_DIR: process.env.SVC_E2E_CLUSTER_DIR,
      SVC_CLUSTER_REDIS_PORT: '6391',
      SVC_CLUSTER_INSTANCE_PORTS: CLUSTER_INSTANCE_PORTS.join(','),
    },
    reuseExistingServer: false,
    timeout: 90_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
