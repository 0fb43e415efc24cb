/**
 * Device authentication bound to this request (ISO/IEC 18013-5 §9.1.3; design.md §11),
 * checked by us before @owf/mdoc sees the document, whatever the library does.
 *
 * The device signs DeviceAuthenticationBytes = #6.24(bstr .cbor ["DeviceAuthentication",
 * SessionTranscript, DocType, DeviceNameSpacesBytes]). Those bytes are *detached*: the COSE_Sign1
 * payload must be nil, and the verifier supplies them from its own SessionTranscript. A signature
 * whose payload is embedded proves only that the device once signed *that* payload — for another
 * request, or another verifier — so it is refused even when it verifies (gap 8, below).
 *
 * `deviceMac` is refused: a MAC needs a reader key agreement (ISO/IEC 18013-5 §9.1.3.5), and
 * OpenID4VP's direct_post and the Digital Credentials API have none here.
 *
 * Where the libraries stop (docs/wallets.md#where-the-libraries-stop), the gaps this file covers:
 *
 * 8. Device authentication is verified over `payload ?? detachedPayload` (Sign1.toBeSigned,
 *    Mac0.toBeAuthenticated): a `deviceSignature` that brings its own payload is verified over
 *    *that*, and the SessionTranscript the caller passed is never looked at. One presentation
 *    captured for any request or verifier then completes every request (critical; design.md §11). ISO/IEC
 *    18013-5 §9.1.3 makes the DeviceAuthenticationBytes detached → device-auth.ts refuses a
 *    non-nil payload and a `deviceMac` before the library runs, and verifies the signature itself
 *    over the bytes it computes from its own transcript after. Upstream, `DeviceAuth.verify`
 *    should refuse a non-nil payload (CosePayloadMustBeNullError exists and is unused there) and
 *    verify over the detached bytes only; `Sign1.verify` should take the payload to verify as an
 *    argument rather than prefer the embedded one.
 */
import { DeviceAuthentication, type Document, Header, type SessionTranscript, Sign1 } from '@owf/mdoc';
import { type EcdsaAlgorithm, verifyEcdsa } from '../keys.ts';
import { coseKeyToEcJwk } from './cose-keys.ts';

/** What the checks below can say (a closed set: refusal details never carry credential text). */
export type DeviceAuthProblem =
  | 'a device MAC is not accepted (no reader key agreement)'
  | 'there is no device signature'
  | 'the device signature carries an embedded payload (it must be detached)'
  | 'the device signature has no supported algorithm in its protected header'
  | 'the MSO device key is not an EC key on P-256, P-384 or P-521'
  | 'the device signature does not verify over this request’s transcript';

/** COSE algorithm numbers (RFC 9053 §2.1) of the device signatures this path accepts. */
const DEVICE_ALGORITHMS: Partial<Record<number, EcdsaAlgorithm>> = { [-7]: 'ES256', [-35]: 'ES384', [-36]: 'ES512' };

/**
 * The DeviceAuthenticationBytes this service expects the device to have signed.
 *
 * @example const bytes = deviceAuthenticationBytes(transcript, 'eu.europa.ec.av.1', document)
 */
export function deviceAuthenticationBytes(
  sessionTranscript: SessionTranscript,
  docType: string,
  document: Document,
): Uint8Array {
  return DeviceAuthentication.create({
    sessionTranscript,
    docType,
    deviceNamespaces: document.deviceSigned.deviceNamespaces,
  }).encode({ asDataItem: true });
}

/**
 * What can be told about the device authentication before any key is used: a device signature
 * (no MAC), its payload nil, its algorithm in the protected header. Runs before @owf/mdoc sees
 * the document. Returns what is wrong (no credential values), or null.
 *
 * @example const problem = checkDeviceAuthShape(document) // 'the device signature carries an embedded payload …'
 */
export function checkDeviceAuthShape(document: Document): DeviceAuthProblem | null {
  const { deviceAuth } = document.deviceSigned;
  if (deviceAuth.deviceMac !== undefined) return 'a device MAC is not accepted (no reader key agreement)';
  const signature = deviceAuth.deviceSignature;
  if (!signature) return 'there is no device signature';
  // nil is null once decoded; anything else (an empty bstr included) is an embedded payload.
  if (signature.payload !== null && signature.payload !== undefined)
    return 'the device signature carries an embedded payload (it must be detached)';
  if (algorithmOf(signature) === undefined)
    return 'the device signature has no supported algorithm in its protected header';
  return null;
}

/** The algorithm must be integrity-protected: only the protected header counts. */
function algorithmOf(signature: Sign1): EcdsaAlgorithm | undefined {
  const algorithm: unknown = signature.protectedHeaders.headers?.get(Header.Algorithm);
  return typeof algorithm === 'number' ? DEVICE_ALGORITHMS[algorithm] : undefined;
}

/**
 * Verifies the device signature over the DeviceAuthenticationBytes of `sessionTranscript` and
 * `docType` (ours, never bytes the document brings), with the device key the issuer signed in
 * the MSO. Returns what is wrong, or null when it holds.
 *
 * @example
 * const problem = checkDeviceAuthShape(document) ?? (await verifyDeviceSignature(document, transcript, AV_DOCTYPE))
 * if (problem) return refuse('device_auth', problem)
 */
export async function verifyDeviceSignature(
  document: Document,
  sessionTranscript: SessionTranscript,
  docType: string,
): Promise<DeviceAuthProblem | null> {
  const shape = checkDeviceAuthShape(document);
  if (shape) return shape;
  const signature = document.deviceSigned.deviceAuth.deviceSignature!;
  let publicKey: ReturnType<typeof coseKeyToEcJwk>;
  try {
    publicKey = coseKeyToEcJwk(document.issuerSigned.issuerAuth.mobileSecurityObject.deviceKeyInfo.deviceKey, false);
  } catch {
    return 'the MSO device key is not an EC key on P-256, P-384 or P-521';
  }
  const toBeSigned = Sign1.toBeSigned({
    payload: deviceAuthenticationBytes(sessionTranscript, docType, document),
    protectedHeaders: signature.protectedHeaders,
  });
  const valid = await verifyEcdsa(algorithmOf(signature)!, publicKey, toBeSigned, signature.signature);
  return valid ? null : 'the device signature does not verify over this request’s transcript';
}
