/**
 * The verifier's request (design.md §11, §13): the wallet link for a wallet on a phone and the
 * Digital Credentials API requests for a wallet on this device, all bound to one verification
 * request by fresh nonces and a state; and what an answer is read against (the client id, the
 * credentials each path asked). Requests for exactly [isAdult] keep the EU age-verification
 * profile's `av://` link byte for byte; every other wallet request gets an `openid4vp://` link
 * asking for a PID or an mDL.
 *
 * Where the libraries stop (docs/wallets.md#where-the-libraries-stop), the gaps this file covers:
 *
 * 5. @openid4vc/openid4vp's `createOpenid4vpAuthorizationRequest` refuses an http `response_uri`
 *    (unless its process-global `allowInsecureUrls` is set) and reorders the parameters. The
 *    sandbox runs on http://localhost and design.md §11 fixes the order, so this file writes the
 *    link and checks the payload with the library's `validateOpenid4vpAuthorizationRequestPayload`;
 *    the library's parser and resolver read our links back (request.test.ts).
 */
import { type Openid4vpAuthorizationRequest, validateOpenid4vpAuthorizationRequestPayload } from '@openid4vc/openid4vp';
import { randomBytes } from 'node:crypto';
import {
  askedCredentials,
  type CredentialKind,
  credentialsFor,
  dcqlQueryFor,
  type DcqlQuery,
  isAgeVerificationRequest,
  type PresentedCredential,
  vpFormatsSupportedOf,
  type WalletFormats,
  type WalletScope,
} from '../formats/credentials.ts';
import type { DcApiRequest } from '../../../src/protocol/wire.ts';
import type { AccessCertificate } from './access-certificate.ts';
import { createDcRequest, type DcRequest } from './dc-request.ts';
import { createOid4vpDcMaterial, oid4vpDcRequestOf } from './oid4vp-dc-request.ts';
import {
  CLIENT_ID_PREFIX,
  DC_API_PROTOCOL,
  NONCE_BYTES,
  OPENID4VP_LINK_SCHEME,
  RESPONSE_PATH,
  STATE_BYTES,
  WALLET_LINK_SCHEME,
} from '../profile.ts';
import { createSignedDcRequests, signedDcRequestOf } from './signed-dc-request.ts';
import { createSignedRequest, requestUriOf, signedWalletLink } from './request-object.ts';
import type { WalletRequestMaterial } from '../../store/store.ts';

/** What the store keeps for one request, as JSON: everything a response is checked against (store/records.ts). */
export type { WalletRequestMaterial };

/** What the page hands to `navigator.credentials.get({ digital: { requests } })`, in this order. */
export type { DcApiRequest };

export interface WalletRequest {
  /** the `wallet_link` of verify-request */
  walletLink: string;
  /** the `dc_request` of verify-request (org-iso-mdoc, for the widgets that know only it) */
  dcRequest: DcRequest;
  /**
   * the `dc_requests` of verify-request: org-iso-mdoc, then openid4vp-v1-unsigned; signed for the
   * page's origin, openid4vp-v1-signed, org-iso-mdoc with readerAuth, then openid4vp-v1-unsigned
   */
  dcRequests: DcApiRequest[];
  responseUri: string;
  clientId: string;
  nonce: string;
  state: string;
  material: WalletRequestMaterial;
}

