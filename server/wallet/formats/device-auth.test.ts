/**
 * A presentation counts only for its own request (design.md §11, device auth). The device signature must
 * be detached (payload nil) and verify over the DeviceAuthenticationBytes this verifier computes
 * from its own transcript; a device MAC is refused. Each forged input is sent and seen refused.
 */
import { cborDecode, cborEncode } from '@owf/mdoc';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sealDcResponse } from '../answer/hpke.ts';
import { decodeBase64Url } from '../keys.ts';
import { createDcapiSessionTranscript, createOid4VpSessionTranscript } from './session-transcript.ts';
import { CREDENTIAL_QUERY_ID, DC_API_PROTOCOL } from '../profile.ts';
import { createWalletRequest, type WalletRequest } from '../request/wallet-request.ts';
import { createDcApiCredential, createDeviceResponse, createDirectPost } from '../../sandbox/wallet/sandbox-wallet.ts';
import { DEFAULT_WALLET_FIXTURES } from '../trust/anchors.ts';
import { API_URL, NOW, ORIGIN, persona, sandboxIssuer, sandboxTrust, waiting } from '../test-helpers.ts';
import { verifyDcApiResponse, verifyWalletResponse } from '../verify.ts';
import { verifyDeviceResponseBytes } from '../answer/presentation.ts';

const adult = persona('fr-adult-m');

interface ReplayVector {
  made_at: string;
  signed_for: { client_id: string; response_uri: string; nonce: string };
  device_response: string;
}

/** The exploit as found, kept as data: signed for `redirect_uri:https://attacker.invalid/cb`. */
const vector = JSON.parse(readFileSync(join(DEFAULT_WALLET_FIXTURES, 'replay-vector.json'), 'utf8')) as ReplayVector;

function newRequest(id = 'vr_device_auth'): Promise<WalletRequest> {
  return createWalletRequest({ requestId: id, apiUrl: API_URL });
}

/** A direct_post body carrying `presentation` for `request` (its own, correct state). */
function formFor(request: WalletRequest, presentation: string): string {
  return new URLSearchParams({
    vp_token: JSON.stringify({ [CREDENTIAL_QUERY_ID]: [presentation] }),
    state: request.material.state,
  }).toString();
}

function verifyPost(request: WalletRequest, body: string) {
  return verifyWalletResponse({ body, material: request.material, trust: sandboxTrust, request: waiting(), now: NOW });
}

function verifyDc(request: WalletRequest, credential: unknown) {
  return verifyDcApiResponse({
    credential,
    origin: ORIGIN,
    material: request.material,
    trust: sandboxTrust,
    request: waiting(),
    now: NOW,
  });
}

/** The presentation of a direct_post body. */
function presentationOf(body: string): string {
  return (JSON.parse(new URLSearchParams(body).get('vp_token')!) as Record<string, string[]>)[CREDENTIAL_QUERY_ID]![0]!;
}

/** Rewrites the raw CBOR of the one document's deviceAuth (a Map), then re-encodes the response. */
function rewriteDeviceAuth(bytes: Uint8Array, rewrite: (deviceAuth: Map<string, unknown>) => void): Uint8Array {
  const raw = cborDecode(bytes) as Map<string, unknown>;
  const document = (raw.get('documents') as Map<string, unknown>[])[0]!;
  const deviceSigned = document.get('deviceSigned') as Map<string, unknown>;
  rewrite(deviceSigned.get('deviceAuth') as Map<string, unknown>);
  return cborEncode(raw);
}

const embeddedRefusal = {
  status: 'refused',
  check: 'device_auth',
  detail: 'the device signature carries an embedded payload (it must be detached)',
};

