/**
 * Pages that exist only for a test, served on the example partner's origin (so the service's
 * Origin check passes) through Playwright routing: the HTML never touches the partner server,
 * while the loader, the UI bundle and the API are the real ones.
 */
import type { Page } from '@playwright/test';
import { PARTNER_URL, SERVICE_URL } from './urls.ts';

/** The example partner's own policy: scripts and styles from itself and the service only. */
export const STRICT_CSP = [
  "default-src 'self'",
  `script-src 'self' ${SERVICE_URL}`,
  `style-src 'self' ${SERVICE_URL}`,
  `connect-src 'self' ${SERVICE_URL}`,
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
].join('; ');

const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * A `<script src=…/loader.min.js data-…>` tag; attribute names without `data-`.
 *
 * @example loaderTag({ 'partner-id': 'pk_test_demo', 'success-path': '/success' })
 */
export function loaderTag(attributes: Record<string, string>, serviceUrl = SERVICE_URL): string {
  const attrs = Object.entries(attributes)
    .map(([name, value]) => ` data-${name}="${escape(value)}"`)
    .join('');
  return `<script src="${serviceUrl}/v4/loader.min.js"${attrs}></script>`;
}

/**
 * Serves `body` as the page at `path` on the partner origin, under `csp` (STRICT_CSP by default).
 *
 * @example
 * await servePartnerPage(page, '/e2e/unknown', `<div id="svc-widget"></div>${loaderTag({ … })}`);
 * await page.goto(`${PARTNER_URL}/e2e/unknown`);
 */
export async function servePartnerPage(
  page: Page,
  path: string,
  body: string,
  options: { csp?: string; title?: string; lang?: string } = {},
): Promise<string> {
  const url = `${PARTNER_URL}${path}`;
  // A fulfilled response has no IP address, so Chromium's Local Network Access counts the page
  // as public and blocks its requests to the loopback service; the real partner page is loopback.
  await page.context().grantPermissions(['local-network-access'], { origin: PARTNER_URL });
  const head = `<head><meta charset="utf-8"><title>${options.title ?? 'e2e page'}</title></head>`;
  const html = `<!doctype html><html lang="${options.lang ?? 'en'}">${head}<body><main>${body}</main></body></html>`;
  await page.route(url, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      headers: { 'Content-Security-Policy': options.csp ?? STRICT_CSP, 'Cache-Control': 'no-store' },
      body: html,
    }),
  );
  return url;
}

/**
 * Records every CSP violation of the page (listener installed before any script runs).
 *
 * @example const violations = await watchCspViolations(page); …; expect(await violations()).toEqual([]);
 */
export async function watchCspViolations(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) fromConsole.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(
        `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  return async () => {
    const inPage = await page
      .evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])
      .catch(() => []);
    return [...inPage, ...fromConsole];
  };
}

/**
 * Records what a visitor's developer console would show as a problem: console errors, uncaught
 * exceptions, answers with a 4xx/5xx status (a missing favicon included) and requests that failed.
 *
 * @example const problems = watchConsole(page); …; expect(problems).toEqual([]);
 */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400)
      problems.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  page.on('requestfailed', (request) =>
    problems.push(`failed ${request.method()} ${request.url()}: ${request.failure()?.errorText}`),
  );
  return problems;
}
