/**
 * Evidence for the library gaps (docs/wallets.md#where-the-libraries-stop; each gap is written beside
 * its workaround, in the file the table there names): each test shows what the library does on its own, then that our
 * workaround covers it.
 */
import * as openid4vp from '@openid4vc/openid4vp';
import * as mdoc from '@owf/mdoc';
import { X509Certificate as PeculiarCertificate } from '@peculiar/x509';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCertificate } from './trust/certificates.ts';
import { createDeviceRequest } from './request/dc-request.ts';
import { readFullDate } from './formats/full-date.ts';
import { createEcJwk } from './keys.ts';
import { checkDocTypes, decodeDeviceResponse } from './formats/device-response.ts';
import { coseKeyToEcJwk, ecJwkToCoseKey } from './formats/cose-keys.ts';
import { createDcapiSessionTranscript, createOid4VpSessionTranscript } from './formats/session-transcript.ts';
import { mdocContext } from './formats/mdoc-context.ts';
import { AV_DOCTYPE } from './profile.ts';
import { createWalletRequest } from './request/wallet-request.ts';
import { createIssuerCertificates } from '../sandbox/wallet/sandbox-issuer.ts';
import {
  ATTACKER_TEXT,
  createDeviceResponse,
  type PresentOptions,
  type WalletTamper,
} from '../sandbox/wallet/sandbox-wallet.ts';
import { DEFAULT_WALLET_FIXTURES } from './trust/anchors.ts';
import { evaluateIssuerChain } from './trust/chain.ts';
import { verifyDeviceResponseBytes } from './answer/presentation.ts';
import { euProfileExample, NOW, ORIGIN, persona, sandboxIssuer, sandboxTrust } from './test-helpers.ts';

const now = new Date(NOW);

async function responseBytes(
  options: { tamper?: WalletTamper; tagIssuerAuth?: boolean; validity?: PresentOptions['validity'] } = {},
) {
  const sessionTranscript = await createOid4VpSessionTranscript({
    responseUri: 'https://svc.example/oid4vp/response/x',
    nonce: 'n',
  });
  const bytes = await createDeviceResponse({
    issuer: sandboxIssuer,
    persona: persona('fr-adult-m'),
    now: NOW,
    sessionTranscript,
    ...options,
  });
  return { bytes, sessionTranscript };
}

describe('gap 1: issuerAuth and deviceSignature with COSE tag 18', () => {
  it('@owf/mdoc 0.6.0 refuses a tagged issuerAuth; decodeDeviceResponse reads it as the untagged one', async () => {
    const plain = (await responseBytes()).bytes;
    const { bytes: tagged } = await responseBytes({ tagIssuerAuth: true });
    expect(() => mdoc.DeviceResponse.decode(tagged)).toThrow();
    const document = decodeDeviceResponse(tagged).documents![0]!;
    expect(document.issuerSigned.issuerAuth.mobileSecurityObject.docType).toBe(AV_DOCTYPE);
    expect(() => mdoc.DeviceResponse.decode(plain)).not.toThrow();
  });

  it('reads a tagged deviceSignature too', async () => {
    const { bytes } = await responseBytes();
    const signature = decodeDeviceResponse(bytes).documents![0]!.deviceSigned.deviceAuth.deviceSignature!;
    const needle = Buffer.from(mdoc.cborEncode(signature.encodedStructure));
    const at = Buffer.from(bytes).indexOf(needle);
    const tagged = new Uint8Array(
      Buffer.concat([Buffer.from(bytes).subarray(0, at), Buffer.from([0xd2]), Buffer.from(bytes).subarray(at)]),
    );
    expect(() => mdoc.DeviceResponse.decode(tagged)).toThrow();
    expect(decodeDeviceResponse(tagged).documents![0]!.deviceSigned.deviceAuth.deviceSignature!.signature).toEqual(
      signature.signature,
    );
  });
});

describe('gap 2: docType', () => {
  for (const tamper of ['doctype', 'mso-doctype'] as const) {
    it(`Verifier.verifyDeviceResponse without a DeviceRequest passes a ${tamper} change; checkDocTypes does not`, async () => {
      const { bytes, sessionTranscript } = await responseBytes({ tamper });
      const trustedCertificates = sandboxTrust.anchors.map((a) => a.der);
      // The library's default callback throws on the first failed check: resolving means all passed.
      await expect(
        mdoc.Verifier.verifyDeviceResponse(
          { deviceResponse: bytes, sessionTranscript, trustedCertificates, now },
          mdocContext,
        ),
      ).resolves.toBeUndefined();
      expect(checkDocTypes(decodeDeviceResponse(bytes).documents![0]!, AV_DOCTYPE)).toMatch(/docType/);
    });
  }
});

