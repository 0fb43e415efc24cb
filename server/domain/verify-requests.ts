/**
 * The verification request lifecycle (design.md §3, §4), which the use cases build on: creating
 * (create-request.ts), polling (request-status.ts), the phone's open (phone.ts), and the verdicts
 * that end a request, approveRequest and settle, which the wallet (wallet-response.ts), the
 * identity providers (provider-login.ts) and, in sandbox, the persona picker
 * (phone-verdict.ts, for sandbox/persona-approval.ts) call.
 *
 *   pending ──open──▶ in_progress ──complete: approved──▶ completed  (result until the grant expires)
 *      │                   └───────complete: failed | cancelled──▶ failed
 *      └──── deadline passes (either open state) ──▶ read as expired for a grace period, then unknown
 *
 * The store keeps digests of the poll and handoff tokens, never the tokens, and the result only
 * sealed to its reader (crypto/result-box.ts). On the ADULT_BLIND rail the record holds the blind app
 * and origin hash from the session token and never a partner ID (design.md §8).
 */
import { timingSafeEqual } from 'node:crypto';
import { LIMITS, type Locale, type VerificationMethod, type WidgetVerifyStatus } from '../../src/protocol/wire.ts';
import { SCOPE_BIT, type BlindScope, type Scope } from '../../src/protocol/scopes.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import type { Store, VerifyRequestPatch, VerifyRequestRecord } from '../store/store.ts';
import { attributesOf, FACT_OF_SCOPE, type ProvenFacts } from '../rules/facts.ts';
import { effectiveStatus, isOpenStatus } from '../rules/effective-status.ts';
import { computeNullifier } from '../crypto/nullifier.ts';
import { createResultLock, lockResult, openResult } from '../crypto/result-box.ts';
import { digestToken, isTokenShaped, newRequestId, newToken } from '../crypto/tokens.ts';
import type { ProvingMethod } from './proving-methods.ts';
import { offerWallet, type WalletOffer } from './wallet-offer.ts';
import type { WalletFormat } from '../wallet/index.ts';

/** `vr_` + 16 random bytes in base64url (crypto/tokens.ts newRequestId). */
export const REQUEST_ID_PATTERN = /^vr_[A-Za-z0-9_-]{22}$/;
/** How long a request past its deadline (or a failed one) still reads as such before it is unknown. */
export const EXPIRED_GRACE_MS = 60_000;
/** The loader's pause between two polls when it does not long-poll (at most once a second). */
export const POLL_AFTER_MS = 1_000;
/** CAS retries before giving up on a request that keeps changing under us. */
const MAX_CAS_ATTEMPTS = 5;

/** What every new request states, whatever its rail. */
interface RequestBasics {
  scopes: Scope[];
  clientProofMode: boolean;
  locale: Locale;
  /** the methods that can prove it, decided once before it is made (proving-methods.ts requireProvingMethod) */
  methods: readonly ProvingMethod[];
  /** the partner's `wallet_formats` (design.md §19); absent or null: the operator's */
  walletFormats?: WalletFormat | null;
}

/**
 * What a caller decides about a new request; the lifecycle fills in the rest. A STANDARD request
 * names its partner; an ADULT_BLIND one names the blind app and origin hash of its session token,
 * never a partner (design.md §8), and the phone shows the app id.
 */
export type NewRequest =
  | (RequestBasics & {
      rail: 'standard';
      partnerId: string;
      /** what the phone shows: the partner's name */
      audienceLabel: string;
    })
  | (RequestBasics & {
      rail: 'adult_blind';
      appId: string;
      originHash: string;
      /** the session token's jti */
      sessionJti: string;
      /** docs/adult-blind.md#private-attestations: the session token asked for a private attestation */
      privateAttestation?: boolean;
    });

/**
 * Who may read the result: the loader, with its poll token, or a signed partner, with its
 * result-reader key (crypto/result-reader.ts).
 */
export type ResultReader =
  | {
      channel: 'widget';
      /** the partner page's origin, already checked: the wallet's signed requests name it (docs/design.md §16) */
      pageOrigin?: string;
    }
  | { channel: 'partner'; readerKey: string };

export interface CreatedRequest {
  record: VerifyRequestRecord;
  /** returned to the loader only; a partner-created request has one nobody ever sees */
  pollToken: string;
  handoffToken: string;
  /** `{app_url}/m/v/<request_id>#h=<handoff_token>` */
  deepLink: string;
  /** `wallet_link`, `dc_request` and `dc_requests` when the EUDI wallet path is offered (design.md §11, §13) */
  wallet: WalletOffer | null;
}

