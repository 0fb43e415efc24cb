import { describe, expect, it } from 'vitest';
import personas from '../../../fixtures/personas.json' with { type: 'json' };
import type { Persona } from '../../../src/protocol/api.ts';
import { createEcJwk } from '../../wallet/keys.ts';
import { AV_NAMESPACE } from '../../wallet/profile.ts';
import { createWalletRequest } from '../../wallet/request.ts';
import {
  createDcApiCredential,
  createDirectPost,
  isWalletTamper,
  issueAgeCredential,
  WALLET_TAMPERS,
  type WalletTamper,
} from './sandbox-wallet.ts';
import { API_URL, NOW, ORIGIN, persona, sandboxIssuer, sandboxTrust, waiting } from '../../wallet/test-helpers.ts';
import { verifyDcApiResponse, verifyWalletResponse, type WalletCheck } from '../../wallet/verify.ts';

/** What the verifier answers to each QA tamper (`svc wallet present … --tamper <what>`). */
const EXPECTED: Record<WalletTamper, WalletCheck> = {
  nonce: 'device_auth',
  'response-uri': 'device_auth',
  'client-id': 'device_auth',
  state: 'state',
  origin: 'device_auth',
  digest: 'digests',
  doctype: 'doctype',
  'mso-doctype': 'doctype',
  'device-key': 'device_auth',
  'swap-device-key': 'issuer_signature',
  expired: 'mso_validity',
  'not-yet-valid': 'mso_validity',
  'untrusted-issuer': 'trust_chain',
  'embedded-payload': 'device_auth',
  'unsigned-element': 'digests',
  'unsigned-namespace': 'digests',
};

const DC_ONLY: readonly WalletTamper[] = ['origin'];
const LINK_ONLY: readonly WalletTamper[] = ['nonce', 'response-uri', 'client-id', 'state'];

describe('sandbox wallet', () => {
  it("issues age_over_18 from the persona's birth date on the verifier's clock", async () => {
    const expected: Record<string, boolean> = {
      'fr-adult-m': true,
      'fr-adult-f': true,
      'de-adult': true,
      'us-adult': true,
      'fr-minor': false,
      'turns-18-today': true,
      'turns-18-tomorrow': false,
    };
    for (const p of personas as Persona[]) {
      const issuerSigned = await issueAgeCredential({
        issuer: sandboxIssuer,
        persona: p,
        now: NOW,
        deviceKey: createEcJwk(),
      });
      expect(issuerSigned.getPrettyClaims(AV_NAMESPACE), p.id).toEqual({ age_over_18: expected[p.id] });
    }
  });

  it('posts to the response_uri of the link it answers, with a form the verifier accepts', async () => {
    const request = await createWalletRequest({ requestId: 'vr_sw', apiUrl: API_URL });
    const post = await createDirectPost({
      link: request.walletLink,
      issuer: sandboxIssuer,
      persona: persona('us-adult'),
      now: NOW,
    });
    expect(post.responseUri).toBe(`${API_URL}/oid4vp/response/vr_sw`);
    expect([...new URLSearchParams(post.body).keys()]).toEqual(['vp_token', 'state']);
  });

  it('knows its tamper names, and each one is refused by the check it targets (OpenID4VP)', async () => {
    expect(isWalletTamper('digest')).toBe(true);
    expect(isWalletTamper('nothing')).toBe(false);
    const request = await createWalletRequest({ requestId: 'vr_sw', apiUrl: API_URL });
    for (const tamper of Object.keys(WALLET_TAMPERS) as WalletTamper[]) {
      if (DC_ONLY.includes(tamper)) continue;
      const { body } = await createDirectPost({
        link: request.walletLink,
        issuer: sandboxIssuer,
        persona: persona('fr-adult-m'),
        now: NOW,
        tamper,
      });
      const verdict = await verifyWalletResponse({
        body,
        material: request.material,
        trust: sandboxTrust,
        request: waiting(),
        now: NOW,
      });
      expect(verdict, tamper).toMatchObject({ status: 'refused', check: EXPECTED[tamper] });
    }
  });

  it('and on the Digital Credentials API path', async () => {
    const request = await createWalletRequest({ requestId: 'vr_sw', apiUrl: API_URL });
    for (const tamper of Object.keys(WALLET_TAMPERS) as WalletTamper[]) {
      if (LINK_ONLY.includes(tamper)) continue;
      const options = {
        dcRequest: request.dcRequest,
        origin: ORIGIN,
        issuer: sandboxIssuer,
        persona: persona('fr-adult-m'),
        now: NOW,
        tamper,
      };
      const credential = await createDcApiCredential(options);
      const verdict = await verifyDcApiResponse({
        credential,
        origin: ORIGIN,
        material: request.material,
        trust: sandboxTrust,
        request: waiting(),
        now: NOW,
      });
      expect(verdict, tamper).toMatchObject({ status: 'refused', check: EXPECTED[tamper] });
    }
  });

  it('refuses a tamper that does not apply to the path it is asked for', async () => {
    const request = await createWalletRequest({ requestId: 'vr_sw', apiUrl: API_URL });
    const base = { issuer: sandboxIssuer, persona: persona('fr-adult-m'), now: NOW };
    await expect(createDirectPost({ ...base, link: request.walletLink, tamper: 'origin' })).rejects.toThrow(
      /Digital Credentials API only/,
    );
    for (const tamper of LINK_ONLY) {
      await expect(
        createDcApiCredential({ ...base, dcRequest: request.dcRequest, origin: ORIGIN, tamper }),
      ).rejects.toThrow(/OpenID4VP links only/);
    }
  });

  it('refuses to answer a link that is not an OpenID4VP request of this profile', async () => {
    const base = { issuer: sandboxIssuer, persona: persona('fr-adult-m'), now: NOW };
    await expect(createDirectPost({ ...base, link: 'https://example.com/?a=b' })).rejects.toThrow(/av:\/\//);
  });
});