describe('a device signature with an embedded payload', () => {
  it('refuses a device signature with an embedded payload, even one that verifies: the committed exploit, on both routes', async () => {
    const request = await newRequest();
    expect(await verifyPost(request, formFor(request, vector.device_response))).toMatchObject(embeddedRefusal);
    const credential = {
      protocol: DC_API_PROTOCOL,
      data: {
        response: await sealDcResponse(
          request.dcRequest.data.encryptionInfo,
          ORIGIN,
          decodeBase64Url(vector.device_response)!,
        ),
      },
    };
    expect(await verifyDc(request, credential)).toMatchObject(embeddedRefusal);
  });

  it('refuses one made for this very request: the DeviceAuthenticationBytes are detached (ISO/IEC 18013-5 §9.1.3)', async () => {
    const request = await newRequest();
    const { body } = await createDirectPost({
      link: request.walletLink,
      issuer: sandboxIssuer,
      persona: adult,
      now: NOW,
      embedPayload: true,
    });
    expect(await verifyPost(request, body)).toMatchObject(embeddedRefusal);
  });

  it('refuses the presentation made for request A when it is replayed to request B', async () => {
    const [a, b] = [await newRequest('vr_a'), await newRequest('vr_b')];
    const { body } = await createDirectPost({
      link: a.walletLink,
      issuer: sandboxIssuer,
      persona: adult,
      now: NOW,
      embedPayload: true,
    });
    expect(await verifyPost(b, formFor(b, presentationOf(body)))).toMatchObject(embeddedRefusal);
    // Detached, the same replay fails the signature over B's transcript.
    const detached = await createDirectPost({ link: a.walletLink, issuer: sandboxIssuer, persona: adult, now: NOW });
    expect(await verifyPost(b, formFor(b, presentationOf(detached.body)))).toMatchObject({
      status: 'refused',
      check: 'device_auth',
    });
  });

  it('refuses one made for another verifier, on the OpenID4VP route and on the DC API route', async () => {
    const request = await newRequest();
    const post = await createDirectPost({
      link: request.walletLink,
      issuer: sandboxIssuer,
      persona: adult,
      now: NOW,
      tamper: 'embedded-payload',
    });
    expect(await verifyPost(request, post.body)).toMatchObject(embeddedRefusal);
    const credential = await createDcApiCredential({
      dcRequest: request.dcRequest,
      origin: ORIGIN,
      issuer: sandboxIssuer,
      persona: adult,
      now: NOW,
      tamper: 'embedded-payload',
    });
    expect(await verifyDc(request, credential)).toMatchObject(embeddedRefusal);
  });

  it('refuses an empty embedded payload too', async () => {
    const transcript = await createOid4VpSessionTranscript({ responseUri: `${API_URL}/oid4vp/response/x`, nonce: 'n' });
    const bytes = rewriteDeviceAuth(
      await createDeviceResponse({ issuer: sandboxIssuer, persona: adult, now: NOW, sessionTranscript: transcript }),
      (deviceAuth) => {
        const signature = deviceAuth.get('deviceSignature') as unknown[];
        signature[2] = new Uint8Array(0);
      },
    );
    expect(await verifyDeviceResponseBytes(bytes, transcript, sandboxTrust, NOW)).toMatchObject(embeddedRefusal);
  });
});

describe('device authentication other than a detached ECDSA signature', () => {
  async function validBytes() {
    const transcript = await createOid4VpSessionTranscript({ responseUri: `${API_URL}/oid4vp/response/x`, nonce: 'n' });
    const bytes = await createDeviceResponse({
      issuer: sandboxIssuer,
      persona: adult,
      now: NOW,
      sessionTranscript: transcript,
    });
    return { bytes, transcript };
  }

  it('accepts the untouched baseline', async () => {
    const { bytes, transcript } = await validBytes();
    expect(await verifyDeviceResponseBytes(bytes, transcript, sandboxTrust, NOW)).toEqual({
      status: 'verified',
      credential: 'av',
      facts: { isAdult: true },
    });
  });

  it('refuses a device MAC (there is no reader key agreement on these routes)', async () => {
    const { bytes, transcript } = await validBytes();
    const mac = rewriteDeviceAuth(bytes, (deviceAuth) => {
      deviceAuth.delete('deviceSignature');
      deviceAuth.set('deviceMac', [cborEncode(new Map([[1, 5]])), new Map(), null, new Uint8Array(32)]);
    });
    expect(await verifyDeviceResponseBytes(mac, transcript, sandboxTrust, NOW)).toMatchObject({
      status: 'refused',
      check: 'device_auth',
      detail: 'a device MAC is not accepted (no reader key agreement)',
    });
  });

  it('refuses a device signature whose algorithm is only in the unprotected header', async () => {
    const { bytes, transcript } = await validBytes();
    const moved = rewriteDeviceAuth(bytes, (deviceAuth) => {
      const signature = deviceAuth.get('deviceSignature') as unknown[];
      signature[0] = cborEncode(new Map());
      signature[1] = new Map([[1, -7]]);
    });
    expect(await verifyDeviceResponseBytes(moved, transcript, sandboxTrust, NOW)).toMatchObject({
      status: 'refused',
      check: 'device_auth',
      detail: 'the device signature has no supported algorithm in its protected header',
    });
  });

  it('refuses on the DC API route a response signed for request A and sealed to request B', async () => {
    const [a, b] = [await newRequest('vr_a'), await newRequest('vr_b')];
    const transcriptA = createDcapiSessionTranscript(a.dcRequest.data.encryptionInfo, ORIGIN);
    const bytes = await createDeviceResponse({
      issuer: sandboxIssuer,
      persona: adult,
      now: NOW,
      sessionTranscript: transcriptA,
    });
    const credential = {
      protocol: DC_API_PROTOCOL,
      data: { response: await sealDcResponse(b.dcRequest.data.encryptionInfo, ORIGIN, bytes) },
    };
    expect(await verifyDc(b, credential)).toMatchObject({ status: 'refused', check: 'device_auth' });
  });
});