/**
 * Creates a pending request that lives `config.requestTtlMs`.
 *
 * @example
 * const { record, pollToken, deepLink } = await createVerifyRequest(deps, {
 *   rail: 'standard', partnerId: partner.id, audienceLabel: partner.name,
 *   scopes: ['isAdult'], clientProofMode: false, locale: 'fr',
 * }, { channel: 'widget' });
 */
export async function createVerifyRequest(
  deps: Pick<AppDeps, 'store' | 'clock' | 'config' | 'wallet'>,
  request: NewRequest,
  reader: ResultReader,
): Promise<CreatedRequest> {
  const now = deps.clock.now();
  const id = newRequestId();
  const wallet = request.methods.includes('eudi_wallet')
    ? await offerWallet(deps, {
        id,
        scopes: request.scopes,
        walletFormats: request.walletFormats ?? null,
        ...(reader.channel === 'widget' && reader.pageOrigin ? { pageOrigin: reader.pageOrigin } : {}),
      })
    : null;
  const pollToken = newToken('poll');
  const handoffToken = newToken('handoff');
  const lock = createResultLock(reader.channel === 'widget' ? pollToken : reader.readerKey);
  const deadlineAt = now + deps.config.requestTtlMs;
  const record: VerifyRequestRecord = {
    id,
    rail: request.rail,
    partnerId: request.rail === 'standard' ? request.partnerId : null,
    appId: request.rail === 'adult_blind' ? request.appId : null,
    originHash: request.rail === 'adult_blind' ? request.originHash : null,
    sessionJti: request.rail === 'adult_blind' ? request.sessionJti : null,
    scopes: [...request.scopes],
    clientProofMode: request.clientProofMode,
    locale: request.locale,
    audienceLabel: request.rail === 'standard' ? request.audienceLabel : request.appId,
    pollTokenDigest: digestToken(pollToken),
    handoffTokenDigest: digestToken(handoffToken),
    status: 'pending',
    reason: null,
    method: null,
    sealedResult: null,
    version: 1,
    createdAt: now,
    expiresAt: deadlineAt + EXPIRED_GRACE_MS,
    channel: reader.channel,
    deadlineAt,
    openedAt: null,
    resultPublicKey: lock.publicKey,
    resultKeySealed: lock.sealedPrivateKey,
    wallet: wallet?.material ?? null,
    ...(request.rail === 'adult_blind' && request.privateAttestation ? { privateAttestation: true } : {}),
  };
  await deps.store.createRequest(record);
  const deepLink = `${deps.config.appUrl}/m/v/${id}#h=${handoffToken}`;
  return { record, pollToken, handoffToken, deepLink, wallet: wallet?.offer ?? null };
}

export function isRequestId(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_ID_PATTERN.test(value);
}

