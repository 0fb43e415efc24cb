/**
 * Polling a request's status (design.md §3): the loader with its poll token, a signed partner with
 * its signature. Either may long-poll: the answer comes when the request changes (here or on
 * another instance), the wait ends, its deadline comes or the client goes away. Past the caps on
 * concurrent long polls (limits/long-polls.ts) a poll is answered at once, as wait=0.
 */
import type { RequestStatus, VerifyStatus, WidgetVerifyStatus } from '../../src/protocol/wire.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import { enforceStatusMissLimit, enforceStatusRateLimit } from '../limits/rate-limits.ts';
import type { PartnerRecord, VerifyRequestRecord } from '../store/store.ts';
import { effectiveStatus } from '../rules/effective-status.ts';
import {
  findRequestForPartner,
  findRequestForPoller,
  isAwaitingPhone,
  isRequestId,
  statusView,
} from './verify-requests.ts';

/** What a status call asks of the wait. */
export interface LongPoll {
  /** seconds to wait for a change: 0 answers at once */
  waitSeconds: number;
  /**
   * The status the poller already shows, or null. A long poll that finds another status answers
   * at once, so a change that happened between two polls (the phone opening during the widget's
   * one-second pause) is not held for the whole wait.
   */
  known: RequestStatus | null;
}

type StatusDeps = Pick<AppDeps, 'store' | 'clock' | 'longPolls'>;

/** Who polls and how: `client` is the caller's address key (limits/client-address.ts). */
interface Poll {
  requestId: string;
  poll: LongPoll;
  client: string;
  signal: AbortSignal;
}

/**
 * The loader's poll. An unknown or malformed id, or a wrong poll token, is 404 NOT_FOUND, one
 * answer for all, counted against the client address (then 429 RATE_LIMITED), never against the
 * request: whoever read the id off a QR code cannot starve its widget. Then the request's own
 * limit (30 per 60 s, 429 RATE_LIMITED with Retry-After: 60).
 *
 * @example await pollWidgetStatus(deps, { requestId, pollToken: query.pt, poll: { waitSeconds: 25, known: null }, client, signal })
 */
export async function pollWidgetStatus(
  deps: StatusDeps,
  input: Poll & { pollToken: unknown },
): Promise<WidgetVerifyStatus> {
  const found = isRequestId(input.requestId)
    ? await findRequestForPoller(deps.store, input.requestId, input.pollToken, deps.clock.now())
    : null;
  if (!found) {
    await enforceStatusMissLimit(deps.store, input.client, deps.clock.now());
    throw new ServiceError('NOT_FOUND', { cause: 'unknown request or wrong poll token' });
  }
  await enforceStatusRateLimit(deps.store, input.requestId, deps.clock.now());
  const record = await awaitChange(deps, found, input);
  return statusView(record, deps.clock.now(), input.pollToken as string);
}

/**
 * A signed partner's poll of a request it created through the partner variant; 404 NOT_FOUND for
 * any other request, another partner's included.
 *
 * @example await pollPartnerStatus(deps, request.partner!, { requestId, poll, signal })
 */
export async function pollPartnerStatus(
  deps: StatusDeps & Pick<AppDeps, 'resultReader'>,
  partner: PartnerRecord,
  input: Poll,
): Promise<VerifyStatus> {
  const found = await findRequestForPartner(deps.store, input.requestId, partner.id, deps.clock.now());
  if (!found) throw new ServiceError('NOT_FOUND', { cause: 'unknown request or another partner’s' });
  const record = await awaitChange(deps, found, input);
  // A partner-created request is STANDARD: its result is a grant code, never a private attestation.
  return statusView(record, deps.clock.now(), deps.resultReader.keysFor(partner.id)) as VerifyStatus;
}

/** Waits for a change as `poll` asks, then reads the request again; 404 if it went meanwhile. */
async function awaitChange(
  deps: StatusDeps,
  record: VerifyRequestRecord,
  { poll, client, signal }: Poll,
): Promise<VerifyRequestRecord> {
  const now = deps.clock.now();
  if (poll.waitSeconds === 0 || !isAwaitingPhone(record, now)) return record;
  if (poll.known !== null && poll.known !== effectiveStatus(record, now)) return record;
  const waitMs = Math.min(poll.waitSeconds * 1000, record.deadlineAt - now);
  const release = await deps.longPolls.enter(client, waitMs);
  if (!release) return record;
  // The client going away or the instance stopping (SIGTERM) ends the wait.
  const waiting = new AbortController();
  const stop = () => waiting.abort();
  signal.addEventListener('abort', stop, { once: true });
  deps.longPolls.stopping.addEventListener('abort', stop, { once: true });
  if (signal.aborted || deps.longPolls.stopping.aborted) stop();
  try {
    await deps.store.waitForRequestChange(record.id, record.version, waitMs, waiting.signal);
  } finally {
    signal.removeEventListener('abort', stop);
    deps.longPolls.stopping.removeEventListener('abort', stop);
    release();
  }
  const reread = await deps.store.getRequest(record.id, deps.clock.now());
  if (!reread) throw new ServiceError('NOT_FOUND', { cause: 'request gone while waiting' });
  return reread;
}
