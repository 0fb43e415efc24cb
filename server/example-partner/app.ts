/**
 * The example partner: a small shop site and its backend, on its own origin, built on the
 * partner SDK only. The secret stays here; the browser only ever sees the partner ID.
 *
 * Each surface is one route file (`routes/*.ts`) exporting a `PartnerRoutes` function (see
 * context.ts) plus its HTML in `public/`; adding a page is one more file in `PAGE_ROUTES` below.
 */
import compress from '@fastify/compress';
import { randomBytes } from 'node:crypto';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createPartnerClient, type PartnerClientOptions } from '../sdk/index.ts';
import type { PartnerContext, PartnerRoutes } from './context.ts';
import { createPageRenderer } from './pages.ts';
import { createExchangeMemory } from './results.ts';
import { registerBackendRoutes } from './routes/backend.ts';
import { createBlindPages, type BlindPagesOptions } from './routes/blind.ts';
import { createPrivatePages, type PrivatePagesOptions } from './routes/private.ts';
import { registerStandardPages } from './routes/standard.ts';
import { createSessionCookies } from './session.ts';

export interface PartnerAppOptions {
  /** the port this site is reached on; its origin is http://localhost:<partnerPort> */
  partnerPort: number;
  /** the service's base URL: loader ({widget_url}), partner API ({api_url}), billing ({app_url}) */
  serviceUrl: string;
  /** the partner API base when it differs from serviceUrl */
  apiUrl?: string;
  /** STANDARD credentials, pk_test_demo from fixtures/partners.json by default (see main.ts) */
  partner: { id: string; secret: string };
  logger?: FastifyServerOptions['logger'];
  /**
   * HMAC key of the session cookie (≥ 32 bytes; PARTNER_COOKIE_SECRET in main.ts). Random per
   * start when absent, which logs every visitor out on a restart: fine for the example only.
   */
  cookieSecret?: string | Buffer;
  /** clock for the exchange memory; tests pass a fake one */
  now?: () => number;
  /** the ADULT_BLIND pages (/blind…) and their partner, pk_test_blind_shop in the fixtures; none when absent */
  blind?: BlindPagesOptions;
  /** the private ADULT_BLIND pages (/private…), pk_test_blind_private in the fixtures; none when absent */
  private?: PrivatePagesOptions;
  /** passed to the SDK client (tests inject `sleep` so retries do not wait) */
  clientOptions?: Pick<PartnerClientOptions, 'fetch' | 'sleep' | 'clock' | 'timeoutMs'>;
}

/** One entry per surface. */
const PAGE_ROUTES: readonly PartnerRoutes[] = [registerStandardPages, registerBackendRoutes];

/**
 * Builds the example partner's Fastify app (not listening: main.ts or a test does that).
 *
 * @example
 * const app = await createPartnerApp({
 *   partnerPort: 8788,
 *   serviceUrl: 'http://localhost:8787',
 *   partner: { id: 'pk_test_demo', secret: 'BwcH…' },
 * });
 * await app.listen({ port: 8788, host: '127.0.0.1' });
 */
export async function createPartnerApp(options: PartnerAppOptions): Promise<FastifyInstance> {
  const serviceUrl = options.serviceUrl.replace(/\/+$/, '');
  const apiUrl = (options.apiUrl ?? serviceUrl).replace(/\/+$/, '');
  const app = Fastify({
    logger: options.logger ?? false,
    // Its few pages would drown the service's lines in `npm start`; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 16 * 1024,
  });

  // Pages are filled in per request (pages.ts), so they are compressed as they go, not ahead:
  // brotli or gzip by Accept-Encoding, answers under 1 KB as they are. No request body is inflated.
  await app.register(compress, { encodings: ['br', 'gzip'], globalDecompression: false });

  const context: PartnerContext = {
    origin: `http://localhost:${options.partnerPort}`,
    serviceUrl,
    apiUrl,
    partner: Object.freeze({ ...options.partner }),
    client: createPartnerClient({
      ...options.clientOptions,
      apiUrl,
      appUrl: serviceUrl,
      partnerId: options.partner.id,
      secret: options.partner.secret,
    }),
    exchanges: createExchangeMemory({ now: options.now ?? Date.now }),
    sessions: createSessionCookies({ secret: options.cookieSecret ?? randomBytes(32) }),
    pages: createPageRenderer({ serviceOrigin: new URL(serviceUrl).origin }),
  };

  // Probed every few seconds (npm start, a load balancer): no info line per probe.
  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  // Pages name /assets/favicon.svg; a browser still asks for /favicon.ico on a page without one
  // (a JSON answer, /healthz): nothing to show, and no 404 in its console.
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).header('Cache-Control', 'max-age=86400').send());
  app.get<{ Params: { file: string } }>('/assets/:file', async (request, reply) => {
    const asset = context.pages.asset(request.params.file);
    if (!asset) return reply.code(404).send({ error: 'NOT_FOUND', message: 'Not found.' });
    return reply.header('Content-Type', asset.contentType).header('Cache-Control', 'no-cache').send(asset.body);
  });
  for (const register of PAGE_ROUTES) register(app, context);
  if (options.blind) createBlindPages(options.blind)(app, context);
  if (options.private) createPrivatePages(options.private)(app, context);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'NOT_FOUND', message: 'Not found.' }));
  // A body Fastify's JSON parser refuses (malformed, or a `__proto__` key or a `constructor` with a
  // `prototype`, which its secure-json-parse rejects by default) is the caller's mistake: 400 in the
  // routes' own shape. Anything else goes on to Fastify's default handler.
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply
        .code(status)
        .send({ verified: false, error: 'INVALID_REQUEST', message: 'The request body is invalid.' });
    }
    return reply.send(error);
  });

  return app;
}
