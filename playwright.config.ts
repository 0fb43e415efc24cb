/**
 * End-to-end journeys against what ships: the built widget (dist/), the real service and the
 * example partner on their own origins (http://localhost:8787 and http://localhost:8788, the
 * origins fixtures/partners.json registers), and the example identity provider on :8789 (the issuer
 * fixtures/providers.json registers). `npm run build` first; `npm run test:e2e` runs them,
 * once per engine: Debian's Chromium (CDP) and Debian's Firefox ESR (WebDriver BiDi).
 */
import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_LAUNCH, FIREFOX_LAUNCH } from './e2e/support/browsers.ts';

const CI = Boolean(process.env.CI);
const SERVICE_PORT = 8787;
const PARTNER_PORT = 8788;
const PROVIDER_PORT = 8789;

// One fresh data directory per run; workers re-read this file and inherit the variable.
process.env.SVC_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'svc-e2e-'));

const serverEnv = {
  NODE_ENV: 'test',
  SVC_LOG_LEVEL: 'warn',
  SVC_MODE: 'sandbox',
  SVC_PUBLIC_URL: `http://localhost:${SERVICE_PORT}`,
};

export default defineConfig({
  testDir: './e2e',
  testMatch: '*.spec.ts',
  globalSetup: './e2e/support/global-setup.ts',
  // Two cores shared with the servers under test.
  workers: CI ? 1 : 2,
  fullyParallel: false,
  forbidOnly: CI,
  retries: CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL: `http://localhost:${PARTNER_PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: ['screenshots.spec.ts', 'cluster/**'],
      use: { ...devices['Desktop Chrome'], launchOptions: CHROMIUM_LAUNCH },
    },
    {
      name: 'firefox',
      testIgnore: ['screenshots.spec.ts', 'cluster/**'],
      use: { ...devices['Desktop Firefox'], launchOptions: FIREFOX_LAUNCH },
    },
    // `npm run screenshots` only: it rewrites docs/screenshots/*.png.
    ...(process.env.SVC_SCREENSHOTS === '1'
      ? [
          {
            name: 'screenshots',
            testMatch: 'screenshots.spec.ts',
            use: { ...devices['Desktop Chrome'], launchOptions: CHROMIUM_LAUNCH },
          },
        ]
      : []),
  ],
  webServer: [
    {
      name: 'service',
      command: 'node --import tsx server/main.ts',
      url: `http://127.0.0.1:${SERVICE_PORT}/healthz`,
      env: { ...serverEnv, SVC_PORT: String(SERVICE_PORT), SVC_DATA_DIR: process.env.SVC_E2E_DATA_DIR },
      reuseExistingServer: !CI,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      name: 'partner',
      command: 'node --import tsx server/example-partner/main.ts',
      url: `http://127.0.0.1:${PARTNER_PORT}/healthz`,
      env: { ...serverEnv, PARTNER_PORT: String(PARTNER_PORT) },
      reuseExistingServer: !CI,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // The example identity provider (design.md §12), the fixture provider idp_example's issuer.
      name: 'identity provider',
      command: 'node --import tsx server/sandbox/example-idp/main.ts',
      url: `http://127.0.0.1:${PROVIDER_PORT}/.well-known/openid-configuration`,
      env: { ...serverEnv },
      reuseExistingServer: !CI,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