/** The request parameters a wallet link carries, in the order design.md §11 writes them. */
export interface WalletLinkParams {
  response_type: 'vp_token';
  response_mode: 'direct_post';
  client_id: string;
  response_uri: string;
  dcql_query: unknown;
  /** unsigned `openid4vp://` links only (design.md §19): the formats asked, nothing else */
  client_metadata?: { vp_formats_supported: Record<string, unknown> };
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

/** The scopes a material asks a wallet to prove: [isAdult] for a v1 material. */
export function scopesOf(material: Pick<WalletRequestMaterial, 'scopes'>): readonly WalletScope[] {
  return material.scopes ?? ['isAdult'];
}

/** The credential formats a material asks (design.md §19): `all` for a material made before them. */
export function formatsOf(material: Pick<WalletRequestMaterial, 'formats'>): WalletFormats {
  return material.formats ?? 'all';
}

/**
 * True when the material's link is the EU age-verification profile's `av://` (exactly [isAdult],
 * mdocs allowed); an SD-JWT-only [isAdult] request gets an `openid4vp://` link (design.md §19).
 */
export function isAvLink(material: Pick<WalletRequestMaterial, 'scopes' | 'formats'>): boolean {
  return isAgeVerificationRequest(scopesOf(material)) && formatsOf(material) !== 'dc+sd-jwt';
}

/**
 * The credentials the wallet link asks for: the proof of age alone for exactly [isAdult] (the
 * age-verification profile), otherwise each credential that proves every scope (PID, then mDL);
 * `formats` then keeps the query ids of its formats (credentials.ts askedCredentials).
 *
 * @example linkCredentials(['isAdult']) // ['av']; ['isAdult', 'isFrench'] → ['pid', 'mdl']
 */
export function linkCredentials(scopes: readonly WalletScope[], formats: WalletFormats = 'all'): CredentialKind[] {
  return isAgeVerificationRequest(scopes) && formats !== 'dc+sd-jwt' ? ['av'] : credentialsFor(scopes);
}

/** The query ids a material's wallet link asks: what its `vp_token` may be keyed by. */
export function linkAskedOf(material: Pick<WalletRequestMaterial, 'scopes' | 'formats'>): PresentedCredential[] {
  const formats = formatsOf(material);
  return askedCredentials(linkCredentials(scopesOf(material), formats), formats);
}

/** The DCQL query of a material's wallet link. */
export function linkQueryOf(material: Pick<WalletRequestMaterial, 'scopes' | 'formats'>): DcqlQuery {
  const scopes = scopesOf(material);
  const formats = formatsOf(material);
  return dcqlQueryFor(linkCredentials(scopes, formats), scopes, formats);
}

/**
 * The OpenID4VP authorization request a material stands for, as @openid4vc/openid4vp types it;
 * an `openid4vp://` link's carries `client_metadata` with `vp_formats_supported` (design.md §19),
 * the `av://` link's is the profile's, unchanged.
 */
export function authorizationRequestOf(
  material: Pick<WalletRequestMaterial, 'responseUri' | 'nonce' | 'state' | 'scopes' | 'formats'>,
): WalletLinkParams {
  const dcqlQuery = linkQueryOf(material);
  return {
    response_type: 'vp_token',
    response_mode: 'direct_post',
    client_id: clientIdOf(material.responseUri),
    response_uri: material.responseUri,
    dcql_query: dcqlQuery,
    ...(isAvLink(material) ? {} : { client_metadata: { vp_formats_supported: vpFormatsSupportedOf(dcqlQuery) } }),
    nonce: material.nonce,
    state: material.state,
  };
}

/**
 * `av://?response_type=…&response_mode=…&client_id=…&response_uri=…&dcql_query=…&nonce=…&state=…`
 * (`openid4vp://?…` with `scheme: 'openid4vp'`), every value percent-encoded (RFC 3986 unreserved
 * characters kept).
 *
 * @example formatWalletLink(authorizationRequestOf(material))
 */
export function formatWalletLink(params: WalletLinkParams, scheme: 'av' | 'openid4vp' = 'av'): string {
  const query = Object.entries(params)
    .map(([key, value]) => `${key}=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`)
    .join('&');
  return `${scheme === 'av' ? WALLET_LINK_SCHEME : OPENID4VP_LINK_SCHEME}?${query}`;
}

/**
 * The wallet link a material stands for: `av://` for exactly [isAdult], `openid4vp://` otherwise,
 * by reference (client_id and request_uri only) when the request is signed (docs/design.md §16).
 *
 * @example const link = walletLinkOf(record.wallet)
 */
export function walletLinkOf(
  material: Pick<WalletRequestMaterial, 'responseUri' | 'nonce' | 'state' | 'scopes' | 'signed' | 'formats'>,
) {
  if (material.signed) return signedWalletLink(material.signed.clientId, requestUriOf(material.responseUri));
  const scheme = isAvLink(material) ? 'av' : 'openid4vp';
  return formatWalletLink(authorizationRequestOf(material), scheme);
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
  let clientMetadata: WalletLinkParams['client_metadata'];
  if (search.has('client_metadata')) {
    try {
      clientMetadata = JSON.parse(one('client_metadata')) as WalletLinkParams['client_metadata'];
    } catch (error) {
      if (error instanceof WalletLinkError) throw error;
      throw new WalletLinkError('client_metadata is not JSON');
    }
  }
  return {
    response_type: 'vp_token',
    response_mode: 'direct_post',
    client_id: clientId,
    response_uri: responseUri,
    dcql_query: dcqlQuery,
    ...(clientMetadata === undefined ? {} : { client_metadata: clientMetadata }),
    nonce: one('nonce'),
    state: one('state'),
  };
}

/**
 * The mdocs the Digital Credentials API requests ask for: each one that proves every scope (for
 * [isAdult] the proof of age, the PID and the mDL alike); none when the request asks `dc+sd-jwt`
 * alone (design.md §19: then no org-iso-mdoc request is offered).
 */
export function dcApiCredentials(material: Pick<WalletRequestMaterial, 'scopes' | 'formats'>): CredentialKind[] {
  return formatsOf(material) === 'dc+sd-jwt' ? [] : credentialsFor(scopesOf(material));
}

/** The query ids the OpenID4VP Digital Credentials API requests ask. */
export function dcApiAskedOf(material: Pick<WalletRequestMaterial, 'scopes' | 'formats'>): PresentedCredential[] {
  return askedCredentials(credentialsFor(scopesOf(material)), formatsOf(material));
}

/** The DCQL query of the OpenID4VP Digital Credentials API requests. */
export function dcApiQueryOf(material: Pick<WalletRequestMaterial, 'scopes' | 'formats'>): DcqlQuery {
  return dcqlQueryFor(credentialsFor(scopesOf(material)), scopesOf(material), formatsOf(material));
}

/**
 * The link and the Digital Credentials API requests a stored material stands for (the same as
 * createWalletRequest answered), e.g. for the phone page. Nothing secret: the public key only.
 * For a page `origin` the requests were signed for (docs/design.md §16): the signed OpenID4VP
 * request first, then Annex C with readerAuth, then the unsigned OpenID4VP request; for any other
 * page, or without a certificate, Annex C then the unsigned OpenID4VP request.
 *
 * @example const { walletLink, dcRequest, dcRequests } = walletRequestOf(record.wallet, appOrigin)
 */
export function walletRequestOf(
  material: WalletRequestMaterial,
  origin?: string,
): Pick<WalletRequest, 'walletLink' | 'dcRequest' | 'dcRequests'> {
  const signed = origin === undefined ? undefined : material.signedDc?.find((entry) => entry.origin === origin);
  const dcRequest: DcRequest = {
    protocol: DC_API_PROTOCOL,
    data: {
      deviceRequest: signed?.deviceRequest ?? material.dc.deviceRequest,
      encryptionInfo: material.dc.encryptionInfo,
    },
  };
  // design.md §19: no org-iso-mdoc request when the request asks the SD-JWT VC PID alone
  const annexC = formatsOf(material) === 'dc+sd-jwt' ? [] : [dcRequest];
  const dcRequests: DcApiRequest[] = signed ? [signedDcRequestOf(signed), ...annexC] : annexC;
  if (material.oid4vpDc) dcRequests.push(oid4vpDcRequestOf(material.oid4vpDc, dcApiQueryOf(material)));
  return { walletLink: walletLinkOf(material), dcRequest, dcRequests };
}

/**
 * A new wallet request for one verification request whose scopes a wallet can prove: link, DC
 * API requests, and the material the store keeps (serialisable as JSON).
 *
 * @example const wallet = await createWalletRequest({ requestId: 'vr_…', apiUrl: config.apiUrl, scopes: ['isFrench'] })
 */
export async function createWalletRequest(input: {
  requestId: string;
  apiUrl: string;
  /** default [isAdult] */
  scopes?: readonly WalletScope[];
  /** the formats asked (design.md §19); default `all` */
  formats?: WalletFormats;
  /** signs the `openid4vp://` request (not the AV profile's `av://`); null or absent: unsigned */
  access?: AccessCertificate | null;
  /** ms since the epoch: the request object's `iat` */
  now?: number;
  /**
   * the pages that will hand the Digital Credentials API requests to the browser, the partner
   * page's origin first (its requests are the ones answered): with `access`, each gets its own
   * signed requests (docs/design.md §16)
   */
  origins?: readonly string[];
}): Promise<WalletRequest> {
  const scopes = [...(input.scopes ?? ['isAdult'])];
  if (scopes.length === 0) throw new Error('a wallet request asks for at least one scope');
  const responseUri = responseUriOf(input.apiUrl, input.requestId);
  const nonce = randomBytes(NONCE_BYTES).toString('base64url');
  const state = randomBytes(STATE_BYTES).toString('base64url');
  const formats = input.formats ?? 'all';
  const narrowed = formats === 'all' ? {} : { formats };
  const params = authorizationRequestOf({ responseUri, nonce, state, scopes, ...narrowed });
  // The library's own request checks (response_mode vs response_uri, one query language, …).
  validateOpenid4vpAuthorizationRequestPayload({ params: params as Openid4vpAuthorizationRequest });
  const dcKinds = credentialsFor(scopes);
  const { material: dc } = await createDcRequest(dcKinds, scopes);
  const material: WalletRequestMaterial = {
    v: 2,
    responseUri,
    nonce,
    state,
    scopes,
    dc,
    oid4vpDc: await createOid4vpDcMaterial(),
    ...narrowed,
  };
  const now = input.now ?? Date.now();
  const { access } = input;
  if (access && !isAvLink(material)) {
    const dcqlQuery = linkQueryOf(material);
    material.signed = await createSignedRequest(access, { responseUri, nonce, state, dcqlQuery }, now);
  }
  const origins = [...new Set(input.origins ?? [])];
  if (access && origins.length > 0) {
    const oid4vpDc = material.oid4vpDc!;
    const dcqlQuery = dcApiQueryOf(material);
    material.signedDc = await Promise.all(
      origins.map((origin) =>
        createSignedDcRequests(access, {
          origin,
          oid4vpDc,
          dcqlQuery,
          encryptionInfo: dc.encryptionInfo,
          kinds: dcKinds,
          scopes,
          now,
        }),
      ),
    );
  }
  const clientId = material.signed?.clientId ?? params.client_id;
  return { ...walletRequestOf(material, origins[0]), responseUri, clientId, nonce, state, material };
}
