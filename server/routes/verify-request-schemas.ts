/**
 * The OpenAPI description of the two create routes, POST /api/w/verify-request (widget.ts) and
 * POST /api/partner/verify-request (partner-requests.ts). The handlers read the body themselves
 * (http/body.ts), so these schemas document the routes and shape the 201 answer (fields a schema
 * does not name are dropped): pass `validatorCompiler: documentOnly` with them.
 */
import { LOCALES } from '../../src/protocol/api.ts';
import { TOO_MANY_REQUESTS } from '../../src/protocol/errors.ts';
import { SCOPES } from '../../src/protocol/scopes.ts';
import { errorResponses, SIGNED_ROUTE_SECURITY } from './docs.ts';

/** Ajv stays out of the way: the handlers validate, in the order their file comments list. */
export const documentOnly = () => () => true;

const NO_METHOD_NOTE =
  '400 `NO_METHOD` when no enabled method (the EUDI wallet, an identity provider, the sandbox) can prove every ' +
  'requested scope: nothing is created. In production the methods are the identity providers registered with ' +
  '`svc providers add` and, for loader requests in client proof mode for exactly `["isAdult"]`, the EUDI wallet ' +
  'when `SVC_WALLET_TRUST` is set.';

const choices = {
  scopes: {
    type: 'array',
    items: { type: 'string', enum: [...SCOPES] },
    description: 'distinct; isMale and isFemale exclude each other; default ["isAdult"]',
  },
  client_proof_mode: { type: 'boolean', description: 'the proof is made on the device (EUDI wallet); default false' },
  locale: { type: 'string', enum: [...LOCALES], description: 'of the phone page; default fr' },
} as const;

const requestId = { type: 'string', pattern: '^vr_', description: 'the verification request id' } as const;
const deepLink = {
  type: 'string',
  description: '`{app_url}/m/v/<request_id>#h=<handoff_token>`: the page that completes the request',
} as const;
const expiresAt = { type: 'number', description: 'deadline of the pending request, ms since the Unix epoch' } as const;

/** POST /api/w/verify-request, called by the loader in the browser. */
export const widgetCreateSchema = {
  tags: ['widget'],
  summary: 'Start a verification request (the loader)',
  description:
    'STANDARD: `partner_id` and `scopes`; ADULT_BLIND: `session_token` (its scopes apply), never both. Sent as ' +
    '`text/plain;charset=UTF-8` JSON so that the browser sends no preflight (`application/json` is accepted too). ' +
    "The `Origin` header must be the partner's registered domain, or the session token's origin. " +
    NO_METHOD_NOTE,
  consumes: ['text/plain', 'application/json'],
  body: {
    type: 'object',
    properties: {
      partner_id: { type: 'string', description: 'STANDARD rail' },
      session_token: { type: 'string', description: 'ADULT_BLIND rail: from POST /api/billing/session' },
      ...choices,
    },
  },
  response: {
    201: {
      type: 'object',
      description: 'created, pending; `wallet_link` and `dc_request` when the EUDI wallet path is offered',
      required: ['request_id', 'poll_token', 'deep_link', 'expires_at', 'poll_after_ms'],
      properties: {
        request_id: requestId,
        poll_token: { type: 'string', description: 'for GET /api/w/verify-status/{requestId}?pt=' },
        deep_link: deepLink,
        expires_at: expiresAt,
        poll_after_ms: { type: 'integer', description: 'pause between two polls that do not wait' },
        sandbox: { type: 'boolean', description: 'the service runs in sandbox mode' },
        qr: {
          type: 'object',
          description: 'the QR code of the deep link (of `wallet_link` when offered), precomputed',
          properties: {
            size: { type: 'integer', description: 'modules per side' },
            bits: { type: 'string', description: 'size×size bits, row-major, MSB first, base64' },
          },
        },
        wallet_link: { type: 'string', description: 'the `av://` OpenID4VP request (DESIGN §11)' },
        dc_request: {
          type: 'object',
          description: 'for navigator.credentials.get({ digital: { requests: [dc_request] } })',
          properties: {
            protocol: { type: 'string', enum: ['org-iso-mdoc'] },
            data: {
              type: 'object',
              properties: { deviceRequest: { type: 'string' }, encryptionInfo: { type: 'string' } },
            },
          },
        },
      },
    },
    ...errorResponses([
      'INVALID_REQUEST',
      'INVALID_PARTNER',
      'FORBIDDEN_RAIL',
      'INVALID_SCOPES',
      'ORIGIN_NOT_ALLOWED',
      'SESSION_INVALID',
      'NO_METHOD',
      TOO_MANY_REQUESTS,
    ]),
  },
} as const;

/** POST /api/partner/verify-request, the signed variant for a partner backend. */
export const partnerCreateSchema = {
  tags: ['partner'],
  summary: 'Start a verification request from the partner backend (signed)',
  description:
    'The STANDARD partner starts a request itself and polls GET /api/partner/verify-status/{requestId} with its ' +
    'signature; the result is readable by this partner only. The wallet path is offered to loader requests only. ' +
    NO_METHOD_NOTE,
  security: SIGNED_ROUTE_SECURITY,
  body: { type: 'object', properties: choices },
  response: {
    201: {
      type: 'object',
      description: 'created, pending',
      required: ['request_id', 'deep_link', 'expires_at'],
      properties: { request_id: requestId, deep_link: deepLink, expires_at: expiresAt },
    },
    ...errorResponses(['FORBIDDEN_RAIL', 'INVALID_SCOPES', 'NO_METHOD', TOO_MANY_REQUESTS]),
  },
} as const;
