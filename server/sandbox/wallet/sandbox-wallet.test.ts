import { describe, expect, it } from 'vitest';
import personas from '../../../fixtures/personas.json' with { type: 'json' };
import type { Persona } from '../../../src/protocol/sandbox.ts';
import type { CredentialKind, WalletScope } from '../../wallet/formats/credentials.ts';
import { createEcJwk } from '../../wallet/keys.ts';
import { AV_NAMESPACE } from '../../wallet/profile.ts';
import { createWalletRequest } from '../../wallet/request/wallet-request.ts';
import {
  createDcApiCredential,
  createDirectPost,
  isWalletTamper,
  issueCredential,
  CredentialChoiceError,
  personaElements,
  WALLET_TAMPERS,
  type WalletTamper,
} from './sandbox-wallet.ts';
import { API_URL, NOW, ORIGIN, persona, sandboxIssuer, sandboxTrust, waiting } from '../../wallet/test-helpers.ts';
import { verifyDcApiResponse, verifyWalletResponse } from '../../wallet/verify.ts';
import { type WalletCheck } from '../../wallet/answer/verdict.ts';

/** What the verifier answers to each QA tamper (`svc wallet present … --tamper <what>`). */
const EXPECTED: Record<WalletTamper, WalletCheck> = {
  nonce: 'device_auth',
  'response-uri': 'device_auth',
  'client-id': 'device_auth',
  state: 'state',
  origin: 'device_auth',
  digest: 'digests',
  nationality: 'digests',
  'credential-id': 'doctype',
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
  'no-thumbprint': 'device_auth',
  'answer-key': 'response',
};

const DC_ONLY: readonly WalletTamper[] = ['origin'];
const LINK_ONLY: readonly WalletTamper[] = ['nonce', 'response-uri', 'client-id', 'state'];
/** Tried on signed requests only (signed-request-reader.test.ts). */
const SIGNED_ONLY: readonly WalletTamper[] = ['no-thumbprint', 'answer-key'];

/**
 * The requests each tamper is tried on: the age-verification request (no nationality: `nationality`
 * does not apply; its link asks one credential, so another query id is not one it asked), and the
 * PID and the mDL answering an [isAdult, isFrench] request. `except` applies to the link.
 */
const CASES = [
  { name: 'av', scopes: ['isAdult'], credential: 'av', except: { 'credential-id': 'vp_token' } },
  { name: 'pid', scopes: ['isAdult', 'isFrench'], credential: 'pid', except: {} },
  { name: 'mdl', scopes: ['isAdult', 'isFrench'], credential: 'mdl', except: {} },
] as const satisfies readonly {
  name: string;
  scopes: readonly WalletScope[];
  credential: CredentialKind;
  except: Partial<Record<WalletTamper, WalletCheck>>;
}[];

function expectedFor(tamper: WalletTamper, except: Partial<Record<WalletTamper, WalletCheck>>): WalletCheck {
  return except[tamper] ?? EXPECTED[tamper];
}

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
      const issuerSigned = await issueCredential({
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

  it('knows its tamper names, and each one is refused by the check it targets (OpenID4VP), for every credential', async () => {
    expect(isWalletTamper('digest')).toBe(true);
    expect(isWalletTamper('nothing')).toBe(false);
    for (const { name, scopes, credential, except } of CASES) {
      const request = await createWalletRequest({ requestId: 'vr_sw', apiUrl: API_URL, scopes });
      for (const tamper of Object.keys(WALLET_TAMPERS) as WalletTamper[]) {
        if (DC_ONLY.includes(tamper) || SIGNED_ONLY.includes(tamper) || (name === 'av' && tamper === 'nationality'))
          continue;
        const { body } = await createDirectPost({
          link: request.walletLink,
          issuer: sandboxIssuer,
          persona: persona('fr-adult-m'),
          now: NOW,
          credential,
          tamper,
        });
        const verdict = await verifyWalletResponse({
          body,
          material: request.material,
          trust: sandboxTrust,
          request: waiting(),
          now: NOW,
        });
        expect(verdict, `${name} ${tamper}`).toMatchObject({ status: 'refused', check: expectedFor(tamper, except) });
      }
    }
  });

  it('and on the Digital Credentials API path, through both protocols', async () => {
    for (const { name, scopes, credential } of CASES) {
      const request = await createWalletRequest({ requestId: 'vr_sw', apiUrl: API_URL, scopes });
      for (const dcRequest of request.dcRequests) {
        for (const tamper of Object.keys(WALLET_TAMPERS) as WalletTamper[]) {
          if (LINK_ONLY.includes(tamper) || SIGNED_ONLY.includes(tamper) || (name === 'av' && tamper === 'nationality'))
            continue;
          // Annex C keys nothing by a query id: the docType alone says which credential it is.
          if (tamper === 'credential-id' && dcRequest.protocol === 'org-iso-mdoc') continue;
          const options = {
            dcRequest,
            origin: ORIGIN,
            issuer: sandboxIssuer,
            persona: persona('fr-adult-m'),
            now: NOW,
            credential,
            tamper,
          };
          const verdict = await verifyDcApiResponse({
            credential: await createDcApiCredential(options),
            origin: ORIGIN,
            material: request.material,
            trust: sandboxTrust,
            request: waiting(),
            now: NOW,
          });
          const label = `${name} ${dcRequest.protocol} ${tamper}`;
          // The DC API asks [isAdult] of the proof of age, the PID and the mDL: another id is another docType.
          expect(verdict, label).toMatchObject({ status: 'refused', check: EXPECTED[tamper] });
        }
      }
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

  it('presents the credential asked for, the first the request accepts by default, and refuses one it does not accept', async () => {
    const base = { issuer: sandboxIssuer, persona: persona('fr-adult-m'), now: NOW };
    const keysOf = (body: string) => Object.keys(JSON.parse(new URLSearchParams(body).get('vp_token')!) as object);
    const av = await createWalletRequest({ requestId: 'vr_sw', apiUrl: API_URL });
    const french = await createWalletRequest({ requestId: 'vr_sw', apiUrl: API_URL, scopes: ['isFrench'] });
    expect(keysOf((await createDirectPost({ ...base, link: av.walletLink })).body)).toEqual(['proof_of_age']);
    expect(keysOf((await createDirectPost({ ...base, link: french.walletLink })).body)).toEqual(['pid']);
    const mdl = await createDirectPost({ ...base, link: french.walletLink, credential: 'mdl' });
    expect(keysOf(mdl.body)).toEqual(['mdl']);
    await expect(createDirectPost({ ...base, link: av.walletLink, credential: 'pid' })).rejects.toThrow(
      CredentialChoiceError,
    );
    await expect(createDirectPost({ ...base, link: french.walletLink, credential: 'av' })).rejects.toThrow(
      /does not accept av \(it accepts pid, mdl, pid_sd\)/,
    );
  });

  it('issues a PID and an mDL from the persona: alpha-2 nationality (a list in the PID) and the birth date', () => {
    const p = persona('de-adult');
    expect(personaElements('pid', p, NOW)).toEqual({
      birth_date: expect.objectContaining({ toISOString: expect.any(Function) }),
      age_over_18: true,
      nationality: ['DE'],
    });
    expect(String(personaElements('pid', p, NOW).birth_date)).toBe('1981-11-23');
    expect(personaElements('mdl', p, NOW)).toMatchObject({ age_over_18: true, nationality: 'DE' });
    expect(personaElements('mdl', p, NOW, { nationality: undefined })).not.toHaveProperty('nationality');
    expect(personaElements('av', p, NOW)).toEqual({ age_over_18: true });
  });
});