describe('gap 3: certificate dates on the trusted root', () => {
  it('our chain callback refuses an expired IACA that is itself the trusted anchor', async () => {
    const issuer = await createIssuerCertificates({
      name: 'Old Root',
      country: 'XX',
      notBefore: new Date(NOW - 800 * 86_400_000),
      notAfter: new Date(NOW - 86_400_000),
      dsNotAfter: new Date(NOW + 86_400_000),
    });
    const trustedCertificates = [new Uint8Array(issuer.iaca.rawData)];
    expect(() =>
      mdocContext.x509.verifyCertificateChain({ trustedCertificates, x5chain: issuer.x5chain, now }),
    ).toThrow('the IACA certificate has expired');
    const anchor = readCertificate(trustedCertificates[0]!)!;
    expect(evaluateIssuerChain(issuer.x5chain, [anchor], new Date(NOW - 2 * 86_400_000))).toMatchObject({ ok: true });
  });
});

describe('gap 4: the Annex C dcapi handover', () => {
  it('@owf/mdoc cannot decode a dcapi SessionTranscript and exports no Handover base; ours encodes it', () => {
    const transcript = createDcapiSessionTranscript(euProfileExample.dcApiRequest.encryptionInfo, ORIGIN);
    const bytes = transcript.encode();
    expect(() => mdoc.SessionTranscript.decode(bytes)).toThrow(/handover/);
    expect('Handover' in mdoc).toBe(false);
    expect((mdoc.cborDecode(bytes) as unknown[])[2]).toEqual(['dcapi', expect.any(Uint8Array)]);
  });
});

describe('gap 5: writing the link', () => {
  it('createOpenid4vpAuthorizationRequest refuses an http response_uri and reorders the parameters; its parser reads ours', async () => {
    const request = await createWalletRequest({ requestId: 'vr_http', apiUrl: 'http://localhost:8787' });
    const payload = openid4vp.parseOpenid4vpAuthorizationRequest({ authorizationRequest: request.walletLink }).params;
    const create = (p: unknown) =>
      openid4vp.createOpenid4vpAuthorizationRequest({
        scheme: 'av://',
        authorizationRequestPayload: p as never,
        callbacks: {} as never,
      });
    await expect(create(payload)).rejects.toThrow(/https/);
    const https = await createWalletRequest({ requestId: 'vr_https', apiUrl: 'https://svc.example' });
    const theirs = await create(
      openid4vp.parseOpenid4vpAuthorizationRequest({ authorizationRequest: https.walletLink }).params,
    );
    expect(theirs.authorizationRequest).not.toBe(https.walletLink);
    expect(new URL(theirs.authorizationRequest.replace('av://', 'https://x/')).searchParams.get('nonce')).toBe(
      https.nonce,
    );
  });
});

describe('gap 6: the EU reference certificates', () => {
  it('@peculiar/x509 1.14.3 cannot parse the EU reference CA or its DS; node:crypto can, and chains them', () => {
    const caPem = readFileSync(join(DEFAULT_WALLET_FIXTURES, 'av_issuer_ca01.pem'), 'utf8');
    const ds = new Uint8Array(Buffer.from(euProfileExample.issuerAuth.x5chain, 'hex'));
    // It parses the outer certificate, then throws on its extensions (read by any chain check).
    expect(() => new PeculiarCertificate(caPem).extensions).toThrow(/GeneralName/);
    expect(() => new PeculiarCertificate(ds).extensions).toThrow(/GeneralName/);
    const ca = readCertificate(caPem)!;
    expect(evaluateIssuerChain([ds], [ca], new Date('2025-07-01T00:00:00Z'))).toMatchObject({ ok: true });
    expect(evaluateIssuerChain([ds], [ca], new Date('2026-07-03T00:00:00Z'))).toMatchObject({
      ok: false,
      check: 'certificate_validity',
      detail: 'the DS certificate has expired',
    });
  });
});

