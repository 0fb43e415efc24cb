import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';

/** GET /healthz: 200 once the service is ready (store answering), 503 otherwise. */
export function registerHealthRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/healthz', async (_request, reply) => {
    try {
      await deps.store.getPartner('__healthz__');
      return { status: 'ok', mode: deps.config.mode, store: deps.store.kind };
    } catch (cause) {
      app.log.error({ err: cause }, 'health check failed');
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
}
