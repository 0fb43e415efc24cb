import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_PARTNER_URL, readPartnerUrl } from './partner-url.ts';

const answering = (status: number, body: unknown) =>
  vi.fn(async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch;

describe('the demo page’s link to the example partner', () => {
  it('follows the port the service is configured with (PARTNER_PORT)', async () => {
    const fetchConfig = answering(200, { partnerUrl: 'http://localhost:9123' });
    await expect(readPartnerUrl('', fetchConfig)).resolves.toBe('http://localhost:9123');
    expect(fetchConfig).toHaveBeenCalledWith('/demo/config.json');
  });

  it('prefers ?partner= and does not ask the service then', async () => {
    const fetchConfig = answering(200, { partnerUrl: 'http://localhost:9123' });
    await expect(readPartnerUrl('?partner=http://shop.test:9000', fetchConfig)).resolves.toBe('http://shop.test:9000');
    expect(fetchConfig).not.toHaveBeenCalled();
  });

  it('falls back to the default port without an answer, or with one that is not a URL', async () => {
    await expect(readPartnerUrl('', answering(404, {}))).resolves.toBe(DEFAULT_PARTNER_URL);
    await expect(readPartnerUrl('', answering(200, { partnerUrl: 'javascript:alert(1)' }))).resolves.toBe(
      DEFAULT_PARTNER_URL,
    );
    await expect(readPartnerUrl('?partner=javascript:alert(1)', answering(200, {}))).resolves.toBe(DEFAULT_PARTNER_URL);
    const offline = vi.fn(async () => Promise.reject(new TypeError('offline'))) as unknown as typeof fetch;
    await expect(readPartnerUrl('', offline)).resolves.toBe(DEFAULT_PARTNER_URL);
  });
});
