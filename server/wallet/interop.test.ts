/**
 * Interop: presentations this verifier did not build itself. A credential and DeviceResponse made
 * by @owf/mdoc's own Issuer and Holder (signatures by node:crypto, certificates by @peculiar/x509
 * directly, request read by @openid4vc/openid4vp) under an unrelated IACA — a proof of age and an
 * EU PID —; the EU profile's published example credential, signed by the EU reference issuer; and
 * the other way round, a PID of ours checked by @owf/mdoc's Verifier.
 */
import { parseOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import * as mdoc from '@owf/mdoc';
import {
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  ExtendedKeyUsageExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  X509CertificateGenerator,
} from '@peculiar/x509';
import { createPrivateKey, sign, webcrypto } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEcJwk, toPublicEcJwk, type EcJwk } from './keys.ts';
import { mdocContext } from './formats/mdoc-context.ts';
import { AV_CLAIM, AV_DOCTYPE, AV_NAMESPACE } from './profile.ts';
import { createOid4VpSessionTranscript } from './formats/session-transcript.ts';
import { createWalletRequest } from './request/wallet-request.ts';
import { createDirectPost, presentIssuerSigned } from '../sandbox/wallet/sandbox-wallet.ts';
import { PID_DOCTYPE, PID_NAMESPACE } from './formats/credentials.ts';
import {
  API_URL,
  euProfileIssuerSigned,
  NOW,
  persona,
  sandboxIssuer,
  sandboxTrust,
  trustOf,
  waiting,
} from './test-helpers.ts';
import { DEFAULT_WALLET_FIXTURES, loadWalletTrust } from './trust/anchors.ts';
import { verifyDeviceResponseBytes } from './answer/presentation.ts';
import { verifyWalletResponse } from './verify.ts';

const DAY_MS = 86_400_000;

/** COSE signing the independent way: node:crypto's sign, not our Web Crypto path. */
const holderContext: mdoc.MdocContext = {
  ...mdocContext,
  cose: {
    ...mdocContext.cose,
    sign1: {
      ...mdocContext.cose.sign1,
      sign: ({ toBeSigned, key }) =>
        new Uint8Array(
          sign('sha256', toBeSigned, {
            key: createPrivateKey({ key: key.jwk as never, format: 'jwk' }),
            dsaEncoding: 'ieee-p1363',
          }),
        ),
    },
  },
};

/** An unrelated issuer: IACA signing with ECDSA-SHA384 like the EU CA, x5chain = [DS, IACA]. */
async function createOtherIssuer(): Promise<{ iacaPem: string; dsKey: EcJwk; x5chain: Uint8Array[] }> {
  const crypto = webcrypto as unknown as Parameters<typeof X509CertificateGenerator.create>[1];
  const importPair = async (jwk: EcJwk) => ({
    privateKey: await webcrypto.subtle.importKey('jwk', { ...jwk }, { name: 'ECDSA', namedCurve: 'P-256' }, true, [
      'sign',
    ]),
    publicKey: await webcrypto.subtle.importKey(
      'jwk',
      toPublicEcJwk(jwk),
      { name: 'ECDSA', namedCurve: 'P-256' },
      true,
      ['verify'],
    ),
  });
  const iacaKeys = await importPair(createEcJwk());
  const dsKey = createEcJwk();
  const dsKeys = await importPair(dsKey);
  const validity = { notBefore: new Date(NOW - 30 * DAY_MS), notAfter: new Date(NOW + 3650 * DAY_MS) };
  const iaca = await X509CertificateGenerator.createSelfSigned(
    {
      name: 'CN=Interop Test IACA, O=Interop Lab, C=DE',
      keys: iacaKeys,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-384' },
      extensions: [
        new BasicConstraintsExtension(true, 0, true),
        new KeyUsagesExtension(KeyUsageFlags.keyCertSign, true),
      ],
      ...validity,
    },
    crypto,
  );
  const ds = await X509CertificateGenerator.create(
    {
      subject: 'CN=Interop Test DS, O=Interop Lab, C=DE',
      issuer: iaca.subject,
      publicKey: dsKeys.publicKey,
      signingKey: iacaKeys.privateKey,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-384' },
      extensions: [
        new KeyUsagesExtension(KeyUsageFlags.digitalSignature, true),
        // ISO/IEC 18013-5 Annex B's id-mdl-kp-mdlDS, written out: this issuer uses nothing of ours
        new ExtendedKeyUsageExtension(['1.0.18013.5.1.2'], true),
        await AuthorityKeyIdentifierExtension.create(iaca, false, crypto),
      ],
      ...validity,
    },
    crypto,
  );
  return { iacaPem: iaca.toString('pem'), dsKey, x5chain: [new Uint8Array(ds.rawData), new Uint8Array(iaca.rawData)] };
}

