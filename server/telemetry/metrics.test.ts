/**
 * The metrics (design.md §17, docs/operations.md "Metrics"): scraped from their own listener after
 * a full verification on the real app, every label value from an allowlist, and none of the flow's
 * identifiers, tokens, codes or addresses anywhere in the scrape.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/protocol/errors.ts';
import { RATE_LIMITS } from '../limits/rate-limits.ts';
import { PARTNERS, makeTestApp, makeTestDeps, signedInject, type TestApp } from '../test/helpers.ts';
import { completeOnPhone, getStatus, openOnPhone, pollStatus, startStandardFlow } from '../test/verify-flow.ts';
import { WALLET_CHECKS } from '../wallet/answer/verdict.ts';
import { listenForMetrics, type MetricsListener } from './metrics-listener.ts';
import { createTelemetry } from './telemetry.ts';

let t: TestApp | undefined;
let listener: MetricsListener | undefined;
afterEach(async () => {
  await listener?.close();
  await t?.close();
  listener = t = undefined;
});

async function observedApp(): Promise<TestApp & { scrape: () => Promise<string> }> {
  const telemetry = await createTelemetry({ metrics: { processMetrics: true, longPollWaiters: () => 0 } });
  const { deps } = await makeTestDeps();
  t = await makeTestApp({ deps: { ...deps, telemetry } });
  listener = await listenForMetrics(telemetry.metrics!.registry, { port: 0, host: '127.0.0.1' });
  const url = listener.url;
  return { ...t, scrape: async () => (await fetch(url)).text() };
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: string;
}

/** Prometheus text format, one sample a line (our label values never hold quotes or commas). */
function parseScrape(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-z_:][a-z0-9_:]*)(?:\{(.*)\})? (\S+)$/i.exec(line);
      if (!match) throw new Error(`unparsed line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/gi)].map((m) => [m[1]!, m[2]!]),
      );
      return { name: match[1]!, labels, value: match[3]! };
    });
}

const METHODS = new Set(['face_check', 'eudi_wallet', 'none']);
const REASONS = new Set(['failed', 'cancelled', 'claims_missing', 'provider_error', 'none']);
const OUTCOMES = new Set(['OK', 'RATE_LIMITED', ...Object.keys(ERRORS)]);
const LIMITS = new Set([...Object.values(RATE_LIMITS).map((rule) => rule.name), 'widget-create-session']);
const CHECKS = new Set([...Object.keys(WALLET_CHECKS), 'content_type', 'body']);
const HTTP_METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);
/** prom-client's process metrics: their labels name Node's own things (heap spaces, GC kinds, versions). */
const PROCESS_LABELS = new Set(['le', 'quantile', 'version', 'major', 'minor', 'patch', 'space', 'kind', 'type']);

/** Every label of every sample whose value is not one the allowlist knows, as `metric{label="value"}`. */
function unexpectedLabels(samples: Sample[], app: TestApp['app']): string[] {
  const allowed: Record<string, (value: string, labels: Record<string, string>) => boolean> = {
    route: (value, labels) =>
      value === 'unmatched' ||
      (labels.method
        ? app.hasRoute({ url: value, method: labels.method as 'GET' })
        : app.hasRoute({ url: value, method: 'POST' }) || app.hasRoute({ url: value, method: 'GET' })),
    method: (value, labels) => (labels.event ? METHODS.has(value) : HTTP_METHODS.has(value)),
    status: (value) => /^[1-5]\d\d$/.test(value),
    event: (value) => ['created', 'opened', 'completed', 'failed', 'expired'].includes(value),
    reason: (value) => REASONS.has(value),
    outcome: (value, labels) =>
      labels.provider !== undefined
        ? ['approved', 'failed', 'refused', 'unknown_state', 'other_browser', 'finished'].includes(value)
        : OUTCOMES.has(value) || /^HTTP_\d{3}$/.test(value),
    limit: (value) => LIMITS.has(value),
    check: (value) => CHECKS.has(value),
    store: (value) => value === 'sqlite' || value === 'redis',
    operation: (value) => /^[a-z][A-Za-z]+$/.test(value) && value in t!.store,
    provider: (value) => value === 'Example ID' || value === 'unknown',
    le: (value) => /^(\d+(\.\d+)?|\+Inf)$/.test(value),
  };
  const unexpected: string[] = [];
  for (const { name, labels } of samples) {
    for (const [label, value] of Object.entries(labels)) {
      const ok = name.startsWith('svc_')
        ? allowed[label]?.(value, labels)
        : PROCESS_LABELS.has(label) && /^[A-Za-z0-9_.+-]*$/.test(value);
      if (!ok) unexpected.push(`${name}{${label}="${value}"}`);
    }
  }
  return unexpected;
}

/** The value of one sample, 0 when absent. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string>): number {
  const found = samples.find(
    (s) => s.name === name && Object.entries(labels).every(([label, value]) => s.labels[label] === value),
  );
  return found ? Number(found.value) : 0;
}

describe('the metrics listener', () => {
  it('after a full flow scrapes only allowlisted label values and none of the flow’s ids, tokens or addresses', async () => {
    const app = await observedApp();
    const flow = await startStandardFlow(app);
    expect((await openOnPhone(app, flow)).statusCode).toBe(200);
    expect((await completeOnPhone(app, flow)).statusCode).toBe(200);
    const status = await pollStatus(app, flow);
    const grantCode = (status.result as { grant_code: string }).grant_code;
    const exchanged = await signedInject(app, { url: '/v1/exchange', body: { grant_code: grantCode } });
    expect(exchanged.statusCode).toBe(200);
    const passToken = exchanged.json().pass_token as string;
    const introspected = await signedInject(app, { url: '/v1/introspect', body: { pass_token: passToken } });
    expect(introspected.statusCode).toBe(200);
    // a refused exchange (the grant is single use), a wallet answer refused, an unknown path
    expect((await signedInject(app, { url: '/v1/exchange', body: { grant_code: grantCode } })).statusCode).toBe(401);
    const wallet = await app.app.inject({
      method: 'POST',
      url: `/oid4vp/response/${flow.requestId}`,
      headers: { 'content-type': 'text/plain' },
      payload: `vp_token=${passToken}`,
    });
    expect(wallet.statusCode).toBe(400);
    expect((await app.app.inject({ url: `/nowhere/${flow.requestId}?pt=${flow.pollToken}` })).statusCode).toBe(404);

    const text = await app.scrape();
    const samples = parseScrape(text);
    expect(unexpectedLabels(samples, app.app)).toEqual([]);
    const secrets = {
      requestId: flow.requestId,
      pollToken: flow.pollToken,
      handoff: flow.handoff,
      grantCode,
      passToken,
      partnerSecret: PARTNERS.demo.secret,
      address: '127.0.0.1',
    };
    for (const [what, value] of Object.entries(secrets)) expect(text.includes(value), what).toBe(false);

    const verification = (event: string, method = 'none', reason = 'none') =>
      valueOf(samples, 'svc_verifications_total', { event, method, reason });
    expect([verification('created'), verification('opened'), verification('completed', 'face_check')]).toEqual([
      1, 1, 1,
    ]);
    const partner = (route: string, outcome: string) => valueOf(samples, 'svc_partner_api_total', { route, outcome });
    expect([
      partner('/v1/exchange', 'OK'),
      partner('/v1/exchange', 'GRANT_INVALID'),
      partner('/v1/introspect', 'OK'),
    ]).toEqual([1, 1, 1]);
    expect(valueOf(samples, 'svc_wallet_checks_failed_total', { check: 'content_type' })).toBe(1);
    expect(
      valueOf(samples, 'svc_http_request_duration_seconds_count', {
        route: '/api/w/verify-status/:requestId',
        method: 'GET',
        status: '200',
      }),
    ).toBe(1);
    expect(valueOf(samples, 'svc_http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).toBe(1);
    // the three signed calls above, each one store step with its nonce (design.md §23)
    expect(
      valueOf(samples, 'svc_store_operation_duration_seconds_count', {
        store: 'sqlite',
        operation: 'rememberNonceAnd',
      }),
    ).toBe(3);
    expect(samples.some((s) => s.name === 'process_cpu_seconds_total')).toBe(true);
    expect(samples.some((s) => s.name === 'svc_long_poll_waiters')).toBe(true);
  });

  it('counts a rate-limit refusal by its rule and a request read past its deadline as expired, once', async () => {
    const app = await observedApp();
    const flow = await startStandardFlow(app);
    for (let i = 0; i < RATE_LIMITS.verifyStatus.max; i++) await pollStatus(app, flow);
    expect((await getStatus(app, flow.requestId, { pt: flow.pollToken })).statusCode).toBe(429);
    app.clock.advance(app.deps.config.requestTtlMs);
    const other = await startStandardFlow(app);
    app.clock.advance(app.deps.config.requestTtlMs);
    for (let i = 0; i < 3; i++) expect((await pollStatus(app, other)).status).toBe('expired');

    const samples = parseScrape(await app.scrape());
    expect(valueOf(samples, 'svc_rate_limited_total', { limit: 'verify-status' })).toBe(1);
    expect(valueOf(samples, 'svc_verifications_total', { event: 'expired' })).toBe(1);
    expect(valueOf(samples, 'svc_verifications_total', { event: 'created' })).toBe(2);
  });

  it('answers 404 to anything but GET /metrics', async () => {
    await observedApp();
    const base = listener!.url.replace(/\/metrics$/, '');
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});
