/**
 * The OpenAPI description of the verification request routes: the loader's POST
 * /api/w/verify-request and GET /api/w/verify-status/{requestId} (widget.ts), and their signed
 * partner variants under /api/partner/ (partner-requests.ts). The handlers read the body and the
 * query themselves (http/body.ts, http/long-poll.ts), so these schemas document the routes and
 * shape the success answer (fields a schema does not name are dropped); Ajv validates nothing
 * (http/route-policy.ts).
 */
import { LOCALES, MAX_WAIT_SECONDS } from '../../src/protocol/wire.ts';
import { TOO_MANY_REQUESTS } from '../../src/protocol/errors.ts';
import { SCOPES } from '../../src/protocol/scopes.ts';
import { errorResponses, SIGNED_ROUTE_SECURITY } from './docs.ts';

const NO_METHOD_NOTE =
  '400 `NO_METHOD` when no enabled method (the EUDI wallet, an identity provider, the sandbox) can prove every ' +
  'requested scope: nothing is created. In production the methods are the identity providers registered with ' +
  '`svc providers add` and, for loader requests in client proof mode whose scopes are all among `isAdult`, ' +
  '`isFrench` and `isEU`, the EUDI wallet when `SVC_WALLET_TRUST` is set (`isUnique` needs a provider).';

const strings = { type: 'array', items: { type: 'string' } } as const;

/** design.md §11: the ISO/IEC 18013-7 Annex C request (`org-iso-mdoc`), base64url CBOR fields. */
export const dcRequestSchema = {
  type: 'object',
  description: 'ISO/IEC 18013-7 Annex C: one DocRequest per credential that can prove the scopes',
  required: ['protocol', 'data'],
  properties: {
    protocol: { type: 'string', enum: ['org-iso-mdoc'] },
    data: {
      type: 'object',
      required: ['deviceRequest', 'encryptionInfo'],
      properties: { deviceRequest: { type: 'string' }, encryptionInfo: { type: 'string' } },
    },
  },
} as const;

