/**
 * The one error-shaping point of the HTTP boundary. Every error becomes a catalogue body
 * `{error, message}` (src/protocol/errors.ts): what a route throws (ServiceError,
 * TooManyRequestsError), what Fastify itself refuses (body too large, bad content length, a
 * malformed path), and unknown paths. On a route whose config says `errorShape: 'oauth'` (the
 * wallet routes, design.md §11), a 400 INVALID_REQUEST answers OpenID4VP's
 * `{error: "invalid_request", error_description}` instead, the description the error's message.
 * The precise failure goes to the log, never to the wire; anything unexpected is a 500 INTERNAL_ERROR.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WalletResponseError } from '../../src/protocol/wire.ts';
import { ERRORS, type ErrorBody } from '../../src/protocol/errors.ts';
import { errorBody, ServiceError, TooManyRequestsError, tooManyRequestsBody } from '../errors.ts';
import { StoreUnavailableError } from '../store/store.ts';

/** Seconds a caller waits before retrying a 503 SERVICE_UNAVAILABLE (design.md §10: 1-2 s). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/**
 * Installs the error handler and the 404 handler.
 *
 * @example registerErrorHandling(app) // once, in createApp
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(answerError);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorBody('NOT_FOUND')));
}

function answerError(
  error: FastifyError | ServiceError | TooManyRequestsError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof StoreUnavailableError || error.cause instanceof StoreUnavailableError) {
    // Fail closed (design.md §10): the store did not answer, so nothing was decided; retry shortly.
    request.log.warn({ code: 'SERVICE_UNAVAILABLE', cause: describeCause(error) }, 'store unavailable');
    return reply
      .code(503)
      .header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
      .send(errorBody('SERVICE_UNAVAILABLE'));
  }
  if (error instanceof ServiceError) {
    if (error.status >= 500) request.log.error({ err: error, code: error.code }, 'request failed');
    else request.log.info({ code: error.code, cause: describeCause(error.cause) }, 'request refused');
    return reply
      .code(error.status)
      .headers(error.headers)
      .send(shapeFor(request, errorBody(error.code, error.message, error.origin, error.warnings)));
  }
  if (error instanceof TooManyRequestsError) {
    request.log.info({ code: 'RATE_LIMITED' }, 'rate limit reached');
    return reply
      .code(429)
      .header('Retry-After', String(error.retryAfterSeconds))
      .send(tooManyRequestsBody(error.retryAfterSeconds));
  }
  const status = error.statusCode;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(413).send(errorBody('PAYLOAD_TOO_LARGE'));
  if (status && status >= 400 && status < 500) {
    // Framework-level client errors (bad content length, aborted body, …): a documented code, never a 500.
    if (status === 415) return reply.code(415).send(errorBody('UNSUPPORTED_MEDIA_TYPE'));
    if (status === 413) return reply.code(413).send(errorBody('PAYLOAD_TOO_LARGE'));
    if (status === 404) return reply.code(404).send(errorBody('NOT_FOUND'));
    return reply.code(400).send(shapeFor(request, errorBody('INVALID_REQUEST')));
  }
  request.log.error({ err: error }, 'unexpected error');
  return reply.code(500).send(errorBody('INTERNAL_ERROR'));
}

/**
 * Router-level failures (a path parameter over 100 characters, a malformed %-escape) bypass hooks
 * and the error handler: this gives them a catalogue body and a correlation id too. Passed to
 * Fastify's `frameworkErrors` option.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const code = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'NOT_FOUND' : 'INVALID_REQUEST';
  request.log.info({ code, cause: error.code }, 'request refused');
  void reply.code(ERRORS[code].status).header('X-SVC-CID', request.id).send(errorBody(code));
}

/** The body in the route's error shape: the catalogue's, or OpenID4VP's for an INVALID_REQUEST on an 'oauth' route. */
function shapeFor(request: FastifyRequest, body: ErrorBody): ErrorBody | WalletResponseError {
  if (body.error !== 'INVALID_REQUEST' || request.routeOptions.config.errorShape !== 'oauth') return body;
  return { error: 'invalid_request', error_description: body.message };
}

function describeCause(cause: unknown): string | undefined {
  if (cause === undefined) return undefined;
  if (cause instanceof Error) return `${cause.name}: ${cause.message}`;
  return String(cause);
}
