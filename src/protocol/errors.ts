/**
 * The one error catalogue: code → HTTP status, default message, retry advice.
 * Codes are the partner contract's plus those docs/design.md adds (docs/partner-api.md#every-error-code).
 * Codes are added, never renamed or reused. server/catalogue.test.ts keeps this table and
 * docs/partner-api.md's error table in sync, both ways.
 */

export interface CatalogueEntry {
  /** HTTP status; 0 for loader codes that never travel over HTTP. */
  readonly status: number;
  readonly message: string;
  /** Whether a caller may retry the same request (docs/partner-api.md#the-partner-sdk-serversdk). */
  readonly retryable: boolean;
}

export const ERRORS = {
  // Signing and partner authentication (docs/partner-api.md#errors-of-the-partner-api)
  MISSING_HEADERS: { status: 401, message: 'One or more required headers are missing or malformed.', retryable: false },
  INVALID_PARTNER: { status: 403, message: 'Partner ID not recognized.', retryable: false },
  TIMESTAMP_SKEW: {
    status: 401,
    message: 'Timestamp differs from server time by more than 5 minutes.',
    retryable: false,
  },
  INVALID_SIGNATURE: { status: 401, message: 'HMAC signature does not match.', retryable: false },
  REPLAY_DETECTED: { status: 401, message: 'Nonce already used.', retryable: false },
  UNAUTHORIZED: { status: 401, message: 'Authentication failed.', retryable: false },

  // Exchange and introspection (docs/partner-api.md#errors-of-the-partner-api)
  INVALID_REQUEST: { status: 400, message: 'Invalid request body.', retryable: false },
  INVALID_GRANT: { status: 400, message: 'Grant code format is invalid (must start with g_).', retryable: false },
  GRANT_INVALID: {
    status: 401,
    message: 'Grant code does not exist, has expired or was already used.',
    retryable: false,
  },

  // Billing session (docs/adult-blind.md#getting-a-session-token-every-page-load)
  FORBIDDEN_RAIL: { status: 403, message: 'Organization is not on the ADULT_BLIND rail.', retryable: false },
  MISSING_BLIND_APP_ID: { status: 400, message: 'No blindAppId is configured for the organization.', retryable: false },
  MISSING_ORIGIN: { status: 400, message: 'origin is required.', retryable: false },
  INVALID_SCOPES: { status: 400, message: 'Scopes are not supported for this partner.', retryable: false },
  INVALID_JSON: { status: 400, message: 'Body is not valid JSON.', retryable: false },

  // Added by design.md §3, §4, §6
  ORIGIN_NOT_ALLOWED: { status: 403, message: 'Origin is not registered for this partner.', retryable: false },
  SESSION_INVALID: { status: 401, message: 'Session token is invalid or expired.', retryable: false },
  NOT_FOUND: { status: 404, message: 'Not found.', retryable: false },
  ALREADY_FINISHED: { status: 409, message: 'Verification request already finished.', retryable: false },
  REQUEST_EXPIRED: { status: 410, message: 'Verification request has expired.', retryable: false },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body exceeds 16 KiB.', retryable: false },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json.', retryable: false },
  RATE_LIMITED: { status: 429, message: 'Too many status requests for this verification request.', retryable: true },
  INTERNAL_ERROR: { status: 500, message: 'Internal error; retry with exponential backoff.', retryable: true },
  // Added by design.md §10: the store (Redis) is unreachable; nothing is answered from memory
  SERVICE_UNAVAILABLE: {
    status: 503,
    message: 'Service temporarily unavailable; retry after Retry-After.',
    retryable: true,
  },

  // Added by design.md §3: no enabled method (wallet, identity provider, sandbox) can
  // prove every requested scope, so no request is created that nobody can complete
  NO_METHOD: { status: 400, message: 'No enabled verification method can prove these scopes.', retryable: false },

  // Added for private attestations (docs/adult-blind.md#private-attestations): the request is not
  // a completed private ADULT_BLIND request with isAdult proven, or its one token request was
  // already signed
  ATTESTATION_NOT_ISSUABLE: {
    status: 409,
    message: 'No private attestation can be signed for this request.',
    retryable: false,
  },

  // Loader, delivered through onError (docs/partner-api.md#every-error-code, `loader onError`); never on the wire
  INIT_FAILED: { status: 0, message: 'Creating the verification request failed.', retryable: true },
  SERVER_VERIFY_TIMEOUT: { status: 0, message: 'Server-verify confirmation did not arrive in time.', retryable: true },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERRORS;

/** The rate-limit body (docs/sandbox-flow.md#lifetimes-and-limits): `{error: "Too many requests"}`. */
export const TOO_MANY_REQUESTS = 'Too many requests';

/** Error body shape on the wire: `{error, message}`, and `origin` where docs/partner-api.md#errors says. */
export interface ErrorBody {
  error: ErrorCode | typeof TOO_MANY_REQUESTS;
  message: string;
  /** ORIGIN_NOT_ALLOWED from POST /api/w/verify-request: the `Origin` header the service saw */
  origin?: string;
  /** POST /api/w/verify-request: what the service found in the loader's attributes (wire.ts LoaderWarnings) */
  warnings?: string[];
}
