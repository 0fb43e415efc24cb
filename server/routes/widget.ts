/**
 * Verification requests (DESIGN §3): the loader's two endpoints under /api/w/ and their
 * HMAC-signed partner variants under /api/partner/.
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
 *  ADULT_BLIND (session_token; a `scopes` field is ignored, the token's scopes apply):
 *  3. token bad or expired → 401 SESSION_INVALID
 *  4. Origin header missing or not hashing to the token's origin_hash → 403 ORIGIN_NOT_ALLOWED
 *  5. more than 20 requests from one session token (renewals are fine) → 429 {error: "Too many requests"}
 *
 * GET /api/w/verify-status/:requestId?pt=&wait=&known=: `wait` not an integer 0..25, or `known` not a
 * status → 400 INVALID_REQUEST (`known`, optional: the status the caller shows; a long poll that
 * finds another one answers at once);
 * a malformed id → 404; then the per-request limit (30 per 60 s, counted per well-formed id whether
 * or not it exists, so the 429 is no oracle either) → 429 RATE_LIMITED, Retry-After: 60; then
 * unknown request, wrong or malformed pt → 404 NOT_FOUND, one body for all.
 *
 * CORS on /api/w/*: any origin, no credentials, preflights answered, X-SVC-CID and Retry-After
 * exposed. Every answer here is Cache-Control: no-store.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hkdfSync } from 'node:crypto';
import type { Locale, PartnerVerifyRequestCreated, VerifyRequestCreated, VerifyStatus } from '../../src/protocol/api.ts';
import { findScopeProblem, scopesOfMask } from '../../src/protocol/scopes.ts';
import { partnerAuthHook } from '../auth/partner-auth.ts';
import { originHash } from '../crypto/blind.ts';
import type { AppDeps } from '../deps.ts';
import { PARTNER_ID_PATTERN } from '../domain/partners.ts';
import { encodeQr } from '../domain/qr.ts';
import { readRequestScopes } from '../domain/scopes.ts';
import {
  createVerifyRequest,
  findRequestForPartner,
  findRequestForPoller,
  effectiveStatus,
  isAwaitingPhone,
  isRequestId,
  POLL_AFTER_MS,
  statusView,
  type CreatedRequest,
} from '../domain/verify-requests.ts';
import { ServiceError, TooManyRequestsError } from '../errors.ts';
import {
  INVALID_REQUEST_BODY,
  readJsonObject,
  readOneOf,
  readOptionalBoolean,
  requireJsonContentType,
  type JsonObject,
} from '../http/body.ts';
import { readLongPoll, whileConnected, type LongPoll } from '../http/long-poll.ts';
import { addressKey } from '../limits/client-address.ts';
import { enforceRateLimit, enforceStatusRateLimit, RATE_LIMITS } from '../limits/rate-limits.ts';
import type { PartnerRecord, VerifyRequestRecord } from '../store/store.ts';

export const WIDGET_CREATE_PATH = '/api/w/verify-request';
export const WIDGET_STATUS_PATH = '/api/w/verify-status/:requestId';
export const PARTNER_CREATE_PATH = '/api/partner/verify-request';
export const PARTNER_STATUS_PATH = '/api/partner/verify-status/:requestId';

/** Requests one session token may create within its 300 s life: the first and its renewals. */
export const SESSION_TOKEN_MAX_REQUESTS = 20;
const SESSION_TOKEN_WINDOW_MS = 300_000;

const LOCALES: readonly Locale[] = ['fr', 'en'];

function invalid(cause: string): ServiceError {
  return new ServiceError('INVALID_REQUEST', { cause });
}

function readLocale(body: JsonObject): Locale {
  return readOneOf(body.locale ?? 'fr', LOCALES, 'locale', true)!;
}

/**
 * What opens the result of a partner-created request (the partner polls with its signature,
 * not a poll token): a key derived from a service secret and the partner ID. Not the partner's
 * own secret, which a rotation would change while a request is open.
 */
function partnerResultReader(deps: AppDeps, partnerId: string): string {
  return Buffer.from(hkdfSync('sha256', deps.nullifierKey, Buffer.alloc(0), `svc/partner-result-reader/${partnerId}`, 32)).toString('base64url');
}

function requestOrigin(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  return typeof origin === 'string' && origin !== '' ? origin : null;
}

