/**
 * Verification requests from the loader (design.md §3): its two endpoints under /api/w/. Their
 * HMAC-signed partner variants under /api/partner/ are partner-requests.ts.
 *
 * POST /api/w/verify-request answers the first failing check, in this order:
 *  1. over 120 creates per 60 s from one client IP → 429 {error: "Too many requests"}
 *  2. body not JSON, not an object, both or neither of partner_id and session_token, a field of the
 *     wrong type → 400 INVALID_REQUEST (text/plain;charset=UTF-8 and application/json are both JSON)
 *  STANDARD (partner_id):
 *  3. scopes unknown, duplicated, isMale with isFemale, not wallet-provable in client proof mode → 400 INVALID_SCOPES
 *  4. partner unknown → 403 INVALID_PARTNER; on the ADULT_BLIND rail → 403 FORBIDDEN_RAIL (it must
 *     use a session token: a partner ID would put the partner on the verifier path)
 *  5. Origin header missing or not the partner's registered domain → 403 ORIGIN_NOT_ALLOWED
 *  6. a scope outside the partner's allowed_scopes → 400 INVALID_SCOPES
 *  7. no enabled method can prove the scopes (domain/proving-methods.ts) → 400 NO_METHOD
 *  ADULT_BLIND (session_token; a `scopes` field is ignored, the token's scopes apply):
 *  3. token bad or expired → 401 SESSION_INVALID
 *  4. Origin header missing or not hashing to the token's origin_hash → 403 ORIGIN_NOT_ALLOWED
 *  5. no enabled method can prove the token's scopes → 400 NO_METHOD
 *  6. more than 20 requests from one session token (renewals are fine) → 429 {error: "Too many requests"}
 * A body that carries `attributes` (the loader's first request) gets `warnings` beside the answer
 * from check 2 on, 201 or an error, when its attributes, `locale_tag` or scopes deserve one
 * (rules/loader-warnings.ts); with neither id (a loader whose own check failed) nothing is created.
 * One call into domain/ per create (createWithPartnerId or createWithSessionToken); the warnings and
 * the link's QR code (rules/qr.ts) are what the answer prints, not use cases.
 *
 * GET /api/w/verify-status/:requestId?pt=&wait=&known=: `wait` not an integer 0..25, or `known` not a
 * status → 400 INVALID_REQUEST (`known`, optional: the status the caller shows; a long poll that
 * finds another one answers at once); then an unknown or malformed id, or a wrong or malformed pt
 * → 404 NOT_FOUND, one body for all, counted against the client address (60 per 60 s, then 429
 * RATE_LIMITED), never against the request; then the request's own limit (30 per 60 s, right pt
 * only) → 429 RATE_LIMITED, Retry-After: 60. A long poll past its caps (per address, per
 * instance) is answered at once, as wait=0.
 *
 * CORS on /api/w/*: any origin, no credentials, preflights answered, X-SVC-CID and Retry-After
 * exposed. Every answer here is Cache-Control: no-store, as every API answer. Both from the
 * routes' config (http/route-policy.ts), as is the create's rate limit.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { VerifyRequestCreated, WidgetVerifyStatus } from '../../src/protocol/wire.ts';
import type { AppDeps } from '../deps.ts';
import { createWithPartnerId, createWithSessionToken, POLL_AFTER_MS, pollWidgetStatus } from '../domain/index.ts';
import { ServiceError } from '../errors.ts';
import { INVALID_REQUEST_BODY, readJsonObject, readRequestChoices, readString, type JsonObject } from '../http/body.ts';
import { LOADER_CORS, requestOrigin } from '../http/cors.ts';
import { readLongPoll, whileConnected } from '../http/long-poll.ts';
import { addressKey } from '../limits/client-address.ts';
import { RATE_LIMITS } from '../limits/rate-limits.ts';
import { loaderWarnings } from '../rules/loader-warnings.ts';
import { encodeQr } from '../rules/qr.ts';
import { widgetCreateSchema, widgetStatusSchema } from './verify-request-schemas.ts';

export const WIDGET_CREATE_PATH = '/api/w/verify-request';
export const WIDGET_STATUS_PATH = '/api/w/verify-status/:requestId';

/** Registers the loader's endpoints. */
export function registerWidgetRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.register(async (widget) => {
    widget.post(
      WIDGET_CREATE_PATH,
      { schema: widgetCreateSchema, config: { cors: LOADER_CORS, rateLimit: RATE_LIMITS.widgetCreate } },
      async (request, reply) => {
        const body = readJsonObject(request, INVALID_REQUEST_BODY);
        // the loader's attributes, answered whatever comes next (docs/embedding.md#warnings)
        const warnings = loaderWarnings(body);
        const created = await createFromBody(request, body).catch((error: unknown) => {
          if (error instanceof ServiceError && warnings.length)
            error.warnings = [...warnings, ...(error.warnings ?? [])];
          throw error;
        });
        const answer: VerifyRequestCreated = {
          request_id: created.record.id,
          poll_token: created.pollToken,
          deep_link: created.deepLink,
          expires_at: created.record.deadlineAt,
          poll_after_ms: POLL_AFTER_MS,
          sandbox: deps.config.mode === 'sandbox',
          qr: encodeQr(created.wallet?.walletLink ?? created.deepLink),
          ...(created.record.privateAttestation ? { attestation: 'private' as const } : {}),
        };
        if (created.wallet) {
          answer.wallet_link = created.wallet.walletLink;
          answer.dc_request = created.wallet.dcRequest;
          answer.dc_requests = created.wallet.dcRequests;
        }
        if (warnings.length) answer.warnings = warnings;
        return reply.code(201).send(answer);
      },
    );

    /** Checks 2 to the end of the list above: the request on the rail its body names. */
    const createFromBody = async (request: FastifyRequest, body: JsonObject) => {
      const hasPartner = body.partner_id !== undefined;
      if (hasPartner === (body.session_token !== undefined)) {
        throw new ServiceError('INVALID_REQUEST', { cause: 'send exactly one of partner_id and session_token' });
      }
      const choices = readRequestChoices(body);
      const origin = requestOrigin(request);
      return hasPartner
        ? createWithPartnerId(deps, {
            ...choices,
            partnerId: readString(body, 'partner_id'),
            origin,
            scopes: body.scopes,
          })
        : createWithSessionToken(deps, {
            ...choices,
            sessionToken: readString(body, 'session_token'),
            origin,
            // the loader names its attributes (docs/embedding.md#warnings); an older one names none
            ...(Array.isArray(body.attributes)
              ? { redemptionContext: body.attributes.includes('redemptionContext') }
              : {}),
          });
    };

    widget.get<{ Params: { requestId: string }; Querystring: Record<string, unknown> }>(
      WIDGET_STATUS_PATH,
      { schema: widgetStatusSchema, config: { cors: LOADER_CORS } },
      async (request): Promise<WidgetVerifyStatus> => {
        const poll = readLongPoll(request.query);
        const { requestId } = request.params;
        const client = addressKey(request.ip);
        return whileConnected(request, (signal) =>
          pollWidgetStatus(deps, { requestId, pollToken: request.query.pt, poll, client, signal }),
        );
      },
    );
  });
}
