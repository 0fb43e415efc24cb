/**
 * The EUDI wallet's answers (design.md §11, §13):
 *
 * POST /oid4vp/response/:requestId — the wallet's OpenID4VP `direct_post`, form-encoded (`vp_token`
 *   as a JSON string or as `vp_token[<id>]` keys, the id `proof_of_age`, `pid` or `mdl` of the
 *   credential presented, `state`; or `error`, `state`). Posted by the wallet app, not by a
 *   browser: no CORS.
 * GET /oid4vp/request/:requestId — the signed request object of an `openid4vp://` link by
 *   reference (docs/design.md §16), `application/oauth-authz-req+jwt`, never cached; 404 when the
 *   request is unknown, was made unsigned or no longer waits. Fetched by the wallet app: no CORS.
 *   A signed request's wallet posts `response=<JWE>` to the response route below.
 * POST /oid4vp/request/:requestId — the same with `request_uri_method=post` (design.md §19): form
 *   `wallet_nonce` (and `wallet_metadata`) → the object signed now, carrying that wallet_nonce;
 *   400 invalid_request for a missing or malformed one; on the request objects' budget.
 * POST /api/w/wallet-response/:requestId?pt=<poll_token> — what the Digital Credentials API gave
 *   the partner page, posted by the loader as text/plain JSON (no preflight), CORS open as /api/w/*.
 *
 * Both answer 200 when the request completed (or failed: not adult, or cancelled by the
 * wallet's `error=access_denied`): the wallet's post `{"redirect_uri"}` back to the phone page's
 * done view (design.md §19, domain/wallet-return.ts), the loader's post `{}`; and 400 `{"error":"invalid_request","error_description":…}`
 * when the answer is refused; the request then stays waiting. The log line names the check that
 * failed, never the credential. Before anything else, more than 120 posts in 60 s from one client
 * address to these routes and the phone page's /api/m/requests/:id/wallet-response (routes/phone.ts)
 * together answer 429 "Too many requests" with Retry-After (docs/sandbox-flow.md#lifetimes-and-limits;
 * one budget across instances, counted in the store); more than 120 fetches of request objects in 60 s from one
 * address too, on a budget of their own. The limits, CORS, the error shape and no-store are the
 * routes' config (http/route-policy.ts): a refusal is thrown as 400 INVALID_REQUEST and the one
 * error handler answers it in OpenID4VP's shape.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TOO_MANY_REQUESTS } from '../../src/protocol/errors.ts';
import type { AppDeps } from '../deps.ts';
import {
  answerDcApiResponse,
  answerDirectPost,
  postedRequestObject,
  signedRequestObject,
  type WalletOutcome,
} from '../domain/index.ts';
import { ServiceError } from '../errors.ts';
import { REQUEST_OBJECT_CONTENT_TYPE, WALLET_NONCE } from '../wallet/index.ts';
import { PAGE_POST_CORS, requestOrigin } from '../http/cors.ts';
import { RATE_LIMITS } from '../limits/rate-limits.ts';
import { errorResponses } from './docs.ts';

export const OID4VP_RESPONSE_PATH = '/oid4vp/response/:requestId';
export const OID4VP_REQUEST_PATH = '/oid4vp/request/:requestId';
export const DC_API_RESPONSE_PATH = '/api/w/wallet-response/:requestId';

const FORM = 'application/x-www-form-urlencoded';

/**
 * The body limit of the routes that take wallet answers (design.md §19): the verifier's largest
 * presentation (64 KiB, wallet/formats/sd-jwt.ts) encrypted (JWE, base64url: ×4/3) and form-encoded, with
 * room for the rest; every other route keeps 16 KiB (LIMITS.bodyLimitBytes). Beyond: 413.
 */
export const WALLET_ANSWER_BODY_LIMIT_BYTES = 96 * 1024;

/**
 * Logs a refusal (request id and check, never a value), counts it by its check, and throws it:
 * 400 INVALID_REQUEST, which the routes' `errorShape: 'oauth'` answers as OpenID4VP's
 * `{error: "invalid_request", error_description}`. The phone page's wallet route refuses so too.
 */
export function refuseWalletAnswer(
  deps: AppDeps,
  request: FastifyRequest,
  requestId: string,
  refusal: { check: string; description: string; detail?: unknown },
): never {
  countWalletRefusal(deps, refusal.check);
  const detail = refusal.detail === undefined ? {} : { detail: refusal.detail };
  request.log.info({ requestId, check: refusal.check, ...detail }, 'wallet response refused');
  throw new ServiceError('INVALID_REQUEST', { message: refusal.description, cause: `check ${refusal.check}` });
}

