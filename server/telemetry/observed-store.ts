/**
 * The store as the service observes it (design.md §17): every call timed
 * (`svc_store_operation_duration_seconds`), every rejection counted (`svc_store_errors_total`)
 * and, with tracing on, one span per call made within a request, named after the operation; the
 * lifecycle events of verification requests (`svc_verifications_total`) and the rate-limit refusals
 * (`svc_rate_limited_total`) are read off what the store acknowledged, so no use case carries
 * counting code. Labels and span attributes hold the store kind, the operation and values from
 * closed sets (methods, fail reasons, rule names); never a key, id or digest.
 */
import { SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { RATE_LIMITS, SESSION_TOKEN_LIMIT } from '../limits/rate-limits.ts';
import { effectiveStatus } from '../rules/effective-status.ts';
import type { CounterHit, Store, VerifyRequestPatch, VerifyRequestRecord } from '../store/store.ts';
import type { VerificationEvent } from './metrics.ts';
import type { Telemetry } from './telemetry.ts';

/** Not timed: a long poll's wait lasts as long as the phone takes; closing is not a call; a scrape's replica count is not a request's. */
const UNTIMED = new Set(['waitForRequestChange', 'close', 'replicasOnline']);

/** Counter name (the key's prefix, limits/rate-limits.ts) → the most hits it allows. */
const LIMIT_OF_COUNTER = new Map<string, number>([
  ...[...Object.values(RATE_LIMITS), SESSION_TOKEN_LIMIT].map((rule) => [rule.name, rule.max] as const),
]);

/** Request ids already counted as expired by this process; bounded, oldest forgotten first. */
const EXPIRED_MEMORY = 10_000;

/**
 * @example deps.store = observeStore(deps.store, telemetry)
 */
export function observeStore(store: Store, telemetry: Telemetry): Store {
  const { metrics, tracer } = telemetry;
  const kind = store.kind;
  const countedExpired = new Set<string>();

  const countEvent = (event: VerificationEvent, record: Pick<VerifyRequestRecord, 'method' | 'reason'>) =>
    metrics?.verifications.inc({ event, method: record.method ?? 'none', reason: record.reason ?? 'none' });

  /** What an acknowledged call tells about verifications and rate limits. */
  const noteResult = (operation: string, args: unknown[], result: unknown): void => {
    if (!metrics) return;
    if (operation === 'createRequest') countEvent('created', args[0] as VerifyRequestRecord);
    else if (operation === 'updateRequest' && result) {
      const status = (args[2] as VerifyRequestPatch).status;
      const record = result as VerifyRequestRecord;
      if (status === 'in_progress') countEvent('opened', { method: null, reason: null });
      else if (status === 'completed' || status === 'failed') countEvent(status, record);
    } else if (operation === 'getRequest' && result) {
      const record = result as VerifyRequestRecord;
      // Expiry is read, never written: counted the first time this process reads a request past its deadline.
      if (effectiveStatus(record, args[1] as number) === 'expired' && !countedExpired.has(record.id)) {
        if (countedExpired.size >= EXPIRED_MEMORY) countedExpired.delete(countedExpired.values().next().value!);
        countedExpired.add(record.id);
        countEvent('expired', { method: null, reason: null });
      }
    } else if (operation === 'hitCounter') {
      const name = (args[0] as string).slice(0, (args[0] as string).indexOf(':'));
      const max = LIMIT_OF_COUNTER.get(name);
      // Every refused request counts (a surge shows as a rate, not as one event per window).
      if (max !== undefined && (result as CounterHit).count > max) metrics.rateLimited.inc({ limit: name });
    }
  };

  // Defined once, not as a closure per call (each closure is an allocation on every store call).
  const finishCall = (labels: { store: string; operation: string }, started: number, span: Span | undefined) => {
    metrics?.storeDuration.observe(labels, (performance.now() - started) / 1000);
    span?.end();
  };

  /** `operation` called on the store, timed and noted; no async frame of its own (one promise per call). */
  const wrap = (operation: string) => {
    const labels = { store: kind, operation };
    const call = (args: unknown[]) =>
      (store as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[operation]!(...args);
    return (...args: unknown[]): Promise<unknown> => {
      const started = performance.now();
      // Only beneath a request's span: a probe's or a background call would make a root span each.
      const span =
        tracer && trace.getActiveSpan()
          ? tracer.startSpan(`store ${operation}`, {
              attributes: { 'svc.store.kind': kind, 'svc.store.operation': operation },
            })
          : undefined;
      let pending: Promise<unknown>;
      try {
        pending = Promise.resolve(call(args));
      } catch (error) {
        pending = Promise.reject(error);
      }
      return pending.then(
        (result) => {
          try {
            noteResult(operation, args, result);
          } finally {
            finishCall(labels, started, span);
          }
          return result;
        },
        (error: unknown) => {
          metrics?.storeErrors.inc(labels);
          span?.setStatus({ code: SpanStatusCode.ERROR });
          finishCall(labels, started, span);
          throw error;
        },
      );
    };
  };

  // A plain object built once, not a Proxy: a Proxy's trap ran on every store call of every request.
  const observed: Record<string, unknown> = {};
  for (const name of propertyNames(store)) {
    const value = (store as unknown as Record<string, unknown>)[name];
    if (typeof value === 'function') observed[name] = UNTIMED.has(name) ? value.bind(store) : wrap(name);
    else
      Object.defineProperty(observed, name, {
        get: () => (store as unknown as Record<string, unknown>)[name],
        enumerable: true,
      });
  }
  return observed as unknown as Store;
}

/** Every property name of the store, its own and its prototypes' (a class's methods). */
function propertyNames(store: Store): Set<string> {
  const names = new Set<string>();
  for (let at: object | null = store; at !== null && at !== Object.prototype; at = Object.getPrototypeOf(at)) {
    for (const name of Object.getOwnPropertyNames(at)) if (name !== 'constructor') names.add(name);
  }
  return names;
}
