import { describe, expect, it } from 'vitest';
import { capResponses, PROVIDER_RESPONSE_MAX_BYTES, ResponseTooLargeError } from './capped-fetch.ts';

const CHUNK = 65_536;

/** A fetch answering `total` bytes in 64 kB chunks, made only as the reader pulls them; counts what was made. */
function streamingFetch(total: number, headers: Record<string, string> = {}) {
  const made = { bytes: 0 };
  const fetch = async () =>
    new Response(
      new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            if (made.bytes >= total) return controller.close();
            const size = Math.min(CHUNK, total - made.bytes);
            made.bytes += size;
            controller.enqueue(new Uint8Array(size).fill(0x61));
          },
        },
        { highWaterMark: 0 },
      ),
      { status: 200, headers: { 'content-type': 'application/json', ...headers } },
    );
  return { made, fetch };
}

const init = { method: 'POST', headers: {}, body: undefined, redirect: 'manual' as const, signal: undefined };

describe('provider answers capped at 1 MB', () => {
  it('refuses a 5 MB answer without a Content-Length, having read no more than the cap and one chunk', async () => {
    const { made, fetch } = streamingFetch(5 * 1_048_576);
    await expect(capResponses(fetch)('http://127.0.0.1/token', init)).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect(made.bytes).toBeLessThanOrEqual(PROVIDER_RESPONSE_MAX_BYTES + CHUNK);
  });

  it('refuses an answer whose Content-Length says more than the cap before reading a byte', async () => {
    const { made, fetch } = streamingFetch(5 * 1_048_576, { 'content-length': String(5 * 1_048_576) });
    await expect(capResponses(fetch)('http://127.0.0.1/token', init)).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect(made.bytes).toBe(0);
  });

  it('passes an answer of exactly 1 MB on, its status, headers and bytes intact', async () => {
    const { fetch } = streamingFetch(PROVIDER_RESPONSE_MAX_BYTES);
    const response = await capResponses(fetch)('http://127.0.0.1/token', init);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect((await response.arrayBuffer()).byteLength).toBe(PROVIDER_RESPONSE_MAX_BYTES);
  });
});