/** Refuses, or logs the outcome and answers 200 `{}`. */
function answer(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  requestId: string,
  outcome: WalletOutcome,
) {
  if (outcome.status === 'refused') refuseWalletAnswer(deps, request, requestId, outcome);
  const reason = outcome.status === 'failed' ? { reason: outcome.reason } : {};
  request.log.info({ requestId, outcome: outcome.status, ...reason }, 'wallet response accepted');
  // design.md §19: a wallet's post is answered with the way back to the phone page (never logged)
  return reply.code(200).send(outcome.redirectUri ? { redirect_uri: outcome.redirectUri } : {});
}

/** `svc_wallet_checks_failed_total` (docs/operations.md, Metrics): the check's name, never a value. */
function countWalletRefusal(deps: AppDeps, check: string): void {
  deps.telemetry?.metrics?.walletChecksFailed.inc({ check });
}

type WithId = { Params: { requestId: string }; Querystring: Record<string, unknown> };

const requestIdParam = {
  type: 'object',
  required: ['requestId'],
  properties: { requestId: { type: 'string', description: 'the verification request id (vr_…)' } },
} as const;

const walletAnswers = {
  200: {
    type: 'object',
    additionalProperties: false,
    description:
      'accepted: the request completed (or failed: not adult, a requested element not disclosed — claims_missing —, ' +
      'or cancelled)',
    properties: {
      redirect_uri: {
        type: 'string',
        description:
          'a wallet’s post only (direct_post, direct_post.jwt; design.md §19): `{app_url}/m/v/<request_id>/done' +
          '#response_code=<43 base64url characters>`, the phone page’s done view; the code is single use',
      },
    },
  },
  400: {
    type: 'object',
    required: ['error', 'error_description'],
    description: 'refused; the request stays waiting',
    properties: {
      error: { type: 'string', enum: ['invalid_request'] },
      error_description: { type: 'string', description: 'the check that failed' },
    },
  },
  ...errorResponses([TOO_MANY_REQUESTS]),
} as const;

const directPostSchema = {
  summary: "The wallet's OpenID4VP direct_post (EUDI wallet: proof of age, PID or mDL)",
  description:
    'Posted by the wallet to the `response_uri` of `wallet_link`, form-encoded: `vp_token` as the JSON string ' +
    '`{"<id>":["<base64url DeviceResponse>"]}` or as `vp_token[<id>]=…`, the id the one of the credential presented ' +
    '(`proof_of_age` for the `av://` link, `pid` or `mdl` for `openid4vp://`), and `state`; or `error` ' +
    '(e.g. `access_denied`) and `state`. Single use.',
  tags: ['wallet'],
  consumes: [FORM],
  params: requestIdParam,
  body: {
    type: 'object',
    properties: {
      vp_token: { type: 'string', description: 'JSON: {"<id>":["<base64url mdoc DeviceResponse>"]}' },
      response: {
        type: 'string',
        description:
          'a signed request (openid4vp:// with request_uri) is answered by this alone: a JWE (ECDH-ES) of {vp_token, state}',
      },
      state: { type: 'string' },
      error: { type: 'string', description: 'e.g. access_denied: the request fails as cancelled' },
    },
  },
  response: walletAnswers,
} as const;

const requestObjectSchema = {
  summary: 'The signed request object of an openid4vp:// link by reference (with an access certificate)',
  description:
    'Fetched by the wallet from the `request_uri` of `wallet_link`: a JWS (ES256, `typ` `oauth-authz-req+jwt`, `x5c` ' +
    'the access certificate chain) over every request parameter, `response_mode` `direct_post.jwt`. 404 once the ' +
    'request no longer waits.',
  tags: ['wallet'],
  params: requestIdParam,
  response: {
    200: {
      description: 'the request object',
      content: { [REQUEST_OBJECT_CONTENT_TYPE]: { schema: { type: 'string' } } },
    },
    ...errorResponses(['NOT_FOUND']),
  },
} as const;

const requestObjectPostSchema = {
  summary: 'The signed request object, signed now with the wallet’s wallet_nonce (request_uri_method=post)',
  description:
    'Posted by the wallet to the `request_uri` of a signed `wallet_link` (OpenID4VP 1.0 §5.10, design.md §19), ' +
    'form-encoded: `wallet_nonce` (echoed in the object) and optionally `wallet_metadata` (a JSON object). The ' +
    'same request object as the GET, signed now; neither is single use. 404 once the request no longer waits.',
  tags: ['wallet'],
  consumes: [FORM],
  params: requestIdParam,
  body: {
    type: 'object',
    properties: { wallet_nonce: { type: 'string' }, wallet_metadata: { type: 'string' } },
  },
  response: {
    200: {
      description: 'the request object',
      content: { [REQUEST_OBJECT_CONTENT_TYPE]: { schema: { type: 'string' } } },
    },
    400: walletAnswers[400],
    ...errorResponses(['NOT_FOUND', TOO_MANY_REQUESTS]),
  },
} as const;

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

