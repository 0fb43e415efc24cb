import { createHash, randomBytes } from 'node:crypto';
import { publicVerif } from '@cloudflare/privacypass-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateKeys } from '../crypto/keys.ts';
import { verifyPrivateAttestation } from '../sdk/private-attestation.ts';
import { makeTestApp, PARTNERS, signedInject, type TestApp } from '../test/helpers.ts';
import { blindTokenRequest, fetchPrivateKeySet, issuePrivateToken, postTokenRequest } from '../test/private-client.ts';
import { MISSING_REDEMPTION_CONTEXT } from './create-request.ts';
import {
  completeOnPhone,
  issueTestSessionToken,
  PARTNER_ORIGIN,
  pollStatus,
  postVerifyRequest,
  startBlindFlow,
  type Flow,
} from '../test/verify-flow.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
  await fetchPrivateKeySet(t); // the sandbox makes the first key set here, once for the file
}, 60_000);
afterAll(() => t.close());

async function completedPrivateFlow(
  persona = 'fr-adult-m',
  scopes: Array<'isAdult' | 'isFrench' | 'isEU'> = ['isAdult'],
) {
  const flow = await startBlindFlow(t, { attestation: 'private', scopes });
  expect((await completeOnPhone(t, flow, { persona })).statusCode).toBe(200);
  return flow;
}