function digestMatches(token: string, digest: string): boolean {
  const presented = Buffer.from(digestToken(token));
  const stored = Buffer.from(digest);
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/**
 * The loader's request: null unless `id` and `pollToken` are well formed, the request exists,
 * the loader created it and the token is its poll token. Every failure looks the same (no oracle).
 *
 * @example const record = await findRequestForPoller(store, request.params.requestId, query.pt, now)
 */
export async function findRequestForPoller(
  store: Store,
  id: unknown,
  pollToken: unknown,
  now: number,
): Promise<VerifyRequestRecord | null> {
  if (!isRequestId(id) || !isTokenShaped(pollToken, 'poll')) return null;
  const record = await store.getRequest(id, now);
  if (!record || record.channel !== 'widget' || !digestMatches(pollToken, record.pollTokenDigest)) return null;
  return record;
}

/** A partner's own request, created through the signed partner variant; null otherwise. */
export async function findRequestForPartner(
  store: Store,
  id: unknown,
  partnerId: string,
  now: number,
): Promise<VerifyRequestRecord | null> {
  if (!isRequestId(id)) return null;
  const record = await store.getRequest(id, now);
  if (!record || record.channel !== 'partner' || record.partnerId !== partnerId) return null;
  return record;
}

/** The phone's request: null unless the handoff token from the deep link matches. */
export async function findRequestForPhone(
  store: Store,
  id: unknown,
  handoffToken: unknown,
  now: number,
): Promise<VerifyRequestRecord | null> {
  if (!isRequestId(id) || !isTokenShaped(handoffToken, 'handoff')) return null;
  const record = await store.getRequest(id, now);
  if (!record || !digestMatches(handoffToken, record.handoffTokenDigest)) return null;
  return record;
}

/** True while the phone can still act on it (a long poll may wait for a change). */
export function isAwaitingPhone(record: VerifyRequestRecord, now: number): boolean {
  return isOpenStatus(record.status) && now < record.deadlineAt;
}

/**
 * The status body (design.md §3). `readerKeys` open the result: the poll token, or the partner's
 * result-reader keys (tried in order).
 *
 * @example reply.send(statusView(record, now, pollToken))
 */
export function statusView(
  record: VerifyRequestRecord,
  now: number,
  readerKeys: string | readonly string[],
): WidgetVerifyStatus {
  const status = effectiveStatus(record, now);
  const view: WidgetVerifyStatus = {
    status,
    expires_at: status === 'completed' || status === 'failed' ? record.expiresAt : record.deadlineAt,
  };
  if (status === 'failed' && record.reason) view.reason = record.reason;
  if (status === 'completed')
    view.result = readResult(record, typeof readerKeys === 'string' ? [readerKeys] : readerKeys);
  return view;
}

function readResult(
  record: VerifyRequestRecord,
  readerKeys: readonly string[],
): NonNullable<WidgetVerifyStatus['result']> {
  for (const key of readerKeys) {
    const text = record.sealedResult === null ? null : openResult(record.resultKeySealed, key, record.sealedResult);
    if (text !== null) return JSON.parse(text) as NonNullable<WidgetVerifyStatus['result']>;
  }
  // The reader was already checked against the record, so a box that doesn't open is our fault.
  throw new ServiceError('INTERNAL_ERROR', { cause: `result of ${record.id} does not open` });
}

/** Throws 409 / 410 unless the phone may still act on the request. */
export function assertActionable(record: VerifyRequestRecord, now: number): void {
  if (!isOpenStatus(record.status))
    throw new ServiceError('ALREADY_FINISHED', { cause: `request is ${record.status}` });
  if (now >= record.deadlineAt) throw new ServiceError('REQUEST_EXPIRED');
}

/**
 * Compare-and-set with retries, the one way a request changes: `step` sees the current record and
 * returns the patch to apply, or null to leave it as it is (it is then returned unchanged), or
 * throws. When the version moved in between (the phone's open racing its own complete, two phones
 * racing, …) the record is read again and `step` decides again.
 */
async function updateWithRetry(
  store: Store,
  record: VerifyRequestRecord,
  now: number,
  step: (current: VerifyRequestRecord) => VerifyRequestPatch | null,
): Promise<VerifyRequestRecord> {
  let current = record;
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
    const patch = step(current);
    if (patch === null) return current;
    const updated = await store.updateRequest(current.id, current.version, patch);
    if (updated) return updated;
    const reread = await store.getRequest(current.id, now);
    if (!reread) throw new ServiceError('NOT_FOUND', { cause: 'request vanished during update' });
    current = reread;
  }
  throw new ServiceError('INTERNAL_ERROR', { cause: 'request kept changing during update' });
}

/**
 * The phone opened the deep link: pending → in_progress. Idempotent; a finished request is
 * returned as it is (the phone shows it), an expired one is 410 REQUEST_EXPIRED.
 *
 * @example const opened = await openRequest(deps, record)
 */
export async function openRequest(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  record: VerifyRequestRecord,
): Promise<VerifyRequestRecord> {
  const now = deps.clock.now();
  return updateWithRetry(deps.store, record, now, (current) => {
    if (!isOpenStatus(current.status)) return null;
    if (now >= current.deadlineAt) throw new ServiceError('REQUEST_EXPIRED');
    if (current.status === 'in_progress') return null;
    return { status: 'in_progress', openedAt: now };
  });
}

/** Settles an open request with `patch`: 409 / 410 unless the phone may still act on it. */
export function settle(
  store: Store,
  record: VerifyRequestRecord,
  now: number,
  patch: VerifyRequestPatch,
): Promise<VerifyRequestRecord> {
  return updateWithRetry(store, record, now, (current) => {
    assertActionable(current, now);
    return patch;
  });
}

/** What an approval proved, as the grant or attestation records it. */
export interface Approval {
  method: VerificationMethod;
  /**
   * who was verified, for the nullifier (isUnique): the persona id, or a provider's user
   * (facts.ts providerSubject); null when no nullifier can be asked for
   */
  subject: string | null;
  /** the facts at the time of approval */
  facts: ProvenFacts;
}

/**
 * Completes an open request with what was proven: a grant (STANDARD) or an attestation
 * (ADULT_BLIND) sealed to the request's reader. 409 / 410 unless it is still open.
 *
 * @example await approveRequest(deps, record, { method: 'eudi_wallet', subject: null, facts: { isAdult: true } })
 */
