/**
 * The phone's API (design.md §4, §12): what the phone page at /m/v/:requestId calls, in both modes:
 * `open` (with the methods that can prove the request), the identity providers' `start` (which sets
 * the login cookie, login-cookie.ts), and the providers' callback `GET /m/callback` (which sends the
 * visitor back to the phone page, in its finished state, as `/m/v/<id>?login=<result>`; an unknown
 * or used state, or a browser without the login cookie, gets the page with 400).
 * The persona picker (`personas`, `complete`, `wallet`) is sandbox/phone-routes.ts, registered in
 * sandbox mode only; production answers those 404 NOT_FOUND. (The page itself is served by
 * routes/assets.ts.)
 *
 * POST /api/m/requests/:requestId/wallet-response {h, credential} (both modes): what the Digital
 * Credentials API gave the phone page ("Use a wallet on this phone"), verified exactly as the
 * partner page's /api/w/wallet-response but bound to the phone page's origin (the app URL's): a
 * body that is not a JSON object with h → 400 `invalid_request` (the wallet routes' error shape);
 * unknown request or wrong h → 404
 * NOT_FOUND; another Origin, no wallet request, a request no longer waiting or a presentation the
 * verifier refuses → 400 `{"error":"invalid_request","error_description"}` with the request left
 * waiting; accepted → 200 `{ status, reason? }` (PhoneWalletAnswered). It shares the wallet
 * routes' budget of 120 posts a minute per client address. Rate limits and the error shape are
 * the routes' config (http/route-policy.ts).
 *
 * POST /api/m/requests/:requestId/done {response_code} (both modes, design.md §19): the done view a
 * wallet's redirect_uri opened redeems its code, once → 200 `{status, locale}`; a missing,
 * malformed, forged, used or other request's code → 404 NOT_FOUND, and nothing changes.
 *
 * POST /api/m/requests/:requestId/open {h} answers the first failing check, in this order:
 *  1. body not a JSON object, h missing or not a string → 400 INVALID_REQUEST
 *  2. unknown request, malformed id, wrong or malformed h → 404 NOT_FOUND
 *  3. past its deadline → 410 REQUEST_EXPIRED (a finished request answers 200 with its status)
 * On ADULT_BLIND requests the phone sees the blind app id, never the partner.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LoginResult, PhoneOpened, PhoneWalletAnswered, ProviderLoginStarted } from '../../src/protocol/wire.ts';
import { CALLBACK_PATH, finishProviderLogin, startProviderLogin } from '../domain/index.ts';
import { sendPhonePage } from './assets.ts';
import {
  phoneDoneSchema,
  phoneOpenSchema,
  phoneWalletResponseSchema,
  providerCallbackSchema,
  providerStartSchema,
} from './phone-schemas.ts';
import { loginCookieValue, readLoginCookie, setLoginCookie } from './login-cookie.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import type { PhoneHandoff } from '../domain/index.ts';
import { openFromPhone } from '../domain/index.ts';
import { answerPhoneDcApiResponse, redeemResponseCode } from '../domain/index.ts';
import { refuseWalletAnswer, WALLET_ANSWER_BODY_LIMIT_BYTES } from './wallet.ts';
import { requestOrigin } from '../http/cors.ts';
import { RATE_LIMITS } from '../limits/rate-limits.ts';
import { INVALID_REQUEST_BODY, readJsonObject, readString, type JsonObject } from '../http/body.ts';

export const PHONE_OPEN_PATH = '/api/m/requests/:requestId/open';
export const PROVIDER_START_PATH = '/api/m/requests/:requestId/providers/:providerId/start';
export const PHONE_WALLET_RESPONSE_PATH = '/api/m/requests/:requestId/wallet-response';
export const PHONE_DONE_PATH = '/api/m/requests/:requestId/done';

type PhoneRequest = FastifyRequest<{ Params: { requestId: string } }>;

/** The body as an object with the handoff token `h`, and the request it names. */
export function readHandoff(request: PhoneRequest): { body: JsonObject; handoff: PhoneHandoff } {
  const body = readJsonObject(request, INVALID_REQUEST_BODY);
  return { body, handoff: { requestId: request.params.requestId, handoffToken: readString(body, 'h') } };
}

