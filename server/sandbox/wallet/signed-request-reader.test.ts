/**
 * Signed requests end to end without HTTP (docs/design.md §16): the sandbox wallet fetches and
 * verifies the request object, encrypts its answer, and the verifier accepts it; each forged
 * answer is refused by the check it targets: another request's key, a transcript without the
 * answer key's thumbprint, a clear vp_token, another state, another client_id.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type AccessCertificate, readAccessCertificate } from '../../wallet/request/access-certificate.ts';
import { createWalletRequest, type WalletRequest } from '../../wallet/request/wallet-request.ts';
import { API_URL, NOW, persona, sandboxIssuer, sandboxTrust, waiting } from '../../wallet/test-helpers.ts';
import { verifyWalletResponse } from '../../wallet/verify.ts';
import { type WalletCheck } from '../../wallet/answer/verdict.ts';
import { loadSandboxAccess } from './sandbox-access.ts';
import { createDirectPost, type WalletTamper } from './sandbox-wallet.ts';
import { isSignedLink, readSignedRequest } from './signed-request-reader.ts';

let access: AccessCertificate;
beforeAll(async () => {
  const { chainPem, keyPem } = loadSandboxAccess();
  access = await readAccessCertificate({ certPem: chainPem, keyPem, mode: 'sandbox', now: NOW });
});

async function signedRequest(requestId = 'vr_signed'): Promise<WalletRequest> {
  return createWalletRequest({ requestId, apiUrl: API_URL, scopes: ['isAdult', 'isFrench'], access, now: NOW });
}

/** The request object as the wallet fetches it, by the request_uri of the link. */
const fetcherOf = (request: WalletRequest) => async (uri: string) => {
  expect(uri).toBe(`${API_URL}/oid4vp/request/${request.material.responseUri.split('/').pop()}`);
  return request.material.signed!.requestObject;
};

async function answer(request: WalletRequest, options: { tamper?: WalletTamper; to?: WalletRequest } = {}) {
  return createDirectPost({
    link: request.walletLink,
    fetchRequestObject: fetcherOf(options.to ?? request),
    issuer: sandboxIssuer,
    persona: persona('fr-adult-m'),
    now: NOW,
    credential: 'pid',
    ...(options.tamper ? { tamper: options.tamper } : {}),
  });
}

const verify = (request: WalletRequest, body: string) =>
  verifyWalletResponse({ body, material: request.material, trust: sandboxTrust, request: waiting(), now: NOW });

describe('a signed request', () => {
  it('links by reference only, and the sandbox wallet reads it back verified', async () => {
    const request = await signedRequest();
    expect(request.walletLink).toBe(
      `openid4vp://?client_id=${encodeURIComponent(access.clientId)}&request_uri=` +
        encodeURIComponent(`${API_URL}/oid4vp/request/vr_signed`) +
        '&request_uri_method=post',
    );
    expect(request.clientId).toBe(access.clientId);
    expect(isSignedLink(request.walletLink)).toBe(true);
    const read = await readSignedRequest(request.walletLink, fetcherOf(request));
    expect(read).toMatchObject({
      client_id: access.clientId,
      nonce: request.nonce,
      state: request.state,
      enc: 'A128GCM',
    });
  });

  it('stays unsigned for the AV profile’s [isAdult] (av://), which has no reader authentication', async () => {
    const request = await createWalletRequest({ requestId: 'vr_av', apiUrl: API_URL, scopes: ['isAdult'], access });
    expect(request.walletLink).toMatch(/^av:\/\/\?response_type=vp_token&response_mode=direct_post&/);
    expect(request.material.signed).toBeUndefined();
  });

  it('is answered by response=<JWE> alone, which the verifier opens and accepts', async () => {
    const request = await signedRequest();
    const { responseUri, body } = await answer(request);
    expect(responseUri).toBe(`${API_URL}/oid4vp/response/vr_signed`);
    expect([...new URLSearchParams(body).keys()]).toEqual(['response']);
    expect(await verify(request, body)).toMatchObject({
      status: 'verified',
      credential: 'pid',
      facts: { isAdult: true, isFrench: true },
    });
  });

  it.each([
    ['answer-key', 'response'],
    ['no-thumbprint', 'device_auth'],
    ['client-id', 'device_auth'],
    ['nonce', 'device_auth'],
    ['state', 'state'],
  ] as const satisfies readonly (readonly [WalletTamper, WalletCheck])[])(
    'refuses the answer with tamper %s by its %s check',
    async (tamper, check) => {
      const request = await signedRequest();
      expect(await verify(request, (await answer(request, { tamper })).body)).toMatchObject({
        status: 'refused',
        check,
      });
    },
  );

  it("refuses an answer made for another request's request object (its key, its nonce)", async () => {
    const [mine, other] = await Promise.all([signedRequest('vr_mine'), signedRequest('vr_other')]);
    const forOther = await answer(other);
    expect(await verify(mine, forOther.body)).toMatchObject({ status: 'refused', check: 'response' });
  });

  it('refuses a clear vp_token, and anything beside response; takes a clear error with the state', async () => {
    const request = await signedRequest();
    const unsigned = await createWalletRequest({ requestId: 'vr_signed', apiUrl: API_URL, scopes: ['isFrench'] });
    const clear = await createDirectPost({
      link: unsigned.walletLink,
      issuer: sandboxIssuer,
      persona: persona('fr-adult-m'),
      now: NOW,
    });
    expect(await verify(request, clear.body)).toMatchObject({ status: 'refused', check: 'response' });
    const { body } = await answer(request);
    expect(await verify(request, `${body}&state=${request.state}`)).toMatchObject({
      status: 'refused',
      check: 'response',
    });
    expect(await verify(request, `error=access_denied&state=${request.state}`)).toEqual({
      status: 'cancelled',
      error: 'access_denied',
    });
    expect(await verify(request, 'error=access_denied&state=wrong')).toMatchObject({
      status: 'refused',
      check: 'state',
    });
  });
});
