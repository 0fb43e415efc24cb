import { createPublicKey, verify } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { AttestationClaims } from '../../src/protocol/wire.ts';
import { originHash } from '../crypto/blind.ts';
import { computeNullifier } from '../crypto/nullifier.ts';
import { digestToken } from '../crypto/tokens.ts';
import {
  liveIdOf,
  makeProductionTestDeps,
  makeProductionWalletTrust,
  makeTestApp,
  PARTNERS,
  type TestApp,
} from '../test/helpers.ts';
import { PERSONAS } from '../test/personas.ts';
import {
  completeOnPhone,
  openOnPhone,
  PARTNER_ORIGIN,
  pollStatus,
  startBlindFlow,
  startStandardFlow,
  type Flow,
} from '../test/verify-flow.ts';

async function grantOf(t: TestApp, flow: Flow) {
  const { result } = (await pollStatus(t, flow)) as { result: { grant_code: string } };
  return t.store.consumeGrant(digestToken(result.grant_code), t.clock.now());
}

async function attestationOf(t: TestApp, flow: Flow): Promise<AttestationClaims> {
  const { result } = (await pollStatus(t, flow)) as { result: { attestation: string } };
  const [header, payload, signature] = result.attestation.split('.') as [string, string, string];
  const { keys } = await t.deps.blind.jwks();
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: keys[0]!.x }, format: 'jwk' });
  expect(verify(null, Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'))).toBe(true);
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

describe('sandbox phone API', () => {
  let t: TestApp;
  afterEach(async () => t?.close());

  it('lists the personas as id and label', async () => {
    t = await makeTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/m/personas' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toContainEqual({ id: 'fr-minor', label: expect.any(String) });
    expect(res.json()).toHaveLength(PERSONAS.length);
  });

  describe('complete (STANDARD)', () => {
    it('issues a single-use 5-minute grant with only the requested attributes and the time the proof took', async () => {
      t = await makeTestApp();
      const flow = await startStandardFlow(t, { scopes: ['isAdult', 'isEU', 'revealNationality', 'revealBirthYear'] });
      await openOnPhone(t, flow);
      t.clock.advance(1_800);
      const res = await completeOnPhone(t, flow, { persona: 'de-adult' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'completed' });
      const grant = await grantOf(t, flow);
      expect(grant).toMatchObject({
        partnerId: PARTNERS.demo.id,
        requestId: flow.requestId,
        scopes: ['isAdult', 'isEU', 'revealNationality', 'revealBirthYear'],
        attributes: { age_over_18: true, is_eu: true, nationality: 'DEU', birth_year: 1981 },
        method: 'face_check',
        verifiedAt: t.clock.now(),
        generationTimeMs: 1_800,
        expiresAt: t.clock.now() + 300_000,
      });
      expect(Object.keys(grant!.attributes).sort()).toEqual(['age_over_18', 'birth_year', 'is_eu', 'nationality']);
    });

    it('computes the nullifier for the partner only when isUnique was requested', async () => {
      t = await makeTestApp();
      const unique = await startStandardFlow(t, { scopes: ['isAdult', 'isUnique'] });
      await completeOnPhone(t, unique, { persona: 'fr-adult-m' });
      expect((await grantOf(t, unique))!.attributes.nullifier).toBe(
        computeNullifier(t.deps.nullifierKey, 'fr-adult-m', `partner:${PARTNERS.demo.id}`),
      );
      const plain = await startStandardFlow(t);
      await completeOnPhone(t, plain, { persona: 'fr-adult-m' });
      expect((await grantOf(t, plain))!.attributes).toEqual({ age_over_18: true });
    });

    it.each([
      ['fr-minor', false],
      ['turns-18-today', true],
      ['turns-18-tomorrow', false],
      ['us-adult', true],
    ])('proves age_over_18 for %s as %s', async (persona, adult) => {
      t = await makeTestApp();
      const flow = await startStandardFlow(t);
      await completeOnPhone(t, flow, { persona });
      expect((await grantOf(t, flow))!.attributes).toEqual({ age_over_18: adult });
    });

    it('marks a failed or cancelled verification as failed with its reason, and issues nothing', async () => {
      t = await makeTestApp();
      for (const outcome of ['failed', 'cancelled'] as const) {
        const flow = await startStandardFlow(t);
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/m/requests/${flow.requestId}/complete`,
          payload: { h: flow.handoff, outcome },
        });
        expect(res.json()).toEqual({ status: 'failed' });
        expect(await pollStatus(t, flow)).toMatchObject({ status: 'failed', reason: outcome });
        expect((await openOnPhone(t, flow)).json()).toMatchObject({ status: 'failed', reason: outcome, methods: [] });
        expect((await t.store.getRequest(flow.requestId, t.clock.now()))!.sealedResult).toBeNull();
      }
    });

    it('answers 409 ALREADY_FINISHED once completed or failed', async () => {
      t = await makeTestApp();
      const flow = await startStandardFlow(t);
      await completeOnPhone(t, flow);
      const again = await completeOnPhone(t, flow, { outcome: 'cancelled' });
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toBe('ALREADY_FINISHED');
      const failed = await startStandardFlow(t);
      await completeOnPhone(t, failed, { outcome: 'failed' });
      expect((await completeOnPhone(t, failed)).statusCode).toBe(409);
    });

    it('lets exactly one of two racing completions win', async () => {
      t = await makeTestApp();
      const flow = await startStandardFlow(t);
      const answers = await Promise.all([
        completeOnPhone(t, flow),
        completeOnPhone(t, flow, { outcome: 'cancelled' }),
        completeOnPhone(t, flow),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    });

    it('answers 410 REQUEST_EXPIRED past the deadline', async () => {
      t = await makeTestApp();
      const flow = await startStandardFlow(t);
      await openOnPhone(t, flow);
      t.clock.advance(300_000);
      const res = await completeOnPhone(t, flow);
      expect(res.statusCode).toBe(410);
      expect(res.json().error).toBe('REQUEST_EXPIRED');
    });

    it('requires eudi_wallet in client proof mode and refuses it otherwise', async () => {
      t = await makeTestApp();
      // isAdult + isUnique: no credential proves isUnique, so the EUDI wallet path (design.md §13) is not
      // offered and the phone's verdict stands (wallet.test.ts covers the sandbox wallet going through
      // the verifier).
      const wallet = await startStandardFlow(t, { scopes: ['isAdult', 'isUnique'], client_proof_mode: true });
      expect((await completeOnPhone(t, wallet, { method: 'face_check' })).json().error).toBe('INVALID_REQUEST');
      expect((await completeOnPhone(t, wallet, { method: 'eudi_wallet' })).statusCode).toBe(200);
      expect((await grantOf(t, wallet))!.method).toBe('eudi_wallet');
      const face = await startStandardFlow(t);
      expect((await completeOnPhone(t, face, { method: 'eudi_wallet' })).json().error).toBe('INVALID_REQUEST');
      expect((await completeOnPhone(t, face, { method: 'face_check' })).statusCode).toBe(200);
    });

    it.each([
      ['an unknown persona', { persona: 'nobody' }],
      ['an approval without a persona', { persona: undefined }],
      ['an approval without a method', { method: undefined }],
      ['an unknown method', { method: 'retina' }],
      ['an unknown outcome', { outcome: 'maybe' }],
    ])('refuses %s with 400 INVALID_REQUEST and leaves the request open', async (_label, override) => {
      t = await makeTestApp();
      const flow = await startStandardFlow(t);
      const payload = {
        h: flow.handoff,
        persona: 'fr-adult-m',
        method: 'face_check',
        outcome: 'approved',
        ...override,
      };
      const res = await t.app.inject({ method: 'POST', url: `/api/m/requests/${flow.requestId}/complete`, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('INVALID_REQUEST');
      expect((await pollStatus(t, flow)).status).toBe('pending');
    });

    it('answers 404 NOT_FOUND for a wrong handoff token', async () => {
      t = await makeTestApp();
      const flow = await startStandardFlow(t);
      const other = await startStandardFlow(t);
      const res = await completeOnPhone(t, flow, { h: other.handoff });
      expect(res.statusCode).toBe(404);
      expect((await pollStatus(t, flow)).status).toBe('pending');
    });
  });

  describe('complete (ADULT_BLIND)', () => {
    it('signs an attestation for the app and origin with every proven scope bit and the app nullifier', async () => {
      t = await makeTestApp();
      const flow = await startBlindFlow(t, { scopes: ['isAdult', 'isFrench', 'isEU', 'isUnique'] });
      await completeOnPhone(t, flow, { persona: 'fr-adult-f' });
      const claims = await attestationOf(t, flow);
      expect(claims).toMatchObject({
        app_id: 'app_blind_shop',
        origin_hash: originHash(PARTNER_ORIGIN),
        scope_mask: 0b1111,
        nullifier: computeNullifier(t.deps.nullifierKey, 'fr-adult-f', 'app:app_blind_shop'),
        aud: 'svc-attestation',
        ver: '1',
      });
      expect(claims.exp - claims.iat).toBe(300);
    });

    it('sets no bit for a fact that is false: a minor gets bit 0 clear, a German bit 1 clear', async () => {
      t = await makeTestApp();
      const minor = await startBlindFlow(t, { scopes: ['isAdult', 'isFrench'] });
      await completeOnPhone(t, minor, { persona: 'fr-minor' });
      expect((await attestationOf(t, minor)).scope_mask).toBe(0b0010);
      const german = await startBlindFlow(t, { scopes: ['isAdult', 'isFrench', 'isEU'] });
      await completeOnPhone(t, german, { persona: 'de-adult' });
      expect((await attestationOf(t, german)).scope_mask).toBe(0b0101);
      const american = await startBlindFlow(t, { scopes: ['isEU'] });
      await completeOnPhone(t, american, { persona: 'us-adult' });
      expect((await attestationOf(t, american)).scope_mask).toBe(0);
    });

    it('gives one person the same nullifier on one app and a different one on another app, and none unless asked', async () => {
      t = await makeTestApp();
      const run = async (appId: string, origin: string, scopes: ('isAdult' | 'isUnique')[]) => {
        const flow = await startBlindFlow(t, { appId, origin, scopes });
        await completeOnPhone(t, flow, { persona: 'fr-adult-m' });
        return (await attestationOf(t, flow)).nullifier;
      };
      const shop = await run('app_blind_shop', PARTNER_ORIGIN, ['isAdult', 'isUnique']);
      expect(await run('app_blind_shop', PARTNER_ORIGIN, ['isAdult', 'isUnique'])).toBe(shop);
      expect(await run('app_blind_club', 'http://127.0.0.1:8788', ['isAdult', 'isUnique'])).not.toBe(shop);
      expect(await run('app_blind_shop', PARTNER_ORIGIN, ['isAdult'])).toBe('');
    });

    it('keeps the partner out of the completed request', async () => {
      t = await makeTestApp();
      const flow = await startBlindFlow(t);
      await completeOnPhone(t, flow);
      const row = JSON.stringify(await t.store.getRequest(flow.requestId, t.clock.now()));
      expect(row).not.toContain(PARTNERS.blindShop.id);
      expect(row).not.toContain('Blind Shop');
    });
  });

  it('keeps only open in production: the persona picker answers 404 NOT_FOUND, the request stays as open left it', async () => {
    // A request production can create: the wallet path's (client proof mode, isAdult, its own roots).
    const trust = await makeProductionWalletTrust();
    t = await makeTestApp({ deps: (await makeProductionTestDeps({ env: { SVC_WALLET_TRUST: trust.path } })).deps });
    const flow = await startStandardFlow(t, {
      partner_id: liveIdOf(PARTNERS.demo.id),
      scopes: ['isAdult'],
      client_proof_mode: true,
    });
    const opened = await openOnPhone(t, flow);
    expect(opened.statusCode).toBe(200);
    expect(opened.json().methods.map((m: { id: string }) => m.id)).toEqual(['eudi_wallet']);
    expect(opened.json().sandbox).toBe(false);
    for (const res of [await t.app.inject({ method: 'GET', url: '/api/m/personas' }), await completeOnPhone(t, flow)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('NOT_FOUND');
    }
    expect((await pollStatus(t, flow)).status).toBe('in_progress');
  });
});