function refuseBlindPartner(partner: PartnerRecord): void {
  if (partner.rail !== 'standard') {
    throw new ServiceError('FORBIDDEN_RAIL', {
      message: 'This partner is on the ADULT_BLIND rail: use a session token, not a partner ID.',
      cause: 'adult_blind partner used a partner id',
    });
  }
}

async function createStandard(
  deps: AppDeps,
  request: FastifyRequest,
  body: JsonObject,
  clientProofMode: boolean,
  locale: Locale,
): Promise<CreatedRequest> {
  const partnerId = body.partner_id;
  if (typeof partnerId !== 'string') throw invalid('partner_id must be a string');
  // The list itself is checked first; the partner's allowed_scopes only once the origin matched.
  const requested = readRequestScopes(body.scopes, clientProofMode, null);
  const partner = PARTNER_ID_PATTERN.test(partnerId) ? await deps.store.getPartner(partnerId) : null;
  if (!partner) throw new ServiceError('INVALID_PARTNER', { cause: 'unknown partner id' });
  refuseBlindPartner(partner);
  if (requestOrigin(request) !== partner.domain) throw new ServiceError('ORIGIN_NOT_ALLOWED', { cause: 'origin is not the registered domain' });
  const scopes = readRequestScopes(requested, clientProofMode, partner.allowedScopes);
  return createVerifyRequest(
    deps,
    { rail: 'standard', partnerId: partner.id, appId: null, originHash: null, sessionJti: null, scopes, clientProofMode, locale, audienceLabel: partner.name },
    { channel: 'widget' },
  );
}

async function createBlind(
  deps: AppDeps,
  request: FastifyRequest,
  body: JsonObject,
  clientProofMode: boolean,
  locale: Locale,
): Promise<CreatedRequest> {
  const token = body.session_token;
  if (typeof token !== 'string') throw invalid('session_token must be a string');
  const claims = await deps.blind.verifySessionToken(token);
  const origin = requestOrigin(request);
  if (origin === null || originHash(origin) !== claims.origin_hash) {
    throw new ServiceError('ORIGIN_NOT_ALLOWED', { cause: 'origin does not hash to the session origin_hash' });
  }
  const scopes = scopesOfMask(claims.scope_mask);
  const problem = findScopeProblem(scopes, clientProofMode);
  if (problem) throw new ServiceError('INVALID_SCOPES', { cause: `session token scopes: ${problem}` });
  const uses = await deps.store.hitCounter(`widget-create-session:${claims.jti}`, SESSION_TOKEN_WINDOW_MS, deps.clock.now());
  if (uses.count > SESSION_TOKEN_MAX_REQUESTS) {
    throw new TooManyRequestsError(Math.max(1, Math.ceil((uses.resetAt - deps.clock.now()) / 1000)), { cause: 'session token reused too often' });
  }
  return createVerifyRequest(
    deps,
    {
      rail: 'adult_blind',
      partnerId: null,
      appId: claims.app_id,
      originHash: claims.origin_hash,
      sessionJti: claims.jti,
      scopes,
      clientProofMode,
      locale,
      audienceLabel: claims.app_id,
    },
    { channel: 'widget' },
  );
}

/**
 * The long poll: waits until the request changes (here or on another instance), `waitSeconds`
 * pass, its deadline comes, or the client goes away; then reads it again. null if it is gone.
 */
async function awaitChange(
  deps: AppDeps,
  record: VerifyRequestRecord,
  poll: LongPoll,
  signal: AbortSignal,
): Promise<VerifyRequestRecord | null> {
  const now = deps.clock.now();
  if (poll.waitSeconds === 0 || !isAwaitingPhone(record, now)) return record;
  if (poll.known !== null && poll.known !== effectiveStatus(record, now)) return record;
  await deps.store.waitForRequestChange(record.id, record.version, Math.min(poll.waitSeconds * 1000, record.deadlineAt - now), signal);
  return deps.store.getRequest(record.id, deps.clock.now());
}


