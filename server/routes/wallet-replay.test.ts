/**
 * Through the HTTP surface: a wallet presentation counts only for its own request (design.md §11:
 * the device signature covers this request's SessionTranscript). The captured presentation is
 * posted to other requests on the three wallet routes (the wallet's direct_post, the partner page's
 * and the phone page's Digital Credentials API answers), in sandbox and production, on SQLite and
 * on a real Redis, for a STANDARD and an ADULT_BLIND client-proof [isAdult] request; each is
 * refused and the request stays waiting. The verifier's own cases are in
 * server/wallet/formats/device-auth.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { createFakeClock } from '../clock.ts';
import { openRedisStore } from '../store/redis.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { Store } from '../store/store.ts';
import {
  liveIdOf,
  makeProductionTestDeps,
  makeTempDir,
  makeTestDeps,
  PARTNERS,
  type TestApp,
  type TestDeps,
} from '../test/helpers.ts';
import { startRedisServer } from '../test/redis-server.ts';
import { PARTNER_ORIGIN, pollStatus, startBlindFlow, startStandardFlow, type Flow } from '../test/verify-flow.ts';
import { sealDcResponse } from '../wallet/answer/hpke.ts';
import { CREDENTIAL_QUERY_ID, DC_API_PROTOCOL } from '../wallet/profile.ts';
import { createIssuerCertificates, loadSandboxIssuer, type SandboxIssuer } from '../sandbox/wallet/sandbox-issuer.ts';
import { createDcApiCredential, createDeviceResponse, createDirectPost } from '../sandbox/wallet/sandbox-wallet.ts';
import { createDcapiSessionTranscript } from '../wallet/formats/session-transcript.ts';

const redis = await startRedisServer();
const folder = makeTempDir('svc-replay-');
afterAll(async () => {
  await redis.remove();
  folder.remove();
});

// A production deployment trusts its own IACA bundle (SVC_WALLET_TRUST), never the sandbox one.
const productionIssuer = await createIssuerCertificates({
  name: 'Replay Test',
  country: 'FR',
  notBefore: new Date(Date.UTC(2025, 0, 1)),
  notAfter: new Date(Date.UTC(2035, 0, 1)),
});
const productionTrust = join(folder.path, 'iaca.pem');
writeFileSync(productionTrust, productionIssuer.iaca.toString('pem') + '\n');

let prefixes = 0;
const STORES: Record<string, () => Promise<Store>> = {
  SQLite: async () => openSqliteStore(':memory:'),
  Redis: () => openRedisStore({ url: redis.url, prefix: `replay-${++prefixes}:`, notice: () => {} }),
};

interface Mode {
  deps: (store: Store) => Promise<TestDeps>;
  issuer: SandboxIssuer;
  partnerId: string;
}

const MODES: Record<string, Mode> = {
  sandbox: {
    deps: (store) => makeTestDeps({ store, clock: createFakeClock(Date.now()) }),
    issuer: loadSandboxIssuer(),
    partnerId: PARTNERS.demo.id,
  },
  production: {
    deps: (store) =>
      makeProductionTestDeps({ store, clock: createFakeClock(Date.now()), env: { SVC_WALLET_TRUST: productionTrust } }),
    issuer: productionIssuer,
    partnerId: liveIdOf(PARTNERS.demo.id),
  },
};

/** The two rails finding 1 names, each as a client-proof [isAdult] request (the wallet path). */
const RAILS: Record<string, (target: TestApp, mode: Mode) => Promise<Flow>> = {
  STANDARD: (target, mode) =>
    startStandardFlow(target, { partner_id: mode.partnerId, scopes: ['isAdult'], client_proof_mode: true }),
  // app_blind_shop's session token, from the partner's origin (the blind app id is the same in production)
  ADULT_BLIND: (target) => startBlindFlow(target, { scopes: ['isAdult'], clientProofMode: true }),
};

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function appOn(deps: TestDeps): Promise<TestApp> {
  const app = await createApp(deps.deps);
  await app.ready();
  return { ...deps, app, close: async () => (await app.close(), await deps.store.close()) };
}

