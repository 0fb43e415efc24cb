/**
 * The persona picker's verdict (design.md §4, sandbox only): the phone page names a persona, a method
 * and an outcome. The sandbox works out what the persona proves, through the one facts rule
 * (personaFacts); the request ends as every other verdict ends it, through domain/'s
 * settlePhoneVerdict (approveRequest, or settle as failed).
 */
import type { Method, Outcome, RequestStatus } from '../../src/protocol/wire.ts';
import type { AppDeps } from '../deps.ts';
import type { SandboxDeps } from './deps.ts';
import { findActionableForPhone, type PhoneHandoff, settlePhoneVerdict } from '../domain/index.ts';
import type { VerifyRequestRecord } from '../store/store.ts';
import { findPersona, personaFacts } from './personas.ts';

export interface Completion {
  outcome: Outcome;
  /** required when approved */
  method: Method | null;
  /** one of `deps.personas`; required when approved */
  personaId: string | null;
}

/**
 * The phone's verdict. Approved STANDARD: a single-use grant (5 min) with the requested
 * attributes only. Approved ADULT_BLIND: an attestation whose scope_mask has a bit only for a fact
 * proven true. Either is sealed to the request's reader. Failed or cancelled: status failed.
 * 409 ALREADY_FINISHED, 410 REQUEST_EXPIRED, then 400 INVALID_REQUEST for a method that does not
 * fit the mode or an unknown persona.
 *
 * @example await completeRequest(deps, record, { outcome: 'approved', method: 'face_check', personaId: 'fr-adult-m' })
 */
export function completeRequest(
  deps: Pick<AppDeps, 'store' | 'clock' | 'nullifierKey' | 'blind'> & SandboxDeps,
  record: VerifyRequestRecord,
  { outcome, method, personaId }: Completion,
): Promise<VerifyRequestRecord> {
  return settlePhoneVerdict(deps, record, {
    outcome,
    method,
    proof: (now) => {
      const persona = findPersona(deps.personas, personaId);
      return persona && { subject: persona.id, facts: personaFacts(persona, now) };
    },
  });
}

/**
 * The verdict of the phone that holds the deep link: 404 NOT_FOUND for an unknown request or a
 * wrong handoff token, then as completeRequest.
 *
 * @example await completeFromPhone(deps, { requestId, handoffToken }, { outcome: 'cancelled', method: null, personaId: null })
 */
export async function completeFromPhone(
  deps: Parameters<typeof completeRequest>[0],
  handoff: PhoneHandoff,
  completion: Completion,
): Promise<{ status: RequestStatus }> {
  const record = await completeRequest(deps, await findActionableForPhone(deps, handoff), completion);
  return { status: record.status };
}
