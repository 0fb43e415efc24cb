/**
 * How a verification request's status reads at a given time (design.md §3): the store keeps the
 * status last written, and expiry is read, never written. The use cases in domain/, the sandbox's
 * phone and the store's observer (telemetry/observed-store.ts) read it through these two.
 */
import type { RequestStatus } from '../../src/protocol/wire.ts';

/**
 * True while the request waits for the phone or its verdict (`pending`, `in_progress`).
 *
 * @example isOpenStatus('in_progress') // true
 */
export function isOpenStatus(status: RequestStatus): boolean {
  return status === 'pending' || status === 'in_progress';
}

/**
 * The status a reader sees: an open request past its deadline reads `expired`.
 *
 * @example effectiveStatus({ status: 'pending', deadlineAt: 1_000 }, 2_000) // 'expired'
 */
export function effectiveStatus(record: { status: RequestStatus; deadlineAt: number }, now: number): RequestStatus {
  return isOpenStatus(record.status) && now >= record.deadlineAt ? 'expired' : record.status;
}