describe('the create of a private partner’s page', () => {
  it('is refused with 400 INVALID_REQUEST and a console line when the page has no data-redemption-context', async () => {
    const session_token = await issueTestSessionToken(t, { attestation: 'private' });
    const refused = await postVerifyRequest(t, { session_token, attributes: ['sessionToken', 'successPath'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'INVALID_REQUEST', warnings: [MISSING_REDEMPTION_CONTEXT] });
    // with the context, or from a loader that names no attributes, it is created as before
    const withContext = await postVerifyRequest(t, {
      session_token: await issueTestSessionToken(t, { attestation: 'private' }),
      attributes: ['sessionToken', 'successPath', 'redemptionContext'],
    });
    expect(withContext.statusCode).toBe(201);
    expect(withContext.json()).toMatchObject({ attestation: 'private' });
    const olderLoader = await postVerifyRequest(t, {
      session_token: await issueTestSessionToken(t, { attestation: 'private' }),
    });
    expect(olderLoader.statusCode).toBe(201);
    // a partner without private attestations is not asked for one
    const plain = await postVerifyRequest(t, {
      session_token: await issueTestSessionToken(t),
      attributes: ['sessionToken'],
    });
    expect(plain.statusCode).toBe(201);
  });
});

async function requestRow(flow: Flow) {
  return t.store.getRequest(flow.requestId, t.clock.now());
}

function cryptoKeyOf(publicKey: string) {
  return crypto.subtle.importKey(
    'spki',
    publicVerif.convertRSASSAPSSToEnc(new Uint8Array(Buffer.from(publicKey, 'base64url'))),
    { name: 'RSA-PSS', hash: 'SHA-384' },
    true,
    ['verify'],
  );
}

describe('a private ADULT_BLIND verification (docs/adult-blind.md#private-attestations)', () => {
  it('ends in a token that the SDK and @cloudflare/privacypass-ts both accept, bound to the page’s redemption context', async () => {
    const flow = await completedPrivateFlow();
    expect(flow.created.attestation).toBe('private');
    expect(await pollStatus(t, flow)).toMatchObject({
      status: 'completed',
      result: { private_attestation: { scope_mask: 1 } },
    });

    const issued = await issuePrivateToken(t, flow);
    const verified = await verifyPrivateAttestation(issued.attestation, {
      redemptionContext: issued.redemptionContext,
      keys: issued.keySet,
    });
    expect(verified).toMatchObject({ adult: true, french: false, eu: false, scopeMask: 1 });

    // The library alone, as docs/adult-blind.md shows a partner doing it.
    const key = issued.keySet.keys.find((k) => k.token_key_id === verified.tokenKeyId)!;
    const origin = new publicVerif.Origin(publicVerif.BlindRSAMode.PSS);
    expect(await origin.verify(issued.token, await cryptoKeyOf(key.public_key))).toBe(true);
    const challenge = origin.createTokenChallenge(issued.keySet.issuer_name, issued.redemptionContext);
    expect(Buffer.from(issued.token.authInput.challengeDigest)).toEqual(
      createHash('sha256').update(challenge.serialize()).digest(),
    );
    expect(issued.keySet.issuer_name).toBe(new URL(t.deps.config.appUrl).host);
  });

  it('signs with the key of the proven facts: isAdult and isFrench give scope_mask 3, a non-French adult 1', async () => {
    const french = await issuePrivateToken(t, await completedPrivateFlow('fr-adult-f', ['isAdult', 'isFrench']), {
      scopeMask: 3,
    });
    const checked = await verifyPrivateAttestation(french.attestation, {
      redemptionContext: french.redemptionContext,
      keys: french.keySet,
    });
    expect(checked).toMatchObject({ adult: true, french: true, scopeMask: 3 });

    const german = await completedPrivateFlow('de-adult', ['isAdult', 'isFrench']);
    expect(await pollStatus(t, german)).toMatchObject({ result: { private_attestation: { scope_mask: 1 } } });
    // A widget asking for the mask-3 key is refused: the service signs only the proven facts.
    const { tokenRequest } = await blindTokenRequest(french.keySet, 3, randomBytes(32));
    const res = await postTokenRequest(t, german, tokenRequest);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'INVALID_REQUEST' });
    expect((await requestRow(german))?.privateIssuedAt ?? null).toBeNull();
  });

  it('signs once per request: a second token request is 409 ATTESTATION_NOT_ISSUABLE and the first token stays good', async () => {
    const flow = await completedPrivateFlow();
    const first = await issuePrivateToken(t, flow);
    const { tokenRequest } = await blindTokenRequest(first.keySet, 1, randomBytes(32));
    const again = await postTokenRequest(t, flow, tokenRequest);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'ATTESTATION_NOT_ISSUABLE' });
    await expect(
      verifyPrivateAttestation(first.attestation, { redemptionContext: first.redemptionContext, keys: first.keySet }),
    ).resolves.toMatchObject({ adult: true });
  });

  it('refuses a wrong poll token, an open request, a minor, a JWS request, a bad token request: request untouched', async () => {
    const keySet = await fetchPrivateKeySet(t);
    const { tokenRequest } = await blindTokenRequest(keySet, 1, randomBytes(32));

    const flow = await completedPrivateFlow();
    const wrongPt = await postTokenRequest(t, flow, tokenRequest, `pt_${randomBytes(32).toString('base64url')}`);
    expect([wrongPt.statusCode, wrongPt.json().error]).toEqual([404, 'NOT_FOUND']);

    const open = await startBlindFlow(t, { attestation: 'private' });
    const notYet = await postTokenRequest(t, open, tokenRequest);
    expect([notYet.statusCode, notYet.json().error]).toEqual([409, 'ATTESTATION_NOT_ISSUABLE']);

    const minor = await completedPrivateFlow('fr-minor');
    expect(await pollStatus(t, minor)).toMatchObject({ result: { private_attestation: { scope_mask: 0 } } });
    const minorRes = await postTokenRequest(t, minor, tokenRequest);
    expect([minorRes.statusCode, minorRes.json().error]).toEqual([409, 'ATTESTATION_NOT_ISSUABLE']);

    const jws = await startBlindFlow(t);
    await completeOnPhone(t, jws);
    const jwsRes = await postTokenRequest(t, jws, tokenRequest);
    expect([jwsRes.statusCode, jwsRes.json().error]).toEqual([409, 'ATTESTATION_NOT_ISSUABLE']);
    expect(await pollStatus(t, jws)).toMatchObject({ result: { attestation: expect.stringMatching(/^ey/) } });

    const otherType = Buffer.from(tokenRequest);
    otherType.writeUInt16BE(0xda7a, 0);
    const otherKey = Buffer.from(tokenRequest);
    otherKey[2] = (otherKey[2]! + 1) % 256;
    for (const bad of [otherType, otherKey, Buffer.from(tokenRequest).subarray(1), 'not base64!', Buffer.alloc(259)]) {
      const res = await postTokenRequest(t, flow, bad);
      expect([res.statusCode, res.json().error]).toEqual([400, 'INVALID_REQUEST']);
    }
    for (const f of [flow, minor, jws]) expect((await requestRow(f))?.privateIssuedAt ?? null).toBeNull();
    // Nothing was used up: the right request still gets its signature.
    await expect(issuePrivateToken(t, flow)).resolves.toMatchObject({ keySet });
  });
});

