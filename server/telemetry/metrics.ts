/**
 * The service's Prometheus metrics (design.md §17, docs/operations.md "Metrics"), in a registry of
 * their own (never prom-client's global one, so two apps in one process never mix). Every label
 * takes its value from a closed set the code owns: route templates, HTTP methods and statuses,
 * catalogue codes, rate-limit rule names, wallet check names, store operations, verification
 * methods and fail reasons, and identity provider names (bounded by onboarding). None ever holds a
 * request id, token, code, nonce, address or claim.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds; a long poll waits up to 25 s, so the top buckets reach past it. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds; a store call is a round trip to Redis or a local SQLite statement. */
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 2.5];

export type VerificationEvent = 'created' | 'opened' | 'completed' | 'failed' | 'expired';

export interface ServiceMetrics {
  registry: Registry;
  httpDuration: Histogram<'route' | 'method' | 'status'>;
  verifications: Counter<'event' | 'method' | 'reason'>;
  partnerApi: Counter<'route' | 'outcome'>;
  longPollWaiters: Gauge;
  storeDuration: Histogram<'store' | 'operation'>;
  storeErrors: Counter<'store' | 'operation'>;
  rateLimited: Counter<'limit'>;
  walletChecksFailed: Counter<'check'>;
  providerLogins: Counter<'provider' | 'outcome'>;
}

export interface MetricsOptions {
  /** prom-client's process metrics (CPU, memory, event loop lag, GC); the service turns them on */
  processMetrics?: boolean;
  /** read at each scrape: the long polls this instance holds */
  longPollWaiters?: () => number;
}

/**
 * @example const metrics = createServiceMetrics({ processMetrics: true }); await metrics.registry.metrics()
 */
export function createServiceMetrics(options: MetricsOptions = {}): ServiceMetrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const waiters = options.longPollWaiters;
  return {
    registry,
    httpDuration: new Histogram({
      name: 'svc_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route template, method and status.',
      labelNames: ['route', 'method', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    }),
    verifications: new Counter({
      name: 'svc_verifications_total',
      help: 'Verification requests by lifecycle event (created, opened, completed, failed, expired), method and fail reason.',
      labelNames: ['event', 'method', 'reason'],
      registers,
    }),
    partnerApi: new Counter({
      name: 'svc_partner_api_total',
      help: 'Signed partner API calls by route template and outcome (OK or the catalogue error code).',
      labelNames: ['route', 'outcome'],
      registers,
    }),
    longPollWaiters: new Gauge({
      name: 'svc_long_poll_waiters',
      help: 'Long polls this instance holds open now.',
      registers,
      collect() {
        if (waiters) this.set(waiters());
      },
    }),
    storeDuration: new Histogram({
      name: 'svc_store_operation_duration_seconds',
      help: 'Time a store call took, by store (sqlite, redis) and operation.',
      labelNames: ['store', 'operation'],
      buckets: STORE_BUCKETS,
      registers,
    }),
    storeErrors: new Counter({
      name: 'svc_store_errors_total',
      help: 'Store calls that failed (unreachable, timed out, refused), by store and operation.',
      labelNames: ['store', 'operation'],
      registers,
    }),
    rateLimited: new Counter({
      name: 'svc_rate_limited_total',
      help: 'Requests refused with 429 by a rate limit, by limit name.',
      labelNames: ['limit'],
      registers,
    }),
    walletChecksFailed: new Counter({
      name: 'svc_wallet_checks_failed_total',
      help: 'Wallet answers refused, by the check that refused them.',
      labelNames: ['check'],
      registers,
    }),
    providerLogins: new Counter({
      name: 'svc_provider_logins_total',
      help: 'Identity provider callbacks, by provider name and outcome.',
      labelNames: ['provider', 'outcome'],
      registers,
    }),
  };
}
