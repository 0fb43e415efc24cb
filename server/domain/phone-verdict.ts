/**
 * A verdict the phone page states itself: the sandbox's persona picker (design.md §4). The picker
 * names an outcome, a method and a persona; sandbox/persona-approval.ts works out what the persona
 * proves, and the request ends here as every other verdict ends it (verify-requests.ts):
 * approveRequest, or settle as failed.
 */
import type { Method, Outcome } from '../../src/protocol/wire.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import type { ProvenFacts } from '../rules/facts.ts';
import type { VerifyRequestRecord } from '../store/store.ts';
import { approveRequest, assertActionable, EXPIRED_GRACE_MS, settle } from './verify-requests.ts';

/** Who is proven and what: asked only for an approval, once the request and the method passed. */
export type ProofOf = (now: number) => { subject: string; facts: ProvenFacts } | null;

export interface PhoneVerdict {
  outcome: Outcome;
  /** required when approved */
  method: Method | null;
  /** the approval's subject and facts; null: none known (400 INVALID_REQUEST) */
  proof: ProofOf;
}

/**
 * Ends `record` with the phone's verdict: 409 ALREADY_FINISHED, 410 REQUEST_EXPIRED, then 400
 * INVALID_REQUEST for a method that does not fit the mode (eudi_wallet in client proof mode and
 * only there), then, approved, for a verdict without a method or a proof. Failed or cancelled:
 * status failed, the outcome its reason.
 *
 * @example await settlePhoneVerdict(deps, record, { outcome: 'cancelled', method: null, proof: () => null })
 */
export async function settlePhoneVerdict(
  deps: Pick<AppDeps, 'store' | 'clock' | 'nullifierKey' | 'blind'>,
  record: VerifyRequestRecord,
  verdict: PhoneVerdict,
): Promise<VerifyRequestRecord> {
  const now = deps.clock.now();
  assertActionable(record, now);
  const { method, outcome } = verdict;
  if (method !== null) {
    if (record.clientProofMode && method !== 'eudi_wallet') {
      throw new ServiceError('INVALID_REQUEST', { cause: 'client proof mode needs method eudi_wallet' });
    }
    if (!record.clientProofMode && method === 'eudi_wallet') {
      throw new ServiceError('INVALID_REQUEST', { cause: 'eudi_wallet outside client proof mode' });
    }
  }

  if (outcome !== 'approved') {
    return settle(deps.store, record, now, {
      status: 'failed',
      reason: outcome,
      method,
      expiresAt: now + EXPIRED_GRACE_MS,
    });
  }
  const proof = method === null ? null : verdict.proof(now);
  if (method === null || proof === null)
    throw new ServiceError('INVALID_REQUEST', { cause: 'approval without a method or a known persona' });

  return approveRequest(deps, record, { method, ...proof });
}
