/**
 * The widget's side of a private attestation (docs/adult-blind.md#private-attestations), in Node, with
 * @cloudflare/privacypass-ts as the widget uses it: build the TokenChallenge, blind a token
 * request for the key of the proven scope mask, post it, finalise. For tests only.
 *
 * @example const issued = await issuePrivateToken(t, flow); // issued.attestation = "<token>.<metadata>"
 */
import { randomBytes } from 'node:crypto';
import { publicVerif, TokenChallenge, TOKEN_TYPES, type Token } from '@cloudflare/privacypass-ts';
import type { LightMyRequestResponse } from 'fastify';
import type { PrivateAttestationKeySet } from '../crypto/private-attestation.ts';
import type { TestApp } from './helpers.ts';
import type { Flow } from './verify-flow.ts';

const { Client, BlindRSAMode, TokenResponse } = publicVerif;

export async function fetchPrivateKeySet(t: Pick<TestApp, 'app'>): Promise<PrivateAttestationKeySet> {
  const res = await t.app.inject({ method: 'GET', url: '/api/billing/private-attestation-keys' });
  if (res.statusCode !== 200) throw new Error(`keys: ${res.statusCode} ${res.body}`);
  return res.json() as PrivateAttestationKeySet;
}

export function postTokenRequest(
  t: Pick<TestApp, 'app'>,
  flow: Pick<Flow, 'requestId' | 'pollToken'>,
  tokenRequest: Uint8Array | string,
  pollToken = flow.pollToken,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: `/api/w/private-attestation/${flow.requestId}?pt=${encodeURIComponent(pollToken)}`,
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    payload: JSON.stringify({
      token_request: typeof tokenRequest === 'string' ? tokenRequest : Buffer.from(tokenRequest).toString('base64url'),
    }),
  });
}

export interface IssuedPrivateToken {
  /** what the widget puts in the fragment: `<base64url token>.<base64url metadata>` */
  attestation: string;
  token: Token;
  redemptionContext: Uint8Array;
  /** the serialized TokenRequest the service saw */
  tokenRequest: Uint8Array;
  keySet: PrivateAttestationKeySet;
}

/** A TokenRequest for the current key of `scopeMask`, and the client that finalises it. */
export async function blindTokenRequest(
  keySet: PrivateAttestationKeySet,
  scopeMask: number,
  redemptionContext: Uint8Array,
) {
  const key = keySet.keys.find((k) => k.state === 'current' && k.scope_mask === scopeMask);
  if (!key) throw new Error(`no current key for scope mask ${scopeMask}`);
  const challenge = new TokenChallenge(TOKEN_TYPES.BLIND_RSA.value, keySet.issuer_name, redemptionContext, []);
  const client = new Client(BlindRSAMode.PSS);
  const request = await client.createTokenRequest(challenge, new Uint8Array(Buffer.from(key.public_key, 'base64url')));
  return { client, key, tokenRequest: request.serialize() };
}

/** The whole widget side for a completed private request whose facts give `scopeMask`. */
export async function issuePrivateToken(
  t: Pick<TestApp, 'app'>,
  flow: Pick<Flow, 'requestId' | 'pollToken'>,
  options: { scopeMask?: number; redemptionContext?: Uint8Array; keySet?: PrivateAttestationKeySet } = {},
): Promise<IssuedPrivateToken> {
  const keySet = options.keySet ?? (await fetchPrivateKeySet(t));
  const redemptionContext = options.redemptionContext ?? new Uint8Array(randomBytes(32));
  const { client, key, tokenRequest } = await blindTokenRequest(keySet, options.scopeMask ?? 1, redemptionContext);
  const res = await postTokenRequest(t, flow, tokenRequest);
  if (res.statusCode !== 200) throw new Error(`issue: ${res.statusCode} ${res.body}`);
  const blindSig = Buffer.from((res.json() as { token_response: string }).token_response, 'base64url');
  const token = await client.finalize(new TokenResponse(new Uint8Array(blindSig)));
  const metadata = Buffer.from(JSON.stringify({ scope_mask: key.scope_mask, epoch: key.epoch })).toString('base64url');
  return {
    attestation: `${Buffer.from(token.serialize()).toString('base64url')}.${metadata}`,
    token,
    redemptionContext,
    tokenRequest,
    keySet,
  };
}