/** Registers the loader's endpoints and their partner variants. */
export function registerWidgetRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.register(async (widget) => {
    widget.addHook('onRequest', (_request, reply, done) => {
      reply.headers({
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Expose-Headers': 'X-SVC-CID, Retry-After',
        'Cache-Control': 'no-store',
      });
      done();
    });

    const preflight = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply
        .code(204)
        .headers({ 'Access-Control-Allow-Methods': 'GET, POST, OPTIONS', 'Access-Control-Allow-Headers': 'Content-Type', 'Access-Control-Max-Age': '600' })
        .send();
    widget.options(WIDGET_CREATE_PATH, preflight);
    widget.options(WIDGET_STATUS_PATH, preflight);

    widget.post(WIDGET_CREATE_PATH, async (request, reply) => {
      await enforceRateLimit(deps.store, RATE_LIMITS.widgetCreate, addressKey(request.ip), deps.clock.now());
      const body = readJsonObject(request, INVALID_REQUEST_BODY);
      const hasPartner = body.partner_id !== undefined;
      if (hasPartner === (body.session_token !== undefined)) throw invalid('send exactly one of partner_id and session_token');
      const clientProofMode = readOptionalBoolean(body, 'client_proof_mode', false);
      const locale = readLocale(body);
      const created = hasPartner
        ? await createStandard(deps, request, body, clientProofMode, locale)
        : await createBlind(deps, request, body, clientProofMode, locale);
      const answer: VerifyRequestCreated = {
        request_id: created.record.id,
        poll_token: created.pollToken,
        deep_link: created.deepLink,
        expires_at: created.record.deadlineAt,
        poll_after_ms: POLL_AFTER_MS,
        sandbox: deps.config.mode === 'sandbox',
        qr: encodeQr(created.deepLink),
      };
      return reply.code(201).send(answer);
    });

    widget.get<{ Params: { requestId: string }; Querystring: Record<string, unknown> }>(WIDGET_STATUS_PATH, async (request): Promise<VerifyStatus> => {
      const poll = readLongPoll(request.query);
      const { requestId } = request.params;
      if (!isRequestId(requestId)) throw new ServiceError('NOT_FOUND', { cause: 'malformed request id' });
      await enforceStatusRateLimit(deps.store, requestId, deps.clock.now());
      const pollToken = request.query.pt;
      const found = await findRequestForPoller(deps.store, requestId, pollToken, deps.clock.now());
      if (!found) throw new ServiceError('NOT_FOUND', { cause: 'unknown request or wrong poll token' });
      const record = await whileConnected(request, (signal) => awaitChange(deps, found, poll, signal));
      if (!record) throw new ServiceError('NOT_FOUND', { cause: 'request gone while waiting' });
      return statusView(record, deps.clock.now(), pollToken as string);
    });
  });

  app.register(async (partnerScope) => {
    partnerScope.addHook('onRequest', (_request, reply, done) => {
      reply.header('Cache-Control', 'no-store');
      done();
    });

    partnerScope.post(
      PARTNER_CREATE_PATH,
      { preValidation: partnerAuthHook(deps, { requireContentType: true, preAuthLimit: RATE_LIMITS.partnerVerifyRequest }) },
      async (request, reply) => {
        const partner = request.partner!;
        refuseBlindPartner(partner);
        requireJsonContentType(request);
        const body = readJsonObject(request, INVALID_REQUEST_BODY);
        const clientProofMode = readOptionalBoolean(body, 'client_proof_mode', false);
        const locale = readLocale(body);
        const scopes = readRequestScopes(body.scopes, clientProofMode, partner.allowedScopes);
        const created = await createVerifyRequest(
          deps,
          { rail: 'standard', partnerId: partner.id, appId: null, originHash: null, sessionJti: null, scopes, clientProofMode, locale, audienceLabel: partner.name },
          { channel: 'partner', partnerSecret: partnerResultReader(deps, partner.id) },
        );
        const answer: PartnerVerifyRequestCreated = { request_id: created.record.id, deep_link: created.deepLink, expires_at: created.record.deadlineAt };
        return reply.code(201).send(answer);
      },
    );

    partnerScope.get<{ Params: { requestId: string }; Querystring: Record<string, unknown> }>(
      PARTNER_STATUS_PATH,
      { preValidation: partnerAuthHook(deps, { requireContentType: false, preAuthLimit: RATE_LIMITS.partnerVerifyStatus }) },
      async (request): Promise<VerifyStatus> => {
        const partner = request.partner!;
        const poll = readLongPoll(request.query);
        const found = await findRequestForPartner(deps.store, request.params.requestId, partner.id, deps.clock.now());
        if (!found) throw new ServiceError('NOT_FOUND', { cause: 'unknown request or another partner’s' });
        const record = await whileConnected(request, (signal) => awaitChange(deps, found, poll, signal));
        if (!record) throw new ServiceError('NOT_FOUND', { cause: 'request gone while waiting' });
        return statusView(record, deps.clock.now(), partnerResultReader(deps, partner.id));
      },
    );
  });
}