/** design.md §13: an unsigned OpenID4VP 1.0 request over the Digital Credentials API, response encrypted. */
const oid4vpDcRequestSchema = {
  type: 'object',
  description:
    'OpenID4VP 1.0 over the Digital Credentials API (unsigned), the response a JWE to `client_metadata.jwks`',
  required: ['protocol', 'data'],
  properties: {
    protocol: { type: 'string', enum: ['openid4vp-v1-unsigned'] },
    data: {
      type: 'object',
      required: ['response_type', 'response_mode', 'nonce', 'dcql_query', 'client_metadata'],
      properties: {
        response_type: { type: 'string', enum: ['vp_token'] },
        response_mode: { type: 'string', enum: ['dc_api.jwt'] },
        nonce: { type: 'string' },
        dcql_query: {
          type: 'object',
          required: ['credentials'],
          properties: {
            credentials: {
              type: 'array',
              items: {
                type: 'object',
                required: ['id', 'format', 'meta', 'claims'],
                properties: {
                  id: {
                    type: 'string',
                    description: '`proof_of_age`, `pid`, `mdl` or `pid_sd` (the SD-JWT VC PID): the key of `vp_token`',
                  },
                  format: { type: 'string', enum: ['mso_mdoc', 'dc+sd-jwt'] },
                  meta: {
                    description: '`doctype_value` for an mdoc, `vct_values` for an SD-JWT VC',
                    oneOf: [
                      {
                        type: 'object',
                        required: ['doctype_value'],
                        properties: { doctype_value: { type: 'string' } },
                      },
                      { type: 'object', required: ['vct_values'], properties: { vct_values: strings } },
                    ],
                  },
                  claims: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['path'],
                      properties: {
                        id: { type: 'string', description: 'with `claim_sets` only: `age`, `bd` or `nat`' },
                        path: strings,
                      },
                    },
                  },
                  claim_sets: {
                    type: 'array',
                    description: 'design.md §15: the age claim first, else the birth date (isAdult only)',
                    items: strings,
                  },
                },
              },
            },
            credential_sets: {
              type: 'array',
              items: {
                type: 'object',
                required: ['options'],
                properties: { options: { type: 'array', items: strings } },
              },
            },
          },
        },
        client_metadata: {
          type: 'object',
          required: ['jwks', 'encrypted_response_enc_values_supported', 'vp_formats_supported'],
          properties: {
            jwks: {
              type: 'object',
              required: ['keys'],
              properties: {
                keys: {
                  type: 'array',
                  items: {
                    type: 'object',
                    description: 'an ephemeral P-256 ECDH-ES key of this request',
                    required: ['kty', 'crv', 'x', 'y', 'use', 'alg', 'kid'],
                    properties: {
                      kty: { type: 'string', enum: ['EC'] },
                      crv: { type: 'string', enum: ['P-256'] },
                      x: { type: 'string' },
                      y: { type: 'string' },
                      use: { type: 'string', enum: ['enc'] },
                      alg: { type: 'string', enum: ['ECDH-ES'] },
                      kid: { type: 'string', description: 'its RFC 7638 thumbprint' },
                    },
                  },
                },
              },
            },
            encrypted_response_enc_values_supported: strings,
            vp_formats_supported: {
              type: 'object',
              required: ['mso_mdoc'],
              properties: {
                mso_mdoc: { type: 'object', properties: {} },
                'dc+sd-jwt': {
                  type: 'object',
                  required: ['sd-jwt_alg_values', 'kb-jwt_alg_values'],
                  description:
                    'when the SD-JWT VC PID is asked (design.md §15): ES256 for the issuer JWT and the KB-JWT',
                  properties: { 'sd-jwt_alg_values': strings, 'kb-jwt_alg_values': strings },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

/** design.md §16: OpenID4VP 1.0 over the Digital Credentials API, signed with the access certificate. */
const oid4vpSignedDcRequestSchema = {
  type: 'object',
  description:
    'OpenID4VP 1.0 over the Digital Credentials API, signed (with an access certificate): `request` a JWS (ES256, ' +
    '`typ` `oauth-authz-req+jwt`, `x5c`) over the unsigned request’s parameters, `client_id` (`x509_hash:…`) and ' +
    '`expected_origins` (this page’s origin)',
  required: ['protocol', 'data'],
  properties: {
    protocol: { type: 'string', enum: ['openid4vp-v1-signed'] },
    data: { type: 'object', required: ['request'], properties: { request: { type: 'string' } } },
  },
} as const;

/**
 * design.md §13, §16: the array the page hands to `navigator.credentials.get`: Annex C, then
 * OpenID4VP; with an access certificate, signed OpenID4VP, Annex C with readerAuth, then unsigned OpenID4VP.
 */
export const dcRequestsSchema = {
  type: 'array',
  description:
    'for navigator.credentials.get({ mediation: "required", digital: { requests: dc_requests } }): org-iso-mdoc, ' +
    'openid4vp-v1-unsigned; with an access certificate (design.md §16) openid4vp-v1-signed first, then org-iso-mdoc ' +
    'whose DocRequests carry readerAuth, then openid4vp-v1-unsigned',
  items: { anyOf: [oid4vpSignedDcRequestSchema, dcRequestSchema, oid4vpDcRequestSchema] },
} as const;

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
      attributes: {
        ...strings,
        description:
          'the loader’s first request: the names of its `data-*` attributes as `dataset` spells them ' +
          '(`successPath`); the answer, 201 or an error, then carries `warnings` when there are some',
      },
      locale_tag: { type: 'string', description: 'with `attributes`: `data-locale` as written (`en-GB`, `auto`)' },
    },
  },
  response: {
    201: {
      type: 'object',
      description:
        'created, pending; `wallet_link`, `dc_request` and `dc_requests` when the EUDI wallet path is offered',
      required: ['request_id', 'poll_token', 'deep_link', 'expires_at', 'poll_after_ms'],
      properties: {
        request_id: requestId,
        poll_token: { type: 'string', description: 'for GET /api/w/verify-status/{requestId}?pt=' },
        deep_link: deepLink,
        expires_at: expiresAt,
        poll_after_ms: { type: 'integer', description: 'pause between two polls that do not wait' },
        sandbox: { type: 'boolean', description: 'the service runs in sandbox mode' },
        attestation: {
          type: 'string',
          enum: ['private'],
          description:
            'docs/adult-blind.md#private-attestations: the partner opted in to private attestations (Privacy Pass)',
        },
        qr: {
          type: 'object',
          description: 'the QR code of the deep link (of `wallet_link` when offered), precomputed',
          required: ['size', 'bits'],
          properties: {
            size: { type: 'integer', description: 'modules per side' },
            bits: { type: 'string', description: 'size×size bits, row-major, MSB first, base64' },
          },
        },
        wallet_link: {
          type: 'string',
          description:
            'the OpenID4VP request: `av://` for exactly ["isAdult"], `openid4vp://` otherwise (design.md §11, §13)',
        },
        dc_request: { ...dcRequestSchema, description: 'the org-iso-mdoc request alone (older widgets)' },
        dc_requests: dcRequestsSchema,
        warnings: {
          ...strings,
          description: 'for a body with `attributes`: one console line each (docs/embedding.md#warnings)',
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

const STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'expired'] as const;

const requestIdParam = {
  type: 'object',
  required: ['requestId'],
  properties: { requestId: { type: 'string', description: 'the verification request id (`vr_…`)' } },
} as const;

/** The long poll's query (http/long-poll.ts); anything else is 400 INVALID_REQUEST. */
const longPollQuery = {
  wait: {
    type: 'integer',
    minimum: 0,
    maximum: MAX_WAIT_SECONDS,
    description:
      `seconds to wait for a change (long poll), 0 to ${MAX_WAIT_SECONDS}; absent: 0, the answer comes at once. ` +
      'Past the caps on concurrent long polls the answer comes at once, as wait=0.',
  },
  known: {
    type: 'string',
    enum: STATUSES,
    description: 'the status the caller already shows: a long poll that finds another one answers at once',
  },
} as const;

/** The answer of both status routes, with the result each rail carries. */
function statusAnswer(result: object) {
  return {
    type: 'object',
    description:
      'the status now; with `wait`, when it changes, when the wait or the request’s deadline ends, or when the ' +
      'caller goes away',
    required: ['status', 'expires_at'],
    properties: {
      status: {
        type: 'string',
        enum: STATUSES,
        description: '`in_progress`: the phone opened the link; `expired`: the deadline passed',
      },
      expires_at: {
        type: 'number',
        description:
          'ms since the Unix epoch: the deadline while pending or in progress; once completed or failed, the end ' +
          'of the answer’s life (then 404)',
      },
      result,
      reason: {
        type: 'string',
        enum: ['failed', 'cancelled', 'claims_missing', 'provider_error'],
        description: 'when failed; `claims_missing` and `provider_error` come from identity providers',
      },
    },
  } as const;
}

const grantCode = {
  type: 'string',
  pattern: '^g_',
  description: 'STANDARD: single use, 5 minutes: exchange it with POST /v1/exchange',
} as const;

/** GET /api/w/verify-status/{requestId}, polled by the loader. */
export const widgetStatusSchema = {
  tags: ['widget'],
  summary: 'Read a request’s status (the loader), or wait for it to change',
  description:
    'With the poll token the create answered. An unknown or malformed id and a wrong poll token get the same 404, ' +
    'counted against the caller’s address (60 per 60 s, then 429 `RATE_LIMITED`), never against the request; a ' +
    'request answers at most 30 polls per 60 s (429 `RATE_LIMITED`, Retry-After: 60).',
  params: requestIdParam,
  querystring: {
    type: 'object',
    required: ['pt'],
    properties: {
      pt: { type: 'string', description: 'the poll token (`pt_…`) from POST /api/w/verify-request' },
      ...longPollQuery,
    },
  },
  response: {
    200: statusAnswer({
      description: 'when completed: `grant_code` (STANDARD) or `attestation` (ADULT_BLIND)',
      anyOf: [
        { type: 'object', required: ['grant_code'], properties: { grant_code: grantCode } },
        {
          type: 'object',
          required: ['attestation'],
          properties: {
            attestation: {
              type: 'string',
              description: 'ADULT_BLIND: compact JWS, checked offline against GET /api/billing/attestation-keys',
            },
          },
        },
        {
          type: 'object',
          required: ['private_attestation'],
          properties: {
            private_attestation: {
              type: 'object',
              description:
                'ADULT_BLIND with private attestations (docs/adult-blind.md#private-attestations): the facts ' +
                'proven; the widget then posts its blinded token request to POST /api/w/private-attestation/{requestId}',
              required: ['scope_mask'],
              properties: { scope_mask: { type: 'integer' } },
            },
          },
        },
      ],
    }),
    ...errorResponses(['INVALID_REQUEST', 'NOT_FOUND', 'RATE_LIMITED']),
  },
} as const;

/** GET /api/partner/verify-status/{requestId}, the signed variant for a partner backend. */
export const partnerStatusSchema = {
  tags: ['partner'],
  summary: 'Read the status of a request this partner created (signed), or wait for it to change',
  description:
    'Signed over the empty body. Only requests created with POST /api/partner/verify-request by the same partner: ' +
    'any other id answers 404.',
  security: SIGNED_ROUTE_SECURITY,
  params: requestIdParam,
  querystring: { type: 'object', properties: longPollQuery },
  response: {
    200: statusAnswer({
      type: 'object',
      description: 'when completed',
      required: ['grant_code'],
      properties: { grant_code: grantCode },
    }),
    ...errorResponses(['INVALID_REQUEST', 'NOT_FOUND', TOO_MANY_REQUESTS]),
  },
} as const;
