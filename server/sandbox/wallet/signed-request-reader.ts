/**
 * The sandbox wallet's side of a signed request (docs/design.md §16), as a HAIP wallet reads one:
 * the link holds `client_id` and `request_uri` only; the wallet fetches the request object,
 * checks it (typ `oauth-authz-req+jwt`, ES256, signed by the `x5c` leaf, `client_id` the
 * `x509_hash` of that leaf in the link and in the payload, `response_mode` `direct_post.jwt`, an
 * answer key) with jose, and encrypts its answer to that key. An openid4vp-v1-signed request over
 * the Digital Credentials API is checked the same way, with `expected_origins` listing the page's
 * origin and `response_mode` `dc_api.jwt`. Test support: it trusts whatever certificate the hash
 * names, as `x509_hash` lets a wallet do.
 */
import { CompactEncrypt, compactVerify, decodeProtectedHeader, importJWK, importX509 } from 'jose';
import { createHash } from 'node:crypto';
import { X509_HASH_PREFIX } from '../../wallet/request/access-certificate.ts';
import { DC_API_RESPONSE_MODE, type EncryptionJwk } from '../../wallet/request/oid4vp-dc-request.ts';
import { WalletLinkError } from '../../wallet/request/wallet-request.ts';
import { ANSWER_JWE_ALG } from '../../wallet/profile.ts';
import { DIRECT_POST_JWT, REQUEST_OBJECT_TYP } from '../../wallet/request/request-object.ts';

/** Fetches a request object: over HTTP for the CLI, from the record for the sandbox phone, by inject in tests. */
export type RequestObjectFetcher = (requestUri: string) => Promise<string>;

/** A verified signed request: the parameters an answer needs. */
export interface SignedWalletRequest {
  client_id: string;
  response_uri: string;
  dcql_query: unknown;
  nonce: string;
  state: string;
  /** the key the answer is encrypted to (client_metadata.jwks) */
  encryptTo: EncryptionJwk;
  /** the first content encryption the verifier lists */
  enc: string;
}

/** `openid4vp://?client_id=…&request_uri=…`: a request by reference. */
export function isSignedLink(link: string): boolean {
  const match = /^openid4vp:\/\/[^?#]*\?([^#]*)$/.exec(link.trim());
  return match !== null && new URLSearchParams(match[1]).has('request_uri');
}

/** Fetches the request over HTTP, as a phone wallet does. */
export const fetchRequestObjectOverHttp: RequestObjectFetcher = async (requestUri) => {
  const res = await fetch(requestUri, { headers: { accept: 'application/oauth-authz-req+jwt' } });
  if (!res.ok) throw new WalletLinkError(`request_uri answered ${res.status}`);
  return res.text();
};

const pemOf = (base64: string) => `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----`;

/**
 * A request object as a wallet checks it: ES256, typ `oauth-authz-req+jwt`, signed by the leaf of
 * its `x5c`; its payload and the `x509_hash` client id of that leaf. Throws WalletLinkError.
 */
async function verifyRequestObject(jws: string): Promise<{ payload: Record<string, unknown>; clientId: string }> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    throw new WalletLinkError('the request object is not a JWS');
  }
  if (header.typ !== REQUEST_OBJECT_TYP || header.alg !== 'ES256' || !header.x5c?.[0])
    throw new WalletLinkError('the request object must be ES256, typ oauth-authz-req+jwt, with x5c');
  const leafDer = Buffer.from(header.x5c[0], 'base64');
  try {
    const verified = await compactVerify(jws, await importX509(pemOf(header.x5c[0]), 'ES256'));
    const payload: unknown = JSON.parse(new TextDecoder().decode(verified.payload));
    if (typeof payload !== 'object' || payload === null) throw new Error('not an object');
    return {
      payload: payload as Record<string, unknown>,
      clientId: X509_HASH_PREFIX + createHash('sha256').update(leafDer).digest('base64url'),
    };
  } catch {
    throw new WalletLinkError('the request object signature does not verify with its x5c leaf');
  }
}

/** A verified openid4vp-v1-signed request (docs/design.md §16): what an answer needs. */
export interface SignedDcWalletRequest {
  client_id: string;
  nonce: string;
  dcql_query: unknown;
  encryptTo: EncryptionJwk;
  enc: string;
}

/**
 * Verifies an openid4vp-v1-signed request as a wallet behind the Digital Credentials API does:
 * the request object's signature and `x509_hash` client id, `response_mode` `dc_api.jwt`, an
 * ECDH-ES answer key, and `origin` (what the browser says the page is) among `expected_origins`.
 * Throws WalletLinkError naming what is wrong.
 *
 * @example const request = await readSignedDcRequest(dcRequest.data.request, 'https://shop.example')
 */
