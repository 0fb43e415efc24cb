/**
 * What the service observes itself with (design.md §17): Prometheus metrics when a metrics
 * listener is configured, OpenTelemetry spans when an OTLP endpoint is. Absent from AppDeps, the
 * app observes nothing and pays nothing (no wrapper around the store, no hook).
 */
import { trace, type Tracer } from '@opentelemetry/api';
import { createServiceMetrics, type MetricsOptions, type ServiceMetrics } from './metrics.ts';

export interface Telemetry {
  /** null: no metrics (SVC_METRICS_PORT unset) */
  metrics: ServiceMetrics | null;
  /** null: no spans (OTEL_EXPORTER_OTLP_ENDPOINT unset) */
  tracer: Tracer | null;
}

/** The instrumentation scope every span of ours carries. */
export const TRACER_NAME = 'svc';

/**
 * @example const telemetry = createTelemetry({ metrics: { processMetrics: true }, tracing: false })
 */
export function createTelemetry(options: { metrics?: MetricsOptions | false; tracing?: boolean }): Telemetry {
  return {
    metrics: options.metrics === false || options.metrics === undefined ? null : createServiceMetrics(options.metrics),
    tracer: options.tracing ? trace.getTracer(TRACER_NAME) : null,
  };
}
