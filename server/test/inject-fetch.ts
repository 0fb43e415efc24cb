/**
 * A `fetch` that answers from a Fastify app through `app.inject()`, so SDK code can be tested
 * against the real service without a port.
 *
 * @example
 * const fetch = injectFetch(t.app);
 * await createSession({ appUrl: 'http://svc.test', partnerId, secret }, { origin }, { fetch });
 */
import type { FastifyInstance } from 'fastify';

export interface InjectFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** every request made, in order: method, path, headers as sent */
  readonly calls: Array<{ method: string; path: string; headers: Record<string, string>; body: string | undefined }>;
}

export function injectFetch(app: FastifyInstance, options: { remoteAddress?: string } = {}): InjectFetch {
  const calls: InjectFetch['calls'] = [];
  const fetchFn = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? init.body : undefined;
    calls.push({ method, path: url.pathname + url.search, headers, body });
    const res = await app.inject({
      method: method as 'GET' | 'POST',
      url: url.pathname + url.search,
      headers,
      ...(body === undefined ? {} : { payload: body }),
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(v));
    }
    return new Response(res.statusCode === 204 ? null : res.rawPayload, {
      status: res.statusCode,
      headers: responseHeaders,
    });
  };
  return Object.assign(fetchFn, { calls });
}
