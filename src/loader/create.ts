import type { BlindVerifyRequestBody, StandardVerifyRequestBody, VerifyRequestCreated } from '../protocol/api.ts';
import type { CreateError, WidgetConfig } from '../shared/contract.ts';
import { resolveLocale } from '../shared/locale.ts';
import { withTimeout } from '../shared/timeout.ts';

const CREATE_TIMEOUT_MS = 15_000;

/**
 * Starts a verification request (DESIGN §3). The body travels as `text/plain` so the browser
 * sends no CORS preflight; no cookies go to the service.
 *
 * @example
 * const created = await createVerifyRequest(config, controller.signal);
 * showQr(created.deep_link);
 */
export async function createVerifyRequest(config: WidgetConfig, signal: AbortSignal): Promise<VerifyRequestCreated> {
  const common = { client_proof_mode: config.clientProofMode, locale: resolveLocale(config.locale) };
  const body: StandardVerifyRequestBody | BlindVerifyRequestBody = config.sessionToken
    ? { session_token: config.sessionToken, ...common }
    : { partner_id: config.partnerId!, scopes: [...config.scopes], ...common };
  const timed = withTimeout(signal, CREATE_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(config.apiOrigin + '/api/w/verify-request', {
      method: 'POST',
      // A string body goes as text/plain;charset=UTF-8 (Fetch standard): a simple request, no
      // preflight (DESIGN §3), and no header to spell out in the loader's bytes.
      body: JSON.stringify(body),
      credentials: 'omit',
      signal: timed.signal,
    });
  } catch {
    throw createError('NETWORK', true);
  } finally {
    timed.clear();
  }
  if (response.status === 201 || response.status === 200) return (await response.json()) as VerifyRequestCreated;
  // the catalogue code when the body has one; a body that is not JSON still has a status worth reporting
  const code = await response.json().then(
    (body: { error?: string } | null) => body?.error,
    () => undefined,
  );
  throw createError(code ?? 'HTTP_' + response.status, response.status === 429 || response.status >= 500);
}

function createError(code: string, retryable: boolean): CreateError {
  return Object.assign(new Error(code), { retryable });
}
