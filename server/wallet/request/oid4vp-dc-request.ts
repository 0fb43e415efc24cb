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
 * Response: `data.response` = a compact JWE (ECDH-ES, A128GCM) to that key, opened by jose's
 *           compactDecrypt, whose payload is `{ "vp_token": { "<query id>": ["<b64url
 *           DeviceResponse>"] } }`. The mdoc's SessionTranscript is `[null, null,
 *           ["OpenID4VPDCAPIHandover", SHA-256(CBOR([origin, nonce, jwkThumbprint]))]]` (§B.2.6.2),
 *           jwkThumbprint the RFC 7638 thumbprint of the encryption key. An SD-JWT VC PID's
 *           KB-JWT has `aud` `origin:<origin>` and the request's nonce instead (design.md §15).
 */
import { SessionTranscript } from '@owf/mdoc';
import { calculateJwkThumbprint, CompactEncrypt, compactDecrypt, importJWK } from 'jose';
import { randomBytes } from 'node:crypto';
import type { DcqlQuery, Oid4vpDcRequest } from '../../../src/protocol/api.ts';
import { createEcJwk, decodeBase64Url, type EcJwk } from '../keys.ts';
import { mdocContext } from '../formats/mdoc-context.ts';
import { NONCE_BYTES, OID4VP_DC_API_PROTOCOL } from '../profile.ts';
import type { Oid4vpDcMaterial } from '../../store/store.ts';

/** Key management and content encryption of the response JWE: the only ones accepted. */
export const RESPONSE_JWE_ALG = 'ECDH-ES';
export const RESPONSE_JWE_ENC = 'A128GCM';
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
    publicJwk: { kty: 'EC', crv: 'P-256', x, y, use: 'enc', alg: RESPONSE_JWE_ALG, kid },
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
    data: {
      response_type: 'vp_token',
      response_mode: DC_API_RESPONSE_MODE,
      nonce: material.nonce,
      dcql_query: dcqlQuery,
      client_metadata: {
        jwks: { keys: [{ ...material.publicJwk }] },
        encrypted_response_enc_values_supported: [RESPONSE_JWE_ENC],
        vp_formats_supported: {
          mso_mdoc: {},
          ...(dcqlQuery.credentials.some((c) => c.format === SD_JWT_FORMAT) ? { [SD_JWT_FORMAT]: SD_JWT_ALGS } : {}),
        },
      },
    },
  };
  return request;
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

/**
 * Opens the response JWE with the request's private key: ECDH-ES and A128GCM only (`encs`: the
 * signed request lists A256GCM too, docs/design.md §16). Returns its
 * payload as a JSON object, or null when it does not open, is of another algorithm, or is not a
 * JSON object.
 *
 * @example const payload = await openOid4vpDcResponse(material.oid4vpDc, credential.data.response)
 */
export async function openOid4vpDcResponse(
  material: Pick<Oid4vpDcMaterial, 'publicJwk' | 'privateKey'>,
  jwe: string,
  encs: readonly string[] = [RESPONSE_JWE_ENC],
): Promise<Record<string, unknown> | null> {
  try {
    const { kty, crv, x, y } = material.publicJwk;
    const key = await importJWK({ kty, crv, x, y, d: material.privateKey }, RESPONSE_JWE_ALG);
    const { plaintext } = await compactDecrypt(jwe, key, {
      keyManagementAlgorithms: [RESPONSE_JWE_ALG],
      contentEncryptionAlgorithms: [...encs],
    });
    const payload: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plaintext));
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The wallet's side (sandbox wallet and tests): encrypts a response payload to the request's key.
 *
 * @example const jwe = await sealOid4vpDcResponse(request.data.client_metadata.jwks.keys[0], { vp_token })
 */
export async function sealOid4vpDcResponse(jwk: EncryptionJwk, payload: unknown): Promise<string> {
  const { kty, crv, x, y } = jwk;
  const key = await importJWK({ kty, crv, x, y }, RESPONSE_JWE_ALG);
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: RESPONSE_JWE_ALG, enc: RESPONSE_JWE_ENC, kid: jwk.kid })
    .encrypt(key);
}
