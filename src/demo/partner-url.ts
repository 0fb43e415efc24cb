/** Where the example partner runs, for the demo page's link to it. */

export const DEFAULT_PARTNER_URL = 'http://localhost:8788';

const isHttpUrl = (value: unknown): value is string =>
  typeof value === 'string' && /^https?:\/\/[^\s"'<>]+$/.test(value);

/**
 * `?partner=` when the page's query names one, else what the service says (`/demo/config.json`,
 * built from its PARTNER_PORT), else the default port (e.g. under `npx vite`, which has no such file).
 *
 * @example const partnerUrl = await readPartnerUrl(location.search, fetch);
 */
export function readPartnerUrl(search: string, fetchConfig: typeof fetch): Promise<string> {
  const fromQuery = new URLSearchParams(search).get('partner');
  if (isHttpUrl(fromQuery)) return Promise.resolve(fromQuery);
  return fetchConfig('/demo/config.json')
    .then((response) => (response.ok ? (response.json() as Promise<{ partnerUrl?: unknown }>) : null))
    .then((config) => (isHttpUrl(config?.partnerUrl) ? config.partnerUrl : DEFAULT_PARTNER_URL))
    .catch(() => DEFAULT_PARTNER_URL);
}
