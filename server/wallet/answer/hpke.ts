/**
 * The Digital Credentials API path (ISO/IEC 18013-7 Annex C, profile Annex A §A.5): the request
 * the page hands to `navigator.credentials.get` (one DocRequest per credential that can prove the
 * scopes, design.md §13; OpenID4VP's own protocol is oid4vp-dc-api.ts), and HPKE (DHKEM(P-256, HKDF-SHA256),
 * HKDF-SHA256, AES-128-GCM, base mode) on @hpke/core for the encrypted answer.
 *
 * Request:  `{ protocol: "org-iso-mdoc", data: { deviceRequest, encryptionInfo } }`, both base64url
 *           of CBOR; EncryptionInfo = `["dcapi", { nonce: bstr, recipientPublicKey: COSE_Key }]`.
 * Response: `data.response` = base64url of CBOR `["dcapi", { enc: bstr, cipherText: bstr }]`;
 *           the plaintext is the DeviceResponse; HPKE info = the `dcapi` SessionTranscript bytes.
 */
import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { cborDecode, cborEncode, CoseKey, Curve, DeviceRequest, DocRequest, ItemsRequest, KeyType } from '@owf/mdoc';
import { randomBytes } from 'node:crypto';
import { decodeBase64Url, encodeBase64Url } from '../keys.ts';
import {
  asksBirthDate,
  BIRTH_DATE,
  type CredentialKind,
  CREDENTIALS,
  elementsFor,
  type WalletScope,
} from '../formats/credentials.ts';
import { createDcapiSessionTranscript } from '../formats/device-response.ts';
import {
  AV_CLAIM,
  DC_API_NONCE_BYTES,
  DC_API_PROTOCOL,
  OID4VP_DC_API_PROTOCOL,
  OID4VP_DC_API_SIGNED_PROTOCOL,
} from '../profile.ts';
import type { DcRequestMaterial } from '../../store/store.ts';

/** What the page passes to `navigator.credentials.get({ digital: { requests: [dcRequest] } })`. */
export interface DcRequest {
  protocol: typeof DC_API_PROTOCOL;
  data: { deviceRequest: string; encryptionInfo: string };
}

/** What the store keeps of the Annex C request (its shape is the store's). */
export type { DcRequestMaterial };

function createSuite(): CipherSuite {
  return new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });
}

/**
 * The DeviceRequest asking each of `kinds` (one DocRequest per doctype, in that order) for
 * exactly the elements `scopes` need, none retained (intentToRetain false), no reader auth. Where
 * `birth_date` stands in for `age_over_18` (design.md §15), the ItemsRequest's `requestInfo` says so
 * as ISO/IEC 18013-5 second edition writes it: `alternativeDataElements: [{ requestedElement: [ns,
 * "age_over_18"], alternativeElementSets: [[[ns, "birth_date"]]] }]`. `requestInfo` is already in the
 * first edition's ItemsRequest, so the version stays "1.0" for first-edition wallets, which ignore
 * it and answer `age_over_18` when they hold it; the birth date is never asked outright.
 *
 * @example createDeviceRequest(['pid', 'mdl'], ['isFrench']) // nationality from either
 */
export function createDeviceRequest(kinds: readonly CredentialKind[], scopes: readonly WalletScope[]): DeviceRequest {
  const elements = elementsFor(scopes);
  return DeviceRequest.create({
    docRequests: kinds.map((kind) => {
      const { docType, namespace } = CREDENTIALS[kind];
      const structure = new Map<string, unknown>([
        ['docType', docType],
        ['nameSpaces', new Map([[namespace, new Map(elements.map((element) => [element, false]))]])],
      ]);
      if (asksBirthDate(kind, scopes)) {
        const alternative = new Map<string, unknown>([
          ['requestedElement', [namespace, AV_CLAIM]],
          ['alternativeElementSets', [[[namespace, BIRTH_DATE]]]],
        ]);
        structure.set('requestInfo', new Map([['alternativeDataElements', [alternative]]]));
      }
      // ItemsRequest.create knows docType and nameSpaces only (library-gaps.ts, gap 13).
      return DocRequest.create({ itemsRequest: ItemsRequest.fromEncodedStructure(structure) });
    }),
  });
}

/**
 * A fresh Annex C request for `kinds` and `scopes` with its own HPKE P-256 key pair (derived from
 * random bytes, RFC 9180 §7.1.3), and what the store must keep to open the answer.
 *
 * @example const { dcRequest, material } = await createDcRequest(['av', 'pid', 'mdl'], ['isAdult'])
 */
export async function createDcRequest(
  kinds: readonly CredentialKind[],
  scopes: readonly WalletScope[],
): Promise<{ dcRequest: DcRequest; material: DcRequestMaterial }> {
  const suite = createSuite();
  const pair = await suite.kem.deriveKeyPair(randomBytes(32));
  const publicPoint = new Uint8Array(await suite.kem.serializePublicKey(pair.publicKey));
  const privateScalar = new Uint8Array(await suite.kem.serializePrivateKey(pair.privateKey));
  const recipientPublicKey = CoseKey.create({
    keyType: KeyType.Ec,
    curve: Curve['P-256'],
    x: publicPoint.subarray(1, 33),
    y: publicPoint.subarray(33, 65),
  });
  const encryptionInfo = encodeBase64Url(
    cborEncode([
      'dcapi',
      new Map<string, unknown>([
        ['nonce', randomBytes(DC_API_NONCE_BYTES)],
        ['recipientPublicKey', recipientPublicKey.encodedStructure],
      ]),
    ]),
  );
  const deviceRequest = encodeBase64Url(createDeviceRequest(kinds, scopes).encode());
  return {
    dcRequest: { protocol: DC_API_PROTOCOL, data: { deviceRequest, encryptionInfo } },
    material: { deviceRequest, encryptionInfo, recipientPrivateKey: encodeBase64Url(privateScalar) },
  };
}

