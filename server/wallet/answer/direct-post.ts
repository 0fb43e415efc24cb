/**
 * The answer over the wallet link: a form posted to `POST /oid4vp/response/<request_id>`
 * (OpenID4VP 1.0 `direct_post`; `direct_post.jwt` to a signed request, opened by jwe.ts first):
 * state → (error → cancelled) → vp_token (one presentation, keyed by the id of a credential the
 * link asked for) → the presentation (presentation.ts) over the OpenID4VP handover transcript, or
 * the SD-JWT VC PID's KB-JWT bound to the request's nonce and client id.
 */
import { type Openid4vpAuthorizationRequest, parseOpenid4vpAuthorizationResponse } from '@openid4vc/openid4vp';
import { createHash, timingSafeEqual } from 'node:crypto';
import { createOid4VpSessionTranscript, jwkThumbprintBytes } from '../formats/session-transcript.ts';
import {
  authorizationRequestOf,
  clientIdOf,
  linkAskedOf,
  scopesOf,
  type WalletRequestMaterial,
} from '../request/wallet-request.ts';
import { openSignedAnswer } from './jwe.ts';
import { type AnswerInput, type KeyedPresentation, onePresentation, verifyPresentation } from './presentation.ts';
import { refuse, type WalletVerdict } from './verdict.ts';

/** The posted form as the route read it. */
export type FormBody = string | URLSearchParams | Readonly<Record<string, string | readonly string[] | undefined>>;

function formPairs(body: FormBody): [string, string][] {
  if (typeof body === 'string') return [...new URLSearchParams(body)];
  if (body instanceof URLSearchParams) return [...body];
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === 'string') pairs.push([key, value]);
    else if (Array.isArray(value)) for (const item of value) pairs.push([key, String(item)]);
  }
  return pairs;
}

function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

const BRACKET_KEY = /^vp_token\[([A-Za-z0-9_-]{1,64})\](?:\[(\d{0,3})\])?$/;
const PROTOTYPE_KEY = /^(?:__proto__|constructor|prototype)$/;

/**
 * `vp_token` as one JSON string, or as `vp_token[<id>]=…` keys; null when absent, mixed or
 * malformed, or when an id is `__proto__`, `constructor` or `prototype` (design.md §11: the ids key an
 * own-property map, never an object's prototype).
 */
function readVpToken(pairs: readonly [string, string][]): unknown {
  const plain = pairs.filter(([key]) => key === 'vp_token');
  const bracketed = pairs.filter(([key]) => key.startsWith('vp_token['));
  if (plain.length > 0 && bracketed.length > 0) return null;
  if (plain.length === 1) return plain[0]![1];
  if (plain.length > 1 || bracketed.length === 0) return null;
  const token = new Map<string, string[]>();
  for (const [key, value] of bracketed) {
    const match = BRACKET_KEY.exec(key);
    const id = match?.[1];
    if (id === undefined || PROTOTYPE_KEY.test(id)) return null;
    token.set(id, [...(token.get(id) ?? []), value]);
  }
  return Object.fromEntries(token);
}

const NO_JWT_CALLBACKS = {
  decryptJwe: () => Promise.reject(new Error('direct_post responses are not encrypted')),
  verifyJwt: () => Promise.reject(new Error('direct_post responses are not signed')),
};

/** The one presentation of the link's DCQL query, parsed by @openid4vc/openid4vp. */
async function readPresentation(
  vpToken: unknown,
  state: string,
  material: WalletRequestMaterial,
): Promise<KeyedPresentation | null> {
  try {
    const parsed = await parseOpenid4vpAuthorizationResponse({
      authorizationResponse: { vp_token: vpToken, state },
      authorizationRequestPayload: authorizationRequestOf(material) as Openid4vpAuthorizationRequest,
      callbacks: NO_JWT_CALLBACKS as never,
    });
    if (parsed.type !== 'dcql') return null;
    return onePresentation(parsed.dcql.presentations, linkAskedOf(material));
  } catch {
    return null;
  }
}

/**
 * Checks a wallet's `direct_post` (the request's expiry and state are the caller's: verify.ts).
 *
 * @example const verdict = await verifyDirectPost({ body: rawFormBody, material, trust, now })
 */
export async function verifyDirectPost(input: AnswerInput & { body: FormBody }): Promise<WalletVerdict> {
  let pairs = formPairs(input.body);
  const { signed } = input.material;
  if (signed) {
    // docs/design.md §16: a signed request's answer is a JWE (an error may come in the clear).
    const opened = await openSignedAnswer(signed, pairs);
    if ('problem' in opened) return refuse('response', opened.problem);
    pairs = opened.pairs;
  }
  const states = pairs.filter(([key]) => key === 'state');
  if (states.length !== 1 || !sameSecret(states[0]![1], input.material.state))
    return refuse('state', 'state is missing, repeated or different');

  const errors = pairs.filter(([key]) => key === 'error');
  if (errors.length > 0) {
    if (errors.length > 1 || pairs.some(([key]) => key.startsWith('vp_token')))
      return refuse('vp_token', 'an error response must carry no vp_token');
    const code = errors[0]![1];
    return { status: 'cancelled', error: /^[A-Za-z0-9_.-]{1,64}$/.test(code) ? code : 'invalid_error_code' };
  }

  const vpToken = readVpToken(pairs);
  const keyed = vpToken === null ? null : await readPresentation(vpToken, input.material.state, input.material);
  if (keyed === null)
    return refuse('vp_token', 'vp_token is missing, mixed, or not one presentation of a requested credential');
  const { material } = input;
  return verifyPresentation(keyed, {
    trust: input.trust,
    now: input.now,
    status: input.status,
    scopes: scopesOf(material),
    nonce: material.nonce,
    // the client id the wallet saw: x509_hash:… for a signed request (docs/design.md §16)
    audience: signed ? signed.clientId : clientIdOf(material.responseUri),
    transcript: async () =>
      createOid4VpSessionTranscript({
        responseUri: material.responseUri,
        nonce: material.nonce,
        ...(signed ? { clientId: signed.clientId, jwkThumbprint: await jwkThumbprintBytes(signed.publicJwk) } : {}),
      }),
  });
}
