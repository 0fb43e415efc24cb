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
  outbound: Counter<'target' | 'outcome'>;
}

/** What the operator gauges read at each scrape (docs/operations.md "Alerts"). */
export interface ScrapeReadings {
  /** the store answered a read within a second */
  storeUp(): Promise<boolean>;
  /** Redis only: replicas online and acknowledging; null on SQLite (the gauge is then absent) */
  redisReplicas(): Promise<number | null>;
  /** SVC_REDIS_MIN_REPLICAS; null on SQLite */
  redisMinReplicas: number | null;
  /** when each purpose's current signing key was made (ms since the epoch); a purpose without one is left out */
  signingKeysCreated(): Promise<Partial<Record<'attestation' | 'session' | 'private-attestation', number>>>;
  /** the wallet access certificate's leaf notAfter (ms since the epoch); null without one */
  accessCertificateExpiry(): number | null;
}

export interface MetricsOptions {
  /** prom-client's process metrics (CPU, memory, event loop lag, GC); the service turns them on */
  processMetrics?: boolean;
  /** read at each scrape: the long polls this instance holds */
  longPollWaiters?: () => number;
  /** the store, the replicas and the keys, read at each scrape; absent: those gauges are not exported */
  readings?: ScrapeReadings;
}

/**
 * prom-client's defaults that `promtool check metrics` refuses (a gauge named `_total`); their
 * unsuffixed twins (`nodejs_active_handles` etc., by type) stay and carry the same counts.
 */
const REFUSED_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/**
 * @example const metrics = createServiceMetrics({ processMetrics: true }); await metrics.registry.metrics()
 */
export function createServiceMetrics(options: MetricsOptions = {}): ServiceMetrics {
  const registry = new Registry();
  if (options.processMetrics) {
    collectDefaultMetrics({ register: registry });
    for (const name of REFUSED_DEFAULTS) registry.removeSingleMetric(name);
  }
  const registers = [registry];
  const waiters = options.longPollWaiters;
  if (options.readings) registerReadings(options.readings, registers);
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
    outbound: new Counter({
      name: 'svc_outbound_requests_total',
      help:
        'Outbound calls by target (provider: discovery, JWKS, token, userinfo; status-list) ' +
        'and outcome (ok, failed: no answer or an HTTP error status).',
      labelNames: ['target', 'outcome'],
      registers,
    }),
  };
}

/** The gauges read at scrape time: store up, Redis replicas, signing keys' age, the access certificate's expiry. */
function registerReadings(readings: ScrapeReadings, registers: Registry[]): void {
  new Gauge({
    name: 'svc_store_up',
    help: '1 when the store answered a read within a second at this scrape, 0 when it did not.',
    registers,
    async collect() {
      this.set((await readings.storeUp()) ? 1 : 0);
    },
  });
  if (readings.redisMinReplicas !== null) {
    const minimum = readings.redisMinReplicas;
    new Gauge({
      name: 'svc_redis_min_replicas',
      help: 'SVC_REDIS_MIN_REPLICAS: the replicas every single-use write waits for.',
      registers,
      collect() {
        this.set(minimum);
      },
    });
    new Gauge({
      name: 'svc_redis_replicas_online',
      help: 'Replicas the Redis primary reports online and acknowledging (lag at most 1 s); absent while Redis does not answer.',
      registers,
      async collect() {
        this.reset();
        const online = await readings.redisReplicas().catch(() => null);
        if (online !== null) this.set(online);
      },
    });
  }
  new Gauge({
    name: 'svc_signing_key_created_timestamp_seconds',
    help:
      "When each purpose's current signing key was made (attestation, session, private-attestation); " +
      'a purpose with no current key has no series.',
    labelNames: ['purpose'],
    registers,
    async collect() {
      this.reset();
      const created = await readings.signingKeysCreated().catch(() => ({}));
      for (const [purpose, at] of Object.entries(created)) this.set({ purpose }, at / 1000);
    },
  });
  new Gauge({
    name: 'svc_access_certificate_expiry_timestamp_seconds',
    help: "The wallet access certificate's leaf notAfter; absent without an access certificate.",
    registers,
    collect() {
      this.reset();
      const expiry = readings.accessCertificateExpiry();
      if (expiry !== null) this.set(expiry / 1000);
    },
  });
}
