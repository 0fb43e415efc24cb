/**
 * The persona picker (design.md §4): the phone page's sandbox method. Registered by app.ts in sandbox
 * mode only, through a dynamic import(), so production never loads this module and answers these
 * routes 404 NOT_FOUND. The phone's routes of both modes are routes/phone.ts.
 *
 * GET /api/m/personas → the personas, id and label.
 *
 * POST /api/m/requests/:requestId/complete {h, persona, method, outcome} answers the first failing
 * check, in this order:
 *  1. body not a JSON object, a field missing or of the wrong type (persona and method may be left
 *     out when the outcome is failed or cancelled) → 400 INVALID_REQUEST
 *  2. unknown request, malformed id, wrong or malformed h → 404 NOT_FOUND
 *  3. already completed or failed → 409 ALREADY_FINISHED
 *  4. past its deadline → 410 REQUEST_EXPIRED
 *  5. method is not eudi_wallet in client proof mode, or is eudi_wallet outside it; an unknown
 *     persona → 400 INVALID_REQUEST
 *
 * When the EUDI wallet path is offered (design.md §11, §13), the eudi_wallet method goes through the
 * sandbox wallet and the verifier, never around them: /complete with eudi_wallet approved (or
 * cancelled) makes the sandbox wallet present (or decline) over HTTP to the request's response_uri,
 * and POST /api/m/requests/:requestId/wallet {h, persona, credential?, tamper?} does the same,
 * with a tampered presentation for QA → 200 { status, verifier: { status, error_description? } }.
 * Both take an optional `credential` (`av`, `pid`, `pid-no-age` — the PID without age_over_18,
 * design.md §15 —, `mdl`, `pid-sd-jwt` — the PID as an SD-JWT VC — or `pid-sd-jwt-revoked`; default
 * the first the request's link accepts); one the link does not accept → 400 INVALID_REQUEST. The
 * credential points to the sandbox's status list (`{app_url}/sandbox/status/1`).
 */
import type { FastifyInstance } from 'fastify';
import type { Method, Outcome } from '../../src/protocol/wire.ts';
import { type PersonaSummary, SANDBOX_WALLET_CHOICES, type SandboxWalletChoice } from '../../src/protocol/sandbox.ts';
import type { SandboxAppDeps } from './deps.ts';
import { readOneOf, readString } from '../http/body.ts';
import { readHandoff } from '../routes/phone.ts';
import { completeFromPhone } from './persona-approval.ts';
import { summarizePersonas } from './personas.ts';
import { presentWithSandboxWallet, postFormOverHttp, type WalletPresentation } from './phone-wallet.ts';
import { isWalletTamper, WALLET_TAMPERS } from './wallet/sandbox-wallet.ts';
import type { JsonObject } from '../http/body.ts';

export const PERSONAS_PATH = '/api/m/personas';
export const PHONE_COMPLETE_PATH = '/api/m/requests/:requestId/complete';
export const PHONE_WALLET_PATH = '/api/m/requests/:requestId/wallet';

const METHODS: readonly Method[] = ['face_check', 'eudi_wallet'];
const OUTCOMES: readonly Outcome[] = ['approved', 'failed', 'cancelled'];

const CHOICES = Object.keys(SANDBOX_WALLET_CHOICES) as SandboxWalletChoice[];

/** The optional `credential` of a body: av, pid, pid-no-age, mdl, pid-sd-jwt or pid-sd-jwt-revoked. */
function readCredential(body: JsonObject): { credential?: SandboxWalletChoice } {
  if (body.credential === undefined) return {};
  return { credential: readOneOf(body.credential, CHOICES, 'credential', true)! };
}

/** Registers the persona picker's routes; app.ts calls it in sandbox mode only, with the personas (deps.ts). */
export function registerSandboxPhoneRoutes(app: FastifyInstance, deps: SandboxAppDeps): void {
  app.register(async (phone) => {
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
          { personaId, cancel: !approved, ...readCredential(body) },
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
      const choice = {
        personaId: readString(body, 'persona'),
        ...(isWalletTamper(tamper) ? { tamper } : {}),
        ...readCredential(body),
      };
      return (await presentWithSandboxWallet(deps, handoff, choice, postFormOverHttp))!;
    });
  });
}
