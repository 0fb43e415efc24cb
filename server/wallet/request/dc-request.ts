/**
 * The Digital Credentials API request of ISO/IEC 18013-7 Annex C (profile Annex A §A.5): what the
 * page hands to `navigator.credentials.get` (one DocRequest per credential that can prove the
 * scopes, design.md §13; OpenID4VP's own protocol is oid4vp-dc-request.ts), with a fresh HPKE key
 * the answer is sealed to (answer/hpke.ts opens it).
 *
 * Request:  `{ protocol: "org-iso-mdoc", data: { deviceRequest, encryptionInfo } }`, both base64url
 *           of CBOR; EncryptionInfo = `["dcapi", { nonce: bstr, recipientPublicKey: COSE_Key }]`.
 *
 * Where the libraries stop (docs/wallets.md#where-the-libraries-stop), the gaps this file covers:
 *
 * 13. `ItemsRequest.create` takes `docType` and `nameSpaces` only: no `requestInfo`, where ISO/IEC
 *    18013-5 second edition puts `alternativeDataElements` (birth_date for age_over_18, design.md
 *    §15) → this file builds the ItemsRequest map itself and reads it through
 *    `ItemsRequest.fromEncodedStructure`, whose schema keeps additional keys.
 */
import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { cborEncode, CoseKey, Curve, DeviceRequest, DocRequest, ItemsRequest, KeyType } from '@owf/mdoc';
import { randomBytes } from 'node:crypto';
import { encodeBase64Url } from '../keys.ts';
import {
  asksBirthDate,
  BIRTH_DATE,
  type CredentialKind,
  CREDENTIALS,
  elementsFor,
  type WalletScope,
} from '../formats/credentials.ts';
import { AV_CLAIM, DC_API_NONCE_BYTES, DC_API_PROTOCOL } from '../profile.ts';
import type { DcRequestMaterial } from '../../store/store.ts';

/** What the page passes to `navigator.credentials.get({ digital: { requests: [dcRequest] } })`. */
export interface DcRequest {
  protocol: typeof DC_API_PROTOCOL;
  data: { deviceRequest: string; encryptionInfo: string };
}

/** What the store keeps of the Annex C request (its shape is the store's). */
export type { DcRequestMaterial };

/** The HPKE suite of Annex C: DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM (the answer opens with it, answer/hpke.ts). */
export function createHpkeSuite(): CipherSuite {
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
      // ItemsRequest.create knows docType and nameSpaces only (gap 13).
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
  const suite = createHpkeSuite();
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
