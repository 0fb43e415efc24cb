/**
 * The OpenAPI description of the phone routes production serves (design.md §4, §12): open, an
 * identity provider's start, and the providers' callback. The handlers read the body themselves
 * (http/body.ts), so these schemas only document the routes and shape the answers (Ajv validates
 * nothing, http/route-policy.ts). The sandbox's persona picker stays undocumented.
 */
import { LOCALES } from '../../src/protocol/wire.ts';
import { TOO_MANY_REQUESTS } from '../../src/protocol/errors.ts';
import { SCOPES } from '../../src/protocol/scopes.ts';
import { errorResponses } from './docs.ts';
import { dcRequestSchema, dcRequestsSchema } from './verify-request-schemas.ts';

const handoffBody = {
  type: 'object',
  required: ['h'],
  properties: { h: { type: 'string', description: 'the handoff token from the deep link’s fragment `#h=`' } },
} as const;

const requestIdParam = {
  type: 'object',
  properties: { requestId: { type: 'string', description: 'the verification request id (`vr_…`)' } },
} as const;

/** POST /api/m/requests/{requestId}/done (design.md §19) */
export const phoneDoneSchema = {
  tags: ['phone'],
  summary: 'The done view a wallet sent the visitor back to redeems its response_code',
  description:
    'Posted by the phone page at `/m/v/{requestId}/done#response_code=…` (the `redirect_uri` a wallet’s post was ' +
    'answered with). Single use: the right code answers the request’s status and language once; a missing, forged, ' +
    'used or other request’s code answers 404 and changes nothing.',
  params: requestIdParam,
  body: {
    type: 'object',
    required: ['response_code'],
    properties: { response_code: { type: 'string', description: '43 base64url characters' } },
  },
  response: {
    200: {
      type: 'object',
      required: ['status', 'locale'],
      properties: {
        status: { type: 'string', enum: ['pending', 'in_progress', 'completed', 'failed', 'expired'] },
        locale: { type: 'string', enum: [...LOCALES] },
      },
    },
    ...errorResponses(['INVALID_REQUEST', 'NOT_FOUND', TOO_MANY_REQUESTS]),
  },
} as const;

/** POST /api/m/requests/{requestId}/open */
export const phoneOpenSchema = {
  tags: ['phone'],
  summary: 'Open a request on the phone: what is asked, by whom, and the ways to prove it',
  description:
    'Moves a pending request to `in_progress` (idempotent). On ADULT_BLIND requests `audience_label` is the blind ' +
    'app, never the partner. `methods` lists, in order: the EUDI wallet on this phone (when offered), each enabled ' +
    'identity provider that proves every scope, and in sandbox the persona picker.',
  params: requestIdParam,
  body: handoffBody,
  response: {
    200: {
      type: 'object',
      required: ['scopes', 'rail', 'client_proof_mode', 'audience_label', 'locale', 'expires_at', 'status', 'methods'],
      properties: {
        scopes: { type: 'array', items: { type: 'string', enum: [...SCOPES] } },
        rail: { type: 'string', enum: ['standard', 'adult_blind'] },
        client_proof_mode: { type: 'boolean' },
        audience_label: { type: 'string', description: 'who asks: the partner’s name, or the blind app' },
        locale: {
          type: 'string',
          enum: [...LOCALES],
          description: 'the language the request was made in (the widget’s): the page speaks it',
        },
        expires_at: { type: 'number', description: 'ms since the Unix epoch' },
        status: { type: 'string', enum: ['pending', 'in_progress', 'completed', 'failed', 'expired'] },
        reason: {
          type: 'string',
          enum: ['failed', 'cancelled', 'claims_missing', 'provider_error'],
          description: 'a failed request: why',
        },
        sandbox: { type: 'boolean', description: 'the service runs in sandbox mode (the page shows a test mark)' },
        methods: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id'],
            properties: {
              id: { type: 'string', description: '`eudi_wallet`, an identity provider’s `idp_…`, or `sandbox`' },
              name: { type: 'string', description: 'identity provider: shown to the visitor' },
              method: { type: 'string', description: 'identity provider: the verification_method it yields' },
              wallet_link: { type: 'string', description: 'EUDI wallet: the OpenID4VP request link' },
              dc_request: { ...dcRequestSchema, description: 'EUDI wallet: the org-iso-mdoc request alone' },
              dc_requests: { ...dcRequestsSchema, description: 'EUDI wallet: for the Digital Credentials API' },
            },
          },
        },
      },
    },
    ...errorResponses(['NOT_FOUND', 'REQUEST_EXPIRED']),
  },
} as const;

