/**
 * The phone's API (DESIGN §4, §12): what the phone page at /m/v/:requestId calls. In both modes:
 * `open` (with the methods that can prove the request), the identity providers' `start`, and the
 * providers' callback `GET /m/callback` (which sends the visitor back to the phone page, in its
 * finished state, as `/m/v/<id>?login=<result>`; an unknown or used state gets the page with 400).
 * In sandbox only: the persona picker (`personas`, `complete`, `wallet`); production answers
 * those 404 NOT_FOUND. (The page itself is served by routes/assets.ts.)
 *
 * POST /api/m/requests/:requestId/wallet-response {h, credential} (both modes): what the Digital
 * Credentials API gave the phone page ("Use a wallet on this phone"), verified exactly as the
 * partner page's /api/w/wallet-response but bound to the phone page's origin (the app URL's): a
 * body that is not a JSON object with h → 400 INVALID_REQUEST; unknown request or wrong h → 404
 * NOT_FOUND; another Origin, no wallet request, a request no longer waiting or a presentation the
 * verifier refuses → 400 `{"error":"invalid_request","error_description"}` with the request left
 * waiting; accepted → 200 `{ status, reason? }` (PhoneWalletAnswered). It shares the wallet
 * routes' budget of 120 posts a minute per client address.
 *
 * POST /api/m/requests/:requestId/open {h} and /complete {h, persona, method, outcome} answer the
 * first failing check, in this order:
 *  1. body not a JSON object, a field missing or of the wrong type (persona and method may be left
 *     out when the outcome is failed or cancelled) → 400 INVALID_REQUEST
 *  2. unknown request, malformed id, wrong or malformed h → 404 NOT_FOUND
 *  3. complete: already completed or failed → 409 ALREADY_FINISHED (open answers 200 with the status)
 *  4. past its deadline → 410 REQUEST_EXPIRED
 *  5. complete: method is not eudi_wallet in client proof mode, or is eudi_wallet outside it;
 *     an unknown persona → 400 INVALID_REQUEST
 * On ADULT_BLIND requests the phone sees the blind app id, never the partner.
 *
 * When the EUDI wallet path is offered (DESIGN §11), the eudi_wallet method goes through the
 * sandbox wallet and the verifier, never around them: /complete with eudi_wallet approved (or
 * cancelled) makes the sandbox wallet present (or decline) over HTTP to the request's response_uri,
 * and POST /api/m/requests/:requestId/wallet {h, persona, tamper?} does the same with a tampered
 * presentation for QA → 200 { status, verifier: { status, error_description? } }.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {
  LoginResult,
  Method,
  Outcome,
  PersonaSummary,
  PhoneOpened,
  PhoneWalletAnswered,
  ProviderLoginStarted,
  WalletResponseError,
} from '../../src/protocol/api.ts';
import { CALLBACK_PATH, finishProviderLogin, startProviderLogin } from '../domain/provider-login.ts';
import { sendPhonePage } from './assets.ts';
import type { AppDeps } from '../deps.ts';
import { summarizePersonas } from '../domain/personas.ts';
import { completeFromPhone, openFromPhone, type PhoneHandoff } from '../domain/phone.ts';
import { presentWithSandboxWallet, postFormOverHttp, type WalletPresentation } from '../domain/phone-wallet.ts';
import { answerPhoneDcApiResponse } from '../domain/wallet-response.ts';
import { addressKey } from '../limits/client-address.ts';
import { enforceRateLimit, RATE_LIMITS } from '../limits/rate-limits.ts';
import { isWalletTamper, WALLET_TAMPERS } from '../wallet/sandbox-wallet.ts';
import { INVALID_REQUEST_BODY, readJsonObject, readOneOf, readString, type JsonObject } from '../http/body.ts';

export const PERSONAS_PATH = '/api/m/personas';
export const PHONE_OPEN_PATH = '/api/m/requests/:requestId/open';
export const PHONE_COMPLETE_PATH = '/api/m/requests/:requestId/complete';
export const PHONE_WALLET_PATH = '/api/m/requests/:requestId/wallet';
export const PROVIDER_START_PATH = '/api/m/requests/:requestId/providers/:providerId/start';
export const PHONE_WALLET_RESPONSE_PATH = '/api/m/requests/:requestId/wallet-response';

const METHODS: readonly Method[] = ['face_check', 'eudi_wallet'];
const OUTCOMES: readonly Outcome[] = ['approved', 'failed', 'cancelled'];

type PhoneRequest = FastifyRequest<{ Params: { requestId: string } }>;

/** The body as an object with the handoff token `h`, and the request it names. */
function readHandoff(request: PhoneRequest): { body: JsonObject; handoff: PhoneHandoff } {
  const body = readJsonObject(request, INVALID_REQUEST_BODY);
  return { body, handoff: { requestId: request.params.requestId, handoffToken: readString(body, 'h') } };
}