describe('what the libraries do check', () => {
  it('@owf/mdoc verifies the device signature against the MSO device key over our transcript', async () => {
    const { bytes } = await responseBytes();
    const other = await createOid4VpSessionTranscript({
      responseUri: 'https://svc.example/oid4vp/response/x',
      nonce: 'other',
    });
    const checks: mdoc.VerificationAssessment[] = [];
    await mdoc.Verifier.verifyDeviceResponse(
      {
        deviceResponse: bytes,
        sessionTranscript: other,
        trustedCertificates: sandboxTrust.anchors.map((a) => a.der),
        now,
        onCheck: (c) => checks.push(c),
      },
      mdocContext,
    );
    expect(checks.filter((c) => c.status === 'FAILED').map((c) => c.category)).toEqual(['DEVICE_AUTH']);
  });

  it('our context refuses a key of another curve than the signature algorithm', async () => {
    const { bytes } = await responseBytes();
    const issuerAuth = decodeDeviceResponse(bytes).documents![0]!.issuerSigned.issuerAuth;
    expect(await mdocContext.cose.sign1.verify({ key: ecJwkToCoseKey(createEcJwk('ES384')), sign1: issuerAuth })).toBe(
      false,
    );
  });
});

describe('gap 7: P-384 and P-521 keys', () => {
  it('CoseKey.fromJwk refuses them; ecJwkToCoseKey and coseKeyToEcJwk round-trip them', () => {
    for (const algorithm of ['ES256', 'ES384', 'ES512'] as const) {
      const jwk = createEcJwk(algorithm);
      if (algorithm !== 'ES256') expect(() => mdoc.CoseKey.fromJwk({ ...jwk })).toThrow();
      expect(coseKeyToEcJwk(ecJwkToCoseKey(jwk), true)).toEqual(jwk);
    }
  });

  it('verifies an ES384 signature made with a P-384 key through the context', async () => {
    const key = ecJwkToCoseKey(createEcJwk('ES384'));
    const sign1 = await mdoc.Sign1.create(
      {
        protectedHeaders: new Map([[1, mdoc.SignatureAlgorithm.ES384]]),
        payload: new Uint8Array([1, 2, 3]),
        signingKey: key,
      },
      mdocContext,
    );
    expect(
      await mdocContext.cose.sign1.verify({ key: mdoc.CoseKey.fromEncodedStructure(key.encodedStructure), sign1 }),
    ).toBe(true);
  });
});

describe('gap 8: device authentication over an embedded payload', () => {
  const vector = JSON.parse(readFileSync(join(DEFAULT_WALLET_FIXTURES, 'replay-vector.json'), 'utf8')) as {
    made_at: string;
    device_response: string;
  };

  it('@owf/mdoc 0.6.0 verifies the committed exploit for any transcript; verifyDeviceResponseBytes refuses it', async () => {
    const ours = await createOid4VpSessionTranscript({
      responseUri: 'https://svc.example/oid4vp/response/b',
      nonce: 'b',
    });
    const bytes = Buffer.from(vector.device_response, 'base64url');
    const at = new Date(vector.made_at);
    const trustedCertificates = sandboxTrust.anchors.map((a) => a.der);
    await expect(
      mdoc.Verifier.verifyDeviceResponse(
        { deviceResponse: bytes, sessionTranscript: ours, trustedCertificates, now: at },
        mdocContext,
      ),
    ).resolves.toBeUndefined();
    expect(await verifyDeviceResponseBytes(bytes, ours, sandboxTrust, at.getTime())).toMatchObject({
      status: 'refused',
      check: 'device_auth',
      detail: 'the device signature carries an embedded payload (it must be detached)',
    });
  });
});

/** What @owf/mdoc's Verifier reports as failed for these bytes (nothing: it would accept them). */
async function libraryFailures(bytes: Uint8Array, sessionTranscript: mdoc.SessionTranscript) {
  const failed: mdoc.VerificationAssessment[] = [];
  await mdoc.Verifier.verifyDeviceResponse(
    {
      deviceResponse: bytes,
      sessionTranscript,
      trustedCertificates: sandboxTrust.anchors.map((a) => a.der),
      now,
      skewSeconds: 300,
      onCheck: (assessment) => void (assessment.status === 'FAILED' && failed.push(assessment)),
    },
    mdocContext,
  );
  return failed;
}