/** The recipient public key (uncompressed point) inside an EncryptionInfo, for the wallet side. */
export function readRecipientPublicKey(encryptionInfo: string): Uint8Array {
  const bytes = decodeBase64Url(encryptionInfo);
  if (!bytes) throw new Error('encryptionInfo is not base64url');
  const decoded: unknown = cborDecode(bytes);
  if (!Array.isArray(decoded) || decoded[0] !== 'dcapi' || !(decoded[1] instanceof Map))
    throw new Error('not an Annex C EncryptionInfo');
  const keyMap: unknown = decoded[1].get('recipientPublicKey');
  if (!(keyMap instanceof Map)) throw new Error('EncryptionInfo has no recipientPublicKey');
  const key = CoseKey.fromEncodedStructure(keyMap);
  if (key.curve !== Curve['P-256']) throw new Error('recipientPublicKey is not a P-256 key');
  return key.publicKey;
}

/**
 * The wallet's side (sandbox wallet and tests): encrypts a DeviceResponse for the page's request.
 *
 * @example const response = await sealDcResponse(dcRequest.data.encryptionInfo, origin, deviceResponseBytes)
 */
export async function sealDcResponse(
  encryptionInfo: string,
  origin: string,
  deviceResponse: Uint8Array,
): Promise<string> {
  const suite = createSuite();
  const recipientPublicKey = await suite.kem.deserializePublicKey(readRecipientPublicKey(encryptionInfo));
  const info = createDcapiSessionTranscript(encryptionInfo, origin).encode();
  const { ct, enc } = await suite.seal({ recipientPublicKey, info }, deviceResponse);
  return encodeBase64Url(
    cborEncode([
      'dcapi',
      new Map<string, unknown>([
        ['enc', new Uint8Array(enc)],
        ['cipherText', new Uint8Array(ct)],
      ]),
    ]),
  );
}

/** The Digital Credentials API protocols this verifier offers, in the order the page lists them. */
export type DcProtocol = typeof DC_API_PROTOCOL | typeof OID4VP_DC_API_PROTOCOL | typeof OID4VP_DC_API_SIGNED_PROTOCOL;

const DC_PROTOCOLS: ReadonlySet<unknown> = new Set<DcProtocol>([
  DC_API_PROTOCOL,
  OID4VP_DC_API_PROTOCOL,
  OID4VP_DC_API_SIGNED_PROTOCOL,
]);

/**
 * Reads `protocol` and `data.response` out of what `navigator.credentials.get` resolved to (or
 * its `data`, for the widgets that posted only that: org-iso-mdoc), as own properties only: what
 * an object's prototype holds under these names is never read. Null for another protocol.
 *
 * @example readDcResponse({ protocol: 'openid4vp-v1-signed', data: { response: jwe } })
 */
export function readDcResponse(credential: unknown): { protocol: DcProtocol; response: string } | null {
  if (typeof credential !== 'object' || credential === null) return null;
  const record = credential as Record<string, unknown>;
  const protocol = Object.hasOwn(record, 'protocol') ? record.protocol : DC_API_PROTOCOL;
  if (!DC_PROTOCOLS.has(protocol)) return null;
  const data = Object.hasOwn(record, 'data') ? record.data : record;
  if (typeof data !== 'object' || data === null) return null;
  const response = Object.hasOwn(data, 'response') ? (data as Record<string, unknown>).response : undefined;
  return typeof response === 'string' ? { protocol: protocol as DcProtocol, response } : null;
}

/**
 * Opens an Annex C EncryptedResponse; null when it is malformed or does not open (wrong key, or a
 * transcript — i.e. an origin or request — other than the one it was sealed for).
 *
 * @example const deviceResponseBytes = await openDcResponse(material, origin, response)
 */
export async function openDcResponse(
  material: DcRequestMaterial,
  origin: string,
  response: string,
): Promise<Uint8Array | null> {
  const bytes = decodeBase64Url(response);
  const scalar = decodeBase64Url(material.recipientPrivateKey);
  if (!bytes || !scalar) return null;
  try {
    const decoded: unknown = cborDecode(bytes);
    if (!Array.isArray(decoded) || decoded.length !== 2 || decoded[0] !== 'dcapi' || !(decoded[1] instanceof Map))
      return null;
    const enc: unknown = decoded[1].get('enc');
    const cipherText: unknown = decoded[1].get('cipherText');
    if (!(enc instanceof Uint8Array) || !(cipherText instanceof Uint8Array)) return null;
    const suite = createSuite();
    const recipientKey = await suite.kem.deserializePrivateKey(scalar);
    const info = createDcapiSessionTranscript(material.encryptionInfo, origin).encode();
    return new Uint8Array(await suite.open({ recipientKey, enc, info }, cipherText));
  } catch {
    return null;
  }
}
