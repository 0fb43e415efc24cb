import { expect, test } from '@playwright/test';
import { loaderTag, servePartnerPage } from './support/pages.ts';
import { SERVICE_URL } from './support/urls.ts';

// Counts live timers and in-flight fetches from inside the page, before any script runs.
const instrument = () => {
  const live = new Set<number>();
  const nativeSetTimeout = window.setTimeout.bind(window);
  const nativeClearTimeout = window.clearTimeout.bind(window);
  const nativeSetInterval = window.setInterval.bind(window);
  const nativeClearInterval = window.clearInterval.bind(window);
  window.setTimeout = ((fn: TimerHandler, ms?: number, ...args: unknown[]) => {
    const id = nativeSetTimeout(
      (...a: unknown[]) => {
        live.delete(id);
        if (typeof fn === 'function') fn(...a);
      },
      ms,
      ...args,
    );
    live.add(id);
    return id;
  }) as typeof window.setTimeout;
  window.clearTimeout = ((id?: number) => {
    if (id !== undefined) live.delete(id);
    nativeClearTimeout(id);
  }) as typeof window.clearTimeout;
  window.setInterval = ((fn: TimerHandler, ms?: number, ...args: unknown[]) => {
    const id = nativeSetInterval(fn, ms, ...args);
    live.add(id);
    return id;
  }) as typeof window.setInterval;
  window.clearInterval = ((id?: number) => {
    if (id !== undefined) live.delete(id);
    nativeClearInterval(id);
  }) as typeof window.clearInterval;
  let inFlight = 0;
  let started = 0;
  const nativeFetch = window.fetch.bind(window);
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    inFlight++;
    started++;
    return nativeFetch(input, init).finally(() => inFlight--);
  };
  (window as unknown as { e2eProbe: () => { timers: number; inFlight: number; started: number } }).e2eProbe = () => ({
    timers: live.size,
    inFlight,
    started,
  });
};

test('100 render/remove cycles leave no DOM, no timers and no pending requests', async ({ page }) => {
  test.setTimeout(90_000);
  // Creates are answered here (the service allows 120 a minute per IP); status polls hang like a
  // long poll, so each remove() has a request in flight to abort.
  let created = 0;
  await page.route(`${SERVICE_URL}/api/w/verify-request`, (route) => {
    created++;
    return route.fulfill({
      status: 201,
      contentType: 'application/json',
      headers: { 'Access-Control-Allow-Origin': '*' },
      body: JSON.stringify({
        request_id: `vr_cycle${created}`,
        poll_token: 'pt_cycle',
        deep_link: `${SERVICE_URL}/m/v/vr_cycle${created}#h=h_cycle`,
        expires_at: Date.now() + 300_000,
        poll_after_ms: 1000,
        sandbox: true,
      }),
    });
  });
  await page.route(`${SERVICE_URL}/api/w/verify-status/**`, async (route) => {
    await new Promise((r) => setTimeout(r, 20_000));
    await route
      .fulfill({
        status: 200,
        contentType: 'application/json',
        headers: { 'Access-Control-Allow-Origin': '*' },
        body: '{"status":"pending","expires_at":0}',
      })
      .catch(() => {});
  });
  await page.addInitScript(instrument);
  const url = await servePartnerPage(
    page,
    '/e2e/cycles',
    `<div id="slot"></div>${loaderTag({ 'partner-id': 'pk_test_demo', 'success-path': '/success', render: 'explicit' })}`,
  );
  await page.goto(url);
  await page.waitForFunction(() => 'SVC' in window);
  const baseline = await page.evaluate(
    () => (window as unknown as { e2eProbe(): { timers: number } }).e2eProbe().timers,
  );

  const result = await page.evaluate(async () => {
    type Handle = { remove(): void; state: string };
    const svc = (
      window as unknown as { SVC: { ready(fn: () => void): void; render(el: HTMLElement, o: object): Handle } }
    ).SVC;
    await new Promise<void>((resolve) => svc.ready(resolve));
    const slot = document.getElementById('slot')!;
    let reachedWaiting = 0;
    let busiest = { timers: 0, inFlight: 0 };
    const probe = (window as unknown as { e2eProbe(): { timers: number; inFlight: number } }).e2eProbe;
    for (let i = 0; i < 100; i++) {
      const handle = svc.render(slot, { theme: i % 2 ? 'dark' : 'light' });
      // Every tenth cycle waits for the QR, so timers and the long poll are really running.
      if (i % 10 === 0) {
        const deadline = performance.now() + 5000;
        while (
          slot.querySelector('[data-testid="svc-widget"]')?.getAttribute('data-state') !== 'waiting' &&
          performance.now() < deadline
        ) {
          await new Promise((r) => requestAnimationFrame(r));
        }
        if (slot.querySelector('[data-testid="svc-widget"]')?.getAttribute('data-state') === 'waiting')
          reachedWaiting++;
        // Let the long poll leave, then note what a live widget holds.
        await new Promise((r) => setTimeout(r, 50));
        const now = probe();
        busiest = { timers: Math.max(busiest.timers, now.timers), inFlight: Math.max(busiest.inFlight, now.inFlight) };
      }
      handle.remove();
    }
    await new Promise((r) => setTimeout(r, 300));
    return {
      reachedWaiting,
      busiest,
      childNodes: slot.childNodes.length,
      hosts: document.querySelectorAll('[data-testid="svc-widget"]').length,
    };
  });

  expect(result.reachedWaiting).toBe(10);
  // The probes see a live widget's countdown and long poll, so zero afterwards means something.
  expect(result.busiest.timers).toBeGreaterThan(baseline);
  expect(result.busiest.inFlight).toBeGreaterThanOrEqual(1);
  expect(result.childNodes).toBe(0);
  expect(result.hosts).toBe(0);
  const probe = await page.evaluate(() =>
    (window as unknown as { e2eProbe(): { timers: number; inFlight: number; started: number } }).e2eProbe(),
  );
  // At least the ten widgets that reached the QR code created a request and started polling
  // (the others may be removed before their create leaves).
  expect(probe.started).toBeGreaterThanOrEqual(20);
  expect(created).toBeGreaterThanOrEqual(10);
  expect(probe.inFlight).toBe(0);
  expect(probe.timers).toBeLessThanOrEqual(baseline);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
