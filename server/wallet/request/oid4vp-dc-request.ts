/**
 * OpenID4VP 1.0 over the Digital Credentials API (its Appendix A), unsigned, with an encrypted
 * response (design.md §13): what Chrome's wallets answer.
 *
 * Request:  `{ protocol: "openid4vp-v1-unsigned", data: { response_type: "vp_token",
 *           response_mode: "dc_api.jwt", nonce, dcql_query, client_metadata: { jwks: { keys: [an
 *           ephemeral P-256 ECDH-ES key] }, encrypted_response_enc_values_supported: ["A128GCM"],
 *           vp_formats_supported: { mso_mdoc: {}, "dc+sd-jwt": { ES256 for both JWTs } when the
 *           query asks the SD-JWT VC PID } } }`. No client_id: the browser tells the
 *           wallet the page's origin, which the transcript binds.
 * Response: `data.response` = a compact JWE (ECDH-ES, A128GCM) to that key, opened by
 *           answer/jwe.ts with jose's compactDecrypt, whose payload is `{ "vp_token": { "<query id>": ["<b64url
 *           DeviceResponse>"] } }`. The mdoc's SessionTranscript is `[null, null,
 *           ["OpenID4VPDCAPIHandover", SHA-256(CBOR([origin, nonce, jwkThumbprint]))]]` (§B.2.6.2),
 *           jwkThumbprint the RFC 7638 thumbprint of the encryption key. An SD-JWT VC PID's
 *           KB-JWT has `aud` `origin:<origin>` and the request's nonce instead (design.md §15).
 */
import { calculateJwkThumbprint } from 'jose';
import { randomBytes } from 'node:crypto';
import type { DcqlQuery, Oid4vpDcRequest } from '../../../src/protocol/wire.ts';
import { createEcJwk } from '../keys.ts';
import { ANSWER_JWE_ALG, NONCE_BYTES, OID4VP_DC_API_PROTOCOL, UNSIGNED_ANSWER_JWE_ENCS } from '../profile.ts';
import type { Oid4vpDcMaterial } from '../../store/store.ts';

export const DC_API_RESPONSE_MODE = 'dc_api.jwt';

/** The SD-JWT VC PID's format and the algorithms accepted for it (design.md §15): ES256 only. */
export const SD_JWT_FORMAT = 'dc+sd-jwt';
export const SD_JWT_ALGS = { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] };

/** What the page passes to `navigator.credentials.get` for Chrome's wallets (the wire type). */
export type { Oid4vpDcRequest };

/** The verifier's public encryption key as client_metadata.jwks carries it; `kid` its RFC 7638 thumbprint. */
export type EncryptionJwk = Oid4vpDcRequest['data']['client_metadata']['jwks']['keys'][number];

/** What the store keeps to open the answer: `privateKey` is secret (sealed by the domain). */
export type { Oid4vpDcMaterial };

/**
 * A fresh nonce and ephemeral P-256 ECDH-ES key pair for one request (made from random bytes,
 * keys.ts), as the store keeps them.
 *
 * @example const material = await createOid4vpDcMaterial()
 */
export async function createOid4vpDcMaterial(): Promise<Oid4vpDcMaterial> {
  const { x, y, d } = createEcJwk('ES256');
  const kid = await calculateJwkThumbprint({ kty: 'EC', crv: 'P-256', x, y }, 'sha256');
  return {
    nonce: randomBytes(NONCE_BYTES).toString('base64url'),
    publicJwk: { kty: 'EC', crv: 'P-256', x, y, use: 'enc', alg: ANSWER_JWE_ALG, kid },
    privateKey: d,
  };
}

/**
 * The request a material stands for, asking `dcqlQuery`.
 *
 * @example const request = oid4vpDcRequestOf(material.oid4vpDc, dcqlQueryFor(['pid', 'mdl'], scopes))
 */
export function oid4vpDcRequestOf(material: Pick<Oid4vpDcMaterial, 'nonce' | 'publicJwk'>, dcqlQuery: DcqlQuery) {
  const request: Oid4vpDcRequest = {
    protocol: OID4VP_DC_API_PROTOCOL,
    data: dcRequestParameters(material, dcqlQuery, UNSIGNED_ANSWER_JWE_ENCS),
  };
  return request;
}

/**
 * The parameters an OpenID4VP request over the DC API carries, unsigned or inside a signed request
 * object (signed-dc-request.ts): the answer encrypted to the material's key with one of `encs`,
 * the SD-JWT format announced only when the query asks for it.
 *
 * @example const data = dcRequestParameters(material, dcqlQuery, ANSWER_JWE_ENCS)
 */
export function dcRequestParameters(
  material: Pick<Oid4vpDcMaterial, 'nonce' | 'publicJwk'>,
  dcqlQuery: DcqlQuery,
  encs: readonly string[],
): Oid4vpDcRequest['data'] {
  return {
    response_type: 'vp_token',
    response_mode: DC_API_RESPONSE_MODE,
    nonce: material.nonce,
    dcql_query: dcqlQuery,
    client_metadata: {
      jwks: { keys: [{ ...material.publicJwk }] },
      encrypted_response_enc_values_supported: [...encs],
      vp_formats_supported: {
        mso_mdoc: {},
        ...(dcqlQuery.credentials.some((c) => c.format === SD_JWT_FORMAT) ? { [SD_JWT_FORMAT]: SD_JWT_ALGS } : {}),
      },
    },
  };
}
