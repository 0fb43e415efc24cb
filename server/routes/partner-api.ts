import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';

export function registerPartnerApiRoutes(app: FastifyInstance, deps: AppDeps): void {
  void app;
  void deps;
}
