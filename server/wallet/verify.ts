/**
 * Checks a wallet's answer (design.md §11, §13), each failure named by the check that refused it:
 *
 *   request_expired, request_not_waiting → state → (error → cancelled) → vp_token (one
 *   presentation, keyed by the id of a credential the request asked for) → device_response →
 *   doctype (the document's and the MSO's: the one of that id) → trust_chain,
 *   certificate_validity (the path and the DS profile, trust/chain.ts) → device_auth (ours: a
 *   detached device signature, formats/device-auth.ts) → issuer_signature, mso_validity, digests,
 *   device_auth (by @owf/mdoc) → mso_validity (ours: the window's order and the signing date,
 *   formats/mso-validity.ts) → device_auth (ours: over this request's transcript) → elements (each
 *   requested element once and of its type; isAdult from age_over_18, else from birth_date at
 *   `now`, the two agreeing when both are disclosed: formats/credentials.ts, formats/full-date.ts) → status (the
 *   MSO's `status.status_list`, trust/status-list.ts)
 *
 * The SD-JWT VC PID (`pid_sd`, design.md §15) goes from vp_token to formats/sd-jwt.ts's verifyPidSdJwt:
 * sd_jwt (the compact form), issuer_signature, trust_chain, certificate_validity, doctype (`typ`,
 * `vct`), mso_validity (iat/nbf/exp), digests, key_binding (the KB-JWT's `nonce`; its `aud` the
 * client id over the link, `origin:<page origin>` over the DC API; `iat`; `sd_hash`), elements →
 * status (its `status.status_list`).
 *
 * Each answer path has one entry here and one file in answer/: verifyWalletResponse →
 * answer/direct-post.ts, verifyDcApiResponse → answer/dc-api.ts; both hand the one presentation to
 * answer/presentation.ts, whose checks are formats/'s (mdoc, SD-JWT) and trust/'s (chains, status
 * lists). This file checks the request's own state (expiry, still waiting) and nothing else.
 *
 * The verdict carries the facts the requested elements prove (rules/facts.ts); an element the
 * wallet did not disclose leaves its fact out, for the caller to fail the request (claims_missing).
 * Elements not requested are never read. The DC API answer skips state and starts with
 * dc_response: org-iso-mdoc opens with HPKE (answer/hpke.ts), openid4vp-v1-unsigned and -signed
 * with jose's JWE decryption (answer/jwe.ts), whose vp_token is then read as the direct_post's.
 * Nothing here logs or returns credential contents: `detail` is a phrase of ours from a closed set
 * (`RefusalDetail`), never a value and never a library's text, which can quote the credential's
 * namespace and element names (docs/wallets.md#what-leaves-the-verifier).
 * Single use is the store's: the route completes the request with a compare-and-set, so a second
 * post finds it no longer waiting.
 */
import { type FormBody, verifyDirectPost } from './answer/direct-post.ts';
import { verifyDcApiAnswer } from './answer/dc-api.ts';
import type { AnswerInput } from './answer/presentation.ts';
import { refuse, type WalletVerdict } from './answer/verdict.ts';

/** What the route knows about the verification request this answer is for. */
export interface RequestView {
  /** status is still waiting (not approved, failed, cancelled or already answered) */
  waiting: boolean;
  /** ms since the epoch */
  expiresAt: number;
}

interface CommonInput extends AnswerInput {
  request: RequestView;
}

function checkRequest(request: RequestView, now: number): WalletVerdict | null {
  if (now >= request.expiresAt) return refuse('request_expired', 'now is past the request expiry');
  if (!request.waiting) return refuse('request_not_waiting', 'the request was already answered or ended');
  return null;
}

/**
 * Checks a wallet's `direct_post` to `POST /oid4vp/response/<request_id>`.
 *
 * @example
 * const verdict = await verifyWalletResponse({ body: rawFormBody, material, trust, request: { waiting, expiresAt }, now: clock.now() })
 * if (verdict.status === 'verified') completeRequest(verdict.facts)
 */
export async function verifyWalletResponse(input: CommonInput & { body: FormBody }): Promise<WalletVerdict> {
  return checkRequest(input.request, input.now) ?? verifyDirectPost(input);
}

/**
 * Checks what `navigator.credentials.get` gave the page (posted to
 * `POST /api/w/wallet-response/<request_id>`), bound to the page's origin: an org-iso-mdoc answer
 * through its HPKE envelope and `dcapi` transcript, an openid4vp-v1-unsigned one through its
 * OpenID4VPDCAPIHandover transcript.
 *
 * @example const verdict = await verifyDcApiResponse({ credential: JSON.parse(body), origin, material, trust, request, now })
 */
export async function verifyDcApiResponse(
  input: CommonInput & { credential: unknown; origin: string },
): Promise<WalletVerdict> {
  return checkRequest(input.request, input.now) ?? verifyDcApiAnswer(input);
}