const dcApiSchema = {
  summary: 'What the Digital Credentials API returned to the partner page (posted by the loader)',
  description:
    'text/plain JSON of the credential `navigator.credentials.get({ digital: { requests: dc_requests } })` resolved ' +
    'to (`{ protocol: "org-iso-mdoc" | "openid4vp-v1-signed" | "openid4vp-v1-unsigned", data: { response } }`), ' +
    'from the partner page (its ' +
    'Origin is checked and bound to the device signature).',
  tags: ['widget'],
  params: requestIdParam,
  querystring: {
    type: 'object',
    required: ['pt'],
    properties: { pt: { type: 'string', description: 'the poll token' } },
  },
  body: {
    type: 'object',
    properties: {
      protocol: { type: 'string', enum: ['org-iso-mdoc', 'openid4vp-v1-signed', 'openid4vp-v1-unsigned'] },
      data: {
        type: 'object',
        properties: {
          response: { type: 'string', description: 'Annex C: base64url CBOR; OpenID4VP: a compact JWE' },
        },
      },
    },
  },
  response: walletAnswers,
} as const;

/** Registers both wallet endpoints when the wallet path is enabled (always in sandbox; in production with SVC_WALLET_TRUST). */
export function registerWalletRoutes(app: FastifyInstance, deps: AppDeps): void {
  if (!deps.wallet.trust.enabled) return;

  app.register(async (wallet) => {
    wallet.get<WithId>(
      OID4VP_REQUEST_PATH,
      { schema: requestObjectSchema, config: { rateLimit: RATE_LIMITS.walletRequestObject } },
      async (request, reply) => {
        const jws = await signedRequestObject(deps, request.params.requestId);
        if (jws === null) throw new ServiceError('NOT_FOUND', { cause: 'no signed request object for this request' });
        return reply.header('content-type', REQUEST_OBJECT_CONTENT_TYPE).send(jws);
      },
    );

    // design.md §19: request_uri_method=post, the wallet's nonce echoed in an object signed now
    wallet.post<WithId>(
      OID4VP_REQUEST_PATH,
      {
        schema: requestObjectPostSchema,
        config: { rateLimit: RATE_LIMITS.walletRequestObject, errorShape: 'oauth' },
      },
      async (request, reply) => {
        const contentType = request.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
        const form = new URLSearchParams(contentType === FORM ? request.rawBody.toString('utf8') : '');
        const nonces = form.getAll('wallet_nonce');
        const metadata = form.getAll('wallet_metadata');
        const problem =
          contentType !== FORM
            ? `the body must be ${FORM}`
            : nonces.length !== 1 || !WALLET_NONCE.test(nonces[0]!)
              ? 'wallet_nonce must appear once, 1 to 256 visible ASCII characters'
              : metadata.length > 1 || (metadata.length === 1 && !isJsonObject(metadata[0]!))
                ? 'wallet_metadata must be one JSON object'
                : null;
        if (problem) throw new ServiceError('INVALID_REQUEST', { message: problem, cause: 'request_uri post' });
        const jws = await postedRequestObject(deps, request.params.requestId, nonces[0]!);
        if (jws === null) throw new ServiceError('NOT_FOUND', { cause: 'no signed request object for this request' });
        return reply.header('content-type', REQUEST_OBJECT_CONTENT_TYPE).send(jws);
      },
    );

    wallet.post<WithId>(
      OID4VP_RESPONSE_PATH,
      {
        schema: directPostSchema,
        bodyLimit: WALLET_ANSWER_BODY_LIMIT_BYTES,
        config: { rateLimit: RATE_LIMITS.walletResponse, errorShape: 'oauth' },
      },
      async (request, reply) => {
        const { requestId } = request.params;
        const contentType = request.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
        if (contentType !== FORM)
          refuseWalletAnswer(deps, request, requestId, {
            check: 'content_type',
            description: `direct_post must be ${FORM}`,
          });
        const outcome = await answerDirectPost(deps, { requestId, body: request.rawBody.toString('utf8') });
        return answer(deps, request, reply, requestId, outcome);
      },
    );

    wallet.post<WithId>(
      DC_API_RESPONSE_PATH,
      {
        schema: dcApiSchema,
        bodyLimit: WALLET_ANSWER_BODY_LIMIT_BYTES,
        config: { rateLimit: RATE_LIMITS.walletResponse, errorShape: 'oauth', cors: PAGE_POST_CORS },
      },
      async (request, reply) => {
        const { requestId } = request.params;
        if (request.bodyIsInvalidJson || typeof request.body !== 'object' || request.body === null) {
          refuseWalletAnswer(deps, request, requestId, {
            check: 'body',
            description: 'the body must be the JSON the Digital Credentials API returned',
          });
        }
        const outcome = await answerDcApiResponse(deps, {
          requestId,
          pollToken: request.query.pt,
          origin: requestOrigin(request),
          credential: request.body,
        });
        return answer(deps, request, reply, requestId, outcome);
      },
    );
  });
}
