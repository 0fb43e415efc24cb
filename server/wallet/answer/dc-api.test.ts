import { cborDecode, cborEncode, DeviceRequest } from '@owf/mdoc';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDcRequest, createDeviceRequest } from '../request/dc-request.ts';
import { openDcResponse, sealDcResponse } from './hpke.ts';
import { decodeBase64Url, encodeBase64Url } from '../keys.ts';
import { createDcapiSessionTranscript } from '../formats/session-transcript.ts';
import { createWalletRequest, type WalletRequest } from '../request/wallet-request.ts';
import { createDcApiCredential, type PresentOptions } from '../../sandbox/wallet/sandbox-wallet.ts';
import {
  API_URL,
  euProfileExample,
  NOW,
  ORIGIN,
  persona,
  sandboxIssuer,
  sandboxTrust,
  waiting,
} from '../test-helpers.ts';
import { verifyDcApiResponse } from '../verify.ts';
import { type WalletVerdict } from './verdict.ts';

const adult = persona('fr-adult-f');

function decode(b64: string): unknown {
  return cborDecode(decodeBase64Url(b64)!);
}

/** The shape of a CBOR value: types and byte lengths, not contents. */
function shapeOf(value: unknown): unknown {
  if (value instanceof Uint8Array) return `bstr(${value.length})`;
  if (value instanceof Map) return [...value].map(([k, v]) => [k, shapeOf(v)]);
  if (Array.isArray(value)) return value.map(shapeOf);
  return typeof value === 'string' ? value : typeof value;
}

async function newRequest(): Promise<WalletRequest> {
  return createWalletRequest({ requestId: 'vr_dc', apiUrl: API_URL });
}

