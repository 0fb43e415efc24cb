import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { checkHealth, checkReadiness } from '../domain/index.ts';

/**
 * GET /healthz: 200 while the service and its store answer, 503 otherwise. GET /readyz (design.md
 * §17): 200 `{status: "ready", checks}` when the store answers within 1 s and the signing keys are
 * loaded, else 503 `{status: "unavailable", checks}` naming the check that failed. Probes call
 * them every few seconds, so their requests log at warn and above only (docs/operations.md,
 * "Health and readiness"): no info line per probe, a failing check still logged.
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

  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    const readiness = await checkReadiness(deps);
    if (readiness.status === 'ready') return readiness;
    app.log.warn({ checks: readiness.checks }, 'not ready');
    return reply.code(503).send(readiness);
  });
}
