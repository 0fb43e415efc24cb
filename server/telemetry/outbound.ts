/**
 * The span of one outbound call (design.md §17): an identity provider's endpoints (through
 * providers/capped-fetch.ts, openid-client's customFetch) and status lists (wallet/status-list.ts).
 * It names the kind of target and, for an HTTP answer, its status: never the URL, which names the
 * issuer's host and may carry a state or code. Without a registered tracer provider this is
 * OpenTelemetry's no-op tracer: nothing is recorded.
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { TRACER_NAME } from './telemetry.ts';

export type OutboundTarget = 'provider' | 'status-list';

/**
 * @example const response = await traceOutbound('provider', () => fetch(url, init))
 */
export async function traceOutbound<T>(target: OutboundTarget, call: () => Promise<T>): Promise<T> {
  const span = trace.getTracer(TRACER_NAME).startSpan(`fetch ${target}`, {
    kind: SpanKind.CLIENT,
    attributes: { 'svc.fetch.target': target },
  });
  try {
    const result = await call();
    if (result instanceof Response) span.setAttribute('http.response.status_code', result.status);
    return result;
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}
