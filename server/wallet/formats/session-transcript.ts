/**
 * The mdoc SessionTranscripts a presentation is signed over, one per answer path (ISO/IEC 18013-5
 * §9.1.5.1; OpenID4VP 1.0 Appendix B.2.6): the OpenID4VP handover for a link's `direct_post`
 * (signed or not), OpenID4VP's DC API handover for openid4vp-v1-unsigned and -signed, and ISO/IEC
 * 18013-7 Annex C's `dcapi` handover for org-iso-mdoc. The request binds the same transcript
 * (readerAuth, request/signed-dc-request.ts), the answer's device signature covers it (device-auth.ts).
 *
 * Where the libraries stop (docs/wallets.md#where-the-libraries-stop), the gaps this file covers:
 *
 * 4. There is no ISO 18013-7 Annex C `dcapi` handover: `SessionTranscript` knows the OpenID4VP
 *    ones only, and the `Handover` base class is declared but not exported → `DcapiHandover`
 *    extends it through the prototype of an exported handover.
 */
import { cborEncode, QrHandover, SessionTranscript } from '@owf/mdoc';
import { calculateJwkThumbprint } from 'jose';
import { createHash } from 'node:crypto';
import { decodeBase64Url, type EcJwk } from '../keys.ts';
import { CLIENT_ID_PREFIX } from '../profile.ts';
import { mdocContext } from './mdoc-context.ts';

// The library's Handover base class, reached through an exported subclass (gap 4).
const HandoverBase = Object.getPrototypeOf(QrHandover) as new (structure: unknown) => object;

/** ISO/IEC 18013-7 Annex C handover: `["dcapi", SHA-256(dcapiInfo)]`. */
class DcapiHandover extends HandoverBase {
  declare structure: Uint8Array;

  get encodedStructure(): unknown {
    return ['dcapi', this.structure];
  }
}

/**
 * The Annex C SessionTranscript `[null, null, ["dcapi", SHA-256(CBOR([encryptionInfo, origin]))]]`,
 * where `encryptionInfo` is the base64url string the page passed to the Digital Credentials API.
 *
 * @example const transcript = createDcapiSessionTranscript(material.dc.encryptionInfo, 'https://shop.example')
 */
export function createDcapiSessionTranscript(encryptionInfo: string, origin: string): SessionTranscript {
  const dcapiInfoHash = createHash('sha256')
    .update(cborEncode([encryptionInfo, origin]))
    .digest();
  const handover = new DcapiHandover(new Uint8Array(dcapiInfoHash));
  return SessionTranscript.create({
    handover: handover as unknown as Parameters<typeof SessionTranscript.create>[0]['handover'],
  });
}

/**
 * The OpenID4VP 1.0 SessionTranscript (§B.2.6.1): `[null, null, ["OpenID4VPHandover",
 * SHA-256(CBOR([client_id, nonce, jwkThumbprint, response_uri]))]]`; jwkThumbprint is null for
 * an unencrypted `direct_post` response; client_id `redirect_uri:<response_uri>` unless given.
 *
 * @example const transcript = await createOid4VpSessionTranscript({ responseUri, nonce })
 */
export function createOid4VpSessionTranscript(input: {
  responseUri: string;
  nonce: string;
  clientId?: string;
  jwkThumbprint?: Uint8Array;
}): Promise<SessionTranscript> {
  return SessionTranscript.forOid4Vp(
    {
      clientId: input.clientId ?? CLIENT_ID_PREFIX + input.responseUri,
      nonce: input.nonce,
      responseUri: input.responseUri,
      ...(input.jwkThumbprint ? { jwkThumbprint: input.jwkThumbprint } : {}),
    },
    mdocContext,
  );
}

/** The RFC 7638 SHA-256 thumbprint of a public key, as bytes. */
export async function jwkThumbprintBytes(jwk: Pick<EcJwk, 'kty' | 'crv' | 'x' | 'y'>): Promise<Uint8Array> {
  const thumbprint = await calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, 'sha256');
  return decodeBase64Url(thumbprint)!;
}

/**
 * OpenID4VP 1.0's DC API SessionTranscript (§B.2.6.2): `[null, null, ["OpenID4VPDCAPIHandover",
 * SHA-256(CBOR([origin, nonce, jwkThumbprint]))]]`, origin as the browser sent it.
 *
 * @example const transcript = await createOid4vpDcApiSessionTranscript({ origin, nonce, jwk: material.publicJwk })
 */
export async function createOid4vpDcApiSessionTranscript(input: {
  origin: string;
  nonce: string;
  jwk: Pick<EcJwk, 'kty' | 'crv' | 'x' | 'y'>;
}): Promise<SessionTranscript> {
  return SessionTranscript.forOid4VpDcApi(
    { origin: input.origin, nonce: input.nonce, jwkThumbprint: await jwkThumbprintBytes(input.jwk) },
    mdocContext,
  );
}
