import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';

export async function registerDocs(app: FastifyInstance, deps: AppDeps): Promise<void> {
  void app;
  void deps;
}