async function answer(
  request: WalletRequest,
  options: Partial<PresentOptions> & { origin?: string } = {},
): Promise<unknown> {
  return createDcApiCredential({
    dcRequest: request.dcRequest,
    origin: ORIGIN,
    issuer: sandboxIssuer,
    persona: adult,
    now: NOW,
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

describe('Digital Credentials API request (ISO/IEC 18013-7 Annex C)', () => {
  it("builds the EU profile's example deviceRequest byte for byte when asking the proof of age alone", () => {
    expect(encodeBase64Url(createDeviceRequest(['av'], ['isAdult']).encode())).toBe(
      euProfileExample.dcApiRequest.deviceRequest,
    );
  });

  it('asks one DocRequest per credential that proves the scopes, each for exactly the elements they need', async () => {
    const itemsOf = async (scopes: Parameters<typeof createDeviceRequest>[1]) => {
      const request = await createWalletRequest({ requestId: 'vr_dc', apiUrl: API_URL, scopes });
      const decoded = DeviceRequest.decode(decodeBase64Url(request.dcRequest.data.deviceRequest)!);
      return decoded.docRequests.map(({ itemsRequest }) => [
        itemsRequest.docType,
        Object.fromEntries([...itemsRequest.namespaces].map(([ns, items]) => [ns, Object.fromEntries(items)])),
      ]);
    };
    expect(await itemsOf(['isAdult'])).toEqual([
      ['eu.europa.ec.av.1', { 'eu.europa.ec.av.1': { age_over_18: false } }],
      ['eu.europa.ec.eudi.pid.1', { 'eu.europa.ec.eudi.pid.1': { age_over_18: false } }],
      ['org.iso.18013.5.1.mDL', { 'org.iso.18013.5.1': { age_over_18: false } }],
    ]);
    expect(await itemsOf(['isFrench', 'isEU'])).toEqual([
      ['eu.europa.ec.eudi.pid.1', { 'eu.europa.ec.eudi.pid.1': { nationality: false } }],
      ['org.iso.18013.5.1.mDL', { 'org.iso.18013.5.1': { nationality: false } }],
    ]);
    expect(await itemsOf(['isAdult', 'isFrench'])).toEqual([
      ['eu.europa.ec.eudi.pid.1', { 'eu.europa.ec.eudi.pid.1': { age_over_18: false, nationality: false } }],
      ['org.iso.18013.5.1.mDL', { 'org.iso.18013.5.1': { age_over_18: false, nationality: false } }],
    ]);
  });

  it("writes encryptionInfo in the shape of the EU profile's example, with a fresh key and nonce each time", async () => {
    const [a, b] = [await createDcRequest(['av'], ['isAdult']), await createDcRequest(['av'], ['isAdult'])];
    expect(shapeOf(decode(a.dcRequest.data.encryptionInfo))).toEqual(
      shapeOf(decode(euProfileExample.dcApiRequest.encryptionInfo)),
    );
    expect(a.dcRequest).toMatchObject({
      protocol: 'org-iso-mdoc',
      data: { deviceRequest: euProfileExample.dcApiRequest.deviceRequest },
    });
    expect(a.dcRequest.data.encryptionInfo).not.toBe(b.dcRequest.data.encryptionInfo);
    expect(a.material.recipientPrivateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(a.dcRequest)).not.toContain(a.material.recipientPrivateKey);
  });

  it('binds the dcapi SessionTranscript to the encryptionInfo string and the origin', () => {
    const info = euProfileExample.dcApiRequest.encryptionInfo;
    const bytes = createDcapiSessionTranscript(info, ORIGIN).encode();
    const hash = createHash('sha256')
      .update(cborEncode([info, ORIGIN]))
      .digest();
    expect(Buffer.from(bytes)).toEqual(Buffer.from(cborEncode([null, null, ['dcapi', new Uint8Array(hash)]])));
    expect(Buffer.from(createDcapiSessionTranscript(info, 'https://other.example').encode())).not.toEqual(
      Buffer.from(bytes),
    );
  });

  it('opens what a wallet sealed for the request, and nothing sealed for another key or origin', async () => {
    const { dcRequest, material } = await createDcRequest(['av'], ['isAdult']);
    const other = await createDcRequest(['av'], ['isAdult']);
    const plaintext = new Uint8Array([1, 2, 3]);
    const sealed = await sealDcResponse(dcRequest.data.encryptionInfo, ORIGIN, plaintext);
    expect(await openDcResponse(material, ORIGIN, sealed)).toEqual(plaintext);
    expect(await openDcResponse(material, 'https://other.example', sealed)).toBeNull();
    expect(await openDcResponse(other.material, ORIGIN, sealed)).toBeNull();
    expect(await openDcResponse(material, ORIGIN, 'garbage')).toBeNull();
  });
});

describe('verifyDcApiResponse', () => {
  it('verifies the sandbox wallet answer for the partner page origin', async () => {
    const request = await newRequest();
    expect(await verify(request, await answer(request))).toEqual({
      status: 'verified',
      credential: 'av',
      facts: { isAdult: true },
    });
  });

  it('accepts the whole credential object or just its data', async () => {
    const request = await newRequest();
    const credential = (await answer(request)) as { data: unknown };
    expect(await verify(request, credential.data)).toEqual({
      status: 'verified',
      credential: 'av',
      facts: { isAdult: true },
    });
  });

  it('reports age_over_18 false for a minor', async () => {
    const request = await newRequest();
    expect(await verify(request, await answer(request, { persona: persona('fr-minor') }))).toEqual({
      status: 'verified',
      credential: 'av',
      facts: { isAdult: false },
    });
  });

  it('refuses an answer sealed for another origin: dc_response (the HPKE info is the transcript)', async () => {
    const request = await newRequest();
    const verdict = await verify(request, await answer(request, { origin: 'https://attacker.example' }));
    expect(verdict).toMatchObject({ status: 'refused', check: 'dc_response' });
  });

  it('refuses a device signature over another origin, even when sealed correctly: device_auth', async () => {
    const request = await newRequest();
    expect(await verify(request, await answer(request, { tamper: 'origin' }))).toMatchObject({
      status: 'refused',
      check: 'device_auth',
    });
  });

  it("refuses another request's answer: dc_response", async () => {
    const [first, second] = [await newRequest(), await newRequest()];
    expect(await verify(second, await answer(first))).toMatchObject({ status: 'refused', check: 'dc_response' });
  });

  it('refuses another protocol or a missing response: dc_response', async () => {
    const request = await newRequest();
    const good = (await answer(request)) as { data: { response: string } };
    for (const credential of [
      null,
      'x',
      { protocol: 'openid4vp', data: good.data },
      { protocol: 'openid4vp-v1-unsigned', data: good.data },
      { protocol: 'org-iso-mdoc', data: {} },
    ]) {
      expect(await verify(request, credential)).toMatchObject({ status: 'refused', check: 'dc_response' });
    }
  });

  it('runs the same credential checks as the OpenID4VP path', async () => {
    const request = await newRequest();
    const cases = [
      ['digest', 'digests'],
      ['mso-doctype', 'doctype'],
      ['untrusted-issuer', 'trust_chain'],
      ['expired', 'mso_validity'],
      ['swap-device-key', 'issuer_signature'],
    ] as const;
    for (const [tamper, check] of cases) {
      expect(await verify(request, await answer(request, { tamper })), tamper).toMatchObject({
        status: 'refused',
        check,
      });
    }
  });

  it('checks the request is live and waiting first', async () => {
    const request = await newRequest();
    const credential = await answer(request);
    const base = { credential, origin: ORIGIN, material: request.material, trust: sandboxTrust, now: NOW };
    expect(await verifyDcApiResponse({ ...base, request: { waiting: true, expiresAt: NOW } })).toMatchObject({
      check: 'request_expired',
    });
    expect(await verifyDcApiResponse({ ...base, request: { waiting: false, expiresAt: NOW + 1 } })).toMatchObject({
      check: 'request_not_waiting',
    });
  });
});
