import { ERRORS, TOO_MANY_REQUESTS, type ErrorBody, type ErrorCode } from '../src/protocol/errors.ts';

/**
 * The one error type routes and use cases throw. The wire gets the catalogue code and message; the precise
 * failure (which HMAC step, a jose error, a store fault) travels in `cause` to the log only.
 *
 * @example throw new ServiceError('GRANT_INVALID', { cause: 'grant already used' })
 */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * ORIGIN_NOT_ALLOWED on the widget's create: the `Origin` the service saw, sent back in the body
   * so the widget's console line can name it (docs/partner-api.md#errors).
   */
  readonly origin?: string;
  /**
   * On the widget's create: what the service found in the loader's attributes
   * (rules/loader-warnings.ts), sent beside the code for the console (docs/embedding.md#warnings).
   */
  warnings?: string[];

  constructor(
    code: ErrorCode,
    options: { cause?: unknown; message?: string; headers?: Record<string, string>; origin?: string | null } = {},
  ) {
    super(options.message ?? ERRORS[code].message, { cause: options.cause });
    this.name = 'ServiceError';
    this.code = code;
    this.status = ERRORS[code].status;
    this.headers = options.headers ?? {};
    if (options.origin != null) this.origin = options.origin;
  }
}

/**
 * A setup error: the environment, a key, the store or a fixture cannot run the service. It fails
 * the boot (or the CLI command) with its message as one line, never a stack trace. Here rather than
 * in config.ts, which imports the master key's parser: both throw it without an import cycle.
 *
 * @example throw new ConfigError('SVC_PORT must be a port number (0-65535), got "x"')
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A 429 with the `{error: "Too many requests"}` body (docs/partner-api.md#every-error-code). */
export class TooManyRequestsError extends Error {
  readonly status = 429;
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, options: { cause?: unknown } = {}) {
    super(`Rate limit reached; retry after ${retryAfterSeconds} s.`, options);
    this.name = 'TooManyRequestsError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * The one function that shapes error bodies; `origin` only for ORIGIN_NOT_ALLOWED on the widget's
 * create, `warnings` only on the widget's create when there are some.
 *
 * @example errorBody('ORIGIN_NOT_ALLOWED', undefined, 'https://shop.example') // { error, message, origin: 'https://shop.example' }
 */
export function errorBody(
  code: ErrorCode,
  message: string = ERRORS[code].message,
  origin?: string,
  warnings?: readonly string[],
): ErrorBody {
  const body: ErrorBody = origin === undefined ? { error: code, message } : { error: code, message, origin };
  if (warnings?.length) body.warnings = [...warnings];
  return body;
}

export function tooManyRequestsBody(retryAfterSeconds: number): ErrorBody {
  return { error: TOO_MANY_REQUESTS, message: `Rate limit reached; retry after ${retryAfterSeconds} s.` };
}