/** POST /api/m/requests/{requestId}/providers/{providerId}/start */
export const providerStartSchema = {
  tags: ['phone'],
  summary: 'Start the sign-in at an identity provider',
  description:
    'Authorization code flow with PKCE (S256), state and nonce kept with the request until its deadline, ' +
    '`prompt=login`, `ui_locales` = the request’s locale (' +
    LOCALES.join(', ') +
    '), and a `claims` parameter asking exactly what the scopes need. Sets the login cookie ' +
    '(`__Host-svc_login` on https, `svc_login` on http loopback; HttpOnly, SameSite=Lax, until the ' +
    'request’s deadline): the callback completes only in this browser. The page then navigates to ' +
    '`authorization_url`; the provider sends the visitor back to `{app_url}/m/callback`.',
  params: {
    type: 'object',
    properties: {
      ...requestIdParam.properties,
      providerId: { type: 'string', description: 'an `idp_…` id from the open answer’s methods' },
    },
  },
  body: handoffBody,
  response: {
    200: {
      type: 'object',
      required: ['authorization_url'],
      properties: { authorization_url: { type: 'string', description: 'the provider’s login, with our request' } },
    },
    ...errorResponses([
      'INVALID_REQUEST',
      'NOT_FOUND',
      'ALREADY_FINISHED',
      'REQUEST_EXPIRED',
      TOO_MANY_REQUESTS,
      'SERVICE_UNAVAILABLE',
    ]),
  },
} as const;

/** GET /m/callback */
export const providerCallbackSchema = {
  tags: ['phone'],
  summary: 'Where identity providers send the visitor back (the redirect URI to register)',
  description:
    'Checks the answer (state used once, RFC 9207 `iss`, the code exchanged with PKCE, the ID token checked, ' +
    'userinfo when needed), completes or fails the request, and answers 303 to the phone page ' +
    '`/m/v/{requestId}?login=approved|failed|refused|finished`. An unknown or used state, or a browser ' +
    'without the login cookie the start set, answers the phone page itself with 400. ' +
    '`refused`: the answer failed a check and the request is left as it was.',
  querystring: {
    type: 'object',
    properties: {
      code: { type: 'string' },
      state: { type: 'string' },
      iss: { type: 'string', description: 'RFC 9207: must be the provider’s issuer when present' },
      error: { type: 'string', description: '`access_denied`: the visitor declined (the request fails, cancelled)' },
    },
  },
  response: {
    303: { description: 'to the phone page in its finished state', type: 'null' },
    400: { description: 'the phone page: this sign-in link has expired or was already used', type: 'string' },
  },
} as const;

/** POST /api/m/requests/{requestId}/wallet-response */
export const phoneWalletResponseSchema = {
  tags: ['phone'],
  summary: 'What the Digital Credentials API gave the phone page (“Use a wallet on this phone”)',
  description:
    'JSON `{ h, credential }`: the handoff token and the `{ protocol, data }` that `navigator.credentials.get` ' +
    'resolved to (over one of the open answer’s `dc_requests`). Verified exactly as the partner page’s ' +
    '/api/w/wallet-response, bound to the phone page’s origin (the app URL’s). Shares the wallet routes’ budget ' +
    'of 120 posts a minute per client address.',
  params: requestIdParam,
  body: {
    type: 'object',
    required: ['h', 'credential'],
    properties: {
      ...handoffBody.properties,
      credential: {
        type: 'object',
        properties: { protocol: { type: 'string' }, data: { type: 'object' } },
        description: 'what the browser returned',
      },
    },
  },
  response: {
    200: {
      type: 'object',
      required: ['status'],
      description: 'accepted: the request completed, or failed (not adult, an element not disclosed, cancelled)',
      properties: {
        status: { type: 'string', enum: ['completed', 'failed'] },
        reason: { type: 'string', enum: ['failed', 'cancelled', 'claims_missing'] },
      },
    },
    400: {
      type: 'object',
      required: ['error', 'error_description'],
      description:
        'refused (another origin, no wallet request, a presentation the verifier refuses); the request waits',
      properties: {
        error: { type: 'string', enum: ['invalid_request'] },
        error_description: { type: 'string', description: 'the check that failed' },
      },
    },
    ...errorResponses(['NOT_FOUND', TOO_MANY_REQUESTS]),
  },
} as const;