/** Registers the phone's routes: open, the providers' start and callback in both modes; the persona picker in sandbox. */
export function registerPhoneRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.register(async (phone) => {
    phone.addHook('onRequest', (_request, reply, done) => {
      reply.header('Cache-Control', 'no-store');
      done();
    });

    phone.post<{ Params: { requestId: string } }>(PHONE_OPEN_PATH, async (request): Promise<PhoneOpened> => {
      return openFromPhone(deps, readHandoff(request).handoff);
    });

    phone.post<{ Params: { requestId: string; providerId: string } }>(
      PROVIDER_START_PATH,
      async (request): Promise<ProviderLoginStarted> => {
        const body = readJsonObject(request, INVALID_REQUEST_BODY);
        const handoff = { requestId: request.params.requestId, handoffToken: readString(body, 'h') };
        return startProviderLogin(deps, handoff, request.params.providerId);
      },
    );

    phone.post<{ Params: { requestId: string } }>(PHONE_WALLET_RESPONSE_PATH, async (request, reply) => {
      await enforceRateLimit(deps.store, RATE_LIMITS.walletResponse, addressKey(request.ip), deps.clock.now());
      const { body, handoff } = readHandoff(request);
      const origin = request.headers.origin;
      const outcome = await answerPhoneDcApiResponse(deps, {
        handoff,
        origin: typeof origin === 'string' && origin !== '' ? origin : null,
        appOrigin: new URL(deps.config.appUrl).origin,
        credential: body.credential,
      });
      const { requestId } = handoff;
      if (outcome.status === 'refused') {
        request.log.info({ requestId, check: outcome.check, detail: outcome.detail }, 'wallet response refused');
        const refused: WalletResponseError = { error: 'invalid_request', error_description: outcome.description };
        return reply.code(400).send(refused);
      }
      request.log.info({ requestId, outcome: outcome.status }, 'wallet response accepted');
      const answered: PhoneWalletAnswered =
        outcome.status === 'completed' ? { status: 'completed' } : { status: 'failed', reason: outcome.status };
      return answered;
    });

    phone.get(CALLBACK_PATH, async (request, reply) => {
      const result = await finishProviderLogin(deps, new URL(request.url, deps.config.appUrl));
      request.log.info(
        {
          outcome: result.kind,
          ...('provider' in result ? { provider: result.provider } : {}),
          ...('reason' in result ? { reason: result.reason } : {}),
          ...('code' in result ? { code: result.code } : {}),
        },
        'identity provider login',
      );
      if (result.kind === 'unknown_state') return sendPhonePage(reply, deps.config.distDir, 400);
      const login: LoginResult = result.kind;
      return reply.redirect(`${deps.config.appUrl}/m/v/${result.requestId}?login=${login}`, 303);
    });
  });

  if (deps.config.mode !== 'sandbox') return;

  app.register(async (phone) => {
    phone.addHook('onRequest', (_request, reply, done) => {
      reply.header('Cache-Control', 'no-store');
      done();
    });

    phone.get(PERSONAS_PATH, async (): Promise<PersonaSummary[]> => summarizePersonas(deps.personas));

    phone.post<{ Params: { requestId: string } }>(PHONE_COMPLETE_PATH, async (request) => {
      const { body, handoff } = readHandoff(request);
      const outcome = readOneOf(body.outcome, OUTCOMES, 'outcome', true)!;
      const approved = outcome === 'approved';
      const method = readOneOf(body.method, METHODS, 'method', approved);
      const personaId = body.persona !== undefined || approved ? readString(body, 'persona') : null;
      if (method === 'eudi_wallet' && outcome !== 'failed') {
        const presented = await presentWithSandboxWallet(
          deps,
          handoff,
          { personaId, cancel: !approved },
          postFormOverHttp,
          { onlyIfOffered: true },
        );
        if (presented) return { status: presented.status };
      }
      return completeFromPhone(deps, handoff, { outcome, method, personaId });
    });

    phone.post<{ Params: { requestId: string } }>(PHONE_WALLET_PATH, async (request): Promise<WalletPresentation> => {
      const { body, handoff } = readHandoff(request);
      const tamper =
        body.tamper === undefined ? undefined : readOneOf(body.tamper, Object.keys(WALLET_TAMPERS), 'tamper', true);
      const choice = { personaId: readString(body, 'persona'), ...(isWalletTamper(tamper) ? { tamper } : {}) };
      return (await presentWithSandboxWallet(deps, handoff, choice, postFormOverHttp))!;
    });
  });
}
