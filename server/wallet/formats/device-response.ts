/**
 * The mdoc DeviceResponse as @owf/mdoc 0.6.0 reads it, and what it leaves out: the decoding of a
 * presentation (tag-18 COSE structures untagged first), the docType of the document and its MSO
 * compared with the one asked, and the MSO's status reference.
 *
 * Where the libraries stop (docs/wallets.md#where-the-libraries-stop), the gaps this file covers:
 *
 * 1. `issuerAuth` (or `deviceSignature`) carrying COSE tag 18 is rejected: cbor-x turns the tagged
 *    item into a `Sign1` instance while `IssuerSigned`'s schema wants the bare 4-array. ISO 18013-5
 *    shows it untagged, RFC 9052 allows both → `decodeDeviceResponse` untags before the schema.
 * 2. `Verifier.verifyDeviceResponse` compares docTypes only when given a DeviceRequest (and then
 *    only the MSO's) → `checkDocTypes` compares the document's and the MSO's docType with ours.
 * 25. @owf/mdoc 0.6.0's `MobileSecurityObject` has no getter for the MSO's `status` (ISO/IEC
 *    18013-5 second edition: `status.status_list {idx, uri}`), though its schema keeps the key →
 *    `readMsoStatus` reads it from the MSO's encoded structure (tests in status-list.test.ts).
 */
import { cborDecode, DeviceResponse, type Document, type MobileSecurityObject, Sign1 } from '@owf/mdoc';
import type { StatusReference } from '../trust/status-list.ts';

/** Replaces a tag-18 `Sign1` (what cbor-x makes of it) with the 4-array the schemas expect. */
function untagSign1(map: unknown, key: string): void {
  if (!(map instanceof Map)) return;
  const value: unknown = map.get(key);
  if (value instanceof Sign1) map.set(key, value.encodedStructure);
}

/**
 * Decodes a DeviceResponse, accepting `issuerAuth` and `deviceSignature` with or without COSE
 * tag 18 (gap 1). Throws on anything that is not a DeviceResponse.
 *
 * @example const response = decodeDeviceResponse(base64urlDecoded)
 */
export function decodeDeviceResponse(bytes: Uint8Array): DeviceResponse {
  const raw: unknown = cborDecode(bytes);
  if (!(raw instanceof Map)) throw new Error('DeviceResponse is not a CBOR map');
  const documents: unknown = raw.get('documents');
  for (const document of Array.isArray(documents) ? documents : []) {
    if (!(document instanceof Map)) continue;
    untagSign1(document.get('issuerSigned'), 'issuerAuth');
    const deviceSigned: unknown = document.get('deviceSigned');
    if (deviceSigned instanceof Map) untagSign1(deviceSigned.get('deviceAuth'), 'deviceSignature');
  }
  return DeviceResponse.fromEncodedStructure(raw);
}

/** What checkDocTypes can say (a closed set: refusal details never carry credential text). */
export type DocTypeProblem =
  'the document docType is not the requested one' | 'the docType signed in the MSO is not the requested one';

/**
 * Gap 2: the docType must be the expected one both in the document and in the MSO the issuer
 * signed. Returns what differs (no credential values), or null.
 *
 * @example checkDocTypes(document, 'eu.europa.ec.av.1') // null
 */
export function checkDocTypes(document: Document, expected: string): DocTypeProblem | null {
  if (document.docType !== expected) return 'the document docType is not the requested one';
  const msoDocType = document.issuerSigned.issuerAuth.mobileSecurityObject.docType;
  if (msoDocType !== expected) return 'the docType signed in the MSO is not the requested one';
  return null;
}

/** A CBOR map as cbor-x gives it (a Map) or a plain object, read by key. */
function readKey(map: unknown, key: string): unknown {
  if (map instanceof Map) return map.get(key);
  if (typeof map === 'object' && map !== null && !Array.isArray(map)) return (map as Record<string, unknown>)[key];
  return undefined;
}

/**
 * Gap 22: the status list reference of a verified MSO (ISO/IEC 18013-5 second edition), null when it
 * has none, `'malformed'` when `status.status_list` is not `{idx: uint, uri: tstr}`.
 *
 * @example readMsoStatus(document.issuerSigned.issuerAuth.mobileSecurityObject) // { idx: 7, uri: 'https://…' }
 */
export function readMsoStatus(mso: MobileSecurityObject): StatusReference | null | 'malformed' {
  const status = readKey(mso.encodedStructure, 'status');
  if (status === undefined) return null;
  const list = readKey(status, 'status_list');
  if (list === undefined) return status instanceof Map || typeof status === 'object' ? null : 'malformed';
  const idx = readKey(list, 'idx');
  const uri = readKey(list, 'uri');
  if (typeof uri !== 'string' || typeof idx !== 'number' || !Number.isSafeInteger(idx) || idx < 0) return 'malformed';
  return { idx, uri };
}
