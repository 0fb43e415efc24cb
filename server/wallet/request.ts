/**
 * The verifier's request (DESIGN §11): the `av://` link for a wallet on a phone and the Digital
 * Credentials API request for a wallet on this device, both bound to one verification request by
 * a fresh nonce and state; and the SessionTranscripts a presentation must be signed over.
 */
import { type Openid4vpAuthorizationRequest, validateOpenid4vpAuthorizationRequestPayload } from '@openid4vc/openid4vp';
import { SessionTranscript } from '@owf/mdoc';
import { randomBytes } from 'node:crypto';
import { createDcRequest, type DcRequest, type DcRequestMaterial } from './dc-api.ts';
import { mdocContext } from './mdoc-context.ts';
import {
  AV_DCQL_QUERY,
  CLIENT_ID_PREFIX,
  NONCE_BYTES,
  RESPONSE_PATH,
  STATE_BYTES,
  WALLET_LINK_SCHEME,
  DC_API_PROTOCOL,
} from './profile.ts';

/**
 * What the store keeps for one request, as JSON: everything a response is checked against.
 * `dc.recipientPrivateKey` is secret; nonce and state travel in the link anyway.
 */
export interface WalletRequestMaterial {
  v: 1;
  responseUri: string;
  nonce: string;
  state: string;
  dc: DcRequestMaterial;
}

export interface WalletRequest {
  /** the `wallet_link` of verify-request */
  walletLink: string;
  /** the `dc_request` of verify-request */
  dcRequest: DcRequest;
  responseUri: string;
  clientId: string;
  nonce: string;
  state: string;
  material: WalletRequestMaterial;
}

/** The request parameters an `av://` link carries, in the order DESIGN §11 writes them. */
export interface WalletLinkParams {
  response_type: 'vp_token';
  response_mode: 'direct_post';
  client_id: string;
  response_uri: string;
  dcql_query: unknown;
  nonce: string;
  state: string;
}

export class WalletLinkError extends Error {
  override name = 'WalletLinkError';
}

const REQUEST_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The client identifier of a response_uri under the `redirect_uri` prefix. */
export function clientIdOf(responseUri: string): string {
  return CLIENT_ID_PREFIX + responseUri;
}

/** `{api_url}/oid4vp/response/<request_id>` */
export function responseUriOf(apiUrl: string, requestId: string): string {
  if (!REQUEST_ID.test(requestId)) throw new Error('requestId must be 1-128 URL-safe characters');
  const base = new URL(apiUrl);
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new Error('apiUrl must be an http(s) URL');
  return apiUrl.replace(/\/+$/, '') + RESPONSE_PATH + requestId;
}

/** The OpenID4VP authorization request a material stands for, as @openid4vc/openid4vp types it. */
export function authorizationRequestOf(
  material: Pick<WalletRequestMaterial, 'responseUri' | 'nonce' | 'state'>,
): WalletLinkParams {
  return {
    response_type: 'vp_token',
    response_mode: 'direct_post',
    client_id: clientIdOf(material.responseUri),
    response_uri: material.responseUri,
    dcql_query: AV_DCQL_QUERY,
    nonce: material.nonce,
    state: material.state,
  };
}

/**
 * `av://?response_type=…&response_mode=…&client_id=…&response_uri=…&dcql_query=…&nonce=…&state=…`,
 * every value percent-encoded (RFC 3986 unreserved characters kept).
 *
 * @example formatWalletLink(authorizationRequestOf(material))
 */
export function formatWalletLink(params: WalletLinkParams): string {
  const query = Object.entries(params)
    .map(([key, value]) => `${key}=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`)
    .join('&');
  return `${WALLET_LINK_SCHEME}?${query}`;
}

/**
 * Reads a wallet link the way a wallet of this profile must (the sandbox wallet and the CLI use
 * it): each parameter once, `vp_token` by `direct_post`, client id `redirect_uri:<response_uri>`.
 * Throws WalletLinkError naming what is wrong.
 *
 * @example const { response_uri, nonce } = parseWalletLink('av://?response_type=vp_token&…')
 */
