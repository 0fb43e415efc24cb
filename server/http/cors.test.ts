import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import { registerErrorHandling } from './error-handler.ts';
import { PREFLIGHT_MAX_AGE_SECONDS, requestOrigin, type CorsPolicy } from './cors.ts';
import { registerRoutePolicy } from './route-policy.ts';

let app: FastifyInstance;
afterEach(async () => app?.close());

const OPEN: CorsPolicy = { methods: ['GET', 'OPTIONS'], exposeHeaders: ['X-SVC-CID', 'Retry-After'] };

/** Two routes open by their config (GET /open, POST /open/fail) beside one that is not. */
async function makeApp(): Promise<FastifyInstance> {
  app = Fastify();
  // No route here has a rate limit: the store and clock are never read.
  registerRoutePolicy(app, {} as Pick<AppDeps, 'store' | 'clock'>);
  registerErrorHandling(app);
  app.register(async (page) => {
    page.get('/open', { config: { cors: OPEN } }, async (request) => ({ origin: requestOrigin(request) }));
    page.post('/open/fail', { config: { cors: OPEN } }, async () => {
      throw new ServiceError('NOT_FOUND');
    });
  });
  app.get('/closed', async () => ({}));
  await app.ready();
  return app;
}

describe('a route with config.cors', () => {
  it('has its preflight answered with 204, the methods, Content-Type and a max age, and no credentials', async () => {
    await makeApp();
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/open',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, OPTIONS');
    expect(res.headers['access-control-allow-headers']).toBe('Content-Type');
    expect(res.headers['access-control-max-age']).toBe(String(PREFLIGHT_MAX_AGE_SECONDS));
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('answers any origin, errors included, and exposes only the named headers', async () => {
    await makeApp();
    for (const res of [
      await app.inject({ url: '/open', headers: { origin: 'https://shop.example' } }),
      await app.inject({ method: 'POST', url: '/open/fail', headers: { origin: 'https://shop.example' } }),
    ]) {
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-expose-headers']).toBe('X-SVC-CID, Retry-After');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('leaves the routes without it closed, their preflight unanswered', async () => {
    await makeApp();
    expect((await app.inject({ url: '/closed' })).headers['access-control-allow-origin']).toBeUndefined();
    expect((await app.inject({ method: 'OPTIONS', url: '/closed' })).statusCode).toBe(404);
  });
});

describe('requestOrigin', () => {
  it('reads the Origin header, and null when it is missing or empty', async () => {
    await makeApp();
    const origin = async (headers: Record<string, string>) => (await app.inject({ url: '/open', headers })).json();
    expect(await origin({ origin: 'https://shop.example' })).toEqual({ origin: 'https://shop.example' });
    expect(await origin({})).toEqual({ origin: null });
    expect(await origin({ origin: '' })).toEqual({ origin: null });
  });
});
