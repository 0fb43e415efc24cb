/**
 * The Digital Credentials API with an access certificate (docs/design.md §16), checked by code we
 * did not write: jose verifies the openid4vp-v1-signed request object against its x5c leaf,
 * @openid4vc/openid4vp resolves it as a wallet does (and refuses it for a page outside
 * `expected_origins`), @owf/mdoc's ReaderAuth.verify checks each readerAuth of the org-iso-mdoc
 * request. Answers to the signed request are encrypted by jose or by the sandbox wallet; forged
 * ones are refused with the request still waiting.
 */
import { resolveOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import { DeviceRequest } from '@owf/mdoc';
import { CompactEncrypt, compactVerify, decodeProtectedHeader, importJWK, importX509 } from 'jose';
import { createHash, X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DcRequest, Oid4vpDcRequest, Oid4vpSignedDcRequest } from '../../../src/protocol/wire.ts';
import { loadSandboxAccess } from '../../sandbox/wallet/sandbox-access.ts';
import {
  askedByDcql,
  chooseCredential,
  createDcApiCredential,
  createDeviceResponse,
} from '../../sandbox/wallet/sandbox-wallet.ts';
import { readSignedDcRequest } from '../../sandbox/wallet/signed-request-reader.ts';
import { type AccessCertificate, readAccessCertificate } from './access-certificate.ts';
import { decodeBase64Url, encodeBase64Url } from '../keys.ts';
import { createDcapiSessionTranscript, createOid4vpDcApiSessionTranscript } from '../formats/session-transcript.ts';
import { mdocContext } from '../formats/mdoc-context.ts';
import { createWalletRequest, walletRequestOf, type WalletRequest } from './wallet-request.ts';
import { API_URL, NOW, ORIGIN, persona, sandboxIssuer, sandboxTrust, waiting } from '../test-helpers.ts';
import { verifyDcApiResponse } from '../verify.ts';

const PHONE_ORIGIN = 'http://localhost:8787';
const ATTACKER = 'https://attacker.example';

let access: AccessCertificate;
beforeAll(async () => {
  const { chainPem, keyPem } = loadSandboxAccess();
  access = await readAccessCertificate({ certPem: chainPem, keyPem, mode: 'sandbox', now: NOW });
});

async function signedRequest(scopes: ('isAdult' | 'isFrench' | 'isEU')[] = ['isAdult', 'isFrench'], id = 'vr_dc') {
  return createWalletRequest({
    requestId: id,
    apiUrl: API_URL,
    scopes,
    access,
    now: NOW,
    origins: [ORIGIN, PHONE_ORIGIN],
  });
}

const signedOf = (request: Pick<WalletRequest, 'dcRequests'>) =>
  request.dcRequests.find((r): r is Oid4vpSignedDcRequest => r.protocol === 'openid4vp-v1-signed')!;
const mdocOf = (request: Pick<WalletRequest, 'dcRequests'>) =>
  request.dcRequests.find((r): r is DcRequest => r.protocol === 'org-iso-mdoc')!;
const unsignedOf = (request: Pick<WalletRequest, 'dcRequests'>) =>
  request.dcRequests.find((r): r is Oid4vpDcRequest => r.protocol === 'openid4vp-v1-unsigned')!;

const pemOf = (base64: string) => `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----`;
const payloadOf = (jws: string) =>
  JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

/** A French adult's PID, as a wallet on the page at `origin` answers `dcRequest` (its origin as the browser says it). */
function answer(dcRequest: WalletRequest['dcRequests'][number], origin = ORIGIN, extra: object = {}) {
  return createDcApiCredential({
    dcRequest,
    origin,
    issuer: sandboxIssuer,
    persona: persona('fr-adult-m'),
    now: NOW,
    credential: 'pid',
    ...extra,
  });
}

const verify = (request: WalletRequest, credential: unknown, origin = ORIGIN) =>
  verifyDcApiResponse({
    credential,
    origin,
    material: request.material,
    trust: sandboxTrust,
    request: waiting(),
    now: NOW,
  });

describe('dc_requests with an access certificate', () => {
  it('puts openid4vp-v1-signed first, then org-iso-mdoc with readerAuth, then openid4vp-v1-unsigned', async () => {
    const request = await signedRequest();
    expect(request.dcRequests.map((r) => r.protocol)).toEqual([
      'openid4vp-v1-signed',
      'org-iso-mdoc',
      'openid4vp-v1-unsigned',
    ]);
    expect(request.dcRequest).toEqual(mdocOf(request));
  });

  it('signs one set per page: the phone page gets its own, any other page the unsigned ones', async () => {
    const request = await signedRequest();
    const phone = walletRequestOf(request.material, PHONE_ORIGIN);
    expect(phone.dcRequests.map((r) => r.protocol)).toEqual(request.dcRequests.map((r) => r.protocol));
    expect(payloadOf(signedOf(phone).data.request).expected_origins).toEqual([PHONE_ORIGIN]);
    const other = walletRequestOf(request.material, ATTACKER);
    expect(other.dcRequests.map((r) => r.protocol)).toEqual(['org-iso-mdoc', 'openid4vp-v1-unsigned']);
    const bytes = decodeBase64Url(mdocOf(other).data.deviceRequest)!;
    expect(DeviceRequest.decode(bytes).docRequests.every((d) => d.readerAuth === undefined)).toBe(true);
  });

  it('stays as before without a certificate: Annex C, then unsigned OpenID4VP, nothing signed', async () => {
    const request = await createWalletRequest({
      requestId: 'vr_plain',
      apiUrl: API_URL,
      scopes: ['isAdult', 'isFrench'],
      origins: [ORIGIN],
    });
    expect(request.dcRequests.map((r) => r.protocol)).toEqual(['org-iso-mdoc', 'openid4vp-v1-unsigned']);
    expect(request.material.signedDc).toBeUndefined();
  });

  it('signs the DC API requests of [isAdult] too: only its av:// link keeps the AV profile', async () => {
    const request = await signedRequest(['isAdult'], 'vr_av');
    expect(request.walletLink).toMatch(/^av:\/\//);
    expect(request.dcRequests.map((r) => r.protocol)).toEqual([
      'openid4vp-v1-signed',
      'org-iso-mdoc',
      'openid4vp-v1-unsigned',
    ]);
  });
});

describe('the openid4vp-v1-signed request object', () => {
  it('verifies with jose against its x5c leaf; client_id the x509_hash of that DER, expected_origins the page', async () => {
    const request = await signedRequest();
    const jws = signedOf(request).data.request;
    const header = decodeProtectedHeader(jws);
    expect(header).toEqual({ alg: 'ES256', typ: 'oauth-authz-req+jwt', x5c: access.x5c });
    const verified = await compactVerify(jws, await importX509(pemOf(access.x5c[0]!), 'ES256'));
    const payload = JSON.parse(new TextDecoder().decode(verified.payload)) as Record<string, unknown>;
    const leaf = new X509Certificate(Buffer.from(access.x5c[0]!, 'base64'));
    expect(payload.client_id).toBe(`x509_hash:${createHash('sha256').update(leaf.raw).digest('base64url')}`);
    const unsigned = unsignedOf(request).data;
    expect(payload).toEqual({
      iat: Math.floor(NOW / 1000),
      client_id: access.clientId,
      expected_origins: [ORIGIN],
      response_type: 'vp_token',
      response_mode: 'dc_api.jwt',
      nonce: unsigned.nonce,
      dcql_query: unsigned.dcql_query,
      client_metadata: {
        ...unsigned.client_metadata,
        encrypted_response_enc_values_supported: ['A128GCM', 'A256GCM'],
      },
    });
  });

  it('is resolved by @openid4vc/openid4vp as a wallet does, and refused by it for a page outside expected_origins', async () => {
    const request = await signedRequest();
    const jws = signedOf(request).data.request;
    const callbacks = {
      hash: (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest()),
      verifyJwt: async (signer: { method: string; x5c?: string[] }, jwt: { compact: string }) => {
        if (signer.method !== 'x5c' || !signer.x5c?.[0]) return { verified: false as const };
        try {
          await compactVerify(jwt.compact, await importX509(pemOf(signer.x5c[0]), 'ES256'));
          return { verified: true as const, signerJwk: unsignedOf(request).data.client_metadata.jwks.keys[0] };
        } catch {
          return { verified: false as const };
        }
      },
      getX509CertificateMetadata: () => ({ sanDnsNames: ['sandbox.svc.localhost'], sanUriNames: [] }),
    } as never;
    const resolved = await resolveOpenid4vpAuthorizationRequest({
      authorizationRequestPayload: { request: jws },
      origin: ORIGIN,
      callbacks,
    });
    expect(resolved.client).toMatchObject({ prefix: 'x509_hash', effective: access.clientId, x5c: access.x5c });
    expect(resolved.authorizationRequestPayload).toMatchObject({
      response_mode: 'dc_api.jwt',
      expected_origins: [ORIGIN],
    });
    await expect(
      resolveOpenid4vpAuthorizationRequest({
        authorizationRequestPayload: { request: jws },
        origin: ATTACKER,
        callbacks,
      }),
    ).rejects.toThrow(/expected_origins/);
    // a copy whose signature no longer holds
    const [h, p] = jws.split('.');
    const forged = `${h}.${p}.${encodeBase64Url(new Uint8Array(64))}`;
    await expect(
      resolveOpenid4vpAuthorizationRequest({
        authorizationRequestPayload: { request: forged },
        origin: ORIGIN,
        callbacks,
      }),
    ).rejects.toThrow();
  });

  it('the sandbox wallet refuses it from a page outside expected_origins, as the browser’s wallet must', async () => {
    const request = await signedRequest();
    await expect(readSignedDcRequest(signedOf(request).data.request, ATTACKER)).rejects.toThrow(
      'expected_origins does not list https://attacker.example',
    );
  });
});

describe('org-iso-mdoc with readerAuth', () => {
  it('carries in each DocRequest a readerAuth that @owf/mdoc verifies over this page’s dcapi transcript', async () => {
    const request = await signedRequest();
    const { deviceRequest, encryptionInfo } = mdocOf(request).data;
    const docRequests = DeviceRequest.decode(decodeBase64Url(deviceRequest)!).docRequests;
    expect(docRequests.map((d) => d.itemsRequest.docType)).toEqual([
      'eu.europa.ec.eudi.pid.1',
      'org.iso.18013.5.1.mDL',
    ]);
    const outcomes = async (origin: string) => {
      const sessionTranscript = createDcapiSessionTranscript(encryptionInfo, origin);
      return Promise.all(
        docRequests.map(async ({ itemsRequest, readerAuth }) => {
          const seen: string[] = [];
          await readerAuth!.verify(
            {
              readerAuthentication: { sessionTranscript, itemsRequest },
              verificationCallback: (c) => void seen.push(c.status),
            },
            mdocContext,
          );
          return seen;
        }),
      );
    };
    expect(await outcomes(ORIGIN)).toEqual([['PASSED'], ['PASSED']]);
    expect(await outcomes(ATTACKER)).toEqual([['FAILED'], ['FAILED']]);
    for (const { readerAuth } of docRequests) {
      expect(readerAuth!.payload).toBeNull();
      expect(readerAuth!.certificateChain.map((der) => Buffer.from(der).toString('base64'))).toEqual(access.x5c);
    }
  });

  it('asks exactly what the unsigned Annex C request asks', async () => {
    const request = await signedRequest();
    const signedItems = DeviceRequest.decode(decodeBase64Url(mdocOf(request).data.deviceRequest)!).docRequests;
    const plainItems = DeviceRequest.decode(decodeBase64Url(request.material.dc.deviceRequest)!).docRequests;
    expect(signedItems.map((d) => d.itemsRequest.encode())).toEqual(plainItems.map((d) => d.itemsRequest.encode()));
  });

  it('is answered through the sandbox wallet, which checks readerAuth, and accepted', async () => {
    const request = await signedRequest();
    const credential = await answer(mdocOf(request));
    expect(await verify(request, credential)).toMatchObject({
      status: 'verified',
      facts: { isAdult: true, isFrench: true },
    });
    // the same request handed over by another page: its readerAuth does not verify there
    await expect(answer(mdocOf(request), ATTACKER)).rejects.toThrow('readerAuth does not verify');
  });
});

describe('answers to openid4vp-v1-signed', () => {
  it('accepts the sandbox wallet’s answer (mdoc PID, then SD-JWT VC PID with aud origin:<page>)', async () => {
    const request = await signedRequest();
    const credential = await answer(signedOf(request));
    expect(credential.protocol).toBe('openid4vp-v1-signed');
    expect(await verify(request, credential)).toMatchObject({ status: 'verified', credential: 'pid' });
    const sdJwt = await answer(signedOf(request), ORIGIN, { credential: 'pid-sd-jwt' });
    expect(await verify(request, sdJwt)).toMatchObject({ status: 'verified', credential: 'pid_sd' });
  });

  it('accepts an answer encrypted by jose with A256GCM, as a HAIP wallet may', async () => {
    const request = await signedRequest();
    const jwk = unsignedOf(request).data.client_metadata.jwks.keys[0]!;
    const transcript = await createOid4vpDcApiSessionTranscript({
      origin: ORIGIN,
      nonce: request.material.oid4vpDc!.nonce,
      jwk,
    });
    const deviceResponse = await createDeviceResponse({
      issuer: sandboxIssuer,
      persona: persona('fr-adult-m'),
      now: NOW,
      sessionTranscript: transcript,
      asked: chooseCredential(askedByDcql(unsignedOf(request).data.dcql_query), 'pid'),
    });
    const jwe = await new CompactEncrypt(
      new TextEncoder().encode(JSON.stringify({ vp_token: { pid: [encodeBase64Url(deviceResponse)] } })),
    )
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A256GCM' })
      .encrypt(await importJWK({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, 'ECDH-ES'));
    expect(await verify(request, { protocol: 'openid4vp-v1-signed', data: { response: jwe } })).toMatchObject({
      status: 'verified',
      facts: { isAdult: true, isFrench: true },
    });
    // the unsigned request lists A128GCM alone: there the same JWE is refused
    expect(await verify(request, { protocol: 'openid4vp-v1-unsigned', data: { response: jwe } })).toMatchObject({
      status: 'refused',
      check: 'dc_response',
    });
  });

  it('refuses an answer bound to another origin (transcript), and a signed answer from a page it was not signed for', async () => {
    const request = await signedRequest();
    const forAttacker = await answer(signedOf(request), ORIGIN, { tamper: 'origin' });
    expect(await verify(request, forAttacker)).toMatchObject({ status: 'refused', check: 'device_auth' });
    const sdJwtForAttacker = await answer(signedOf(request), ORIGIN, { credential: 'pid-sd-jwt', tamper: 'origin' });
    expect(await verify(request, sdJwtForAttacker)).toMatchObject({ status: 'refused', check: 'key_binding' });
    // a page the request was not signed for posts a signed answer
    const good = await answer(signedOf(request));
    expect(await verify(request, good, ATTACKER)).toMatchObject({ status: 'refused', check: 'dc_response' });
  });

  it('refuses an answer to another request’s signed request (its key, its nonce)', async () => {
    const [mine, other] = await Promise.all([
      signedRequest(undefined, 'vr_mine'),
      signedRequest(undefined, 'vr_other'),
    ]);
    const forOther = await answer(signedOf(other));
    expect(await verify(mine, forOther)).toMatchObject({ status: 'refused', check: 'dc_response' });
  });

  it('refuses openid4vp-v1-signed on a request made without a certificate', async () => {
    const plain = await createWalletRequest({
      requestId: 'vr_plain',
      apiUrl: API_URL,
      scopes: ['isFrench'],
      origins: [ORIGIN],
    });
    const signed = await signedRequest(['isFrench'], 'vr_plain');
    const credential = await answer(signedOf(signed));
    expect(await verify(plain, credential)).toMatchObject({ status: 'refused', check: 'dc_response' });
  });
});
