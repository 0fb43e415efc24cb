/**
 * What the service observes itself with (design.md §17): Prometheus metrics when a metrics
 * listener is configured, OpenTelemetry spans when an OTLP endpoint is. Absent from AppDeps, the
 * app observes nothing and pays nothing (no wrapper around the store, no hook).
 */
import { trace, type Tracer } from '@opentelemetry/api';
import type { MetricsOptions, ServiceMetrics } from './metrics.ts';

export interface Telemetry {
  /** null: no metrics (SVC_METRICS_PORT unset) */
  metrics: ServiceMetrics | null;
  /** null: no spans (OTEL_EXPORTER_OTLP_ENDPOINT unset) */
  tracer: Tracer | null;
}

/** The instrumentation scope every span of ours carries. */
export const TRACER_NAME = 'svc';

/**
 * prom-client is loaded only when metrics are asked for: a process without them does not pay its
 * load time.
 *
 * @example const telemetry = await createTelemetry({ metrics: { processMetrics: true }, tracing: false })
 */
export async function createTelemetry(options: {
  metrics?: MetricsOptions | false;
  tracing?: boolean;
}): Promise<Telemetry> {
  const wanted = options.metrics === false || options.metrics === undefined ? null : options.metrics;
  return {
    metrics: wanted ? (await import('./metrics.ts')).createServiceMetrics(wanted) : null,
    tracer: options.tracing ? trace.getTracer(TRACER_NAME) : null,
  };
}
