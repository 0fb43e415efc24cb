/**
 * Resume (design.md §14), as a visitor meets it: the widget keeps its live request in the tab's
 * sessionStorage, so following the deep link in the same tab and coming Back, or reloading,
 * costs nothing; and a fresh load still shows the QR code after three request waves. On a phone:
 * resume-phone.spec.ts.
 */
import { expect, test } from '@playwright/test';
import { answerOnPhonePage, completeThroughApi, deepLinkOf, waitForWidgetState, widget } from './support/qa.ts';
import { SERVICE_URL } from './support/urls.ts';
import { countCreates } from './support/wire.ts';

test.describe('on a desktop', () => {
  test('the README quick start: "Open on this device" opens a new tab, Approve there, the shop reaches /success', async ({
    page,
  }) => {
    await page.goto('/standard');
    await waitForWidgetState(page, 'waiting');
    const link = widget(page).getByTestId('svc-open-here');
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener');
    const [phone] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await phone.waitForURL(/\/m\/v\/vr_/);
    await answerOnPhonePage(phone, { persona: 'fr-adult-m' });
    // "go back to the site": the shop's tab, hidden behind the new one, polls again once shown
    await page.bringToFront();
    await page.waitForURL('**/success');
    await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
  });

  test('a reload while waiting shows the same request again: one create on the wire', async ({ page }) => {
    const creates = countCreates(page);
    await page.goto('/standard');
    const before = await deepLinkOf(page);
    await page.reload();
    expect(await deepLinkOf(page)).toBe(before);
    expect(creates.count).toBe(1);
    await expect(widget(page).getByTestId('svc-qr')).toBeVisible();
  });

  test('a reload after the request completed unseen delivers it once', async ({ page }) => {
    const creates = countCreates(page);
    // The page never hears the long poll's answer (a phone that froze the tab); only the status
    // asked at once on start (wait=0) gets through.
    await page.route(`${SERVICE_URL}/api/w/verify-status/**`, (route) =>
      route.request().url().includes('wait=0&') || route.request().url().endsWith('wait=0')
        ? route.continue()
        : route.abort(),
    );
    await page.goto('/standard');
    const deepLink = await deepLinkOf(page);
    await completeThroughApi(page, deepLink, { persona: 'fr-adult-f' });
    await page.reload();
    await page.waitForURL('**/success');
    await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'verified');
    expect(creates.count).toBe(1);
    // Back: the entry went with the delivery, so a new request, and no second success
    await page.goBack();
    expect(await deepLinkOf(page)).not.toBe(deepLink);
    expect(page.url()).toMatch(/\/standard$/);
    expect(creates.count).toBe(2);
  });

  test('two tabs of the same page each have their own request, and each keeps it across a reload', async ({
    context,
  }) => {
    // sessionStorage belongs to a tab: a request is the one its tab's QR code shows, and the
    // single-use grant goes to the tab that asked for it
    const first = await context.newPage();
    const second = await context.newPage();
    await first.goto('/standard');
    await second.goto('/standard');
    const [a, b] = [await deepLinkOf(first), await deepLinkOf(second)];
    expect(a).not.toBe(b);
    await second.reload();
    expect(await deepLinkOf(second)).toBe(b);
    await completeThroughApi(second, b);
    await second.waitForURL('**/success');
    await expect(widget(first)).toHaveAttribute('data-state', 'waiting');
    expect(await deepLinkOf(first)).toBe(a);
  });

  test('a fresh load shows the QR code after three request waves: page, loader, then UI and create', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      new MutationObserver(() => {
        const w = window as unknown as { waitingAt?: number };
        if (w.waitingAt === undefined && document.querySelector('[data-state="waiting"]'))
          w.waitingAt = performance.now();
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
    });
    await page.goto('/standard');
    await waitForWidgetState(page, 'waiting');
    const timings = await page.evaluate((service) => {
      const waitingAt = (window as unknown as { waitingAt: number }).waitingAt;
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((r) => r.name.startsWith(service) && r.startTime < waitingAt)
        .map((r) => ({ name: new URL(r.name).pathname, start: r.startTime, end: r.responseEnd }));
      return [{ name: 'page', start: 0, end: nav.responseEnd }, ...resources];
    }, SERVICE_URL);
    // A request's wave: one more than the latest wave that had answered before it started.
    const waves: number[] = [];
    timings.forEach((entry, i) => {
      const before = timings.slice(0, i).flatMap((e, j) => (e.end <= entry.start ? [waves[j]!] : []));
      waves.push(1 + Math.max(0, ...before));
    });
    const named = timings.map((t, i) => `${waves[i]} ${t.name.replace(/ui\.[\w-]+\.js/, 'ui.js')}`);
    expect(named).toContain('3 /api/w/verify-request');
    expect(Math.max(...waves), named.join(', ')).toBe(3);
    expect(named.filter((n) => n.includes('verify-status'))).toEqual([]);
  });
});