export function parseWalletLink(link: string): WalletLinkParams {
  const match = /^(av|openid4vp):\/\/[^?#]*\?([^#]*)$/.exec(link.trim());
  if (!match) throw new WalletLinkError('not an av:// or openid4vp:// link with a query');
  const search = new URLSearchParams(match[2]);
  const one = (name: string): string => {
    const values = search.getAll(name);
    if (values.length !== 1 || !values[0]) throw new WalletLinkError(`${name} must appear exactly once`);
    return values[0];
  };
  if (one('response_type') !== 'vp_token') throw new WalletLinkError('response_type must be vp_token');
  if (one('response_mode') !== 'direct_post') throw new WalletLinkError('response_mode must be direct_post');
  const responseUri = one('response_uri');
  if (!/^https?:\/\//.test(responseUri)) throw new WalletLinkError('response_uri must be an http(s) URL');
  const clientId = one('client_id');
  if (clientId !== clientIdOf(responseUri)) throw new WalletLinkError('client_id must be redirect_uri:<response_uri>');
  let dcqlQuery: unknown;
  try {
    dcqlQuery = JSON.parse(one('dcql_query'));
  } catch (error) {
    if (error instanceof WalletLinkError) throw error;
    throw new WalletLinkError('dcql_query is not JSON');
  }
  return {
    response_type: 'vp_token',
    response_mode: 'direct_post',
    client_id: clientId,
    response_uri: responseUri,
    dcql_query: dcqlQuery,
    nonce: one('nonce'),
    state: one('state'),
  };
}

/**
 * The link and the Digital Credentials API request a stored material stands for (the same as
 * createWalletRequest answered), e.g. for the phone page.
 *
 * @example const { walletLink, dcRequest } = walletRequestOf(record.wallet)
 */
export function walletRequestOf(material: WalletRequestMaterial): Pick<WalletRequest, 'walletLink' | 'dcRequest'> {
  return {
    walletLink: formatWalletLink(authorizationRequestOf(material)),
    dcRequest: {
      protocol: DC_API_PROTOCOL,
      data: { deviceRequest: material.dc.deviceRequest, encryptionInfo: material.dc.encryptionInfo },
    },
  };
}

/**
 * A new wallet request for one verification request: link, DC API request, and the material the
 * store keeps (serialisable as JSON).
 *
 * @example const wallet = await createWalletRequest({ requestId: 'vr_…', apiUrl: config.apiUrl })
 */
export async function createWalletRequest(input: { requestId: string; apiUrl: string }): Promise<WalletRequest> {
  const responseUri = responseUriOf(input.apiUrl, input.requestId);
  const nonce = randomBytes(NONCE_BYTES).toString('base64url');
  const state = randomBytes(STATE_BYTES).toString('base64url');
  const params = authorizationRequestOf({ responseUri, nonce, state });
  // The library's own request checks (response_mode vs response_uri, one query language, …).
  validateOpenid4vpAuthorizationRequestPayload({ params: params as Openid4vpAuthorizationRequest });
  const { dcRequest, material: dc } = await createDcRequest();
  return {
    walletLink: formatWalletLink(params),
    dcRequest,
    responseUri,
    clientId: params.client_id,
    nonce,
    state,
    material: { v: 1, responseUri, nonce, state, dc },
  };
}

/**
 * The OpenID4VP 1.0 SessionTranscript (§B.2.6.1): `[null, null, ["OpenID4VPHandover",
 * SHA-256(CBOR([client_id, nonce, jwkThumbprint, response_uri]))]]`; jwkThumbprint is null for
 * an unencrypted `direct_post` response.
 *
 * @example const transcript = await createOid4VpSessionTranscript({ responseUri, nonce })
 */
export function createOid4VpSessionTranscript(input: {
  responseUri: string;
  nonce: string;
  clientId?: string;
  jwkThumbprint?: Uint8Array;
}): Promise<SessionTranscript> {
  return SessionTranscript.forOid4Vp(
    {
      clientId: input.clientId ?? clientIdOf(input.responseUri),
      nonce: input.nonce,
      responseUri: input.responseUri,
      ...(input.jwkThumbprint ? { jwkThumbprint: input.jwkThumbprint } : {}),
    },
    mdocContext,
  );
}
