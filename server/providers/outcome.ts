/**
 * What a failed login means for the verification request (design.md §12), from what openid-client
 * threw. Two kinds:
 *
 * - `refused`: the callback or the provider's answer fails a check: it may be forged, replayed or
 *   mixed up with another provider's, so the request is left untouched (the visitor may still
 *   finish it). A wrong state or iss, a code the token endpoint rejects (`invalid_grant`: used,
 *   expired, another client's), an ID token whose signature, key, iss, aud, nonce or times fail,
 *   a userinfo answer about another subject, any well-formed answer that is not what the protocol
 *   says, an answer over 1 MB (capped-fetch.ts).
 * - `failed`: the request ends. `cancelled` when the person declined (`error=access_denied`);
 *   `claims_missing` when a needed claim is absent; `provider_error` when the provider cannot be
 *   reached or answers with an error or with bytes that are not an OAuth answer at all (HTTP
 *   status, content type, JSON), or with a claim value the facts rule cannot read.
 *
 * `code` is log-safe: built from our own vocabulary and the names of standard errors and claims,
 * never from a value the provider or the browser chose.
 */
import * as client from 'openid-client';
import { ResponseTooLargeError } from './capped-fetch.ts';

export type LoginFailure =
  | { outcome: 'failed'; reason: 'cancelled' | 'claims_missing' | 'provider_error'; code: string }
  | { outcome: 'refused'; code: string };

/** RFC 6749 §4.1.2.1 and OpenID Connect Core §3.1.2.6 error codes: the ones a code may name. */
const AUTHORIZATION_ERRORS = new Set([
  'invalid_request',
  'unauthorized_client',
  'unsupported_response_type',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
  'interaction_required',
  'login_required',
  'account_selection_required',
  'consent_required',
  'invalid_request_uri',
  'invalid_request_object',
  'request_not_supported',
  'request_uri_not_supported',
  'registration_not_supported',
]);

/** The JWT claims oauth4webapi names when a comparison or a time check fails. */
const CHECKED_CLAIMS = new Set(['iss', 'aud', 'azp', 'nonce', 'exp', 'iat', 'nbf', 'auth_time', 'c_hash', 's_hash']);

/** Error codes of oauth4webapi, which openid-client passes on as ClientError.code. */
const NOT_AN_ANSWER = new Set(['OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON', 'OAUTH_PARSE_ERROR']);

export const failed = (reason: 'cancelled' | 'claims_missing' | 'provider_error', code: string): LoginFailure => ({
  outcome: 'failed',
  reason,
  code,
});
export const refused = (code: string): LoginFailure => ({ outcome: 'refused', code });

/** The claim a failed ID token check names (openid-client: ClientError → cause → cause.claim). */
function checkedClaim(error: client.ClientError): string {
  const inner = error.cause as { cause?: { claim?: unknown } } | undefined;
  const claim = inner?.cause?.claim;
  return typeof claim === 'string' && CHECKED_CLAIMS.has(claim) ? claim : 'claims';
}

function isNetworkError(error: unknown): boolean {
  // fetch: TypeError('fetch failed'), passed on as is; a timeout: ClientError OAUTH_TIMEOUT
  return (
    (error instanceof TypeError && error.message === 'fetch failed') ||
    (error instanceof client.ClientError && (error.code === 'OAUTH_TIMEOUT' || error.code === 'OAUTH_ABORT'))
  );
}

/**
 * The outcome for an error openid-client threw while finishing a login.
 *
 * @example classifyError(new client.AuthorizationResponseError(…access_denied…)) // { outcome: 'failed', reason: 'cancelled', … }
 */
export function classifyError(error: unknown): LoginFailure {
  // openid-client wraps what fetch threw: ClientError('something went wrong', { cause })
  if (error instanceof ResponseTooLargeError || (error as { cause?: unknown })?.cause instanceof ResponseTooLargeError)
    return refused('answer_too_large');
  if (error instanceof client.AuthorizationResponseError) {
    if (error.error === 'access_denied') return failed('cancelled', 'access_denied');
    return failed('provider_error', AUTHORIZATION_ERRORS.has(error.error) ? error.error : 'authorization_error');
  }
  if (error instanceof client.ResponseBodyError) {
    return error.error === 'invalid_grant' ? refused('code_rejected') : failed('provider_error', 'endpoint_error');
  }
  if (error instanceof client.WWWAuthenticateChallengeError) return failed('provider_error', 'endpoint_error');
  if (isNetworkError(error)) return failed('provider_error', 'unreachable');
  if (error instanceof client.ClientError) {
    const code = error.code ?? '';
    if (NOT_AN_ANSWER.has(code)) return failed('provider_error', 'answer_malformed');
    switch (code) {
      case 'OAUTH_JWT_CLAIM_COMPARISON_FAILED':
      case 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED':
        return refused(`id_token_${checkedClaim(error)}`);
      case 'OAUTH_KEY_SELECTION_FAILED':
        return refused('id_token_key_unknown');
      case 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED':
        return refused('userinfo_subject_mismatch');
      case 'OAUTH_INVALID_RESPONSE':
        return refused('answer_invalid');
    }
  }
  return failed('provider_error', 'unexpected');
}