/** readHandoff for the wallet's answer: a bad body says what the body must be. */
function readWalletHandoff(request: PhoneRequest): ReturnType<typeof readHandoff> {
  try {
    return readHandoff(request);
  } catch (error) {
    if (!(error instanceof ServiceError) || error.code !== 'INVALID_REQUEST') throw error;
    throw new ServiceError('INVALID_REQUEST', {
      message: 'the body must be a JSON object with h and credential',
      cause: error.cause,
    });
  }
}

/** Registers the phone's routes of both modes: open, the providers' start and callback. */
export function registerPhoneRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.register(async (phone) => {
    phone.post<{ Params: { requestId: string } }>(
      PHONE_OPEN_PATH,
      { schema: phoneOpenSchema },
      async (request): Promise<PhoneOpened> => openFromPhone(deps, readHandoff(request).handoff),
    );

    phone.post<{ Params: { requestId: string; providerId: string } }>(
      PROVIDER_START_PATH,
      { schema: providerStartSchema, config: { rateLimit: RATE_LIMITS.providerStart } },
      async (request, reply): Promise<ProviderLoginStarted> => {
        const body = readJsonObject(request, INVALID_REQUEST_BODY);
        const handoff = { requestId: request.params.requestId, handoffToken: readString(body, 'h') };
        const { appUrl } = deps.config;
        const browserKey = loginCookieValue(readLoginCookie(request.headers.cookie, appUrl));
        const { started, deadlineAt } = await startProviderLogin(deps, handoff, request.params.providerId, browserKey);
        reply.header('Set-Cookie', setLoginCookie(appUrl, browserKey, (deadlineAt - deps.clock.now()) / 1000));
        return started;
      },
    );

    phone.post<{ Params: { requestId: string } }>(
      PHONE_WALLET_RESPONSE_PATH,
      // A wallet route: its refusals, a bad body's too, answer OpenID4VP's error shape (design.md §11).
      {
        schema: phoneWalletResponseSchema,
        bodyLimit: WALLET_ANSWER_BODY_LIMIT_BYTES,
        config: { rateLimit: RATE_LIMITS.walletResponse, errorShape: 'oauth' },
      },
      async (request): Promise<PhoneWalletAnswered> => {
        const { body, handoff } = readWalletHandoff(request);
        const outcome = await answerPhoneDcApiResponse(deps, {
          handoff,
          origin: requestOrigin(request),
          appOrigin: new URL(deps.config.appUrl).origin,
          credential: body.credential,
        });
        const { requestId } = handoff;
        if (outcome.status === 'refused') refuseWalletAnswer(deps, request, requestId, outcome);
        request.log.info({ requestId, outcome: outcome.status }, 'wallet response accepted');
        return outcome.status === 'completed'
          ? { status: 'completed' }
          : { status: 'failed', reason: outcome.status === 'failed' ? outcome.reason : 'cancelled' };
      },
    );

    phone.post<{ Params: { requestId: string } }>(
      PHONE_DONE_PATH,
      { schema: phoneDoneSchema, config: { rateLimit: RATE_LIMITS.phoneDone } },
      async (request) => {
        const body = readJsonObject(request, INVALID_REQUEST_BODY);
        const done = await redeemResponseCode(deps, request.params.requestId, body.response_code);
        if (done === null) throw new ServiceError('NOT_FOUND', { cause: 'no live response_code of this request' });
        return done;
      },
    );

    phone.get(CALLBACK_PATH, { schema: providerCallbackSchema }, async (request, reply) => {
      const { appUrl } = deps.config;
      const browserKey = readLoginCookie(request.headers.cookie, appUrl);
      const result = await finishProviderLogin(deps, new URL(request.url, appUrl), browserKey);
      request.log.info(
        {
          outcome: result.kind,
          ...('provider' in result ? { provider: result.provider } : {}),
          ...('reason' in result ? { reason: result.reason } : {}),
          ...('code' in result ? { code: result.code } : {}),
        },
        'identity provider login',
      );
      deps.telemetry?.metrics?.providerLogins.inc({
        provider: 'provider' in result ? result.provider : 'unknown',
        outcome: result.kind,
      });
      if (result.kind === 'unknown_state' || result.kind === 'other_browser')
        return sendPhonePage(reply, deps.config.distDir, 400);
      const login: LoginResult = result.kind;
      return reply.redirect(`${deps.config.appUrl}/m/v/${result.requestId}?login=${login}`, 303);
    });
  });
}
