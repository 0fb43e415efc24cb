/**
 * Back from the wallet (design.md §19; OpenID4VP 1.0 §8.2, HAIP 1.0): the answer to a valid wallet
 * post carries `redirect_uri` = `{app_url}/m/v/<request_id>/done#response_code=<code>`, the phone
 * page's done view. The code is 32 random bytes (43 base64url characters), kept only as its digest
 * with the request, written in the same compare-and-set that settles it; the done view redeems it
 * once. A missing, forged, replayed or other request's code finds nothing (null → 404) and changes
 * nothing.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Locale, RequestStatus } from '../../src/protocol/wire.ts';
import type { AppDeps } from '../deps.ts';
import { digestToken } from '../crypto/tokens.ts';
import { effectiveStatus } from '../rules/effective-status.ts';
import { isRequestId } from './verify-requests.ts';

const RESPONSE_CODE = /^[A-Za-z0-9_-]{43}$/;

/** A fresh response_code: 256 bits, 43 base64url characters. */
export function newResponseCode(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * `{app_url}/m/v/<request_id>/done#response_code=<code>`
 *
 * @example redirectUriOf(deps.config.appUrl, 'vr_…', code)
 */
export function redirectUriOf(appUrl: string, requestId: string, code: string): string {
  return `${appUrl.replace(/\/+$/, '')}/m/v/${requestId}/done#response_code=${code}`;
}

function sameDigest(code: string, digest: string): boolean {
  const presented = Buffer.from(digestToken(code));
  const stored = Buffer.from(digest);
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/**
 * Redeems the done view's response_code, once: the request's status and language, or null when the
 * code is not this request's live one (missing, malformed, forged, used, another request's, or the
 * request gone). The digest is cleared by compare-and-set, so two racing redemptions yield one.
 *
 * @example const done = await redeemResponseCode(deps, params.requestId, body.response_code)
 */
export async function redeemResponseCode(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  requestId: string,
  code: unknown,
): Promise<{ status: RequestStatus; locale: Locale } | null> {
  if (!isRequestId(requestId) || typeof code !== 'string' || !RESPONSE_CODE.test(code)) return null;
  const now = deps.clock.now();
  const record = await deps.store.getRequest(requestId, now);
  if (!record?.responseCodeDigest || !sameDigest(code, record.responseCodeDigest)) return null;
  const used = await deps.store.updateRequest(record.id, record.version, { responseCodeDigest: null });
  if (!used) return null;
  return { status: effectiveStatus(used, now), locale: used.locale };
}