export async function approveRequest(
  deps: Pick<AppDeps, 'store' | 'clock' | 'nullifierKey' | 'blind'>,
  record: VerifyRequestRecord,
  approval: Approval,
  /** written in the same compare-and-set: the wallet's response_code digest (design.md §19) */
  extra: Pick<VerifyRequestPatch, 'responseCodeDigest'> = {},
): Promise<VerifyRequestRecord> {
  const now = deps.clock.now();
  assertActionable(record, now);
  const { method } = approval;
  const resultExpiresAt = now + LIMITS.grantTtlMs;
  const result =
    record.rail === 'standard'
      ? { grant_code: await issueGrant(deps, record, { ...approval, verifiedAt: now, expiresAt: resultExpiresAt }) }
      : record.privateAttestation
        ? { private_attestation: { scope_mask: blindScopeMask(record, approval) } }
        : { attestation: await issueAttestation(deps, record, approval) };
  const sealedResult = lockResult(record.resultPublicKey, JSON.stringify(result));
  return settle(deps.store, record, now, {
    status: 'completed',
    reason: null,
    method,
    sealedResult,
    expiresAt: resultExpiresAt,
    ...extra,
  });
}

function nullifierSubject(approval: Approval): string {
  if (approval.subject === null)
    throw new ServiceError('INTERNAL_ERROR', { cause: 'isUnique approved without a subject' });
  return approval.subject;
}

/** Puts a single-use grant for an approved STANDARD request; returns its code. */
async function issueGrant(
  deps: Pick<AppDeps, 'store' | 'nullifierKey'>,
  record: VerifyRequestRecord,
  grant: Approval & { verifiedAt: number; expiresAt: number },
): Promise<string> {
  const { facts, method, verifiedAt, expiresAt } = grant;
  if (record.partnerId === null)
    throw new ServiceError('INTERNAL_ERROR', { cause: 'standard request without a partner' });
  const audience = `partner:${record.partnerId}` as const;
  const nullifier = record.scopes.includes('isUnique')
    ? computeNullifier(deps.nullifierKey, nullifierSubject(grant), audience)
    : null;
  const grantCode = newToken('grant');
  // Put before the request moves to completed: if the CAS then loses, the grant is orphaned
  // (nobody holds its code and it expires), never the other way round.
  await deps.store.putGrant({
    digest: digestToken(grantCode),
    partnerId: record.partnerId,
    requestId: record.id,
    scopes: [...record.scopes],
    attributes: attributesOf(facts, record.scopes, nullifier),
    method,
    verifiedAt,
    generationTimeMs: Math.max(0, verifiedAt - (record.openedAt ?? record.createdAt)),
    expiresAt,
  });
  return grantCode;
}

/** A scope's bit is set for a fact proven true; isUnique's always (uniqueness is a value, not a claim). */
function isProvenTrue(facts: ProvenFacts, scope: BlindScope): boolean {
  const fact = FACT_OF_SCOPE[scope];
  return fact === null || facts[fact] === true;
}

/** scope_mask of an approved ADULT_BLIND request: a bit only for a fact asked for and proven true. */
function blindScopeMask(record: VerifyRequestRecord, { facts }: Approval): number {
  const scopes = record.scopes.filter((s): s is BlindScope => s in SCOPE_BIT);
  return scopes.reduce((mask, scope) => (isProvenTrue(facts, scope) ? mask | SCOPE_BIT[scope] : mask), 0);
}

/** Signs the attestation for an approved ADULT_BLIND request: a scope_mask bit only for a fact proven true. */
async function issueAttestation(
  deps: Pick<AppDeps, 'nullifierKey' | 'blind'>,
  record: VerifyRequestRecord,
  approval: Approval,
): Promise<string> {
  if (record.appId === null || record.originHash === null)
    throw new ServiceError('INTERNAL_ERROR', { cause: 'blind request without app' });
  const scopes = record.scopes.filter((s): s is BlindScope => s in SCOPE_BIT);
  const scopeMask = blindScopeMask(record, approval);
  // Minimal disclosure: no nullifier unless isUnique was asked for (the claim stays, empty).
  const nullifier = scopes.includes('isUnique')
    ? computeNullifier(deps.nullifierKey, nullifierSubject(approval), `app:${record.appId}`)
    : '';
  return deps.blind.signAttestation({ appId: record.appId, originHash: record.originHash, scopeMask, nullifier });
}
