/**
 * Typed errors of the partner SDK. Every failed call rejects with an `SvcApiError` carrying the
 * service's catalogue code, the HTTP status, the correlation id to quote to support, and
 * whether retrying could help (docs/partner-api.md#the-partner-sdk-serversdk).
 */

/**
 * Codes the service may answer (its error catalogue), plus the SDK's own for failures that
 * never reached an answer: `NETWORK_ERROR` (connection failed or timed out) and
 * `INVALID_RESPONSE` (the answer was not the JSON the API documents).
 */
export type SvcErrorCode =
  | 'MISSING_HEADERS'
  | 'INVALID_PARTNER'
  | 'TIMESTAMP_SKEW'
  | 'INVALID_SIGNATURE'
  | 'REPLAY_DETECTED'
  | 'UNAUTHORIZED'
  | 'INVALID_REQUEST'
  | 'INVALID_GRANT'
  | 'GRANT_INVALID'
  | 'FORBIDDEN_RAIL'
  | 'MISSING_BLIND_APP_ID'
  | 'MISSING_ORIGIN'
  | 'INVALID_SCOPES'
  | 'INVALID_JSON'
  | 'NOT_FOUND'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR'
  | 'Too many requests'
  | 'NETWORK_ERROR'
  | 'INVALID_RESPONSE'
  // a code added to the service after this SDK was built
  | (string & {});

/**
 * Whether a status is worth retrying: 429 and 5xx, and 0 (no answer). Never 400, 401, 403.
 *
 * @example isRetryableStatus(429) // true; isRetryableStatus(401) // false
 */
export function isRetryableStatus(status: number): boolean {
  return status === 0 || status === 429 || status >= 500;
}

/**
 * A failed call. `cid` is the `X-SVC-CID` of the answer (null when none came): log it.
 *
 * @example
 * try {
 *   await client.exchange(grantCode);
 * } catch (err) {
 *   if (err instanceof SvcApiError && err.code === 'GRANT_INVALID') showRetryVerification();
 *   else throw err;
 * }
 */
export class SvcApiError extends Error {
  /** HTTP status; 0 when no answer arrived */
  readonly status: number;
  readonly code: SvcErrorCode;
  /** correlation id (X-SVC-CID) of the failed answer, null when none came */
  readonly cid: string | null;
  /** true for 429, 5xx and network failures: the SDK already retried those (at most 3 attempts in all) */
  readonly retryable: boolean;
  /** Retry-After of the last answer, in seconds, when it had one */
  readonly retryAfterSeconds: number | null;
  /** how many attempts were made before giving up */
  readonly attempts: number;

  constructor(init: {
    status: number;
    code: SvcErrorCode;
    message: string;
    cid?: string | null;
    retryAfterSeconds?: number | null;
    attempts?: number;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'SvcApiError';
    this.status = init.status;
    this.code = init.code;
    this.cid = init.cid ?? null;
    this.retryable = isRetryableStatus(init.status);
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.attempts = init.attempts ?? 1;
  }
}
