/**
 * The blinding chunk's code (src/private/, docs/adult-blind.md#private-attestations) against the
 * real service: the widget's status call for a completed private request comes back with a
 * token the SDK accepts once for the page's redemption context; a second signing is refused and
 * becomes the widget's failed state; and the metrics scrape after the issuances holds no token,
 * nonce or redemption context (docs/privacy.md), in any usual encoding or digested.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WidgetVerifyStatus } from '../src/protocol/wire.ts';
import { attestPrivately } from '../src/private/attest.ts';
import { interceptStatus } from '../src/private/intercept.ts';
import { PrivateAttestationError, verifyPrivateAttestation } from './sdk/private-attestation.ts';
import { listenForMetrics, type MetricsListener } from './telemetry/metrics-listener.ts';
import { createTelemetry } from './telemetry/telemetry.ts';
import { makeTestApp, makeTestDeps, type TestApp } from './test/helpers.ts';
import { fetchPrivateKeySet } from './test/private-client.ts';
import { completeOnPhone, startBlindFlow, type Flow } from './test/verify-flow.ts';

/** What the widget's page sees as the service's origin. */
const SERVICE = 'https://svc.test';

// One app for every test: its first key set (four RSA keys) takes a second or two to make.
let t: TestApp;
let listener: MetricsListener;
beforeAll(async () => {
  const telemetry = await createTelemetry({ metrics: { processMetrics: false, longPollWaiters: () => 0 } });
  const { deps } = await makeTestDeps();
  t = await makeTestApp({ deps: { ...deps, telemetry } });
  listener = await listenForMetrics(telemetry.metrics!.registry, { port: 0, host: '127.0.0.1' });
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  await listener?.close();
  await t?.close();
});

/** A fetch that the real app answers in process (app.inject), as the browser would reach it. */
function fetchFrom(app: TestApp['app']): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const res = await app.inject({
      method: (init?.method ?? 'GET') as 'GET' | 'POST',
      url: url.pathname + url.search,
      headers: init?.body ? { 'content-type': 'text/plain;charset=UTF-8' } : {},
      payload: init?.body as string | undefined,
    });
    return new Response(res.body, { status: res.statusCode, headers: { 'content-type': 'application/json' } });
  };
}

async function statusThrough(fetchFn: typeof fetch, flow: Flow): Promise<WidgetVerifyStatus> {
  const url = `${SERVICE}/api/w/verify-status/${flow.requestId}?pt=${encodeURIComponent(flow.pollToken)}&wait=0`;
  return (await (await fetchFn(url, { credentials: 'omit' })).json()) as WidgetVerifyStatus;
}

async function completedPrivateFlow(app: TestApp): Promise<Flow> {
  const flow = await startBlindFlow(app, { attestation: 'private' });
  expect((await completeOnPhone(app, flow)).statusCode).toBe(200);
  return flow;
}

describe('the blinding chunk against the service', () => {
  it('turns a completed private status into a token the SDK accepts once for the page, and nothing else', async () => {
    const keys = await fetchPrivateKeySet(t);
    const secrets: string[] = [];
    const used = new Set<string>();
    const consumeContext = (context: string) => !used.has(context) && !!used.add(context);

    for (let i = 0; i < 3; i++) {
      const context = randomBytes(32).toString('base64url');
      const widgetFetch = interceptStatus(fetchFrom(t.app), SERVICE, () => context);
      const flow = await completedPrivateFlow(t);
      const status = await statusThrough(widgetFetch, flow);
      expect(status.status).toBe('completed');
      const attestation = (status.result as { attestation: string }).attestation;
      const verified = await verifyPrivateAttestation(attestation, {
        redemptionContext: context,
        keys,
        consumeContext,
      });
      expect(verified).toMatchObject({ adult: true, scopeMask: 1, epoch: keys.keys[0]!.epoch });
      // the same status asked again (a resume) gives the same token, signed once
      expect(await statusThrough(widgetFetch, flow)).toEqual(status);
      await expect(
        verifyPrivateAttestation(attestation, { redemptionContext: context, keys, consumeContext }),
      ).rejects.toMatchObject({ code: 'REUSED' });
      const token = Buffer.from(attestation.split('.')[0]!, 'base64url');
      secrets.push(context, attestation, ...[token, token.subarray(2, 34)].flatMap(forms));
      secrets.push(...forms(Buffer.from(context, 'base64url')));
    }

    const scrape = await (await fetch(listener.url)).text();
    expect(scrape).toMatch(/private-attestation/);
    expect(secrets.filter((secret) => scrape.includes(secret))).toEqual([]);
  });

  it('makes a request whose token was already signed a failed status, with the catalogue code in the console', async () => {
    const flow = await completedPrivateFlow(t);
    const context = randomBytes(32).toString('base64url');
    const first = await statusThrough(
      interceptStatus(fetchFrom(t.app), SERVICE, () => context),
      flow,
    );
    expect(first.result).toHaveProperty('attestation');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // another page (another chunk) asking for the same request: the service signs once
    const again = await statusThrough(
      interceptStatus(fetchFrom(t.app), SERVICE, () => context),
      flow,
    );
    expect(again).toEqual({ status: 'failed', expires_at: first.expires_at, reason: 'failed' });
    expect(errors).toHaveBeenCalledWith('[svc]', 'ATTESTATION_NOT_ISSUABLE', expect.stringContaining('409'));
  });

  it('refuses to blind without a redemption context, and passes every other call through untouched', async () => {
    const flow = await completedPrivateFlow(t);
    const attest = vi.fn(attestPrivately);
    const widgetFetch = interceptStatus(fetchFrom(t.app), SERVICE, () => undefined, attest);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await statusThrough(widgetFetch, flow)).toMatchObject({ status: 'failed', reason: 'failed' });
    expect(attest).not.toHaveBeenCalled();
    const keysAnswer = await widgetFetch(`${SERVICE}/api/billing/private-attestation-keys`);
    expect(await keysAnswer.json()).toHaveProperty('issuer_name');
    // another origin's status path is not the widget's
    const other = interceptStatus(
      async () => new Response('{"result":{"private_attestation":{"scope_mask":1}}}'),
      SERVICE,
      () => 'x',
    );
    expect(await (await other(`https://elsewhere.test/api/w/verify-status/r?pt=p`)).json()).toEqual({
      result: { private_attestation: { scope_mask: 1 } },
    });
  });

  it('is refused by the SDK for another page’s context', async () => {
    const keys = await fetchPrivateKeySet(t);
    const flow = await completedPrivateFlow(t);
    const context = randomBytes(32).toString('base64url');
    const status = await statusThrough(
      interceptStatus(fetchFrom(t.app), SERVICE, () => context),
      flow,
    );
    const attestation = (status.result as { attestation: string }).attestation;
    const error = await verifyPrivateAttestation(attestation, {
      redemptionContext: randomBytes(32).toString('base64url'),
      keys,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrivateAttestationError);
    expect(error).toMatchObject({ code: 'WRONG_CONTEXT' });
  });
});

/** A value as it could be written down: hex, base64, base64url, and its SHA-256 in those. */
function forms(bytes: Buffer): string[] {
  const digest = createHash('sha256').update(bytes).digest();
  return [bytes, digest].flatMap((b) => [b.toString('hex'), b.toString('base64'), b.toString('base64url')]);
}
