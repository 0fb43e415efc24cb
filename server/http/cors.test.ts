import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../errors.ts';
import { registerErrorHandling } from './error-handler.ts';
import { openCors, PREFLIGHT_MAX_AGE_SECONDS, requestOrigin } from './cors.ts';

let app: FastifyInstance;
afterEach(async () => app?.close());

/** A page-facing scope opened by openCors (GET /open, POST /open/fail) beside a route it does not cover. */
async function makeApp(): Promise<FastifyInstance> {
  app = Fastify();
  registerErrorHandling(app);
  app.register(async (page) => {
    openCors(page, { paths: ['/open'], methods: ['GET', 'OPTIONS'], exposeHeaders: ['X-SVC-CID', 'Retry-After'] });
    page.get('/open', async (request) => ({ origin: requestOrigin(request) }));
    page.post('/open/fail', async () => {
      throw new ServiceError('NOT_FOUND');
    });
  });
  app.get('/closed', async () => ({}));
  await app.ready();
  return app;
}

describe('openCors', () => {
  it('answers the preflight with 204, the methods, Content-Type and a max age, and no credentials', async () => {
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

  it('opens every answer of its scope to any origin, errors included, and exposes only the named headers', async () => {
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

  it('leaves the routes outside its scope closed, their preflight unanswered', async () => {
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
