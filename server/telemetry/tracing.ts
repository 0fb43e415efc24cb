/**
 * OpenTelemetry traces (design.md §17, docs/operations.md "Traces"): off unless
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set, then spans go out over OTLP/http (the exporter reads the
 * standard `OTEL_EXPORTER_OTLP_*` variables itself). Whatever instrumentation put on a span, what
 * leaves the process passes `allowlistSpans`: its attributes are cut to SPAN_ATTRIBUTES, its
 * events (an exception's message and stack) and its status message are dropped. `@fastify/otel`
 * records the raw path (`url.path`: request ids, and once the poll token in a query) and that
 * never leaves.
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';

/**
 * The only span attributes exported: route templates, methods, statuses, the store's kind and
 * operation, an outbound call's target kind. No identifier, token, code, claim or address fits
 * any of them.
 */
export const SPAN_ATTRIBUTES: ReadonlySet<string> = new Set([
  'http.route',
  'http.request.method',
  'http.response.status_code',
  'svc.store.kind',
  'svc.store.operation',
  'svc.fetch.target',
]);

/** `span` as it may leave the process: allowlisted attributes, no events, no status message. */
function redactSpan(span: ReadableSpan): ReadableSpan {
  const attributes = Object.fromEntries(Object.entries(span.attributes).filter(([name]) => SPAN_ATTRIBUTES.has(name)));
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: { code: span.status.code },
    attributes,
    links: span.links.map((link) => ({ context: link.context })),
    events: [],
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount + span.events.length,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/**
 * `inner`, receiving only redacted spans.
 *
 * @example new BatchSpanProcessor(allowlistSpans(new OTLPTraceExporter()))
 */
export function allowlistSpans(inner: SpanExporter): SpanExporter {
  return {
    export: (spans, done) => inner.export(spans.map(redactSpan), done),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

/**
 * A tracer provider whose spans reach `exporter` through the allowlist, registered as the
 * process's global one (with the async-hooks context manager, so a store call's span is a child
 * of its request's). `batch: false` exports each span as it ends (tests).
 *
 * @example const provider = registerTracing(new InMemorySpanExporter(), { batch: false })
 */
export function registerTracing(
  exporter: SpanExporter,
  options: { batch?: boolean; serviceName?: string } = {},
): NodeTracerProvider {
  const redacting = allowlistSpans(exporter);
  const processor: SpanProcessor =
    options.batch === false ? new SimpleSpanProcessor(redacting) : new BatchSpanProcessor(redacting);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName ?? 'svc' }),
    spanProcessors: [processor],
  });
  provider.register();
  return provider;
}

/**
 * The service's tracing from its environment: null (off) without `OTEL_EXPORTER_OTLP_ENDPOINT`,
 * else an OTLP/http exporter behind the allowlist. `OTEL_SERVICE_NAME` names the service (`svc`).
 *
 * @example const tracing = startTracing(process.env) // in main.ts, before createApp
 */
export function startTracing(env: NodeJS.ProcessEnv): NodeTracerProvider | null {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  return registerTracing(new OTLPTraceExporter(), { serviceName: env.OTEL_SERVICE_NAME || 'svc' });
}