/** A wallet built from the libraries alone answers our av:// link. */
async function holderAnswers(
  walletLink: string,
  issuer: { dsKey: EcJwk; x5chain: Uint8Array[] },
): Promise<URLSearchParams> {
  const { params } = parseOpenid4vpAuthorizationRequest({ authorizationRequest: walletLink });
  const request = params as { client_id: string; response_uri: string; nonce: string; state: string };
  const deviceKey = createEcJwk();
  const issuerSigned = await new mdoc.Issuer(AV_DOCTYPE, holderContext)
    .addIssuerNamespace(AV_NAMESPACE, { [AV_CLAIM]: true })
    .sign({
      signingKey: mdoc.CoseKey.fromJwk({ ...issuer.dsKey }),
      algorithm: mdoc.SignatureAlgorithm.ES256,
      digestAlgorithm: 'SHA-256',
      validityInfo: {
        signed: new Date(NOW - DAY_MS),
        validFrom: new Date(NOW - DAY_MS),
        validUntil: new Date(NOW + 90 * DAY_MS),
      },
      deviceKeyInfo: { deviceKey: mdoc.DeviceKey.fromJwk({ ...toPublicEcJwk(deviceKey) }) },
      certificates: issuer.x5chain,
    });
  const sessionTranscript = await mdoc.SessionTranscript.forOid4Vp(
    { clientId: request.client_id, responseUri: request.response_uri, nonce: request.nonce },
    holderContext,
  );
  const deviceRequest = mdoc.DeviceRequest.create({
    docRequests: [
      mdoc.DocRequest.create({
        itemsRequest: mdoc.ItemsRequest.create({
          docType: AV_DOCTYPE,
          namespaces: { [AV_NAMESPACE]: { [AV_CLAIM]: false } },
        }),
      }),
    ],
  });
  const response = await mdoc.Holder.createDeviceResponseForDeviceRequest(
    {
      deviceRequest,
      sessionTranscript,
      issuerSigned: [issuerSigned],
      signature: { signingKey: mdoc.CoseKey.fromJwk({ ...deviceKey, alg: 'ES256' }) },
    },
    holderContext,
  );
  return new URLSearchParams({
    vp_token: JSON.stringify({ proof_of_age: [response.encodedForOid4Vp] }),
    state: request.state,
  });
}

describe('interop', () => {
  it("accepts a presentation by the library's Holder under an unrelated IACA registered through SVC_WALLET_TRUST", async () => {
    const issuer = await createOtherIssuer();
    const trustPath = join(mkdtempSync(join(tmpdir(), 'svc-wallet-')), 'roots.pem');
    writeFileSync(trustPath, issuer.iacaPem);
    const trust = loadWalletTrust({ mode: 'production', trustPath });
    const request = await createWalletRequest({ requestId: 'vr_interop', apiUrl: 'https://svc.example' });
    const body = await holderAnswers(request.walletLink, issuer);
    const verdict = await verifyWalletResponse({
      body,
      material: request.material,
      trust,
      request: waiting(),
      now: NOW,
    });
    expect(verdict).toEqual({ status: 'verified', credential: 'av', facts: { isAdult: true } });
  });

  it('refuses the same kind of presentation when its IACA is not registered: trust_chain', async () => {
    const issuer = await createOtherIssuer();
    const request = await createWalletRequest({ requestId: 'vr_interop', apiUrl: 'https://svc.example' });
    const body = await holderAnswers(request.walletLink, issuer);
    for (const trust of [
      sandboxTrust,
      loadWalletTrust({
        mode: 'production',
        trustPath: join(DEFAULT_WALLET_FIXTURES, 'av_issuer_ca01.pem'),
        allowTestRoots: true,
      }),
    ]) {
      const verdict = await verifyWalletResponse({
        body,
        material: request.material,
        trust,
        request: waiting(),
        now: NOW,
      });
      expect(verdict).toMatchObject({ status: 'refused', check: 'trust_chain' });
    }
  });
});

describe("the EU profile's example credential (Annex A §A.10)", () => {
  const euTrust = loadWalletTrust({
    mode: 'production',
    trustPath: join(DEFAULT_WALLET_FIXTURES, 'av_issuer_ca01.pem'),
    allowTestRoots: true,
  });
  const whileValid = Date.parse('2025-07-01T00:00:00Z');

  it('passes the library issuer checks under the committed EU CA through our context', async () => {
    const euCa = new Uint8Array(euTrust.anchors[0]!.der);
    const issuerSigned = euProfileIssuerSigned();
    await expect(
      mdoc.Holder.verifyIssuerSigned(
        { issuerSigned, trustedCertificates: [euCa], now: new Date(whileValid) },
        mdocContext,
      ),
    ).resolves.toBeUndefined();
    expect(issuerSigned.getPrettyClaims(AV_NAMESPACE)).toEqual({ [AV_CLAIM]: true });
  });

  it('fails only device_auth without its device key while valid, and mso_validity once expired', async () => {
    const transcript = await createOid4VpSessionTranscript({
      responseUri: 'https://svc.example/oid4vp/response/x',
      nonce: 'n',
    });
    // We do not hold the example's device key: any other key makes device_auth the last check left.
    const bytes = await presentIssuerSigned({
      issuerSigned: euProfileIssuerSigned(),
      signingKey: createEcJwk(),
      sessionTranscript: transcript,
    });
    expect(await verifyDeviceResponseBytes(bytes, transcript, euTrust, whileValid)).toMatchObject({
      check: 'device_auth',
    });
    expect(await verifyDeviceResponseBytes(bytes, transcript, euTrust, NOW)).toMatchObject({ check: 'mso_validity' });
    expect(await verifyDeviceResponseBytes(bytes, transcript, sandboxTrust, whileValid)).toMatchObject({
      check: 'device_auth',
    });
  });
});

