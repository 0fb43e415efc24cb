/**
 * The phone opens the deep link (design.md §4, §12) and is told what is asked and the ways it can be
 * proven. The handoff token from the deep link is the phone's only credential; on ADULT_BLIND
 * requests the phone sees the blind app id, never the partner. (The verdicts: the wallet,
 * wallet-response.ts; the identity providers, provider-login.ts; in sandbox, the persona picker,
 * sandbox/persona-approval.ts.)
 */
import type { PhoneOpened } from '../../src/protocol/wire.ts';
import type { AppDeps } from '../deps.ts';
import { findForPhone, type PhoneHandoff } from './phone-handoff.ts';
import { phoneMethodsOf } from './proving-methods.ts';
import { effectiveStatus, isOpenStatus } from '../rules/effective-status.ts';
import { openRequest } from './verify-requests.ts';

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
    locale: record.locale,
    expires_at: status === 'completed' || status === 'failed' ? record.expiresAt : record.deadlineAt,
    status,
    ...(status === 'failed' && record.reason !== null ? { reason: record.reason } : {}),
    sandbox: deps.config.mode === 'sandbox',
    methods: isOpenStatus(status) ? await phoneMethodsOf(deps, record) : [],
  };
}
