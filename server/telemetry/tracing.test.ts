/**
 * The traces (design.md §17, docs/operations.md "Traces"): a full flow on the real app with an
 * in-memory exporter behind the same allowlist the OTLP exporter sits behind; no span's name,
 * attribute, event or status holds an identifier, token, code, claim or address.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { capResponses } from '../providers/capped-fetch.ts';
import { PARTNERS, makeTestApp, makeTestDeps, signedInject, type TestApp } from '../test/helpers.ts';
import { completeOnPhone, openOnPhone, pollStatus, startStandardFlow } from '../test/verify-flow.ts';
import { createStatusFetcher } from '../wallet/trust/status-list.ts';
import { createTelemetry } from './telemetry.ts';
import { registerTracing, SPAN_ATTRIBUTES } from './tracing.ts';

const exporter = new InMemorySpanExporter();
const provider = registerTracing(exporter, { batch: false });
afterAll(() => provider.shutdown());

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  exporter.reset();
});

/** Everything a span carries as text: its name, attributes, events, status and resource. */
function textOf(span: ReadableSpan): string {
  return JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    events: span.events,
    status: span.status,
    links: span.links,
    resource: span.resource.attributes,
  });
}

describe('traces', () => {
  it('of a full flow carry allowlisted attributes only and none of its ids, tokens, codes, claims or addresses', async () => {
    const { deps } = await makeTestDeps();
    t = await makeTestApp({ deps: { ...deps, telemetry: await createTelemetry({ tracing: true }) } });
    const flow = await startStandardFlow(t);
    expect((await openOnPhone(t, flow)).statusCode).toBe(200);
    expect((await completeOnPhone(t, flow, { persona: 'fr-adult-m' })).statusCode).toBe(200);
    const status = await pollStatus(t, flow);
    const grantCode = (status.result as { grant_code: string }).grant_code;
    const exchanged = await signedInject(t, { url: '/v1/exchange', body: { grant_code: grantCode } });
    const passToken = exchanged.json().pass_token as string;
    const introspected = await signedInject(t, { url: '/v1/introspect', body: { pass_token: passToken } });
    expect(introspected.json()).toMatchObject({ active: true });
    // a refusal too: its error (and the catalogue message) never becomes an event or a status message
    expect((await signedInject(t, { url: '/v1/exchange', body: { grant_code: grantCode } })).statusCode).toBe(401);

    const spans = exporter.getFinishedSpans();
    const secrets = {
      requestId: flow.requestId,
      pollToken: flow.pollToken,
      handoff: flow.handoff,
      grantCode,
      passToken,
      partnerSecret: PARTNERS.demo.secret,
      address: '127.0.0.1',
      // a claim as the introspection carries it
      claim: 'age_over_18',
    };
    for (const span of spans) {
      for (const [what, value] of Object.entries(secrets)) expect(textOf(span).includes(value), what).toBe(false);
      expect(Object.keys(span.attributes).filter((name) => !SPAN_ATTRIBUTES.has(name))).toEqual([]);
      expect(span.events).toEqual([]);
      expect(span.status.message).toBeUndefined();
    }

    // a few span names, each a template: `<method> <route>`, `store <operation>`, `fetch <target>`
    const names = new Set(spans.map((span) => span.name));
    for (const name of names) expect(name).toMatch(/^((GET|POST|OPTIONS) (\/[\w/:.-]*|unmatched)|store [a-zA-Z]+)$/);
    // the routes by their template, the store calls beneath their request
    const requests = spans.filter((span) => 'http.route' in span.attributes);
    expect(names).toContain('GET /api/w/verify-status/:requestId');
    expect(requests.map((span) => span.attributes['http.route'])).toContain('/api/w/verify-status/:requestId');
    expect(requests.every((span) => !('url.path' in span.attributes))).toBe(true);
    const exchange = requests.find((span) => span.attributes['http.route'] === '/v1/exchange')!;
    const consume = spans.find((span) => span.name === 'store rememberNonceAnd')!;
    expect(consume.attributes).toEqual({ 'svc.store.kind': 'sqlite', 'svc.store.operation': 'rememberNonceAnd' });
    expect(consume.spanContext().traceId).toBe(exchange.spanContext().traceId);
  });

  it('give each outbound fetch (identity provider, status list) a span naming its kind and status, never its URL', async () => {
    const server = createServer((_request, response) => response.writeHead(200).end('status list bytes'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const providerFetch = capResponses(async () => new Response('{"access_token":"secret-at"}', { status: 200 }));
      await providerFetch(`http://127.0.0.1:${port}/token?code=the-code`, { method: 'POST' } as Parameters<
        typeof providerFetch
      >[1]);
      const list = `http://127.0.0.1:${port}/lists/7`;
      await createStatusFetcher({ ownLists: [list] })(list);

      const spans = exporter.getFinishedSpans();
      expect(spans.map((span) => [span.name, span.attributes])).toEqual([
        ['fetch provider', { 'svc.fetch.target': 'provider', 'http.response.status_code': 200 }],
        ['fetch status-list', { 'svc.fetch.target': 'status-list' }],
      ]);
      for (const span of spans) expect(textOf(span)).not.toMatch(/127\.0\.0\.1|the-code|lists\/7|secret-at/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('are not recorded at all without telemetry: the app adds no hook and no wrapper', async () => {
    t = await makeTestApp();
    await startStandardFlow(t);
    expect(exporter.getFinishedSpans().filter((span) => span.name.startsWith('store '))).toEqual([]);
    expect(exporter.getFinishedSpans().filter((span) => span.name === 'request')).toEqual([]);
  });
});
