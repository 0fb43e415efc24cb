/**
 * The conformance twin for the `iso_mdl` credential format and the Digital Credentials API
 * (design.md §19, docs/wallets.md#conformance-the-openid-foundations-verifier-plans): the modules
 * of `oid4vp-1final-verifier-test-plan` and `…-haip-test-plan` (suite release-v5.2.3, snapshot
 * 12f2a4d) that apply to an mdoc, then the DC API variants the suite lacks (`dc_api.jwt` unsigned
 * and signed, `org-iso-mdoc`) posted as the loader posts them. The mock wallet issues an mDL with the
 * fixtures' document signer and presents it as ISO/IEC 18013-5 §8.3 and OpenID4VP 1.0 Appendix B.2.6
 * have it, built here from CBOR (@owf/mdoc's encoder only), node:crypto's ECDSA and @hpke/core: no
 * code of the verifier (server/wallet/) nor of the sandbox wallet (server/sandbox/). Its session
 * transcripts reproduce the specification's known-answer vectors (first test). One service per plan
 * for the file (SVC_WALLET_FORMATS=mso_mdoc, as a plan run for `iso_mdl` needs).
 */
import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { cborDecode, cborEncode, DataItem } from '@owf/mdoc';
import { createPrivateKey, randomBytes, sign, verify, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers.ts';
import { PARTNER_ORIGIN } from '../verify-flow.ts';
import {
  ACCESS_ENV,
  type Answered,
  answerKeyOf,
  b64u,
  checkRequestParameters,
  createRequest,
  DAY_S,
  encryptTo,
  expectCompleted,
  expectRefused,
  FIXTURES,
  type FormatCheck,
  holderKey,
  listening,
  postAnswer,
  type Session,
  sha256,
  start as startRequest,
  type Variant,
  verifyRequestObject,
} from './twin-support.ts';

// ---- the mock wallet: an mDL issuer and holder, from the fixtures' document signer ----

const MDL_DOCTYPE = 'org.iso.18013.5.1.mDL';
const MDL_NAMESPACE = 'org.iso.18013.5.1';
const issuerJwk = JSON.parse(readFileSync(join(FIXTURES, 'sandbox-ds.key.json'), 'utf8')) as JWK;
const issuerCertificate = new X509Certificate(readFileSync(join(FIXTURES, 'sandbox-ds.pem'))).raw;

/** COSE_Sign1 (RFC 9052 §4.4) with ES256; `detached`: the payload is signed and sent as nil. */
function coseSign1(key: JWK, payload: Uint8Array, unprotectedHeader: Map<number, unknown>, detached = false) {
  const protectedHeader = cborEncode(new Map([[1, -7]]));
  const toBeSigned = cborEncode(['Signature1', protectedHeader, new Uint8Array(0), payload]);
  const privateKey = createPrivateKey({ key: { ...key }, format: 'jwk' });
  const signature = sign('sha256', toBeSigned, { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return [protectedHeader, unprotectedHeader, detached ? null : payload, new Uint8Array(signature)];
}

/** A COSE_Key (RFC 9053 §7.1.1) of an EC2 P-256 public key. */
function coseKey(jwk: JWK): Map<number, unknown> {
  return new Map<number, unknown>([
    [1, 2],
    [-1, 1],
    [-2, Buffer.from(jwk.x!, 'base64url')],
    [-3, Buffer.from(jwk.y!, 'base64url')],
  ]);
}

type SessionTranscript = [null, null, [string, Buffer]];

/** OpenID4VP 1.0 §B.2.6.1: a request by link; `thumbprint` of the answer key when the answer is encrypted. */
function oid4vpTranscript(clientId: string, nonce: string, thumbprint: Buffer | null, responseUri: string) {
  const info = cborEncode([clientId, nonce, thumbprint, responseUri]);
  return [null, null, ['OpenID4VPHandover', sha256(info)]] as SessionTranscript;
}

/** OpenID4VP 1.0 §B.2.6.2: a request over the Digital Credentials API, bound to the page's origin. */
function oid4vpDcApiTranscript(origin: string, nonce: string, thumbprint: Buffer | null) {
  return [null, null, ['OpenID4VPDCAPIHandover', sha256(cborEncode([origin, nonce, thumbprint]))]] as SessionTranscript;
}

/** ISO/IEC 18013-7 Annex C: `["dcapi", SHA-256(CBOR([base64url encryptionInfo, origin]))]`. */
function annexCTranscript(encryptionInfo: string, origin: string) {
  return [null, null, ['dcapi', sha256(cborEncode([encryptionInfo, origin]))]] as SessionTranscript;
}

async function thumbprintOf(key: JWK): Promise<Buffer> {
  return Buffer.from(await calculateJwkThumbprint({ kty: key.kty, crv: key.crv, x: key.x, y: key.y }), 'base64url');
}

type Forgery = 'invalid-session-transcript' | 'invalid-credential-signature';

/**
 * The DeviceResponse (ISO/IEC 18013-5 §8.3.2.1.2.2) of an mDL of an adult French national:
 * `age_over_18` and `nationality` disclosed, its MSO signed by the document signer (or, forged, by
 * another key under the same certificate), the device signature detached over
 * DeviceAuthentication(`transcript`).
 */
function presentMdl(transcript: SessionTranscript, now: number, forgery?: Forgery): Buffer {
  const device = holderKey();
  const elements: [string, unknown][] = [
    ['age_over_18', true],
    ['nationality', 'FR'],
  ];
  const items = elements.map(([elementIdentifier, elementValue], digestID) =>
    DataItem.fromData({ digestID, random: randomBytes(16), elementIdentifier, elementValue }),
  );
  const second = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);
  const mso = {
    version: '1.0',
    digestAlgorithm: 'SHA-256',
    valueDigests: { [MDL_NAMESPACE]: new Map(items.map((item, id) => [id, sha256(cborEncode(item))])) },
    deviceKeyInfo: { deviceKey: coseKey(device) },
    docType: MDL_DOCTYPE,
    validityInfo: { signed: second(now), validFrom: second(now), validUntil: second(now + 30 * DAY_S * 1000) },
  };
  const issuerAuth = coseSign1(
    forgery === 'invalid-credential-signature' ? holderKey() : issuerJwk,
    cborEncode(DataItem.fromData(mso)),
    new Map([[33, issuerCertificate]]),
  );
  const deviceNameSpaces = DataItem.fromData(new Map());
  const deviceAuthentication = cborEncode(
    DataItem.fromData(['DeviceAuthentication', transcript, MDL_DOCTYPE, deviceNameSpaces]),
  );
  const document = {
    docType: MDL_DOCTYPE,
    issuerSigned: { nameSpaces: { [MDL_NAMESPACE]: items }, issuerAuth },
    deviceSigned: {
      nameSpaces: deviceNameSpaces,
      deviceAuth: { deviceSignature: coseSign1(device, deviceAuthentication, new Map(), true) },
    },
  };
  return Buffer.from(cborEncode({ version: '1.0', documents: [document], status: 0 }));
}

/** The nonce the wallet signs over: the request's, or another one (invalid-session-transcript). */
const nonceFor = (nonce: string, forgery?: Forgery) =>
  forgery === 'invalid-session-transcript' ? b64u(randomBytes(32)) : nonce;

// ---- the services ----

let plain: TestApp;
let signed: TestApp;
beforeAll(async () => {
  plain = await listening('mso_mdoc', {});
  signed = await listening('mso_mdoc', ACCESS_ENV);
});
afterAll(async () => {
  await plain?.close();
  await signed?.close();
});

/** The iso_mdl plan's request: mdocs only, the mDL among them (with the PID as its alternative), mdoc formats only. */
const checkMdoc: FormatCheck = (query, formats) => {
  expect(query.credentials.map((c) => c.format)).toEqual(query.credentials.map(() => 'mso_mdoc'));
  expect(query.credentials.find((c) => c.id === 'mdl')?.meta).toEqual({ doctype_value: MDL_DOCTYPE });
  expect(formats, 'vp_formats_supported valid').toEqual({
    mso_mdoc: { issuerauth_alg_values: [-7], deviceauth_alg_values: [-7] },
  });
};

interface HandoverVector {
  clientId: string;
  origin: string;
  nonce: string;
  responseUri: string;
  jwk: JWK;
  sessionTranscriptHex: string;
}
const vectorOf = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as HandoverVector;

it('builds the OpenID4VP 1.0 SessionTranscripts of the specification’s examples byte for byte (Appendix B.2.6.1, B.2.6.2)', async () => {
  const link = vectorOf('oid4vp-handover.json');
  const linkTranscript = oid4vpTranscript(link.clientId, link.nonce, await thumbprintOf(link.jwk), link.responseUri);
  expect(Buffer.from(cborEncode(linkTranscript)).toString('hex')).toBe(link.sessionTranscriptHex);
  const dc = vectorOf('oid4vp-dc-api-handover.json');
  const dcTranscript = oid4vpDcApiTranscript(dc.origin, dc.nonce, await thumbprintOf(dc.jwk));
  expect(Buffer.from(cborEncode(dcTranscript)).toString('hex')).toBe(dc.sessionTranscriptHex);
});

// ---- part 1: the plans' modules for iso_mdl ----

const VARIANTS: Variant[] = [
  { plan: 'plain', label: 'iso_mdl redirect_uri url_query direct_post', signed: false },
  { plan: 'plain', label: 'iso_mdl x509_hash request_uri_signed direct_post.jwt', signed: true },
  { plan: 'haip', label: 'HAIP iso_mdl x509_hash request_uri_signed direct_post.jwt', signed: true },
];

const start = (variant: Variant, how: { post?: boolean; twice?: boolean } = {}) =>
  startRequest(variant.signed ? signed : plain, variant, checkMdoc, how);

/** Answers with the mDL over the OpenID4VP transcript of the link (the answer key's thumbprint when encrypted). */
async function answer(session: Session, forgery?: Forgery): Promise<Answered> {
  const { params } = session;
  const key = answerKeyOf(params);
  const transcript = oid4vpTranscript(
    session.clientId,
    nonceFor(params.nonce as string, forgery),
    key ? await thumbprintOf(key) : null,
    params.response_uri as string,
  );
  return postAnswer(session, { mdl: [b64u(presentMdl(transcript, session.t.clock.now(), forgery))] });
}

const POSITIVE = ['happy-flow', 'request-uri-method-post', 'request-uri-fetched-twice'] as const;
/** Each forgery and the check the verifier names in refusing it (docs/wallets.md#what-the-verifier-checks). */
const NEGATIVE: Record<Forgery, RegExp> = {
  'invalid-session-transcript': /device signature does not cover this request/,
  'invalid-credential-signature': /issuer signature does not verify/,
};

for (const variant of VARIANTS) {
  describe(variant.label, () => {
    for (const module of POSITIVE) {
      // request_uri modules need a request by reference (the suite skips them for url_query)
      if (module.startsWith('request-uri') && !variant.signed) continue;
      it(`oid4vp-1final-verifier-${module} [${variant.label}]`, async () => {
        const session = await start(variant, {
          post: module === 'request-uri-method-post',
          twice: module === 'request-uri-fetched-twice',
        });
        await expectCompleted(session, await answer(session));
      });
    }
    for (const [forgery, because] of Object.entries(NEGATIVE) as [Forgery, RegExp][]) {
      it(`oid4vp-1final-verifier-${forgery} [${variant.label}]`, async () => {
        const session = await start(variant);
        await expectRefused(session, await answer(session, forgery), because);
        // …and the request still takes the genuine answer
        await expectCompleted(session, await answer(session));
      });
    }
  });
}

// ---- part 2: the Digital Credentials API variants the suite lacks ----

interface DcVariant {
  label: string;
  protocol: 'openid4vp-v1-unsigned' | 'openid4vp-v1-signed' | 'org-iso-mdoc';
  app: () => TestApp;
}
/**
 * The plain service's requests are unsigned; the signed service's OpenID4VP request is signed for
 * the partner's page and its Annex C DocRequests carry `readerAuth` (what Apple Wallet reads).
 */
const DC_VARIANTS: DcVariant[] = [
  { label: 'DC API iso_mdl openid4vp-v1-unsigned dc_api.jwt', protocol: 'openid4vp-v1-unsigned', app: () => plain },
  { label: 'DC API iso_mdl openid4vp-v1-signed dc_api.jwt', protocol: 'openid4vp-v1-signed', app: () => signed },
  { label: 'DC API iso_mdl org-iso-mdoc', protocol: 'org-iso-mdoc', app: () => plain },
  { label: 'DC API iso_mdl org-iso-mdoc readerAuth', protocol: 'org-iso-mdoc', app: () => signed },
];

interface DcSession {
  t: TestApp;
  flow: { requestId: string; pollToken: string };
  protocol: DcVariant['protocol'];
  /** OpenID4VP: the request's parameters; Annex C: the base64url EncryptionInfo */
  params: Record<string, unknown>;
}

/** Over the DC API a request names no formats' algorithms (the browser's wallet picks), but mdocs only. */
const checkDcMdoc: FormatCheck = (query, formats) => {
  expect(query.credentials.map((c) => c.format)).toEqual(query.credentials.map(() => 'mso_mdoc'));
  expect(Object.keys(formats ?? {}), 'vp_formats_supported').toEqual(['mso_mdoc']);
};

/** Creates a request from the partner's page and reads the DC API request of `variant` as the browser's wallet does. */
async function startDc(variant: DcVariant): Promise<DcSession> {
  const t = variant.app();
  const { created, flow } = await createRequest(t);
  const offered = (created as unknown as { dc_requests: { protocol: string; data: Record<string, unknown> }[] })
    .dc_requests;
  const request = offered.find((r) => r.protocol === variant.protocol);
  expect(request, `${variant.protocol} among ${offered.map((r) => r.protocol).join(', ')}`).toBeDefined();
  if (variant.protocol === 'org-iso-mdoc') {
    if (variant.app() === signed) checkReaderAuth(request!.data);
    return { t, flow, protocol: variant.protocol, params: request!.data };
  }
  const params =
    variant.protocol === 'openid4vp-v1-signed'
      ? await verifyRequestObject(request!.data.request as string, t)
      : request!.data;
  if (variant.protocol === 'openid4vp-v1-signed')
    expect(params.expected_origins, 'the page among expected_origins').toContain(PARTNER_ORIGIN);
  // the verifier offers no unencrypted `dc_api`: every OpenID4VP answer over the DC API is a JWE
  expect(params.response_mode).toBe('dc_api.jwt');
  checkRequestParameters(params, checkDcMdoc);
  return { t, flow, protocol: variant.protocol, params };
}

/**
 * ISO/IEC 18013-5 §9.1.4: each DocRequest's `readerAuth` is a detached COSE_Sign1 (ES256) over
 * ReaderAuthentication(the page's Annex C transcript, ItemsRequestBytes) by the leaf of its
 * `x5chain`, which the access CA the wallet trusts issued.
 */
function checkReaderAuth(data: Record<string, unknown>) {
  const deviceRequest = cborDecode(Buffer.from(data.deviceRequest as string, 'base64url')) as Map<string, unknown>;
  const docRequests = deviceRequest.get('docRequests') as Map<string, unknown>[];
  expect(docRequests.length).toBeGreaterThan(0);
  const transcript = annexCTranscript(data.encryptionInfo as string, PARTNER_ORIGIN);
  const anchor = new X509Certificate(readFileSync(join(FIXTURES, 'sandbox-access-ca.pem')));
  for (const docRequest of docRequests) {
    const [protectedHeader, unprotectedHeader, payload, signature] = docRequest.get('readerAuth') as [
      Uint8Array,
      Map<number, unknown>,
      null,
      Uint8Array,
    ];
    expect(payload, 'readerAuth payload detached').toBeNull();
    expect(cborDecode(protectedHeader)).toEqual(new Map([[1, -7]]));
    const x5chain = unprotectedHeader.get(33);
    const leaf = new X509Certificate(Buffer.from((Array.isArray(x5chain) ? x5chain[0] : x5chain) as Uint8Array));
    expect(leaf.verify(anchor.publicKey), 'readerAuth x5chain under the access CA').toBe(true);
    const readerAuthentication = cborEncode(
      DataItem.fromData(['ReaderAuthentication', transcript, docRequest.get('itemsRequest')]),
    );
    const toBeSigned = cborEncode(['Signature1', protectedHeader, new Uint8Array(0), readerAuthentication]);
    expect(
      verify('sha256', toBeSigned, { key: leaf.publicKey, dsaEncoding: 'ieee-p1363' }, signature),
      'readerAuth signature',
    ).toBe(true);
  }
}

/** Posts what `navigator.credentials.get` resolved to, as the loader does (text/plain JSON from the page's origin). */
async function postDc(session: DcSession, credential: unknown): Promise<Answered> {
  const { port } = session.t.app.server.address() as { port: number };
  const { requestId, pollToken } = session.flow;
  const response = await fetch(`http://127.0.0.1:${port}/api/w/wallet-response/${requestId}?pt=${pollToken}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_ORIGIN },
    body: JSON.stringify(credential),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/**
 * Answers as the browser's wallet: OpenID4VP, the DeviceResponse over the DC API transcript of the
 * page's origin, encrypted to the request's key; Annex C, sealed with HPKE (P-256, HKDF-SHA256,
 * AES-128-GCM) to the EncryptionInfo's key, the SessionTranscript as `info`. Forged: the device
 * signs another nonce (OpenID4VP) or another page's transcript (Annex C: its nonce is inside the
 * EncryptionInfo), or the MSO is signed by another key.
 */
async function answerDc(session: DcSession, forgery?: Forgery): Promise<Answered> {
  const now = session.t.clock.now();
  if (session.protocol !== 'org-iso-mdoc') {
    const key = answerKeyOf(session.params)!;
    const transcript = oid4vpDcApiTranscript(
      PARTNER_ORIGIN,
      nonceFor(session.params.nonce as string, forgery),
      await thumbprintOf(key),
    );
    const response = await encryptTo(key, { vp_token: { mdl: [b64u(presentMdl(transcript, now, forgery))] } });
    return postDc(session, { protocol: session.protocol, data: { response } });
  }
  const encryptionInfo = session.params.encryptionInfo as string;
  const [name, info] = cborDecode(Buffer.from(encryptionInfo, 'base64url')) as [string, Map<string, unknown>];
  expect(name).toBe('dcapi');
  const recipient = info.get('recipientPublicKey') as Map<number, Uint8Array>;
  const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });
  const recipientPublicKey = await suite.kem.importKey(
    'raw',
    Buffer.concat([Buffer.from([4]), recipient.get(-2)!, recipient.get(-3)!]),
    true,
  );
  const transcript = annexCTranscript(encryptionInfo, PARTNER_ORIGIN);
  // sealed for this page (the envelope opens), the device signature over another page's transcript
  const signedOver =
    forgery === 'invalid-session-transcript'
      ? annexCTranscript(encryptionInfo, 'https://elsewhere.example')
      : transcript;
  const sender = await suite.createSenderContext({ recipientPublicKey, info: cborEncode(transcript) });
  const cipherText = await sender.seal(presentMdl(signedOver, now, forgery));
  const response = b64u(
    cborEncode(['dcapi', { enc: new Uint8Array(sender.enc), cipherText: new Uint8Array(cipherText) }]),
  );
  return postDc(session, { protocol: 'org-iso-mdoc', data: { response } });
}

for (const variant of DC_VARIANTS) {
  describe(variant.label, () => {
    it(`oid4vp-1final-verifier-happy-flow [${variant.label}]`, async () => {
      const session = await startDc(variant);
      await expectCompleted(session, await answerDc(session), 'page');
    });
    for (const [forgery, because] of Object.entries(NEGATIVE) as [Forgery, RegExp][]) {
      it(`oid4vp-1final-verifier-${forgery} [${variant.label}]`, async () => {
        const session = await startDc(variant);
        await expectRefused(session, await answerDc(session, forgery), because);
        await expectCompleted(session, await answerDc(session), 'page');
      });
    }
  });
}

describe('the Digital Credentials API answers the verifier refuses', () => {
  it('refuses an unencrypted dc_api answer (vp_token in the clear): the verifier asks dc_api.jwt only', async () => {
    const session = await startDc(DC_VARIANTS[0]!);
    const key = answerKeyOf(session.params)!;
    const transcript = oid4vpDcApiTranscript(PARTNER_ORIGIN, session.params.nonce as string, await thumbprintOf(key));
    const vpToken = { mdl: [b64u(presentMdl(transcript, session.t.clock.now()))] };
    const clear = await postDc(session, { protocol: 'openid4vp-v1-unsigned', data: { vp_token: vpToken } });
    await expectRefused(session, clear, /does not open for this request/);
    await expectCompleted(session, await answerDc(session), 'page');
  });
});
