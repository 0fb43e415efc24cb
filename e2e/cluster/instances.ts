/**
 * The two instances of the cluster journeys, reachable directly besides nginx, so that a journey
 * can pin the widget to one and the phone to the other (`pinToInstance`), and tell from a
 * response's X-SVC-CID (a random prefix per process) which instance answered.
 */
import type { Page, Response } from '@playwright/test';
import { SERVICE_URL } from '../support/urls.ts';

export const CLUSTER_INSTANCE_PORTS = [8791, 8792] as const;

/**
 * Sends the page's service API calls (`/api/…`) to one instance instead of nginx; pages, scripts
 * and the partner backend's calls still go through nginx.
 */
export async function pinToInstance(page: Page, port: number): Promise<void> {
  await page.route(`${SERVICE_URL}/api/**`, (route) => {
    const url = new URL(route.request().url());
    url.host = `127.0.0.1:${port}`;
    return route.continue({ url: url.toString() });
  });
}

/** The instance (its X-SVC-CID prefix) that answered each service API call of `page`. */
export function watchInstances(page: Page): Array<{ path: string; instance: string }> {
  const seen: Array<{ path: string; instance: string }> = [];
  page.on('response', (response: Response) => {
    const url = new URL(response.url());
    const cid = response.headers()['x-svc-cid'];
    if (cid && url.pathname.startsWith('/api/')) seen.push({ path: url.pathname, instance: cid.slice(0, 8) });
  });
  return seen;
}

/** The instance prefix of one direct call to each instance, in port order. */
export async function instancePrefixes(page: Page): Promise<string[]> {
  const prefixes: string[] = [];
  for (const port of CLUSTER_INSTANCE_PORTS) {
    const res = await page.request.get(`http://127.0.0.1:${port}/healthz`);
    prefixes.push(res.headers()['x-svc-cid']!.slice(0, 8));
  }
  return prefixes;
}