describe('interop: the EU PID (design.md §13)', () => {
  it("accepts a PID issued by the library's Issuer and presented by its Holder, answering our openid4vp:// link", async () => {
    const issuer = await createOtherIssuer();
    const trust = trustOf(issuer.iacaPem);
    const request = await createWalletRequest({
      requestId: 'vr_interop_pid',
      apiUrl: 'https://svc.example',
      scopes: ['isAdult', 'isFrench', 'isEU'],
    });
    // The wallet's side, from the libraries alone: @openid4vc/openid4vp reads the link, @owf/mdoc
    // issues, selects the elements the DeviceRequest names, and signs.
    const { params } = parseOpenid4vpAuthorizationRequest({ authorizationRequest: request.walletLink });
    const asked = params as { client_id: string; response_uri: string; nonce: string; state: string };
    const deviceKey = createEcJwk();
    const issuerSigned = await new mdoc.Issuer(PID_DOCTYPE, holderContext)
      .addIssuerNamespace(PID_NAMESPACE, {
        family_name: 'Mustermann',
        given_name: 'Erika',
        birth_date: new mdoc.DateOnly('1964-08-12'),
        age_over_18: true,
        nationality: ['DE', 'FR'],
      })
      .sign({
        signingKey: mdoc.CoseKey.fromJwk({ ...issuer.dsKey }),
        algorithm: mdoc.SignatureAlgorithm.ES256,
        digestAlgorithm: 'SHA-256',
        validityInfo: {
          signed: new Date(NOW - DAY_MS),
          validFrom: new Date(NOW - DAY_MS),
          validUntil: new Date(NOW + 90 * DAY_MS),
        },
        deviceKeyInfo: { deviceKey: mdoc.DeviceKey.fromJwk({ ...toPublicEcJwk(deviceKey) }) },
        certificates: issuer.x5chain,
      });
    const sessionTranscript = await mdoc.SessionTranscript.forOid4Vp(
      { clientId: asked.client_id, responseUri: asked.response_uri, nonce: asked.nonce },
      holderContext,
    );
    const deviceRequest = mdoc.DeviceRequest.create({
      docRequests: [
        mdoc.DocRequest.create({
          itemsRequest: mdoc.ItemsRequest.create({
            docType: PID_DOCTYPE,
            namespaces: { [PID_NAMESPACE]: { age_over_18: false, nationality: false } },
          }),
        }),
      ],
    });
    const response = await mdoc.Holder.createDeviceResponseForDeviceRequest(
      {
        deviceRequest,
        sessionTranscript,
        issuerSigned: [issuerSigned],
        signature: { signingKey: mdoc.CoseKey.fromJwk({ ...deviceKey, alg: 'ES256' }) },
      },
      holderContext,
    );
    const body = new URLSearchParams({
      vp_token: JSON.stringify({ pid: [response.encodedForOid4Vp] }),
      state: asked.state,
    });
    const verdict = await verifyWalletResponse({
      body,
      material: request.material,
      trust,
      request: waiting(),
      now: NOW,
    });
    expect(verdict).toEqual({
      status: 'verified',
      credential: 'pid',
      facts: { isAdult: true, isFrench: true, isEU: true },
    });
  });

  it("has the library's Verifier accept a PID our sandbox issuer and wallet made, for the request it answers", async () => {
    const request = await createWalletRequest({ requestId: 'vr_ours', apiUrl: API_URL, scopes: ['isFrench'] });
    const { body } = await createDirectPost({
      link: request.walletLink,
      issuer: sandboxIssuer,
      persona: persona('fr-adult-f'),
      now: NOW,
      credential: 'pid',
    });
    const presentation = (JSON.parse(new URLSearchParams(body).get('vp_token')!) as { pid: [string] }).pid[0];
    const sessionTranscript = await createOid4VpSessionTranscript({
      responseUri: request.responseUri,
      nonce: request.nonce,
    });
    const deviceResponse = mdoc.DeviceResponse.decode(new Uint8Array(Buffer.from(presentation, 'base64url')));
    const failures: string[] = [];
    await mdoc.Verifier.verifyDeviceResponse(
      {
        deviceResponse,
        sessionTranscript,
        trustedCertificates: sandboxTrust.anchors.map((anchor) => anchor.der),
        now: new Date(NOW),
        onCheck: (assessment) => {
          if (assessment.status === 'FAILED') failures.push(assessment.check);
        },
      },
      mdocContext,
    );
    expect(failures).toEqual([]);
    const [document] = deviceResponse.documents!;
    expect(document!.docType).toBe(PID_DOCTYPE);
    // Selective disclosure: the sandbox wallet shared the element asked for, not the birth date it also holds.
    expect(document!.issuerSigned.getPrettyClaims(PID_NAMESPACE)).toEqual({ nationality: ['FR'] });
  });
});
