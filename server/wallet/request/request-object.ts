/**
 * Signed wallet requests and encrypted answers (docs/design.md §16; OpenID4VP 1.0 §5.10, §8.3 and
 * HAIP 1.0): what the verifier sends when it holds an access certificate (access-certificate.ts).
 *
 * Link:     `openid4vp://?client_id=x509_hash:<…>&request_uri=<api_url>/oid4vp/request/<request_id>
 *           &request_uri_method=post` (GET or POST with wallet_nonce, design.md §19)
 * Request:  at request_uri, a JWS (RFC 9101 JAR) with header `{ alg: "ES256", typ:
 *           "oauth-authz-req+jwt", x5c: <the chain> }` over every parameter of the unsigned link
 *           (response_type, client_id, response_uri, dcql_query, nonce, state) with
 *           `response_mode: "direct_post.jwt"` and `client_metadata` carrying a fresh ECDH-ES P-256
 *           key for this request alone and `encrypted_response_enc_values_supported: ["A128GCM",
 *           "A256GCM"]`. Signed once, when the request is made; the store keeps it.
 * Answer:   `response=<compact JWE>` posted to response_uri: ECDH-ES to that key, A128GCM or
 *           A256GCM, whose payload is `{ "vp_token": {…}, "state": "…" }` (opened by
 *           answer/jwe.ts). The mdoc's SessionTranscript is OpenID4VP's handover with
 *           `client_id` = the x509_hash value and the key's RFC 7638 thumbprint (§B.2.6.1;
 *           formats/session-transcript.ts createOid4VpSessionTranscript).
 */
import { calculateJwkThumbprint, CompactSign, importJWK } from 'jose';
import type { AccessCertificate } from './access-certificate.ts';
import { type DcqlQuery, vpFormatsSupportedOf } from '../formats/credentials.ts';
import { createEcJwk } from '../keys.ts';
import type { EncryptionJwk } from './oid4vp-dc-request.ts';
import { ANSWER_JWE_ALG, ANSWER_JWE_ENCS } from '../profile.ts';
import type { SignedRequestMaterial } from '../../store/store.ts';

export const REQUEST_OBJECT_TYP = 'oauth-authz-req+jwt';
export const REQUEST_OBJECT_CONTENT_TYPE = 'application/oauth-authz-req+jwt';
export const DIRECT_POST_JWT = 'direct_post.jwt';
/** Where a wallet fetches the request object: `{api_url}/oid4vp/request/<request_id>`. */
export const REQUEST_PATH = '/oid4vp/request/';
/** `aud` of a request object under static wallet metadata (OpenID4VP 1.0 §5.8). */
export const SELF_ISSUED_AUDIENCE = 'https://self-issued.me/v2';

/** What the store keeps of a signed request object (its shape is the store's). */
export type { SignedRequestMaterial };

/** The parameters of the request the object signs (wallet-request.ts authorizationRequestOf). */
export interface SignedRequestParams {
  responseUri: string;
  nonce: string;
  state: string;
  dcqlQuery: DcqlQuery;
}

/**
 * `{api_url}/oid4vp/request/<request_id>`, beside the response_uri `{api_url}/oid4vp/response/<id>`.
 *
 * @example requestUriOf('https://api.example/oid4vp/response/vr_1') // 'https://api.example/oid4vp/request/vr_1'
 */
export function requestUriOf(responseUri: string): string {
  return responseUri.replace(/\/oid4vp\/response\/([^/]+)$/, `${REQUEST_PATH}$1`);
}

/**
 * The link a wallet opens: the client id and where to fetch the request, nothing else (HAIP 1.0).
 *
 * @example signedWalletLink(material.clientId, requestUriOf(responseUri))
 */
export function signedWalletLink(clientId: string, requestUri: string): string {
  return (
    `openid4vp://?client_id=${encodeURIComponent(clientId)}&request_uri=${encodeURIComponent(requestUri)}` +
    // design.md §19: the wallet may POST its wallet_nonce (and metadata) to request_uri (OpenID4VP 1.0 §5.10)
    '&request_uri_method=post'
  );
}

/** A `wallet_nonce` this verifier echoes: 1 to 256 visible ASCII characters. */
export const WALLET_NONCE = /^[\x21-\x7e]{1,256}$/;

/**
 * The stored request object signed again now (OpenID4VP 1.0 §5.10's `request_uri_method=post`,
 * design.md §19): the same parameters and answer key, `iat` now and the wallet's `wallet_nonce`.
 * Null when the access certificate is no longer the one that named the request (its client id).
 *
 * @example const jws = await resignRequestObject(access, stored.requestObject, walletNonce, now)
 */
export async function resignRequestObject(
  access: AccessCertificate,
  stored: Pick<SignedRequestMaterial, 'requestObject' | 'clientId'>,
  walletNonce: string,
  now: number,
): Promise<string | null> {
  if (access.clientId !== stored.clientId) return null;
  const payload = JSON.parse(Buffer.from(stored.requestObject.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  const fresh = { ...payload, iat: Math.floor(now / 1000), wallet_nonce: walletNonce };
  return new CompactSign(new TextEncoder().encode(JSON.stringify(fresh)))
    .setProtectedHeader({ alg: 'ES256', typ: REQUEST_OBJECT_TYP, x5c: [...access.x5c] })
    .sign(await importJWK(access.privateJwk, 'ES256'));
}

/** The request object's payload: every parameter, the answer's key and encodings. */
export function requestObjectPayload(
  clientId: string,
  params: SignedRequestParams,
  publicJwk: EncryptionJwk,
  issuedAt: number,
): Record<string, unknown> {
  return {
    aud: SELF_ISSUED_AUDIENCE,
    iat: Math.floor(issuedAt / 1000),
    response_type: 'vp_token',
    response_mode: DIRECT_POST_JWT,
    client_id: clientId,
    response_uri: params.responseUri,
    dcql_query: params.dcqlQuery,
    nonce: params.nonce,
    state: params.state,
    client_metadata: {
      jwks: { keys: [{ ...publicJwk }] },
      encrypted_response_enc_values_supported: [...ANSWER_JWE_ENCS],
      vp_formats_supported: vpFormatsSupportedOf(params.dcqlQuery),
    },
  };
}

/**
 * A fresh answer key (from random bytes, keys.ts) and the request object signed with the access
 * certificate's key.
 *
 * @example const signed = await createSignedRequest(deps.wallet.access, { responseUri, nonce, state, dcqlQuery }, now)
 */
export async function createSignedRequest(
  access: AccessCertificate,
  params: SignedRequestParams,
  now: number,
): Promise<SignedRequestMaterial> {
  const { x, y, d } = createEcJwk('ES256');
  const kid = await calculateJwkThumbprint({ kty: 'EC', crv: 'P-256', x, y }, 'sha256');
  const publicJwk: EncryptionJwk = { kty: 'EC', crv: 'P-256', x, y, use: 'enc', alg: ANSWER_JWE_ALG, kid };
  const payload = requestObjectPayload(access.clientId, params, publicJwk, now);
  const requestObject = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ES256', typ: REQUEST_OBJECT_TYP, x5c: [...access.x5c] })
    .sign(await importJWK(access.privateJwk, 'ES256'));
  return { clientId: access.clientId, requestObject, publicJwk, privateKey: d };
}
