/**
 * createApp(deps) builds the Fastify instance; tests use it through `app.inject()` without a
 * port. Cross-cutting concerns live here: correlation ids, raw-body capture for HMAC, the one
 * error handler, the 404 handler, log redaction. Each surface registers its own routes.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { randomBytes } from 'node:crypto';
import { LIMITS } from '../src/protocol/api.ts';
import { ERRORS } from '../src/protocol/errors.ts';
import type { AppDeps } from './deps.ts';
import { ServiceError, TooManyRequestsError, errorBody, tooManyRequestsBody } from './errors.ts';
import './auth/partner-auth.ts';
import { truncateAddress } from './limits/client-address.ts';
import { registerAssetRoutes } from './routes/assets.ts';
import { registerBillingRoutes } from './routes/billing.ts';
import { registerDocs } from './routes/docs.ts';
import { registerHealthRoutes } from './routes/health.ts';
import { registerPartnerApiRoutes } from './routes/partner-api.ts';
import { registerPhoneRoutes } from './routes/phone.ts';
import { registerWidgetRoutes } from './routes/widget.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** the exact bytes received, for the HMAC body hash (never re-serialised JSON) */
    rawBody: Buffer;
    /** true when a body was sent but is not valid JSON (routes decide what that means) */
    bodyIsInvalidJson: boolean;
  }
}

/** Never logged: secrets, signatures, tokens, grant codes, attestations. */
export const REDACTED_PATHS = [
  'req.headers["x-partner-signature"]',
  'req.headers["x-svc-grant-code"]',
  'req.headers["x-svc-attestation"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.query.pt',
  'secret',
  'token',
  'grant_code',
  'pass_token',
  'attestation',
  'poll_token',
];

export async function createApp(deps: AppDeps, options: { logger?: FastifyServerOptions['logger'] } = {}): Promise<FastifyInstance> {
  const logger = {
    level: deps.config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      // The URL is logged without its query: `pt` (the poll token) travels there. The address is
      // cut to its /24 or /48, so no line links a full address to a request id (DESIGN §8).
      req: (req: FastifyRequest) => ({ method: req.method, url: req.url.split('?')[0], remoteAddress: truncateAddress(req.ip) }),
    },
  };
  const app = Fastify({
    // A caller's logger options (tests: a stream, a level) never drop the redaction or the serializers.
    logger: typeof options.logger === 'object' ? { ...logger, ...options.logger } : (options.logger ?? logger),
    bodyLimit: LIMITS.bodyLimitBytes,
    genReqId: createCorrelationIds(),
    trustProxy: deps.config.trustProxy,
    return503OnClosing: true,
    // Router-level failures (a path parameter over 100 characters, a malformed %-escape) bypass
    // hooks and the error handler: give them a catalogue body and a correlation id too.
    frameworkErrors: (error, request, reply) => {
      const code = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'NOT_FOUND' : 'INVALID_REQUEST';
      request.log.info({ code, cause: error.code }, 'request refused');
      void (reply as unknown as FastifyReply).code(ERRORS[code].status).header('X-SVC-CID', request.id).send(errorBody(code));
    },
  });

  app.decorateRequest('rawBody', null as unknown as Buffer);
  app.decorateRequest('bodyIsInvalidJson', false);
  app.decorateRequest('partner', null);

  // One parser for every content type: keep the raw bytes, parse JSON when it is JSON or the
  // widget's preflight-free text/plain (DESIGN §3). Routes check the content type they require.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    request.rawBody = body;
    if (body.length === 0) return done(null, undefined);
    try {
      done(null, JSON.parse(body.toString('utf8')));
    } catch {
      request.bodyIsInvalidJson = true;
      done(null, undefined);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    request.rawBody = Buffer.alloc(0);
    reply.header('X-SVC-CID', request.id);
  });

  app.setErrorHandler((error: FastifyError | ServiceError | TooManyRequestsError, request, reply) => {
    if (error instanceof ServiceError) {
      if (error.status >= 500) request.log.error({ err: error, code: error.code }, 'request failed');
      else request.log.info({ code: error.code, cause: describeCause(error.cause) }, 'request refused');
      return reply.code(error.status).headers(error.headers).send(errorBody(error.code, error.message));
    }
    if (error instanceof TooManyRequestsError) {
      request.log.info({ code: 'RATE_LIMITED' }, 'rate limit reached');
      return reply.code(429).header('Retry-After', String(error.retryAfterSeconds)).send(tooManyRequestsBody(error.retryAfterSeconds));
    }
    const fastifyCode = (error as FastifyError).code;
    if (fastifyCode === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(413).send(errorBody('PAYLOAD_TOO_LARGE'));
    if ((error as FastifyError).validation) {
      const code = (reply.routeOptions.config as { invalidBodyCode?: 'INVALID_REQUEST' | 'INVALID_JSON' }).invalidBodyCode ?? 'INVALID_REQUEST';
      return reply.code(400).send(errorBody(code, `${ERRORS[code].message} ${error.message}`.slice(0, 300)));
    }
    const status = (error as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      // Framework-level client errors (bad content length, aborted body, …): a documented code, never a 500.
      if (status === 415) return reply.code(415).send(errorBody('UNSUPPORTED_MEDIA_TYPE'));
      if (status === 413) return reply.code(413).send(errorBody('PAYLOAD_TOO_LARGE'));
      if (status === 404) return reply.code(404).send(errorBody('NOT_FOUND'));
      return reply.code(400).send(errorBody('INVALID_REQUEST'));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send(errorBody('INTERNAL_ERROR'));
  });

  app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorBody('NOT_FOUND')));

  await registerDocs(app, deps);
  registerHealthRoutes(app, deps);
  registerPartnerApiRoutes(app, deps);
  registerWidgetRoutes(app, deps);
  registerPhoneRoutes(app, deps);
  registerBillingRoutes(app, deps);
  registerAssetRoutes(app, deps);

  return app;
}

/**
 * Correlation ids: a random per-process prefix and a counter. Unique across instances and
 * restarts without a syscall per request (randomBytes per request cost ~4% of a signed call).
 * They identify a request for support; they are not secrets.
 */
export function createCorrelationIds(): () => string {
  const prefix = randomBytes(6).toString('base64url');
  let counter = 0;
  return () => prefix + (counter++).toString(36).padStart(8, '0');
}

function describeCause(cause: unknown): string | undefined {
  if (cause === undefined) return undefined;
  if (cause instanceof Error) return `${cause.name}: ${cause.message}`;
  return String(cause);
}
