/**
 * The answer over the Digital Credentials API: what `navigator.credentials.get` gave the page,
 * posted to `POST /api/w/wallet-response/<request_id>`, bound to the page's origin. One entry,
 * three protocols (design.md §13, docs/design.md §16):
 *
 * - org-iso-mdoc: dc_response (the HPKE envelope, hpke.ts) → the DeviceResponse over the Annex C
 *   `dcapi` transcript (presentation.ts); any credential the DeviceRequest asked;
 * - openid4vp-v1-unsigned and openid4vp-v1-signed (the latter only for a page origin a request was
 *   signed for): dc_response (the JWE, jwe.ts) → vp_token (one presentation of a credential the
 *   query asked) → the presentation over OpenID4VP's DC API handover, or the SD-JWT VC PID's
 *   KB-JWT bound to `origin:<page origin>` and the request's nonce.
 */
import { parseDcqlVpToken } from '@openid4vc/openid4vp';
import { createDcapiSessionTranscript, createOid4vpDcApiSessionTranscript } from '../formats/session-transcript.ts';
import { ANSWER_JWE_ENCS, DC_API_PROTOCOL, OID4VP_DC_API_PROTOCOL, OID4VP_DC_API_SIGNED_PROTOCOL } from '../profile.ts';
import { dcApiAskedOf, dcApiCredentials, scopesOf } from '../request/wallet-request.ts';
import { openDcResponse } from './hpke.ts';
import { openOid4vpDcResponse } from './jwe.ts';
import {
  type AnswerInput,
  type KeyedPresentation,
  onePresentation,
  verifyDeviceResponseBytes,
  verifyPresentation,
} from './presentation.ts';
import { refuse, type WalletVerdict } from './verdict.ts';

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
 * Checks a Digital Credentials API answer for `origin` (the request's expiry and state are the
 * caller's: verify.ts).
 *
 * @example const verdict = await verifyDcApiAnswer({ credential: JSON.parse(body), origin, material, trust, now })
 */
export async function verifyDcApiAnswer(
  input: AnswerInput & { credential: unknown; origin: string },
): Promise<WalletVerdict> {
  const { material, origin } = input;
  const scopes = scopesOf(material);
  const read = readDcResponse(input.credential);
  if (read === null || (read.protocol !== DC_API_PROTOCOL && !material.oid4vpDc))
    return refuse('dc_response', 'not a Digital Credentials API response of a protocol this request offered');
  // docs/design.md §16: a signed request names its page in expected_origins; no other page's answer counts.
  const signedForOrigin = material.signedDc?.some((entry) => entry.origin === origin) ?? false;
  if (read.protocol === OID4VP_DC_API_SIGNED_PROTOCOL && !signedForOrigin)
    return refuse('dc_response', 'no signed request was made for this page’s origin');

  if (read.protocol === DC_API_PROTOCOL) {
    if (dcApiCredentials(material).length === 0)
      return refuse('dc_response', 'not a Digital Credentials API response of a protocol this request offered');
    const bytes = await openDcResponse(material.dc, origin, read.response);
    if (!bytes) return refuse('dc_response', 'the HPKE envelope does not open for this request and origin');
    const transcript = createDcapiSessionTranscript(material.dc.encryptionInfo, origin);
    return verifyDeviceResponseBytes(
      bytes,
      transcript,
      input.trust,
      input.now,
      { credentials: dcApiCredentials(material), scopes },
      input.status,
    );
  }

  const oid4vp = material.oid4vpDc!;
  const signed = read.protocol === OID4VP_DC_API_SIGNED_PROTOCOL;
  const payload = await openOid4vpDcResponse(oid4vp, read.response, signed ? ANSWER_JWE_ENCS : undefined);
  if (payload === null)
    return refuse(
      'dc_response',
      signed
        ? 'the JWE does not open with this request’s key as ECDH-ES and A128GCM or A256GCM, or is not JSON'
        : 'the JWE does not open with this request’s key as ECDH-ES and A128GCM, or is not JSON',
    );
  let keyed: KeyedPresentation | null;
  try {
    const own = Object.hasOwn(payload, 'vp_token') ? payload.vp_token : undefined;
    keyed = onePresentation(parseDcqlVpToken(own), dcApiAskedOf(material));
  } catch {
    keyed = null;
  }
  if (keyed === null)
    return refuse('vp_token', 'vp_token is missing, mixed, or not one presentation of a requested credential');
  return verifyPresentation(keyed, {
    trust: input.trust,
    now: input.now,
    status: input.status,
    scopes,
    nonce: oid4vp.nonce,
    audience: `origin:${origin}`,
    transcript: () => createOid4vpDcApiSessionTranscript({ origin, nonce: oid4vp.nonce, jwk: oid4vp.publicJwk }),
  });
}
