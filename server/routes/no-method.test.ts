/**
 * No request is created that nobody can complete (design.md §3, NO_METHOD). On both create routes,
 * a request whose scopes no enabled method can prove answers 400 NO_METHOD, after the existing
 * checks and before anything is stored; production today proves only through the EUDI wallet
 * (the loader's client-proof [isAdult] requests, SVC_WALLET_TRUST set); sandbox proves everything.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { BlindScope, Scope } from '../../src/protocol/scopes.ts';
import {
  liveIdOf,
  makeProductionTestDeps,
  makeProductionWalletTrust,
  makeTestApp,
  PARTNERS,
  signedInject,
  type TestApp,
  type TestPartner,
} from '../test/helpers.ts';
import { issueTestSessionToken, postVerifyRequest } from '../test/verify-flow.ts';

const trust = await makeProductionWalletTrust();

let t: TestApp;
afterEach(async () => t?.close());

/** A production service with the fixture partners under pk_live_ ids; the wallet trusted unless told. */
async function productionApp(options: { walletTrust?: boolean; env?: Record<string, string> } = {}): Promise<TestApp> {
  const env: Record<string, string> = {
    ...(options.walletTrust === false ? {} : { SVC_WALLET_TRUST: trust.path }),
    ...options.env,
  };
  return makeTestApp({ deps: (await makeProductionTestDeps({ env })).deps });
}

const live = (partner: TestPartner): TestPartner => ({ id: liveIdOf(partner.id), secret: partner.secret });

/** The three ways to create a request, each answering the HTTP response. */
function creators(target: TestApp, ids: (partner: TestPartner) => TestPartner) {
  return {
    standard: (scopes: Scope[], clientProofMode: boolean) =>
      postVerifyRequest(target, { partner_id: ids(PARTNERS.demo).id, scopes, client_proof_mode: clientProofMode }),
    blind: async (scopes: BlindScope[], clientProofMode: boolean) =>
      postVerifyRequest(target, {
        session_token: await issueTestSessionToken(target, { scopes }),
        client_proof_mode: clientProofMode,
      }),
    partner: (scopes: Scope[], clientProofMode: boolean) =>
      signedInject(target, {
        url: '/api/partner/verify-request',
        body: { scopes, client_proof_mode: clientProofMode },
        partner: ids(PARTNERS.demo),
      }),
  };
}

/** Watches the store: what a refused create must not have written. */
function watchStore(target: TestApp) {
  const createRequest = vi.spyOn(target.deps.store, 'createRequest');
  const hitCounter = vi.spyOn(target.deps.store, 'hitCounter');
  return {
    requestsCreated: () => createRequest.mock.calls.length,
    sessionCounts: () => hitCounter.mock.calls.filter(([key]) => key.startsWith('widget-create-session:')).length,
  };
}

afterAll(() => {
  vi.restoreAllMocks();
  rmSync(dirname(trust.path), { recursive: true, force: true });
});

