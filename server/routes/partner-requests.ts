/**
 * The HMAC-signed variants of the loader's endpoints (design.md §3), for a partner whose backend
 * starts the verification and polls it itself, without the loader. The result opens with the
 * partner's result-reader key (crypto/result-reader.ts), not a poll token.
 *
 * POST /api/partner/verify-request {scopes?, client_proof_mode?, locale?} answers the first
 * failing check, in this order:
 *  1. over 60 calls per 60 s from one client IP, before authentication → 429 {error: "Too many requests"}
 *  2. the HMAC checks of design.md §6 (auth/partner-auth.ts)
 *  3. the partner is on the ADULT_BLIND rail → 403 FORBIDDEN_RAIL
 *  4. Content-Type is not application/json → 415 UNSUPPORTED_MEDIA_TYPE
 *  5. body not a JSON object, a field of the wrong type → 400 INVALID_REQUEST
 *  6. scopes unknown, duplicated, isMale with isFemale, not wallet-provable in client proof mode,
 *     or outside the partner's allowed_scopes → 400 INVALID_SCOPES
 *  7. no enabled method can prove the scopes (domain/proving-methods.ts; the wallet is offered to
 *     loader-created requests only) → 400 NO_METHOD
 * and answers 201 {request_id, deep_link, expires_at}.
 *
 * GET /api/partner/verify-status/:requestId?wait=&known=: the same limit (its own counter) and
 * HMAC checks; `wait` or `known` malformed → 400 INVALID_REQUEST (as on /api/w/); a request that
 * is not this partner's own, made through this variant → 404 NOT_FOUND. A long poll past its caps
 * (per address across instances, per instance) is answered at once, as wait=0.
 *
 * Every answer here is Cache-Control: no-store (http/route-policy.ts); no CORS (server to server).
 */
import type { FastifyInstance } from 'fastify';
import type { PartnerVerifyRequestCreated, VerifyStatus } from '../../src/protocol/wire.ts';
import { partnerAuthHook } from '../auth/partner-auth.ts';
import type { AppDeps } from '../deps.ts';
import { createForSignedPartner, standardPartnerOf } from '../domain/index.ts';
import { pollPartnerStatus } from '../domain/index.ts';
import { INVALID_REQUEST_BODY, readJsonObject, readRequestChoices, requireJsonContentType } from '../http/body.ts';
import { readLongPoll, whileConnected } from '../http/long-poll.ts';
import { addressKey } from '../limits/client-address.ts';
import { RATE_LIMITS } from '../limits/rate-limits.ts';
import { partnerCreateSchema, partnerStatusSchema } from './verify-request-schemas.ts';

export const PARTNER_CREATE_PATH = '/api/partner/verify-request';
export const PARTNER_STATUS_PATH = '/api/partner/verify-status/:requestId';

/** Registers /api/partner/verify-request and /api/partner/verify-status/:requestId. */
export function registerPartnerRequestRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.register(async (partnerScope) => {
    partnerScope.post(
      PARTNER_CREATE_PATH,
      {
        schema: partnerCreateSchema,
        // per client address, before any header is read
        config: { rateLimit: RATE_LIMITS.partnerVerifyRequest, auth: 'partner-signature' },
        preValidation: partnerAuthHook(deps, { requireContentType: true }),
      },
      async (request, reply) => {
        const partner = standardPartnerOf(request.partner!);
        requireJsonContentType(request);
        const body = readJsonObject(request, INVALID_REQUEST_BODY);
        const created = await createForSignedPartner(deps, partner, {
          ...readRequestChoices(body),
          scopes: body.scopes,
        });
        const answer: PartnerVerifyRequestCreated = {
          request_id: created.record.id,
          deep_link: created.deepLink,
          expires_at: created.record.deadlineAt,
        };
        return reply.code(201).send(answer);
      },
    );

    partnerScope.get<{ Params: { requestId: string }; Querystring: Record<string, unknown> }>(
      PARTNER_STATUS_PATH,
      {
        schema: partnerStatusSchema,
        config: { rateLimit: RATE_LIMITS.partnerVerifyStatus, auth: 'partner-signature' },
        preValidation: partnerAuthHook(deps, { requireContentType: false }),
      },
      async (request): Promise<VerifyStatus> => {
        const poll = readLongPoll(request.query);
        const { requestId } = request.params;
        const client = addressKey(request.ip);
        return whileConnected(request, (signal) =>
          pollPartnerStatus(deps, request.partner!, { requestId, poll, client, signal }),
        );
      },
    );
  });
}