function postForm(target: TestApp, flow: Flow, presentation: string, state: string) {
  return target.app.inject({
    method: 'POST',
    url: `/oid4vp/response/${flow.requestId}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      vp_token: JSON.stringify({ [CREDENTIAL_QUERY_ID]: [presentation] }),
      state,
    }).toString(),
  });
}

function postDc(target: TestApp, flow: Flow, credential: unknown) {
  return target.app.inject({
    method: 'POST',
    url: `/api/w/wallet-response/${flow.requestId}?pt=${flow.pollToken}`,
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_ORIGIN },
    payload: JSON.stringify(credential),
  });
}

/** The phone page's DC API answer (routes/phone.ts): bound to the handoff token and the app's origin. */
function postPhone(target: TestApp, flow: Flow, credential: unknown) {
  return target.app.inject({
    method: 'POST',
    url: `/api/m/requests/${flow.requestId}/wallet-response`,
    headers: { 'content-type': 'application/json', origin: appOriginOf(target) },
    payload: JSON.stringify({ h: flow.handoff, credential }),
  });
}

function appOriginOf(target: TestApp): string {
  return new URL(target.deps.config.appUrl).origin;
}

function stateOf(flow: Flow): string {
  return new URLSearchParams(flow.created.wallet_link!.slice(flow.created.wallet_link!.indexOf('?') + 1)).get('state')!;
}

function presentationOf(body: string): string {
  return (JSON.parse(new URLSearchParams(body).get('vp_token')!) as Record<string, string[]>)[CREDENTIAL_QUERY_ID]![0]!;
}

const refusedDeviceAuth = {
  error: 'invalid_request',
  error_description: 'the device signature does not cover this request',
};

for (const [modeName, mode] of Object.entries(MODES)) {
  for (const [storeName, openStore] of Object.entries(STORES)) {
    for (const [railName, startRail] of Object.entries(RAILS)) {
      describe(`${modeName}, ${railName}, on ${storeName}`, () => {
        const proofFlow = (target: TestApp) => startRail(target, mode);
        const persona = {
          id: 'adult',
          label: 'Adult',
          birth_date: '1990-05-01',
          sex: 'F' as const,
          nationality: 'FRA',
        };

        it("refuses a device signature with an embedded payload, even one that verifies: A's, replayed to A, B, C, D", async () => {
          t = await appOn(await mode.deps(await openStore()));
          const a = await proofFlow(t);
          const made = await createDirectPost({
            link: a.created.wallet_link!,
            issuer: mode.issuer,
            persona,
            now: t.clock.now(),
            embedPayload: true,
          });
          const captured = presentationOf(made.body);
          for (const target of [a, await proofFlow(t), await proofFlow(t), await proofFlow(t)]) {
            const res = await postForm(t, target, captured, stateOf(target));
            expect(res.statusCode).toBe(400);
            expect(res.json()).toEqual(refusedDeviceAuth);
            expect((await pollStatus(t, target)).status).toBe('pending');
          }
        });

        it('refuses one made for another verifier (redirect_uri:https://attacker.example/…) on both routes; the request stays waiting', async () => {
          t = await appOn(await mode.deps(await openStore()));
          const flow = await proofFlow(t);
          const base = { issuer: mode.issuer, persona, now: t.clock.now(), tamper: 'embedded-payload' as const };
          const post = await createDirectPost({ ...base, link: flow.created.wallet_link! });
          const viaLink = await postForm(t, flow, presentationOf(post.body), stateOf(flow));
          expect(viaLink.statusCode).toBe(400);
          expect(viaLink.json()).toEqual(refusedDeviceAuth);
          const credential = await createDcApiCredential({
            ...base,
            dcRequest: flow.created.dc_request!,
            origin: PARTNER_ORIGIN,
          });
          const viaDc = await postDc(t, flow, credential);
          expect(viaDc.statusCode).toBe(400);
          expect(viaDc.json()).toEqual(refusedDeviceAuth);
          expect((await pollStatus(t, flow)).status).toBe('pending');
        });

        it("refuses on the phone's wallet route one made for another verifier (embedded payload); the request stays waiting", async () => {
          t = await appOn(await mode.deps(await openStore()));
          const flow = await proofFlow(t);
          const credential = await createDcApiCredential({
            issuer: mode.issuer,
            persona,
            now: t.clock.now(),
            dcRequest: flow.created.dc_request!,
            origin: appOriginOf(t),
            tamper: 'embedded-payload',
          });
          const res = await postPhone(t, flow, credential);
          expect(res.statusCode).toBe(400);
          expect(res.json()).toEqual(refusedDeviceAuth);
          expect((await pollStatus(t, flow)).status).toBe('pending');
        });

        // The two routes that take a Digital Credentials API answer: the partner page's (the widget) and the phone page's.
        const dcRoutes = [
          { name: 'the DC API route', post: postDc, origin: () => PARTNER_ORIGIN },
          { name: "the phone's wallet route", post: postPhone, origin: appOriginOf },
        ] as const;
        for (const route of dcRoutes) {
          it(`refuses on ${route.name} a response signed for A and sealed to B, then B completes with its own`, async () => {
            t = await appOn(await mode.deps(await openStore()));
            const [a, b] = [await proofFlow(t), await proofFlow(t)];
            const origin = route.origin(t);
            const transcriptA = createDcapiSessionTranscript(a.created.dc_request!.data.encryptionInfo, origin);
            for (const embedPayload of [true, false]) {
              const bytes = await createDeviceResponse({
                issuer: mode.issuer,
                persona,
                now: t.clock.now(),
                sessionTranscript: transcriptA,
                embedPayload,
              });
              const sealedToB = await sealDcResponse(b.created.dc_request!.data.encryptionInfo, origin, bytes);
              const res = await route.post(t, b, { protocol: DC_API_PROTOCOL, data: { response: sealedToB } });
              expect(res.statusCode, `embedded: ${embedPayload}`).toBe(400);
              expect(res.json()).toEqual(refusedDeviceAuth);
            }
            expect((await pollStatus(t, b)).status).toBe('pending');
            const own = await createDcApiCredential({
              issuer: mode.issuer,
              persona,
              now: t.clock.now(),
              dcRequest: b.created.dc_request!,
              origin,
            });
            expect((await route.post(t, b, own)).statusCode).toBe(200);
            expect((await pollStatus(t, b)).status).toBe('completed');
            expect((await pollStatus(t, a)).status).toBe('pending');
          });
        }
      });
    }
  }
}
