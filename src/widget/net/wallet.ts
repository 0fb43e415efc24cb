import type { VerifyRequestCreated } from '../../protocol/wire.ts';

declare global {
  /** The Digital Credentials API's credential (Chromium); absent where the API is not. */
  var DigitalCredential: { prototype: { protocol: string; data: unknown } } | undefined;
}

/**
 * design.md §11: waits for what `navigator.credentials.get` gave (`asked`, started by the click) and
 * posts it as text/plain JSON (no preflight) to /api/w/wallet-response/<id>?pt=. True when the
 * service accepted it: the poll then sees the request complete. A decline (the promise rejects),
 * a network error or a refusal (400) is false: a retryable failure, the QR still works.
 *
 * @example if (!(await postWalletResponse(apiOrigin, created, navigator.credentials.get(options), signal))) showFailure()
 */
export async function postWalletResponse(
  apiOrigin: string,
  created: VerifyRequestCreated,
  asked: Promise<unknown>,
  signal?: AbortSignal,
): Promise<boolean> {
  try {
    const credential = (await asked) as { protocol?: unknown; data?: unknown } | null;
    if (!credential || signal?.aborted) return false;
    const url = `${apiOrigin}/api/w/wallet-response/${encodeURIComponent(created.request_id)}?pt=${encodeURIComponent(created.poll_token)}`;
    // a string body is sent as text/plain;charset=UTF-8 (the Fetch standard's default for one)
    const response = await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ protocol: credential.protocol, data: credential.data }),
      signal,
    });
    return response.ok;
  } catch {
    return false;
  }
}
