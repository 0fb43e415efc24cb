import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { checkHealth } from '../domain/health.ts';

/**
 * GET /healthz: 200 once the service is ready (store answering), 503 otherwise. Probes call it
 * every few seconds, so its requests log at warn and above only (docs/operations.md, Running the service): no
 * info line per probe, a failing check still logged.
 */
export function registerHealthRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/healthz', { logLevel: 'warn' }, async (_request, reply) => {
    try {
      return await checkHealth(deps);
    } catch (cause) {
      app.log.error({ err: cause }, 'health check failed');
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
}
