/**
 * The span of one outbound call (design.md §17): an identity provider's endpoints (through
 * providers/capped-fetch.ts, openid-client's customFetch) and status lists (wallet/trust/status-list.ts).
 * It names the kind of target and, for an HTTP answer, its status: never the URL, which names the
 * issuer's host and may carry a state or code. Without a registered tracer provider this is
 * OpenTelemetry's no-op tracer: nothing is recorded. Each call's outcome also goes to the
 * listeners `onOutbound` registered (the metrics' `svc_outbound_requests_total`): `failed` when
 * no answer came or its status was an HTTP error (400 and above).
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { TRACER_NAME } from './telemetry.ts';

export type OutboundTarget = 'provider' | 'status-list';
export type OutboundOutcome = 'ok' | 'failed';
type Listener = (target: OutboundTarget, outcome: OutboundOutcome) => void;

/** Process-wide: outbound fetchers are made at boot, before (and apart from) any app's telemetry. */
const listeners = new Set<Listener>();

/**
 * Hears the outcome of every outbound call from now on; returns what stops it.
 *
 * @example const stop = onOutbound((target, outcome) => metrics.outbound.inc({ target, outcome }))
 */
export function onOutbound(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

function tell(target: OutboundTarget, outcome: OutboundOutcome): void {
  for (const listener of listeners) listener(target, outcome);
}

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
    tell(target, result instanceof Response && result.status >= 400 ? 'failed' : 'ok');
    return result;
  } catch (error) {
    tell(target, 'failed');
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}
