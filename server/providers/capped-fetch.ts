/**
 * Every answer a provider sends is read up to 1 MB and no further (docs/providers.md, "Limits"):
 * discovery, JWKS, the token endpoint and userinfo all go through openid-client's customFetch
 * hook, which this wraps. A declared Content-Length over the cap is refused before a byte is
 * read; otherwise the body is streamed and the read cancelled as soon as it passes the cap, so a
 * hostile provider cannot make the service hold more than the cap (decompressed bytes count).
 * Each call is one span when tracing is on (telemetry/outbound.ts).
 */
import type * as client from 'openid-client';
import { traceOutbound } from '../telemetry/outbound.ts';

/** 1 MB: a discovery document, a JWKS or a token answer is a few kilobytes. */
export const PROVIDER_RESPONSE_MAX_BYTES = 1_048_576;

/** A provider's answer passed the cap; nothing past it was read. */
export class ResponseTooLargeError extends Error {
  constructor(maxBytes: number) {
    super(`a provider answer over ${maxBytes} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

/** Statuses whose Response may not carry a body. */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * `inner`, with every answer's body read into memory up to `maxBytes` and refused past it
 * (ResponseTooLargeError).
 *
 * @example config[client.customFetch] = capResponses(fetch)
 */
export function capResponses(
  inner: client.CustomFetch,
  maxBytes: number = PROVIDER_RESPONSE_MAX_BYTES,
): client.CustomFetch {
  return (url, init) => traceOutbound('provider', () => readCapped(inner, maxBytes, url, init));
}

async function readCapped(
  inner: client.CustomFetch,
  maxBytes: number,
  ...[url, init]: Parameters<client.CustomFetch>
): Promise<Response> {
  const response = await inner(url, init);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new ResponseTooLargeError(maxBytes);
  }
  if (response.body === null || NO_BODY.has(response.status)) return response;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new ResponseTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return new Response(Buffer.concat(chunks), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
