/** Readiness (GET /healthz): the service is ready once its store answers. */
import type { AppDeps } from '../deps.ts';

export interface Health {
  status: 'ok';
  mode: AppDeps['config']['mode'];
  store: AppDeps['store']['kind'];
}

/**
 * Resolves when the store answers a read; rejects with the store's error otherwise.
 *
 * @example await checkHealth(deps) // { status: 'ok', mode: 'sandbox', store: 'sqlite' }
 */
export async function checkHealth(deps: Pick<AppDeps, 'store' | 'config'>): Promise<Health> {
  await deps.store.getPartner('__healthz__');
  return { status: 'ok', mode: deps.config.mode, store: deps.store.kind };
}
