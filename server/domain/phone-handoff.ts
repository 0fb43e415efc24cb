/**
 * What every phone call starts with (design.md §4, §12): the request id from the deep link's path
 * and the handoff token from its fragment, the phone's only credential. The phone's own use cases
 * (phone.ts, provider-login.ts, wallet-response.ts) and the sandbox's phone (the persona picker, the
 * sandbox wallet) find their request here; those that act on it refuse one they can no longer act
 * on (findActionableForPhone: 409 ALREADY_FINISHED, 410 REQUEST_EXPIRED).
 */
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import type { VerifyRequestRecord } from '../store/store.ts';
import { assertActionable, findRequestForPhone } from './verify-requests.ts';

/** What the phone presents: the request id from the URL and the handoff token from its fragment. */
export interface PhoneHandoff {
  requestId: string;
  handoffToken: string;
}

/**
 * The request the phone names; 404 NOT_FOUND for an unknown request or a wrong handoff token.
 *
 * @example const record = await findForPhone(deps, { requestId, handoffToken: body.h })
 */
export async function findForPhone(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  handoff: PhoneHandoff,
): Promise<VerifyRequestRecord> {
  const found = await findRequestForPhone(deps.store, handoff.requestId, handoff.handoffToken, deps.clock.now());
  if (!found) throw new ServiceError('NOT_FOUND', { cause: 'unknown request or wrong handoff token' });
  return found;
}

/**
 * The request the phone names, when it can still act on it: 404 NOT_FOUND as findForPhone, then 409
 * ALREADY_FINISHED for a finished request, 410 REQUEST_EXPIRED past its deadline.
 *
 * @example const record = await findActionableForPhone(deps, { requestId, handoffToken: body.h })
 */
export async function findActionableForPhone(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  handoff: PhoneHandoff,
): Promise<VerifyRequestRecord> {
  const record = await findForPhone(deps, handoff);
  assertActionable(record, deps.clock.now());
  return record;
}
