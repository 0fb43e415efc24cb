/**
 * The phone opens the deep link (design.md §4, §12) and is told what is asked and the ways it can be
 * proven. The handoff token from the deep link is the phone's only credential; on ADULT_BLIND
 * requests the phone sees the blind app id, never the partner. (The verdicts: the wallet,
 * wallet-response.ts; the identity providers, provider-login.ts; in sandbox, the persona picker,
 * sandbox/persona-approval.ts.)
 */
import type { PhoneMethod, PhoneOpened } from '../../src/protocol/api.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import type { VerifyRequestRecord } from '../store/store.ts';
import { providersFor } from './provider-login.ts';
import { walletOfferView } from './wallet-offer.ts';
import { effectiveStatus, findRequestForPhone, isOpenStatus, openRequest } from './verify-requests.ts';

/** What the phone presents: the request id from the URL and the handoff token from its fragment. */
export interface PhoneHandoff {
  requestId: string;
  handoffToken: string;
}

/** The request the phone names; 404 NOT_FOUND for an unknown request or a wrong handoff token. */
export async function findForPhone(
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
 * The ways the phone can prove this request, in design.md §12's order: the EUDI wallet when the
 * request carries a wallet request, each enabled provider that proves every scope, the sandbox.
 */
export async function phoneMethodsOf(
  deps: Pick<AppDeps, 'store' | 'config'>,
  record: VerifyRequestRecord,
): Promise<PhoneMethod[]> {
  const methods: PhoneMethod[] = [];
  if (record.wallet) methods.push({ id: 'eudi_wallet', ...walletOfferView(deps, record.wallet) });
  for (const provider of await providersFor(deps.store, record.scopes))
    methods.push({ id: provider.id as `idp_${string}`, name: provider.name, method: provider.method });
  if (deps.config.mode === 'sandbox') methods.push({ id: 'sandbox' });
  return methods;
}
