/**
 * How the blinding chunk hands its token to the UI without a byte in the UI bundle
 * (docs/adult-blind.md#private-attestations): it wraps the page's `fetch` for the widget's status
 * calls only (`<service>/api/w/verify-status/…`). A completed private request's answer,
 * `{result: {private_attestation: {scope_mask}}}`, becomes `{result: {attestation:
 * "<token>.<metadata>"}}`, which the UI delivers as any attestation (redirect, same-page
 * hand-over, data-server-verify). When no token can be made the answer becomes `failed` (the
 * widget's failure state, its retry starts a new request) and the reason goes to the console
 * with its catalogue code. Every other call goes through untouched.
 */
import type { WidgetVerifyStatus } from '../protocol/wire.ts';
import { AttestationFailure, attestPrivately } from './attest.ts';

const STATUS_PATH = '/api/w/verify-status/';

/**
 * A fetch that turns private status answers into attestations; `redemptionContext` is read at
 * each completion (the page's script tag), `attest` makes the token.
 *
 * @example window.fetch = interceptStatus(window.fetch, 'https://svc.example', () => script.dataset.redemptionContext);
 */
export function interceptStatus(
  original: typeof fetch,
  apiOrigin: string,
  redemptionContext: () => string | undefined,
  attest: typeof attestPrivately = attestPrivately,
): typeof fetch {
  /** one attestation per request: a second status call (resume, Back) gets the same token */
  const made = new Map<string, Promise<string>>();
  return async function fetchWithAttestation(input, init) {
    const response = await original(input, init);
    // the UI asks with absolute addresses (src/widget/net/status.ts)
    const href = input instanceof Request ? input.url : String(input);
    if (!href.startsWith(apiOrigin + STATUS_PATH) || !response.ok) return response;
    const url = new URL(href);
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as WidgetVerifyStatus | null;
    const pending = body?.result && 'private_attestation' in body.result ? body.result.private_attestation : null;
    if (!body || !pending) return response;
    const requestId = decodeURIComponent(url.pathname.slice(STATUS_PATH.length));
    let answer: WidgetVerifyStatus;
    try {
      const context = redemptionContext();
      if (!context) throw new AttestationFailure('INIT_FAILED', 'data-redemption-context missing');
      const key = `${requestId}\n${context}`;
      const making =
        made.get(key) ??
        attest(
          {
            apiOrigin,
            requestId,
            pollToken: url.searchParams.get('pt') ?? '',
            scopeMask: pending.scope_mask,
            redemptionContext: context,
          },
          original,
        );
      made.set(key, making);
      answer = { ...body, result: { attestation: await making } };
    } catch (error) {
      const failure =
        error instanceof AttestationFailure ? error : new AttestationFailure('ATTESTATION_NOT_ISSUABLE', String(error));
      console.error('[svc]', failure.code, failure.message);
      answer = { status: 'failed', expires_at: body.expires_at, reason: 'failed' };
    }
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}