describe('billing sessions of a partner with private attestations', () => {
  const partner = { id: 'pk_test_private_shop', secret: randomBytes(32).toString('base64') };
  beforeAll(() =>
    t.store.putPartner({
      id: partner.id,
      secret: partner.secret,
      name: 'Private Shop',
      domain: PARTNER_ORIGIN,
      rail: 'adult_blind',
      blindAppId: 'app_private_shop',
      allowedScopes: null,
      createdAt: t.clock.now(),
      attestation: 'private',
    }),
  );
  const session = (body: unknown, who = partner) =>
    signedInject(t, { url: '/api/billing/session', body, partner: who });

  it('carry attestation "private" into the session token and the create answer; other partners’ do not', async () => {
    const res = await session({ origin: PARTNER_ORIGIN, scopes: ['isAdult', 'isEU'] });
    expect(res.statusCode).toBe(201);
    const claims = await t.deps.blind.verifySessionToken(res.json().token);
    expect(claims).toMatchObject({ attestation: 'private', scope_mask: 5 });
    const plain = await session({ origin: PARTNER_ORIGIN }, PARTNERS.blindShop);
    expect(await t.deps.blind.verifySessionToken(plain.json().token)).not.toHaveProperty('attestation');
  });

  it('refuse isUnique (a nullifier would link the visits) and scopes without isAdult: 400 INVALID_SCOPES', async () => {
    for (const scopes of [['isAdult', 'isUnique'], ['isFrench']]) {
      const res = await session({ origin: PARTNER_ORIGIN, scopes });
      expect([res.statusCode, res.json().error]).toEqual([400, 'INVALID_SCOPES']);
    }
  });
});

describe('GET /api/billing/private-attestation-keys', () => {
  it('publishes the current set first, then the next, then a retired set for 24 h, with no private part', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/api/billing/private-attestation-keys' });
    expect(before.headers['cache-control']).toBe('public, max-age=3600');
    expect(before.headers['access-control-allow-origin']).toBe('*');
    expect(before.body).not.toMatch(/pkcs8|"d"/);
    const current = before.json().keys as Array<{ token_key_id: string; state: string; scope_mask: number }>;
    expect(current.map((k) => [k.state, k.scope_mask])).toEqual([
      ['current', 1],
      ['current', 3],
      ['current', 5],
      ['current', 7],
    ]);

    expect((await rotateKeys(t.store, 'private-attestation', t.clock.now())).action).toBe('announced');
    const announced = (await fetchPrivateKeySet(t)).keys;
    expect(announced.map((k) => k.state)).toEqual([...Array(4).fill('current'), ...Array(4).fill('next')]);

    t.clock.advance(3_600_000);
    expect((await rotateKeys(t.store, 'private-attestation', t.clock.now())).action).toBe('promoted');
    const promoted = (await fetchPrivateKeySet(t)).keys;
    expect(promoted.slice(4).map((k) => [k.state, k.token_key_id])).toEqual(
      current.map((k) => ['retired', k.token_key_id]),
    );

    t.clock.advance(24 * 3_600_000 - 1);
    expect((await fetchPrivateKeySet(t)).keys).toHaveLength(8);
    t.clock.advance(1);
    const after = (await fetchPrivateKeySet(t)).keys;
    expect(after.map((k) => k.state)).toEqual(Array(4).fill('current'));
    expect(after.some((k) => current.some((c) => c.token_key_id === k.token_key_id))).toBe(false);
  }, 60_000);
});
