import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';

export function registerBillingRoutes(app: FastifyInstance, deps: AppDeps): void {
  void app;
  void deps;
}
