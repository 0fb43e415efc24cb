/**
 * The phone API (design.md §4, §12), same origin as the page: open, an identity provider's start,
 * the wallet's answer; `send` for the persona picker's routes, which the sandbox wing names
 * (src/phone/sandbox/sandbox-client.ts).
 */
import type { PhoneOpened, PhoneWalletAnswered, ProviderLoginStarted } from '../protocol/wire.ts';
import type { ErrorCode } from '../protocol/errors.ts';

/** `invalid_request`: the wallet's answer was refused (OpenID4VP's error shape, design.md §11); the request still waits. */
export type ApiFailureCode = ErrorCode | 'NETWORK_ERROR' | 'invalid_request';

export type ApiResult<T> = { ok: true; data: T } | { ok: false; status: number; code: ApiFailureCode };

export interface PhoneApi {
  open(requestId: string, h: string): Promise<ApiResult<PhoneOpened>>;
  startProvider(requestId: string, providerId: string, h: string): Promise<ApiResult<ProviderLoginStarted>>;
  sendWalletResponse(
    requestId: string,
    body: { h: string; credential: unknown },
  ): Promise<ApiResult<PhoneWalletAnswered>>;
  /** GET `path` (no body) or POST `body` as JSON to a phone route, answered as the others are */
  send<T>(path: string, body?: unknown): Promise<ApiResult<T>>;
}

/**
 * @example
 * const api = createPhoneApi();
 * const opened = await api.open('vr_…', 'h_…');
 * if (!opened.ok && opened.code === 'REQUEST_EXPIRED') showExpired();
 */
export function createPhoneApi(fetchImpl: typeof fetch = (input, init) => fetch(input, init), base = ''): PhoneApi {
  /** `same-origin` only where the answer sets the login cookie (docs/providers.md, "One browser") */
  async function call<T>(
    path: string,
    body?: unknown,
    credentials: RequestCredentials = 'omit',
  ): Promise<ApiResult<T>> {
    let response: Response;
    try {
      response = await fetchImpl(base + path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
        cache: 'no-store',
        credentials,
      });
    } catch {
      return { ok: false, status: 0, code: 'NETWORK_ERROR' };
    }
    const payload = (await response.json().catch(() => null)) as (T & { error?: ApiFailureCode }) | null;
    if (response.ok && payload !== null) return { ok: true, data: payload };
    const code =
      typeof payload?.error === 'string' ? payload.error : response.status === 404 ? 'NOT_FOUND' : 'INTERNAL_ERROR';
    return { ok: false, status: response.status, code };
  }

  const requestPath = (id: string, verb: string) => `/api/m/requests/${encodeURIComponent(id)}/${verb}`;
  return {
    open: (requestId, h) => call<PhoneOpened>(requestPath(requestId, 'open'), { h }),
    startProvider: (requestId, providerId, h) =>
      call<ProviderLoginStarted>(
        requestPath(requestId, `providers/${encodeURIComponent(providerId)}/start`),
        { h },
        'same-origin',
      ),
    sendWalletResponse: (requestId, body) => call<PhoneWalletAnswered>(requestPath(requestId, 'wallet-response'), body),
    send: (path, body) => call(path, body),
  };
}
