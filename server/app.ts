/**
 * createApp(deps) builds the Fastify instance; tests use it through `app.inject()` without a
 * port. Cross-cutting concerns live here: correlation ids, log redaction, and the HTTP edge from
 * `http/` (timeouts, body reading with raw-body capture for HMAC, the route policy plugin that
 * applies each route's `config`: no-store by default, rate limit, CORS, error shape; the one
 * error handler, the 404 handler, files sent precompressed by Accept-Encoding), and the telemetry
 * (`telemetry/`: metrics, traces) when `deps.telemetry` asks for it.
 * Each surface registers its own routes; sandbox/'s are loaded in sandbox mode only.
 */
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { randomBytes } from 'node:crypto';
import { LIMITS } from '../src/protocol/wire.ts';
import type { AppDeps } from './deps.ts';
import './auth/partner-auth.ts';
import { registerBodyReading } from './http/body.ts';
import { registerRoutePolicy } from './http/route-policy.ts';
import { registerStaticFiles } from './http/static-files.ts';
import { answerFrameworkError, registerErrorHandling, UNAVAILABLE_RETRY_AFTER_SECONDS } from './http/error-handler.ts';
import { edgeTimeouts } from './http/timeouts.ts';
import { errorBody } from './errors.ts';
import { truncateAddress } from './limits/client-address.ts';
import { registerAssetRoutes } from './routes/assets.ts';
import { registerBillingRoutes } from './routes/billing.ts';
import { registerDocs } from './routes/docs.ts';
import { registerHealthRoutes } from './routes/health.ts';
import { registerPartnerApiRoutes } from './routes/partner-api.ts';
import { registerPartnerRequestRoutes } from './routes/partner-requests.ts';
import { registerPhoneRoutes } from './routes/phone.ts';
import { registerPrivateAttestationRoutes } from './routes/private-attestation.ts';
import { registerWalletRoutes } from './routes/wallet.ts';
import { registerWidgetRoutes } from './routes/widget.ts';
import { registerTelemetry } from './http/telemetry.ts';
import { onOutbound } from './telemetry/outbound.ts';

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
  'vp_token',
];

/** Longest path a log line carries; longer ones end in `…`. */
export const LOGGED_PATH_MAX = 200;

/** The path of a URL as a log line carries it: no query, at most LOGGED_PATH_MAX characters. */
export function loggedPath(url: string): string {
  const path = url.split('?')[0]!;
  return path.length > LOGGED_PATH_MAX ? `${path.slice(0, LOGGED_PATH_MAX)}…` : path;
}

export async function createApp(
  deps: AppDeps,
  options: { logger?: FastifyServerOptions['logger'] } = {},
): Promise<FastifyInstance> {
  const logger = {
    level: deps.config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      // The URL is logged without its query: `pt` (the poll token) travels there, and cut to a few
      // hundred characters: the path is the caller's text (issue 16, finding 6). The address is
      // cut to its /24 or /48, so no line links a full address to a request id (design.md §8).
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: loggedPath(req.url),
        remoteAddress: truncateAddress(req.ip),
      }),
    },
  };
  const app = Fastify({
    // A caller's logger options (tests: a stream, a level) never drop the redaction or the serializers.
    logger: typeof options.logger === 'object' ? { ...logger, ...options.logger } : (options.logger ?? logger),
    bodyLimit: LIMITS.bodyLimitBytes,
    // A request trickling in is cut; a received one (a long poll) may wait for its answer.
    ...edgeTimeouts(deps.config),
    genReqId: createCorrelationIds(),
    trustProxy: deps.config.trustProxy,
    // While closing, the hook below answers with the catalogue's 503 instead of Fastify's own body.
    return503OnClosing: false,
    frameworkErrors: answerFrameworkError,
  });

  app.decorateRequest('partner', null);
  app.decorateRequest('readAhead', null);
  // Metrics and traces (design.md §17), before every other hook and route: the routes get the observed store.
  deps = await registerTelemetry(app, deps);
  const metrics = deps.telemetry?.metrics;
  if (metrics) {
    // design.md §17: identity providers' and status lists' calls, by outcome (telemetry/outbound.ts).
    const stopHearing = onOutbound((target, outcome) => metrics.outbound.inc({ target, outcome }));
    app.addHook('onClose', async () => stopHearing());
  }
  registerBodyReading(app);
  // Before any route: each route's config says its caching, rate limit, CORS and error shape (http/route-policy.ts).
  registerRoutePolicy(app, deps);
  // Draining (design.md §23, SIGTERM: server/main.ts): the listener is closed, but a request that
  // arrives on a kept-alive connection is served, as one already in flight is (the proxy sent it and
  // may not send a POST twice); every answer ends its connection, so the proxy opens its next one to
  // another instance. Closing (the app itself, once the drain is over): a request that still arrives
  // is sent to retry elsewhere.
  let draining = deps.longPolls.stopping.aborted;
  deps.longPolls.stopping.addEventListener('abort', () => (draining = true), { once: true });
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    draining = true;
  });
  // A callback, not an async function: no promise on every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-SVC-CID', request.id);
    if (!closing) return done();
    reply
      .code(503)
      .header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
      .header('Connection', 'close')
      .send(errorBody('SERVICE_UNAVAILABLE'));
  });
  // Every answer sent while draining (the long polls answered at once included) ends its connection.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('Connection', 'close');
    done(null, payload);
  });
  registerErrorHandling(app);

  await registerDocs(app, deps);
  registerHealthRoutes(app, deps);
  registerPartnerApiRoutes(app, deps);
  registerWidgetRoutes(app, deps);
  registerPartnerRequestRoutes(app, deps);
  registerPhoneRoutes(app, deps);
  // The persona picker (design.md §4) exists in sandbox only: a production process never loads it.
  if (deps.config.mode === 'sandbox') {
    const sandbox = (await import('./sandbox/deps.ts')).loadSandboxDeps();
    (await import('./sandbox/phone-routes.ts')).registerSandboxPhoneRoutes(app, { ...deps, ...sandbox });
    // design.md §15: the status list the sandbox credentials point to.
    (await import('./sandbox/status-routes.ts')).registerSandboxStatusRoutes(app, deps);
  }
  registerWalletRoutes(app, deps);
  registerBillingRoutes(app, deps);
  registerPrivateAttestationRoutes(app, deps);
  await registerStaticFiles(app);
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
