/**
 * The answer to an org-iso-mdoc request over the Digital Credentials API (ISO/IEC 18013-7 Annex C):
 * HPKE (DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, base mode) on @hpke/core, to the key
 * of the request (request/dc-request.ts), bound to the page's origin by the `dcapi` transcript.
 *
 * Response: `data.response` = base64url of CBOR `["dcapi", { enc: bstr, cipherText: bstr }]`;
 *           the plaintext is the DeviceResponse; HPKE info = the `dcapi` SessionTranscript bytes.
 */
import { cborDecode, cborEncode, CoseKey, Curve } from '@owf/mdoc';
import { decodeBase64Url, encodeBase64Url } from '../keys.ts';
import { createDcapiSessionTranscript } from '../formats/session-transcript.ts';
import { createHpkeSuite, type DcRequestMaterial } from '../request/dc-request.ts';

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
  const suite = createHpkeSuite();
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
    const suite = createHpkeSuite();
    const recipientKey = await suite.kem.deserializePrivateKey(scalar);
    const info = createDcapiSessionTranscript(material.encryptionInfo, origin).encode();
    return new Uint8Array(await suite.open({ recipientKey, enc, info }, cipherText));
  } catch {
    return null;
  }
}
