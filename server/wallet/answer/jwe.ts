/**
 * The answers sealed as a compact JWE to the request's own key (ECDH-ES; jose's compactDecrypt),
 * one opening for both paths that use one:
 *
 * - openid4vp-v1-unsigned and -signed over the Digital Credentials API (OpenID4VP 1.0 Appendix A;
 *   design.md §13): `data.response`, A128GCM (A256GCM too when the request was signed), whose
 *   payload is `{ "vp_token": { "<query id>": ["…"] } }` (openOid4vpDcResponse);
 * - the `direct_post.jwt` answer to a signed link (docs/design.md §16; OpenID4VP 1.0 §8.3.1):
 *   the form holds one `response`, a JWE to the request's answer key (request/request-object.ts)
 *   whose payload holds the answer's parameters (`vp_token`, `state`). Opened here into the form
 *   pairs the `direct_post` checks read (direct-post.ts), so every check after it is the unsigned
 *   path's. An error (`error`, `state`, no `response`) may come in the clear: the wallet may have
 *   no key to encrypt to when it refuses the request (openSignedAnswer).
 */
import { CompactEncrypt, compactDecrypt, importJWK } from 'jose';
import { ANSWER_JWE_ALG, ANSWER_JWE_ENCS, UNSIGNED_ANSWER_JWE_ENCS } from '../profile.ts';
import type { EncryptionJwk, Oid4vpDcMaterial } from '../request/oid4vp-dc-request.ts';
import type { SignedRequestMaterial } from '../request/request-object.ts';

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
  encs: readonly string[] = UNSIGNED_ANSWER_JWE_ENCS,
): Promise<Record<string, unknown> | null> {
  try {
    const { kty, crv, x, y } = material.publicJwk;
    const key = await importJWK({ kty, crv, x, y, d: material.privateKey }, ANSWER_JWE_ALG);
    const { plaintext } = await compactDecrypt(jwe, key, {
      keyManagementAlgorithms: [ANSWER_JWE_ALG],
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
  const key = await importJWK({ kty, crv, x, y }, ANSWER_JWE_ALG);
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: ANSWER_JWE_ALG, enc: UNSIGNED_ANSWER_JWE_ENCS[0], kid: jwk.kid })
    .encrypt(key);
}

/**
 * Opens the answer's JWE with the request's key: ECDH-ES, A128GCM or A256GCM only. Its payload as a
 * JSON object, or null when it does not open with this key, is of another algorithm, or is not a
 * JSON object.
 *
 * @example const payload = await openSignedRequestAnswer(material.signed, form.get('response'))
 */
export async function openSignedRequestAnswer(
  material: Pick<SignedRequestMaterial, 'publicJwk' | 'privateKey'>,
  jwe: string,
): Promise<Record<string, unknown> | null> {
  return openOid4vpDcResponse(material, jwe, ANSWER_JWE_ENCS);
}

/** Why an answer to a signed request is refused: our phrases, for the log. */
export type SignedAnswerProblem =
  | 'a signed request is answered by one response parameter and nothing beside it'
  | 'the JWE does not open with this request’s key as ECDH-ES and A128GCM or A256GCM, or is not JSON'
  | 'the JWE payload holds a parameter that is neither a string nor a JSON object';

/**
 * The pairs the answer stands for: the JWE's payload as form pairs (`vp_token` as its JSON text),
 * or the clear pairs of an error answer.
 *
 * @example const opened = await openSignedAnswer(material.signed, formPairs(body))
 */
export async function openSignedAnswer(
  material: Pick<SignedRequestMaterial, 'publicJwk' | 'privateKey'>,
  pairs: readonly [string, string][],
): Promise<{ pairs: [string, string][] } | { problem: SignedAnswerProblem }> {
  const responses = pairs.filter(([key]) => key === 'response');
  if (
    responses.length === 0 &&
    pairs.some(([key]) => key === 'error') &&
    !pairs.some(([key]) => key.startsWith('vp_token'))
  )
    return { pairs: [...pairs] };
  if (responses.length !== 1 || pairs.length !== 1)
    return { problem: 'a signed request is answered by one response parameter and nothing beside it' };
  const payload = await openSignedRequestAnswer(material, responses[0]![1]);
  if (payload === null)
    return {
      problem: 'the JWE does not open with this request’s key as ECDH-ES and A128GCM or A256GCM, or is not JSON',
    };
  const opened: [string, string][] = [];
  for (const [key, value] of Object.entries(payload)) {
    if (typeof value === 'string') opened.push([key, value]);
    else if (typeof value === 'object' && value !== null) opened.push([key, JSON.stringify(value)]);
    else return { problem: 'the JWE payload holds a parameter that is neither a string nor a JSON object' };
  }
  return { pairs: opened };
}
