/**
 * `npm run bench:idle` (not a test): what the waiting view costs a visitor's device while nobody
 * touches it (docs/operations.md#idle-benchmark: ≤ 0.3 s of main-thread work per 10 s on a phone).
 *
 * In Chromium with a phone's profile (Pixel 7's screen and user agent, touch, and the CPU slowed
 * 4× as Lighthouse's mobile preset does), it opens the example partner's STANDARD page, waits for
 * the waiting view (the "open the app" button under the phone icon), lets the first paints pass,
 * then reads the page's main-thread time (CDP `Performance.getMetrics`, TaskDuration) before and
 * after 10 s of doing nothing. The desktop waiting view (QR code and its countdown), under the
 * same 4× slowdown, is measured beside it for comparison. Prints each run and the medians.
 *
 * It uses the service and example partner already running on 8787/8788 (npm start), or starts
 * both (built bundle, temporary data directory) and stops them at the end.
 * Options: --runs N (default 5), --seconds S (default 10).
 */
import { chromium, devices, type Browser, type BrowserContextOptions } from '@playwright/test';
import { CHROMIUM_LAUNCH } from '../e2e/support/browsers.ts';
import { waitForWidgetState } from '../e2e/support/qa.ts';
import { PARTNER_URL } from '../e2e/support/urls.ts';
import { ensureServers, percentile } from './servers.ts';

/** seconds of main-thread work per 10 s of the mobile waiting view */
const TARGET_SECONDS_PER_10S = 0.3;
/** Lighthouse's mobile preset slows the CPU 4× */
const CPU_SLOWDOWN = 4;
/** after the waiting view appears: its first render, fonts and paints are not idle time */
const SETTLE_MS = 1_500;

const { userAgent, viewport, deviceScaleFactor } = devices['Pixel 7'];
const PROFILES: Record<'mobile' | 'desktop', { label: string; context: BrowserContextOptions }> = {
  mobile: {
    label: 'mobile waiting view (phone icon, "open the app")',
    context: { userAgent, viewport, deviceScaleFactor, isMobile: true, hasTouch: true },
  },
  desktop: {
    label: 'desktop waiting view (QR code, countdown)',
    context: { viewport: { width: 1280, height: 800 } },
  },
};

function readArgs(argv: readonly string[]): { runs: number; seconds: number } {
  const number = (name: string, fallback: number): number => {
    const at = argv.indexOf(name);
    const value = at >= 0 ? Number(argv[at + 1]) : fallback;
    if (!(value > 0)) throw new Error(`${name} takes a positive number`);
    return value;
  };
  return { runs: Math.round(number('--runs', 5)), seconds: number('--seconds', 10) };
}

/** Seconds of main-thread task time in `seconds` of the waiting view, on a fresh page. */
async function measureIdle(
  browser: Browser,
  profile: keyof typeof PROFILES,
  seconds: number,
): Promise<{ taskSeconds: number; layouts: number; styles: number }> {
  const context = await browser.newContext(PROFILES[profile].context);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await cdp.send('Performance.enable');
    await page.goto(`${PARTNER_URL}/standard`);
    await waitForWidgetState(page, 'waiting', { timeout: 30_000 });
    await page.waitForTimeout(SETTLE_MS);
    const read = async (): Promise<Record<string, number>> => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
    };
    const before = await read();
    await page.waitForTimeout(seconds * 1000);
    const after = await read();
    const delta = (name: string): number => (after[name] ?? 0) - (before[name] ?? 0);
    return { taskSeconds: delta('TaskDuration'), layouts: delta('LayoutCount'), styles: delta('RecalcStyleCount') };
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const { runs, seconds } = readArgs(process.argv.slice(2));
  const servers = await ensureServers();
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch(CHROMIUM_LAUNCH);
    const results: Record<keyof typeof PROFILES, number[]> = { mobile: [], desktop: [] };
    for (let i = 0; i < runs; i++) {
      for (const profile of ['mobile', 'desktop'] as const) {
        const { taskSeconds, layouts, styles } = await measureIdle(browser, profile, seconds);
        results[profile].push(taskSeconds);
        console.log(
          `run ${i + 1} ${profile.padEnd(7)} ${taskSeconds.toFixed(3)} s of main-thread tasks in ${seconds} s ` +
            `(${layouts} layouts, ${styles} style recalcs)`,
        );
      }
    }
    console.log(
      `\nIdle benchmark: ${runs} runs, ${seconds} s of the waiting view each, CPU slowed ${CPU_SLOWDOWN}×, Chromium on localhost\n`,
    );
    for (const profile of ['mobile', 'desktop'] as const) {
      const per10s = percentile(results[profile], 0.5) * (10 / seconds);
      const mark = per10s <= TARGET_SECONDS_PER_10S ? '✓' : '✗';
      console.log(
        `${PROFILES[profile].label.padEnd(50)} median ${per10s.toFixed(3)} s per 10 s` +
          (profile === 'mobile' ? `   target ≤ ${TARGET_SECONDS_PER_10S} s ${mark}` : ''),
      );
    }
  } finally {
    await browser?.close();
    await servers.stop();
  }
}

await main();