describe('gap 9: the MSO validity window', () => {
  const minutes = (n: number) => new Date(NOW + n * 60_000);

  it('@owf/mdoc 0.6.0 accepts an inverted window inside the skew and a signing date in the future; we refuse both', async () => {
    for (const validity of [
      { signed: minutes(-1), validFrom: minutes(2), validUntil: minutes(-2) },
      { signed: minutes(4 * 60), validFrom: minutes(-60), validUntil: minutes(60) },
    ]) {
      const { bytes, sessionTranscript } = await responseBytes({ validity });
      expect(await libraryFailures(bytes, sessionTranscript)).toEqual([]);
      expect(await verifyDeviceResponseBytes(bytes, sessionTranscript, sandboxTrust, NOW)).toMatchObject({
        status: 'refused',
        check: 'mso_validity',
      });
    }
  });
});

describe('gap 10: assessment texts quote the credential', () => {
  it('@owf/mdoc 0.6.0 puts an unsigned element name in its check text; our detail does not', async () => {
    for (const tamper of ['unsigned-element', 'unsigned-namespace'] as const) {
      const { bytes, sessionTranscript } = await responseBytes({ tamper });
      const failed = await libraryFailures(bytes, sessionTranscript);
      expect(failed.some((assessment) => assessment.check.includes(ATTACKER_TEXT))).toBe(true);
      const verdict = await verifyDeviceResponseBytes(bytes, sessionTranscript, sandboxTrust, NOW);
      expect(verdict).toMatchObject({ status: 'refused', check: 'digests' });
      expect(JSON.stringify(verdict)).not.toContain('family_name');
      expect(JSON.stringify(verdict).length).toBeLessThan(300);
    }
  });
});

describe('gap 11: vp_token ids and the docType of what they key', () => {
  it('@openid4vc/openid4vp 0.4.6 returns presentations under any id; we take only an id asked, with its docType', async () => {
    const request = await createWalletRequest({
      requestId: 'vr_gap11',
      apiUrl: 'https://svc.example',
      scopes: ['isFrench'],
    });
    const payload = openid4vp.parseOpenid4vpAuthorizationRequest({ authorizationRequest: request.walletLink }).params;
    const parsed = await openid4vp.parseOpenid4vpAuthorizationResponse({
      authorizationResponse: { vp_token: { proof_of_age: ['x'], not_asked: ['y'] }, state: request.state },
      authorizationRequestPayload: payload as openid4vp.Openid4vpAuthorizationRequest,
      callbacks: {} as never,
    });
    expect(parsed.type === 'dcql' && Object.keys(parsed.dcql.presentations)).toEqual(['proof_of_age', 'not_asked']);
    // Ours: a PID keyed as mdl is refused by its docType, whatever the id says.
    const sessionTranscript = await createOid4VpSessionTranscript({
      responseUri: request.responseUri,
      nonce: request.nonce,
    });
    const bytes = await createDeviceResponse({
      issuer: sandboxIssuer,
      persona: persona('fr-adult-m'),
      now: NOW,
      sessionTranscript,
      asked: { kind: 'pid', queryId: 'pid', elements: ['nationality'] },
    });
    const keyedAsMdl = { credentials: ['mdl'] as const, scopes: ['isFrench'] as const };
    expect(await verifyDeviceResponseBytes(bytes, sessionTranscript, sandboxTrust, NOW, keyedAsMdl)).toMatchObject({
      check: 'doctype',
    });
  });
});

