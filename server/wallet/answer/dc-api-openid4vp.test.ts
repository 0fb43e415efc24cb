/**
 * OpenID4VP 1.0 over the Digital Credentials API (design.md §13): the handover known-answer vector of
 * the specification, the request, the response JWE, and the checks on what Chrome's wallets answer.
 */
import { isOpenid4vpAuthorizationRequestDcApi, parseOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import { cborEncode } from '@owf/mdoc';
import { CompactEncrypt, importJWK } from 'jose';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WalletScope } from '../formats/credentials.ts';
import { createEcJwk, encodeBase64Url } from '../keys.ts';
import { createOid4vpDcApiSessionTranscript, jwkThumbprintBytes } from '../formats/session-transcript.ts';
import { createOid4vpDcMaterial, type Oid4vpDcRequest } from '../request/oid4vp-dc-request.ts';
import { openOid4vpDcResponse, sealOid4vpDcResponse } from './jwe.ts';
import { createWalletRequest, type WalletRequest } from '../request/wallet-request.ts';
import {
  createDcApiCredential,
  createDeviceResponse,
  type PresentOptions,
} from '../../sandbox/wallet/sandbox-wallet.ts';
import { API_URL, NOW, ORIGIN, persona, sandboxIssuer, sandboxTrust, waiting } from '../test-helpers.ts';
import { DEFAULT_WALLET_FIXTURES } from '../trust/anchors.ts';
import { verifyDcApiResponse } from '../verify.ts';
import { type WalletVerdict } from './verdict.ts';

interface HandoverVector {
  source: string;
  origin: string;
  nonce: string;
  jwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string };
  jwkThumbprintHex: string;
  handoverInfoHex: string;
  handoverHex: string;
  sessionTranscriptHex: string;
}

const vector = JSON.parse(
  readFileSync(join(DEFAULT_WALLET_FIXTURES, 'oid4vp-dc-api-handover.json'), 'utf8'),
) as HandoverVector;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe("OpenID4VP 1.0's DC API handover (Appendix B.2.6.2 known-answer vector)", () => {
  it("computes the example JWK's RFC 7638 thumbprint", async () => {
    expect(hex(await jwkThumbprintBytes(vector.jwk))).toBe(vector.jwkThumbprintHex);
  });

  it('encodes OpenID4VPDCAPIHandoverInfo and hashes it into the handover as the example does', () => {
    const info = cborEncode([vector.origin, vector.nonce, Buffer.from(vector.jwkThumbprintHex, 'hex')]);
    expect(hex(info)).toBe(vector.handoverInfoHex);
    const hash = createHash('sha256').update(info).digest();
    expect(hex(cborEncode(['OpenID4VPDCAPIHandover', new Uint8Array(hash)]))).toBe(vector.handoverHex);
  });

  it('builds the example SessionTranscript byte for byte through our transcript builder', async () => {
    const transcript = await createOid4vpDcApiSessionTranscript({
      origin: vector.origin,
      nonce: vector.nonce,
      jwk: vector.jwk,
    });
    expect(hex(transcript.encode())).toBe(vector.sessionTranscriptHex);
  });
});

async function newRequest(scopes: WalletScope[] = ['isAdult', 'isFrench']): Promise<WalletRequest> {
  return createWalletRequest({ requestId: 'vr_oid4vp_dc', apiUrl: API_URL, scopes });
}

function oid4vpRequestOf(request: WalletRequest): Oid4vpDcRequest {
  const found = request.dcRequests.find((r): r is Oid4vpDcRequest => r.protocol === 'openid4vp-v1-unsigned');
  if (!found) throw new Error('no openid4vp-v1-unsigned request');
  return found;
}

async function answer(request: WalletRequest, options: Partial<PresentOptions> & { origin?: string } = {}) {
  return createDcApiCredential({
    dcRequest: oid4vpRequestOf(request),
    origin: ORIGIN,
    issuer: sandboxIssuer,
    persona: persona('fr-adult-f'),
    now: NOW,
    credential: 'pid',
    ...options,
  });
}

function verify(request: WalletRequest, credential: unknown, origin = ORIGIN): Promise<WalletVerdict> {
  return verifyDcApiResponse({
    credential,
    origin,
    material: request.material,
    trust: sandboxTrust,
    request: waiting(),
    now: NOW,
  });
}

