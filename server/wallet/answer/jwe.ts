/**
 * The answer to a signed request (docs/design.md §16; OpenID4VP 1.0 §8.3.1, `direct_post.jwt`):
 * the form holds one `response`, a JWE to the request's answer key (signed-request.ts) whose
 * payload holds the answer's parameters (`vp_token`, `state`). Opened here into the form pairs
 * the `direct_post` checks read (verify.ts), so every check after it is the unsigned path's. An
 * error (`error`, `state`, no `response`) may come in the clear: the wallet may have no key to
 * encrypt to when it refuses the request.
 */
import { openSignedRequestAnswer, type SignedRequestMaterial } from '../request/request-object.ts';

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