describe('production refuses what no enabled method can prove: 400 NO_METHOD', () => {
  it('on POST /api/w/verify-request, STANDARD and ADULT_BLIND, storing nothing', async () => {
    t = await productionApp();
    const create = creators(t, live);
    const store = watchStore(t);
    const refused = [
      await create.standard(['isAdult'], false),
      await create.standard(['isAdult', 'isFrench'], false),
      await create.standard(['isFrench', 'isUnique'], true),
      await create.standard(['isAdult', 'isUnique'], true),
      await create.blind(['isAdult'], false),
      await create.blind(['isAdult', 'isUnique'], true),
    ];
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({
        error: 'NO_METHOD',
        message: 'No enabled verification method can prove these scopes.',
      });
    }
    expect(store.requestsCreated()).toBe(0);
    expect(store.sessionCounts()).toBe(0);
  });

  it('on the signed POST /api/partner/verify-request, even for client-proof [isAdult] (no wallet link there)', async () => {
    t = await productionApp();
    const create = creators(t, live);
    const store = watchStore(t);
    for (const res of [await create.partner(['isAdult'], true), await create.partner(['isAdult', 'isEU'], false)]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe('NO_METHOD');
    }
    expect(store.requestsCreated()).toBe(0);
  });

  it('without SVC_WALLET_TRUST, even the wallet-shaped request', async () => {
    t = await productionApp({ walletTrust: false });
    const create = creators(t, live);
    expect((await create.standard(['isAdult'], true)).json().error).toBe('NO_METHOD');
    expect((await create.blind(['isAdult'], true)).json().error).toBe('NO_METHOD');
  });

  it('when no wallet format is left (design.md §19): the partner’s dc+sd-jwt under SVC_WALLET_FORMATS=mso_mdoc', async () => {
    t = await productionApp({ env: { SVC_WALLET_FORMATS: 'mso_mdoc' } });
    const demo = (await t.deps.store.getPartner(liveIdOf(PARTNERS.demo.id)))!;
    // written around the CLI (which refuses it), or left behind by an operator who narrowed the service since
    await t.deps.store.putPartner({ ...demo, walletFormats: 'dc+sd-jwt' });
    const store = watchStore(t);
    const create = creators(t, live);
    for (const scopes of [['isAdult'], ['isAdult', 'isFrench']] as Scope[][]) {
      const res = await create.standard(scopes, true);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe('NO_METHOD');
    }
    expect(store.requestsCreated()).toBe(0);
    await t.deps.store.putPartner({ ...demo, walletFormats: 'mso_mdoc' });
    expect((await create.standard(['isAdult', 'isFrench'], true)).statusCode).toBe(201);
  });

  it('only after the existing checks: INVALID_SCOPES, INVALID_PARTNER, ORIGIN_NOT_ALLOWED, SESSION_INVALID first', async () => {
    t = await productionApp();
    const demo = liveIdOf(PARTNERS.demo.id);
    const answers = await Promise.all([
      postVerifyRequest(t, { partner_id: demo, scopes: ['isAdult', 'isAdult'] }),
      postVerifyRequest(t, { partner_id: 'pk_live_nobody', scopes: ['isAdult'] }),
      postVerifyRequest(t, { partner_id: demo, scopes: ['isAdult'] }, { origin: 'https://evil.example' }),
      postVerifyRequest(t, { partner_id: liveIdOf(PARTNERS.adultOnly.id), scopes: ['isFrench'] }),
      postVerifyRequest(t, { session_token: 'nonsense' }),
      signedInject(t, {
        url: '/api/partner/verify-request',
        body: { scopes: ['isMale', 'isFemale'] },
        partner: live(PARTNERS.demo),
      }),
    ]);
    expect(answers.map((res) => `${res.statusCode} ${res.json().error}`)).toEqual([
      '400 INVALID_SCOPES',
      '403 INVALID_PARTNER',
      '403 ORIGIN_NOT_ALLOWED',
      '400 INVALID_SCOPES',
      '401 SESSION_INVALID',
      '400 INVALID_SCOPES',
    ]);
  });
});

describe('requests some method can prove are created', () => {
  it("production, wallet trusted: the loader's client-proof [isAdult] request, STANDARD and ADULT_BLIND → 201, wallet link", async () => {
    t = await productionApp();
    const create = creators(t, live);
    for (const res of [await create.standard(['isAdult'], true), await create.blind(['isAdult'], true)]) {
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ sandbox: false, wallet_link: expect.stringMatching(/^av:\/\/\?/) });
    }
  });

  it('production, wallet trusted: client-proof isFrench and isEU requests too (the PID or the mDL) → 201, openid4vp link', async () => {
    t = await productionApp();
    const create = creators(t, live);
    for (const res of [
      await create.standard(['isFrench'], true),
      await create.standard(['isAdult', 'isFrench', 'isEU'], true),
      await create.blind(['isAdult', 'isEU'], true),
    ]) {
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ wallet_link: expect.stringMatching(/^openid4vp:\/\/\?/) });
    }
  });

  it('sandbox, unchanged: every kind of request on both routes → 201', async () => {
    t = await makeTestApp();
    const create = creators(t, (partner) => partner);
    const store = watchStore(t);
    const answers = [
      await create.standard(['isAdult'], false),
      await create.standard(['isAdult', 'isFrench', 'isMale', 'isUnique'], false),
      await create.standard(['isFrench', 'isUnique'], true),
      await create.standard(['isAdult'], true),
      await create.blind(['isAdult', 'isFrench'], false),
      await create.blind(['isAdult'], true),
      await create.partner(['isAdult', 'isEU'], false),
      await create.partner(['isAdult'], true),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([201, 201, 201, 201, 201, 201, 201, 201]);
    expect([store.requestsCreated(), store.sessionCounts()]).toEqual([8, 2]);
  });
});
