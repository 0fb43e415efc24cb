import type { VerifyRequestCreated } from '../../protocol/wire.ts';
import type { ErrorBody } from '../../protocol/errors.ts';
import { CREATE_TIMEOUT_MS, type CreateAnswer, type CreateError } from '../../shared/contract.ts';
import { withTimeout } from '../../shared/timeout.ts';

/**
 * The verification request of a create answer (the loader's `sendCreateRequest`), or a
 * {@link CreateError}: the catalogue code when the service sent one (with the Origin it saw for
 * ORIGIN_NOT_ALLOWED), else `HTTP_<status>`, and `NETWORK`
 * when no answer came within {@link CREATE_TIMEOUT_MS}; retryable for network errors, 429 and 5xx.
 *
 * @example const created = await readCreateAnswer(options.sent); // { request_id, deep_link, qr, … }
 */
export async function readCreateAnswer(
  answer: Promise<CreateAnswer>,
  /** aborts the request behind `answer` when it has none after {@link CREATE_TIMEOUT_MS} */
  controller?: AbortController,
): Promise<VerifyRequestCreated> {
  let status: number;
  let body: unknown;
  const timer = setTimeout(() => controller?.abort(), CREATE_TIMEOUT_MS);
  try {
    [status, body] = await answer;
  } catch {
    throw createError('NETWORK', true);
  } finally {
    clearTimeout(timer);
  }
  if ((status === 201 || status === 200) && body) return body as VerifyRequestCreated;
  // the catalogue code when the body has one; a body that is not JSON still has a status worth reporting
  const { error: code = 'HTTP_' + status, origin } = (body ?? {}) as Partial<ErrorBody>;
  throw createError(
    // ORIGIN_NOT_ALLOWED names the Origin the service saw (docs/partner-api.md#every-error-code);
    // the command that registers it is the service's warning, printed by the loader
    origin ? `${code} ${origin}` : code,
    status === 429 || status >= 500 || status < 300,
  );
}

/**
 * A new verification request (a renewal, a retry) through the loader's sender, given up after
 * {@link CREATE_TIMEOUT_MS}.
 *
 * @example const created = await createRequest(options.send, run.signal);
 */
export async function createRequest(
  send: (signal: AbortSignal) => Promise<CreateAnswer>,
  signal: AbortSignal,
): Promise<VerifyRequestCreated> {
  const timed = withTimeout(signal, CREATE_TIMEOUT_MS);
  try {
    return await readCreateAnswer(send(timed.signal));
  } finally {
    timed.clear();
  }
}

function createError(code: string, retryable: boolean): CreateError {
  return Object.assign(new Error(code), { retryable });
}
