/**
 * The EU age-verification profile as this verifier speaks it (design.md §11; av-doc-technical-
 * specification Annex A §A.5–A.6): mdoc only, one doctype and namespace, one claim, OpenID4VP 1.0
 * with DCQL, `direct_post`, request by value, client id `redirect_uri:<response_uri>`. Requests
 * for exactly [isAdult] keep it byte for byte; the other credentials and their requests (DESIGN
 * §13) are credentials.ts's.
 */

/** docType of the proof-of-age mdoc, and the namespace of its claim. */
export const AV_DOCTYPE = 'eu.europa.ec.av.1';
export const AV_NAMESPACE = 'eu.europa.ec.av.1';
export const AV_CLAIM = 'age_over_18';

/** The DCQL credential query id; the wallet answers `vp_token` = `{ "proof_of_age": [ … ] }`. */
export const CREDENTIAL_QUERY_ID = 'proof_of_age';

/** The one DCQL query this verifier sends (design.md §11, byte for byte once serialised). */
export const AV_DCQL_QUERY = Object.freeze({
  credentials: [
    {
      id: CREDENTIAL_QUERY_ID,
      format: 'mso_mdoc',
      meta: { doctype_value: AV_DOCTYPE },
      claims: [{ path: [AV_NAMESPACE, AV_CLAIM] }],
    },
  ],
});

/** The link scheme the EU age-verification app registers (Annex A §A.5): requests for exactly [isAdult]. */
export const WALLET_LINK_SCHEME = 'av://';

/** OpenID4VP's own scheme (1.0 §13.1): every other wallet request (design.md §13). */
export const OPENID4VP_LINK_SCHEME = 'openid4vp://';

/** Prefix of the client identifier: the verifier is identified by its response_uri. */
export const CLIENT_ID_PREFIX = 'redirect_uri:';

/** The wallet's response endpoint: `{api_url}/oid4vp/response/<request_id>`. */
export const RESPONSE_PATH = '/oid4vp/response/';

/** Digital Credentials API protocol identifier for ISO/IEC 18013-7 Annex C. */
export const DC_API_PROTOCOL = 'org-iso-mdoc';

/** Digital Credentials API protocol identifier of unsigned OpenID4VP 1.0 requests (§A.1, A.2). */
export const OID4VP_DC_API_PROTOCOL = 'openid4vp-v1-unsigned';

/** Digital Credentials API protocol identifier of signed OpenID4VP 1.0 requests (§A.3, docs/design.md §16). */
export const OID4VP_DC_API_SIGNED_PROTOCOL = 'openid4vp-v1-signed';

/** Clock skew accepted on the MSO validity window (design.md §11). */
export const MSO_SKEW_SECONDS = 300;

/** Random bytes behind nonce and state: 256 bits, twice the 128 bits design.md §11 asks for. */
export const NONCE_BYTES = 32;
export const STATE_BYTES = 32;
/** Annex C: the EncryptionInfo nonce, at least 16 bytes. */
export const DC_API_NONCE_BYTES = 16;

/** Skew accepted on a JWT's iat/nbf/exp: an SD-JWT's issuer JWT and KB-JWT, a Status List Token. */
export const JWT_SKEW_SECONDS = 300;

/** Key management of every answer JWE (ECDH-ES to the request's key): the only one accepted. */
export const ANSWER_JWE_ALG = 'ECDH-ES';
/** Content encryption of openid4vp-v1-unsigned's answer JWE (design.md §13). */
export const UNSIGNED_ANSWER_JWE_ENCS = ['A128GCM'] as const;
/** Content encryption a signed request accepts (docs/design.md §16): A256GCM too. */
export const ANSWER_JWE_ENCS = ['A128GCM', 'A256GCM'] as const;
