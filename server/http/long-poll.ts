/**
 * The long poll's HTTP side (design.md §3), shared by the loader's and the signed partner's status
 * routes: its query (`wait`, `known`) and a signal that aborts when the client goes away, so a
 * wait never outlives the connection it answers.
 */
import type { FastifyRequest } from 'fastify';
import { MAX_WAIT_SECONDS, type RequestStatus } from '../../src/protocol/wire.ts';
import type { LongPoll } from '../domain/index.ts';
import { ServiceError } from '../errors.ts';

const WAIT_PATTERN = /^\d{1,2}$/;
const STATUSES: readonly RequestStatus[] = ['pending', 'in_progress', 'completed', 'failed', 'expired'];

function invalid(cause: string): ServiceError {
  return new ServiceError('INVALID_REQUEST', { cause });
}

/**
 * `wait` (absent: 0; otherwise an integer 0..25) and `known` (absent, or a status); anything else
 * is 400 INVALID_REQUEST.
 *
 * @example readLongPoll({ wait: '25', known: 'pending' }) // { waitSeconds: 25, known: 'pending' }
 */
export function readLongPoll(query: unknown): LongPoll {
  const { wait, known } = query as Record<string, unknown>;
  if (wait !== undefined && (typeof wait !== 'string' || !WAIT_PATTERN.test(wait) || Number(wait) > MAX_WAIT_SECONDS)) {
    throw invalid(`wait must be an integer from 0 to ${MAX_WAIT_SECONDS}`);
  }
  if (known !== undefined && (typeof known !== 'string' || !STATUSES.includes(known as RequestStatus))) {
    throw invalid('known must be a status');
  }
  return { waitSeconds: wait === undefined ? 0 : Number(wait), known: (known as RequestStatus | undefined) ?? null };
}

/**
 * Runs `work` with a signal that aborts when the client closes the connection.
 *
 * @example return whileConnected(request, (signal) => pollWidgetStatus(deps, { …, signal }))
 */
export async function whileConnected<T>(
  request: FastifyRequest,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const abort = new AbortController();
  const onClose = (): void => abort.abort();
  request.raw.once('close', onClose);
  try {
    return await work(abort.signal);
  } finally {
    request.raw.off('close', onClose);
  }
}
