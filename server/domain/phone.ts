/**
 * The sandbox phone's two actions (DESIGN §4): open the deep link, then give a verdict
 * (approved, failed or cancelled). The handoff token from the deep link is the phone's only
 * credential; on ADULT_BLIND requests the phone sees the blind app id, never the partner.
 */
import type { PhoneMethod, PhoneOpened, RequestStatus } from '../../src/protocol/api.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import type { VerifyRequestRecord } from '../store/store.ts';
import { providersFor } from './provider-login.ts';
import { walletOfferView } from './wallet-offer.ts';
import {
  completeRequest,
  effectiveStatus,
  findRequestForPhone,
  isOpenStatus,
  openRequest,
  type Completion,
} from './verify-requests.ts';

/** What the phone presents: the request id from the URL and the handoff token from its fragment. */
export interface PhoneHandoff {
  requestId: string;
  handoffToken: string;
}

async function findForPhone(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  handoff: PhoneHandoff,
): Promise<VerifyRequestRecord> {
  const found = await findRequestForPhone(deps.store, handoff.requestId, handoff.handoffToken, deps.clock.now());
  if (!found) throw new ServiceError('NOT_FOUND', { cause: 'unknown request or wrong handoff token' });
  return found;
}

/**
 * The phone opened the deep link: what it shows (a failed request with its reason, so the page
 * can say why a provider's sign-in ended; whether the service runs in sandbox, for its test mark
 * even once the request is finished). 404 NOT_FOUND for an unknown request or a wrong
 * handoff token, 410 REQUEST_EXPIRED past the deadline; a finished request answers as it is.
 *
 * @example const opened = await openFromPhone(deps, { requestId, handoffToken: body.h })
 */
export async function openFromPhone(
  deps: Pick<AppDeps, 'store' | 'clock' | 'config' | 'wallet'>,
  handoff: PhoneHandoff,
): Promise<PhoneOpened> {
  const record = await openRequest(deps, await findForPhone(deps, handoff));
  const status = effectiveStatus(record, deps.clock.now());
  return {
    scopes: record.scopes,
    rail: record.rail,
    client_proof_mode: record.clientProofMode,
    audience_label: record.audienceLabel,
    expires_at: status === 'completed' || status === 'failed' ? record.expiresAt : record.deadlineAt,
    status,
    ...(status === 'failed' && record.reason !== null ? { reason: record.reason } : {}),
    sandbox: deps.config.mode === 'sandbox',
    methods: isOpenStatus(status) ? await phoneMethodsOf(deps, record) : [],
  };
}

/**
 * The ways the phone can prove this request, in DESIGN §12's order: the EUDI wallet when the
 * request carries a wallet request, each enabled provider that proves every scope, the sandbox.
 */
export async function phoneMethodsOf(
  deps: Pick<AppDeps, 'store' | 'config'>,
  record: VerifyRequestRecord,
): Promise<PhoneMethod[]> {
  const methods: PhoneMethod[] = [];
  if (record.wallet) methods.push({ id: 'eudi_wallet', ...walletOfferView(record.wallet) });
  for (const provider of await providersFor(deps.store, record.scopes))
    methods.push({ id: provider.id as `idp_${string}`, name: provider.name, method: provider.method });
  if (deps.config.mode === 'sandbox') methods.push({ id: 'sandbox' });
  return methods;
}

/**
 * The phone's verdict (completeRequest says what each one issues): 404 as for open, 409
 * ALREADY_FINISHED, 410 REQUEST_EXPIRED, 400 INVALID_REQUEST for a method that does not fit the
 * mode or an unknown persona.
 *
 * @example await completeFromPhone(deps, { requestId, handoffToken }, { outcome: 'cancelled', method: null, personaId: null })
 */
export async function completeFromPhone(
  deps: Parameters<typeof completeRequest>[0],
  handoff: PhoneHandoff,
  completion: Completion,
): Promise<{ status: RequestStatus }> {
  const record = await completeRequest(deps, await findForPhone(deps, handoff), completion);
  return { status: record.status };
}