describe('gap 12: DateOnly and the digest of a re-encoding', () => {
  it('@owf/mdoc 0.6.0 reads 2007-02-29 as 1 March; such a full-date fails the digest, and readFullDate reads real dates only', async () => {
    expect(new mdoc.DateOnly('2007-02-29').toISOString()).toBe('2007-03-01');
    expect(new mdoc.DateOnly('1990-1-5').toISOString()).toBe('1990-01-05');
    const decoded = mdoc.cborDecode(mdoc.cborEncode(new mdoc.DateOnly('2008-02-29')));
    expect(readFullDate(decoded)).toEqual({ date: '2008-02-29' });
    expect(readFullDate('1990-1-5')).toEqual({ problem: 'birth_date is not a full-date' });
    // An issuer whose encoder writes tag 1004 over "2007-02-29": what we decode re-encodes as 2007-03-01.
    const forged = Object.assign(new mdoc.DateOnly(), { date: { toISOString: () => '2007-02-29T00:00:00.000Z' } });
    const sessionTranscript = await createOid4VpSessionTranscript({ responseUri: 'https://svc.example/r', nonce: 'n' });
    const bytes = await createDeviceResponse({
      issuer: sandboxIssuer,
      persona: persona('fr-adult-m'),
      now: NOW,
      sessionTranscript,
      credential: 'pid-no-age',
      elements: { birth_date: forged },
      asked: { kind: 'pid', queryId: 'pid', elements: ['birth_date'] },
    });
    const expected = { credentials: ['pid'] as const, scopes: ['isAdult'] as const };
    expect(await verifyDeviceResponseBytes(bytes, sessionTranscript, sandboxTrust, NOW, expected)).toMatchObject({
      status: 'refused',
      check: 'digests',
    });
  });
});

describe('gap 13: ItemsRequest has no requestInfo', () => {
  it('@owf/mdoc 0.6.0 ItemsRequest.create drops requestInfo; ours carries alternativeDataElements through a round trip', () => {
    const created = mdoc.ItemsRequest.create({
      docType: 'eu.europa.ec.eudi.pid.1',
      namespaces: { 'eu.europa.ec.eudi.pid.1': { age_over_18: false } },
      requestInfo: { alternativeDataElements: [] },
    } as never);
    expect((created.decodedStructure as unknown as Map<string, unknown>).has('requestInfo')).toBe(false);
    const request = mdoc.DeviceRequest.decode(createDeviceRequest(['pid'], ['isAdult']).encode());
    const itemsRequest = request.docRequests[0]!.itemsRequest;
    expect([...itemsRequest.namespaces.get('eu.europa.ec.eudi.pid.1')!.keys()]).toEqual(['age_over_18']);
    const info = (itemsRequest.decodedStructure as unknown as Map<string, unknown>).get('requestInfo') as Map<
      string,
      unknown
    >;
    const [alternative] = info.get('alternativeDataElements') as Map<string, unknown>[];
    expect(alternative!.get('requestedElement')).toEqual(['eu.europa.ec.eudi.pid.1', 'age_over_18']);
    expect(alternative!.get('alternativeElementSets')).toEqual([[['eu.europa.ec.eudi.pid.1', 'birth_date']]]);
    expect(request.version).toBe('1.0');
    // The proof of age has no birth date: no requestInfo.
    const av = mdoc.DeviceRequest.decode(createDeviceRequest(['av'], ['isAdult']).encode()).docRequests[0]!;
    expect((av.itemsRequest.decodedStructure as unknown as Map<string, unknown>).has('requestInfo')).toBe(false);
  });
});

describe('gap 14: claim_sets and what a presentation satisfies', () => {
  it('@openid4vc/openid4vp 0.4.6 takes a PID disclosing neither age claim; ours proves no isAdult from it (claims_missing)', async () => {
    const request = await createWalletRequest({
      requestId: 'vr_gap14',
      apiUrl: 'https://svc.example',
      scopes: ['isAdult', 'isFrench'],
    });
    const payload = openid4vp.parseOpenid4vpAuthorizationRequest({ authorizationRequest: request.walletLink }).params;
    const parsed = await openid4vp.parseOpenid4vpAuthorizationResponse({
      authorizationResponse: { vp_token: { pid: ['anything'] }, state: request.state },
      authorizationRequestPayload: payload as openid4vp.Openid4vpAuthorizationRequest,
      callbacks: {} as never,
    });
    expect(parsed.type).toBe('dcql');
    const sessionTranscript = await createOid4VpSessionTranscript({
      responseUri: request.responseUri,
      nonce: request.nonce,
    });
    const bytes = await createDeviceResponse({
      issuer: sandboxIssuer,
      persona: persona('fr-adult-m'),
      now: NOW,
      sessionTranscript,
      asked: { kind: 'pid', queryId: 'pid', elements: ['nationality'] },
    });
    const expected = { credentials: ['pid'] as const, scopes: ['isAdult', 'isFrench'] as const };
    expect(await verifyDeviceResponseBytes(bytes, sessionTranscript, sandboxTrust, NOW, expected)).toEqual({
      status: 'verified',
      credential: 'pid',
      facts: { isFrench: true },
    });
  });
});
