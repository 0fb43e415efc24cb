/**
 * The two engines every journey runs in, both from Debian's packages (CI installs them with
 * apt): no Playwright browser download. Override the binaries with CHROMIUM_PATH / FIREFOX_PATH.
 */
import { devices, type LaunchOptions, type test } from '@playwright/test';

/** Debian's Chromium over CDP. */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
} satisfies LaunchOptions;

/**
 * Debian's Firefox ESR over WebDriver BiDi (the `moz-firefox` channel drives a stock Firefox;
 * Playwright writes its own quiet test profile).
 */
export const FIREFOX_LAUNCH = {
  channel: 'moz-firefox',
  executablePath: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
} satisfies LaunchOptions;

/**
 * Firefox as a phone. Over BiDi Playwright has no `isMobile` (no mobile viewport meta handling)
 * and ignores `hasTouch`, so the profile itself reports a coarse touch pointer with five touch
 * points; the page sees what a phone's Firefox shows it: a narrow screen, `(pointer: coarse)`,
 * `navigator.maxTouchPoints` and a Firefox for Android user agent.
 */
export const FIREFOX_PHONE_LAUNCH = {
  ...FIREFOX_LAUNCH,
  firefoxUserPrefs: {
    'ui.primaryPointerCapabilities': 1, // coarse, no hover
    'ui.allPointerCapabilities': 1,
    'dom.w3c_touch_events.enabled': 1,
    'dom.maxtouchpoints.testing.value': 5,
  },
} satisfies LaunchOptions;

const FIREFOX_ANDROID_UA = 'Mozilla/5.0 (Android 14; Mobile; rv:140.0) Gecko/140.0 Firefox/140.0';
const { userAgent: CHROME_ANDROID_UA, viewport, deviceScaleFactor } = devices['Pixel 7'];

/**
 * A phone in whichever engine runs the spec: Pixel 7's screen (412 × 839 CSS px at 2.625),
 * touch, and the engine's own mobile user agent (Chrome for Android, Firefox for Android).
 * `isMobile` exists in Chromium only; Firefox gets FIREFOX_PHONE_LAUNCH instead.
 *
 * @example test.use(PHONE); // at the top of a spec
 */
export const PHONE: Parameters<typeof test.use>[0] = {
  launchOptions: [
    ({ browserName }, use) => use(browserName === 'firefox' ? FIREFOX_PHONE_LAUNCH : CHROMIUM_LAUNCH),
    { scope: 'worker' },
  ],
  viewport,
  screen: { width: 412, height: 915 },
  deviceScaleFactor,
  hasTouch: true,
  isMobile: ({ browserName }, use) => use(browserName === 'chromium'),
  userAgent: ({ browserName }, use) => use(browserName === 'firefox' ? FIREFOX_ANDROID_UA : CHROME_ANDROID_UA),
};
