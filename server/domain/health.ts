/**
 * Liveness and readiness (docs/operations.md, "Health and readiness"). GET /healthz: the service
 * answers and its store answers a read. GET /readyz (design.md §17): the store answers within
 * READY_TIMEOUT_MS and the signing keys are loaded; a probe never waits longer than that.
 */
import type { AppDeps } from '../deps.ts';

export interface Health {
  status: 'ok';
  mode: AppDeps['config']['mode'];
  store: AppDeps['store']['kind'];
}

/** How long /readyz waits for the store and the keys before it answers 503. */
export const READY_TIMEOUT_MS = 1_000;

export type ReadinessCheck = 'store' | 'signing_keys';

export interface Readiness {
  status: 'ready' | 'unavailable';
  /** each check: true when it passed within the timeout */
  checks: Record<ReadinessCheck, boolean>;
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

/** true when `check` resolves to true within `timeoutMs`; false when it rejects, answers false or is late. */
async function passesWithin(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([check().catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Both checks at once, each bounded by `timeoutMs` (real time, not the app's clock: a probe's wait).
 *
 * @example await checkReadiness(deps) // { status: 'ready', checks: { store: true, signing_keys: true } }
 */
export async function checkReadiness(
  deps: Pick<AppDeps, 'store' | 'blind'>,
  timeoutMs: number = READY_TIMEOUT_MS,
): Promise<Readiness> {
  const [store, keys] = await Promise.all([
    passesWithin(() => deps.store.getPartner('__readyz__').then(() => true), timeoutMs),
    passesWithin(() => deps.blind.hasSigningKeys(), timeoutMs),
  ]);
  return { status: store && keys ? 'ready' : 'unavailable', checks: { store, signing_keys: keys } };
}
