import { test } from '@playwright/test';

/**
 * A sweep whose cases all take the same path through the engine (another value through the
 * loader's regex, the same stylesheet under axe in the other theme, another language's script
 * fetched the same way) runs every case in Chromium and its first case in Firefox: what could
 * differ between engines is shown once in each, and CI's minutes go to the journeys (docs/qa.md).
 * Call it first thing in the test.
 *
 * @example sweepOnceInFirefox(browserName, locale === 'en');
 */
export function sweepOnceInFirefox(browserName: string, first: boolean): void {
  test.skip(
    browserName === 'firefox' && !first,
    'an engine-neutral sweep: every case in Chromium, the first in Firefox (docs/qa.md)',
  );
}