export async function readSignedDcRequest(jws: string, origin: string): Promise<SignedDcWalletRequest> {
  const { payload, clientId } = await verifyRequestObject(jws);
  if (payload.client_id !== clientId) throw new WalletLinkError('client_id must be the x509_hash of the x5c leaf');
  const expected = payload.expected_origins;
  if (!Array.isArray(expected) || !expected.includes(origin))
    throw new WalletLinkError(`expected_origins does not list ${origin}`);
  if (payload.response_mode !== DC_API_RESPONSE_MODE) throw new WalletLinkError('response_mode must be dc_api.jwt');
  if (typeof payload.nonce !== 'string') throw new WalletLinkError('nonce must be a string');
  const metadata = payload.client_metadata as
    { jwks?: { keys?: EncryptionJwk[] }; encrypted_response_enc_values_supported?: string[] } | undefined;
  const encryptTo = metadata?.jwks?.keys?.[0];
  if (!encryptTo || encryptTo.alg !== ANSWER_JWE_ALG)
    throw new WalletLinkError('client_metadata.jwks must hold an ECDH-ES key');
  return {
    client_id: clientId,
    nonce: payload.nonce,
    dcql_query: payload.dcql_query,
    encryptTo,
    enc: metadata?.encrypted_response_enc_values_supported?.[0] ?? 'A128GCM',
  };
}

/**
 * Fetches and verifies the request behind a signed link; throws WalletLinkError naming what is wrong.
 *
 * @example const request = await readSignedRequest(link, fetchRequestObjectOverHttp)
 */
export async function readSignedRequest(link: string, fetchObject: RequestObjectFetcher): Promise<SignedWalletRequest> {
  const search = new URLSearchParams(/\?([^#]*)$/.exec(link.trim())?.[1] ?? '');
  const clientId = search.get('client_id');
  const requestUri = search.get('request_uri');
  // design.md §19: request_uri_method=post may be offered; this wallet fetches by GET, as it allows
  const method = search.getAll('request_uri_method');
  const others = [...search.keys()].filter((key) => key !== 'request_uri_method');
  if (
    !clientId?.startsWith(X509_HASH_PREFIX) ||
    !requestUri ||
    others.length !== 2 ||
    method.length > 1 ||
    (method.length === 1 && method[0] !== 'post' && method[0] !== 'get')
  )
    throw new WalletLinkError('a signed link holds client_id=x509_hash:…, request_uri and request_uri_method only');
  const jws = await fetchObject(requestUri);
  const { payload, clientId: signer } = await verifyRequestObject(jws);
  if (signer !== clientId) throw new WalletLinkError('client_id is not the x509_hash of the x5c leaf');
  const metadata = payload.client_metadata as
    { jwks?: { keys?: EncryptionJwk[] }; encrypted_response_enc_values_supported?: string[] } | undefined;
  const encryptTo = metadata?.jwks?.keys?.[0];
  if (payload.client_id !== clientId) throw new WalletLinkError('the request object names another client_id');
  if (payload.response_mode !== DIRECT_POST_JWT) throw new WalletLinkError('response_mode must be direct_post.jwt');
  if (typeof payload.response_uri !== 'string' || !/^https?:\/\//.test(payload.response_uri))
    throw new WalletLinkError('response_uri must be an http(s) URL');
  if (typeof payload.nonce !== 'string' || typeof payload.state !== 'string')
    throw new WalletLinkError('nonce and state must be strings');
  if (!encryptTo || encryptTo.alg !== ANSWER_JWE_ALG)
    throw new WalletLinkError('client_metadata.jwks must hold an ECDH-ES key');
  return {
    client_id: clientId,
    response_uri: payload.response_uri,
    dcql_query: payload.dcql_query,
    nonce: payload.nonce,
    state: payload.state,
    encryptTo,
    enc: metadata?.encrypted_response_enc_values_supported?.[0] ?? 'A128GCM',
  };
}

/**
 * The `response` parameter: the answer's parameters as a compact JWE (ECDH-ES) to `jwk`.
 *
 * @example const jwe = await encryptAnswer(request.encryptTo, { vp_token, state }, request.enc)
 */
export async function encryptAnswer(jwk: EncryptionJwk, payload: unknown, enc = 'A128GCM'): Promise<string> {
  const { kty, crv, x, y } = jwk;
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: ANSWER_JWE_ALG, enc, kid: jwk.kid })
    .encrypt(await importJWK({ kty, crv, x, y }, ANSWER_JWE_ALG));
}
