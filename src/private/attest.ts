/**
 * The widget's side of a private attestation (docs/adult-blind.md#private-attestations, design.md
 * §18), in the browser with WebCrypto: fetch the key set, take the current key of the proven scope
 * mask, build the TokenChallenge with the page's redemption context, blind a token request, have
 * the service sign it once, finalise the token. The service sees only the blinded message.
 * server/test/private-client.ts does the same in Node for the service's tests.
 */
// The module itself, not the package's index: the index carries the privately verifiable
// tokens too (voprf-ts), which would double the chunk.
import { BlindRSAMode, Client, TokenResponse } from '@cloudflare/privacypass-ts/lib/src/pub_verif_token.js';
import { TokenChallenge } from '@cloudflare/privacypass-ts/lib/src/auth_scheme/private_token.js';
import { BLIND_RSA_TOKEN_TYPE } from '@cloudflare/privacypass-ts/lib/src/token_types.js';
import type { ErrorCode } from '../protocol/errors.ts';

/** Why no token was made: the catalogue code (the service's own when it refused), and a short reason. */
export class AttestationFailure extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export interface PrivateRequest {
  /** the service's origin (the chunk's own) */
  apiOrigin: string;
  requestId: string;
  pollToken: string;
  /** the facts proven, as the status answer gave them */
  scopeMask: number;
  /** `data-redemption-context`: 32 bytes, base64url */
  redemptionContext: string;
}

interface KeySet {
  issuer_name: string;
  keys: Array<{ token_key_id: string; public_key: string; scope_mask: number; epoch: string; state: string }>;
}

/** base64url (no padding) → bytes. */
export function fromBase64url(text: string): Uint8Array {
  return Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
}

/** bytes → base64url without padding. */
export function toBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * JSON from the service, or the failure its answer names (`{error: "<code>", message}`; a
 * network error or no code: SERVICE_UNAVAILABLE). `what` names the call in the message: never
 * the address, which holds the poll token.
 */
async function call<T>(doFetch: typeof fetch, what: string, url: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await doFetch(url, { credentials: 'omit', ...init });
  } catch {
    throw new AttestationFailure('SERVICE_UNAVAILABLE', `${what}: network error`);
  }
  const body = (await response.json().catch(() => null)) as (T & { error?: ErrorCode }) | null;
  if (response.ok && body) return body;
  throw new AttestationFailure(body?.error ?? 'SERVICE_UNAVAILABLE', `${what}: ${response.status}`);
}

/**
 * Makes the private attestation of a completed request: `<base64url token>.<base64url metadata>`,
 * what the SDK's verifyPrivateAttestation checks. Rejects with an {@link AttestationFailure}.
 *
 * @example
 * const attestation = await attestPrivately({ apiOrigin, requestId, pollToken, scopeMask: 1, redemptionContext });
 */
export async function attestPrivately(request: PrivateRequest, doFetch: typeof fetch = fetch): Promise<string> {
  const context = fromBase64url(request.redemptionContext);
  if (context.length !== 32) throw new AttestationFailure('INIT_FAILED', 'data-redemption-context invalid');
  const keySet = await call<KeySet>(doFetch, 'keys', `${request.apiOrigin}/api/billing/private-attestation-keys`);
  const key = keySet.keys.find((k) => k.state === 'current' && k.scope_mask === request.scopeMask);
  if (!key)
    throw new AttestationFailure('ATTESTATION_NOT_ISSUABLE', `no current key for scope mask ${request.scopeMask}`);
  const challenge = new TokenChallenge(BLIND_RSA_TOKEN_TYPE.value, keySet.issuer_name, context, []);
  const client = new Client(BlindRSAMode.PSS);
  const tokenRequest = await client.createTokenRequest(challenge, fromBase64url(key.public_key));
  const signed = await call<{ token_response: string }>(
    doFetch,
    'signing',
    `${request.apiOrigin}/api/w/private-attestation/${encodeURIComponent(request.requestId)}?pt=${encodeURIComponent(request.pollToken)}`,
    // a string body goes as text/plain: no CORS preflight, as every /api/w call (design.md §3)
    { method: 'POST', body: JSON.stringify({ token_request: toBase64url(tokenRequest.serialize()) }) },
  );
  let token;
  try {
    token = await client.finalize(new TokenResponse(fromBase64url(signed.token_response)));
  } catch {
    // the signature does not verify under the published key: nothing to deliver
    throw new AttestationFailure('ATTESTATION_NOT_ISSUABLE', 'the signature does not verify');
  }
  const metadata = new TextEncoder().encode(JSON.stringify({ scope_mask: key.scope_mask, epoch: key.epoch }));
  return `${toBase64url(token.serialize())}.${toBase64url(metadata)}`;
}