describe('the openid4vp-v1-unsigned request', () => {
  it('comes second in dc_requests, after org-iso-mdoc, in the shape design.md §13 gives', async () => {
    const request = await newRequest();
    expect(request.dcRequests.map((r) => r.protocol)).toEqual(['org-iso-mdoc', 'openid4vp-v1-unsigned']);
    const { data } = oid4vpRequestOf(request);
    expect(Object.keys(data)).toEqual(['response_type', 'response_mode', 'nonce', 'dcql_query', 'client_metadata']);
    expect(data).toMatchObject({
      response_type: 'vp_token',
      response_mode: 'dc_api.jwt',
      client_metadata: {
        encrypted_response_enc_values_supported: ['A128GCM'],
        vp_formats_supported: { mso_mdoc: {} },
      },
    });
    const key = data.client_metadata.jwks.keys[0]!;
    expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', use: 'enc', alg: 'ECDH-ES' });
    expect(key.kid).toBe(encodeBase64Url(await jwkThumbprintBytes(key)));
    expect(data.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.nonce).not.toBe(request.nonce);
    expect(JSON.stringify(request.dcRequests)).not.toContain(request.material.oid4vpDc!.privateKey);
  });

  it('asks the same credentials and elements as the org-iso-mdoc request: for [isAdult], all three, then the SD-JWT VC PID', async () => {
    const { data } = oid4vpRequestOf(await newRequest(['isAdult']));
    expect(data.dcql_query.credentials.map((c) => c.id)).toEqual(['proof_of_age', 'pid', 'mdl', 'pid_sd']);
    expect(data.dcql_query.credential_sets).toEqual([{ options: [['proof_of_age'], ['pid'], ['mdl'], ['pid_sd']] }]);
    // design.md §15: the SD-JWT VC's algorithms beside the mdoc's.
    expect(data.client_metadata.vp_formats_supported).toEqual({
      mso_mdoc: {},
      'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
    });
  });

  it('is read by @openid4vc/openid4vp as an unsigned DC API request', async () => {
    const { data } = oid4vpRequestOf(await newRequest());
    const parsed = parseOpenid4vpAuthorizationRequest({ authorizationRequest: data as never });
    expect(isOpenid4vpAuthorizationRequestDcApi(parsed.params as never)).toBe(true);
  });

  it('draws a fresh key pair for every request', async () => {
    const [a, b] = [await createOid4vpDcMaterial(), await createOid4vpDcMaterial()];
    expect(a.publicJwk.x).not.toBe(b.publicJwk.x);
    expect(a.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('the response JWE (jose compactDecrypt)', () => {
  it('opens what the wallet encrypted to the request key, and nothing encrypted to another key', async () => {
    const material = await createOid4vpDcMaterial();
    const other = await createOid4vpDcMaterial();
    const jwe = await sealOid4vpDcResponse(material.publicJwk, { vp_token: { pid: ['x'] } });
    expect(await openOid4vpDcResponse(material, jwe)).toEqual({ vp_token: { pid: ['x'] } });
    expect(await openOid4vpDcResponse(other, jwe)).toBeNull();
    expect(await openOid4vpDcResponse(material, 'not.a.jwe.at.all')).toBeNull();
  });

  it('refuses another key management or content encryption algorithm, and a payload that is not a JSON object', async () => {
    const material = await createOid4vpDcMaterial();
    const { kty, crv, x, y } = material.publicJwk;
    const encrypt = async (alg: string, enc: string, payload: string) =>
      new CompactEncrypt(new TextEncoder().encode(payload))
        .setProtectedHeader({ alg, enc })
        .encrypt(await importJWK({ kty, crv, x, y }, alg));
    expect(await openOid4vpDcResponse(material, await encrypt('ECDH-ES', 'A128GCM', '{"vp_token":{}}'))).toEqual({
      vp_token: {},
    });
    expect(await openOid4vpDcResponse(material, await encrypt('ECDH-ES', 'A256GCM', '{}'))).toBeNull();
    expect(await openOid4vpDcResponse(material, await encrypt('ECDH-ES+A128KW', 'A128GCM', '{}'))).toBeNull();
    expect(await openOid4vpDcResponse(material, await encrypt('ECDH-ES', 'A128GCM', '["x"]'))).toBeNull();
    expect(await openOid4vpDcResponse(material, await encrypt('ECDH-ES', 'A128GCM', 'not json'))).toBeNull();
  });
});

describe('verifyDcApiResponse, openid4vp-v1-unsigned', () => {
  it("verifies a French adult's PID for the partner page origin: isAdult and isFrench", async () => {
    const request = await newRequest();
    expect(await verify(request, await answer(request))).toEqual({
      status: 'verified',
      credential: 'pid',
      facts: { isAdult: true, isFrench: true },
    });
  });

  it("verifies a German adult's mDL: isFrench false", async () => {
    const request = await newRequest();
    const credential = await answer(request, { credential: 'mdl', persona: persona('de-adult') });
    expect(await verify(request, credential)).toEqual({
      status: 'verified',
      credential: 'mdl',
      facts: { isAdult: true, isFrench: false },
    });
  });

  it('refuses a transcript bound to another origin: device_auth (origin binding)', async () => {
    const request = await newRequest();
    expect(await verify(request, await answer(request, { tamper: 'origin' }))).toMatchObject({
      status: 'refused',
      check: 'device_auth',
    });
    // The same genuine answer, posted as if from another page.
    const genuine = await answer(request);
    expect(await verify(request, genuine, 'https://attacker.example')).toMatchObject({ check: 'device_auth' });
  });

  /** A French adult's PID signed over the DC API transcript of `signedOver`, encrypted to this request's own key. */
  async function sealedToOurKey(request: WalletRequest, signedOver: { nonce: string; jwk: { x: string; y: string } }) {
    const key = oid4vpRequestOf(request).data.client_metadata.jwks.keys[0]!;
    const sessionTranscript = await createOid4vpDcApiSessionTranscript({
      origin: ORIGIN,
      nonce: signedOver.nonce,
      jwk: { kty: 'EC', crv: 'P-256', x: signedOver.jwk.x, y: signedOver.jwk.y },
    });
    const bytes = await createDeviceResponse({
      issuer: sandboxIssuer,
      persona: persona('fr-adult-f'),
      now: NOW,
      sessionTranscript,
      asked: { kind: 'pid', queryId: 'pid', elements: ['age_over_18', 'nationality'] },
    });
    const jwe = await sealOid4vpDcResponse(key, { vp_token: { pid: [encodeBase64Url(bytes)] } });
    return { protocol: 'openid4vp-v1-unsigned', data: { response: jwe } };
  }

  it("verifies the same hand-made presentation signed over this request's own nonce and key (the control)", async () => {
    const request = await newRequest();
    const { nonce, client_metadata: metadata } = oid4vpRequestOf(request).data;
    const credential = await sealedToOurKey(request, { nonce, jwk: metadata.jwks.keys[0]! });
    expect(await verify(request, credential)).toMatchObject({ status: 'verified' });
  });

  it('refuses a presentation signed for another verifier key and re-encrypted to ours: device_auth (jwk thumbprint)', async () => {
    const request = await newRequest();
    const credential = await sealedToOurKey(request, {
      nonce: oid4vpRequestOf(request).data.nonce,
      jwk: createEcJwk(),
    });
    expect(await verify(request, credential)).toMatchObject({ status: 'refused', check: 'device_auth' });
  });

  it('refuses a presentation signed over another nonce and encrypted to our key: device_auth (nonce)', async () => {
    const request = await newRequest();
    const credential = await sealedToOurKey(request, {
      nonce: encodeBase64Url(new Uint8Array(32).fill(7)),
      jwk: oid4vpRequestOf(request).data.client_metadata.jwks.keys[0]!,
    });
    expect(await verify(request, credential)).toMatchObject({ status: 'refused', check: 'device_auth' });
  });

  it("refuses another request's answer (its key): dc_response", async () => {
    const [first, second] = [await newRequest(), await newRequest()];
    expect(await verify(second, await answer(first))).toMatchObject({ status: 'refused', check: 'dc_response' });
  });

  it('refuses a vp_token keyed by another id, or holding two presentations: vp_token', async () => {
    const request = await newRequest();
    const key = oid4vpRequestOf(request).data.client_metadata.jwks.keys[0]!;
    for (const vpToken of [{ proof_of_age: ['x'] }, { pid: ['x', 'y'] }, { pid: ['x'], mdl: ['y'] }, 'x', null]) {
      const credential = {
        protocol: 'openid4vp-v1-unsigned',
        data: { response: await sealOid4vpDcResponse(key, { vp_token: vpToken }) },
      };
      expect(await verify(request, credential), JSON.stringify(vpToken)).toMatchObject({ check: 'vp_token' });
    }
  });

  it('refuses a PID keyed as mdl: doctype', async () => {
    const request = await newRequest();
    expect(await verify(request, await answer(request, { tamper: 'credential-id' }))).toMatchObject({
      status: 'refused',
      check: 'doctype',
    });
  });

  it('refuses openid4vp-v1-unsigned for a stored v1 request, made when only org-iso-mdoc was offered', async () => {
    const request = await newRequest(['isAdult']);
    const credential = await answer(request, { credential: 'av' });
    const v1 = { ...request.material, v: 1 as const };
    delete v1.oid4vpDc;
    const verdict = await verifyDcApiResponse({
      credential,
      origin: ORIGIN,
      material: v1,
      trust: sandboxTrust,
      request: waiting(),
      now: NOW,
    });
    expect(verdict).toMatchObject({ status: 'refused', check: 'dc_response' });
  });
});
