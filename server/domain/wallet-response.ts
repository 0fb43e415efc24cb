/**
 * A wallet's answer to a verification request (design.md §11, §13): the `direct_post` to
 * `/oid4vp/response/<request_id>` and what the Digital Credentials API gave the partner page
 * (`/api/w/wallet-response/<request_id>?pt=`) or the phone page
 * (`/api/m/requests/<request_id>/wallet-response`, with the handoff token). The verifier
 * (server/wallet/) checks it and reads the facts its requested elements prove; this settles the
 * request:
 *
 *   verified, a requested fact not disclosed (e.g. an mDL without nationality for isFrench)
 *     → failed, reason claims_missing (as an identity provider's missing claim, design.md §12)
 *   verified, isAdult requested and age_over_18 false → failed (not adult, design.md §11)
 *   verified otherwise → completed through approveRequest with the requested facts (isFrench or
 *     isEU may be false: a fact, like a provider's), method eudi_wallet
 *   error=access_denied (after the state matched) → failed, cancelled
 *   refused → nothing changes: the request stays waiting (a stranger's bad post cannot end it)
 *
 * Single use is the store's compare-and-set: of two valid answers racing, one settles the request
 * and the other finds it no longer waiting (refused, request_not_waiting). Nothing here reads the
 * partner: on ADULT_BLIND the verifier path never learns it (design.md §8).
 */
import type { FailReason } from '../../src/protocol/wire.ts';
import { originHash } from '../crypto/blind.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import type { VerifyRequestRecord } from '../store/store.ts';
import {
  verifyDcApiResponse,
  verifyWalletResponse,
  WALLET_CHECKS,
  type RefusalDetail,
  type RequestView,
  type WalletCheck,
  type WalletRequestMaterial,
  type WalletVerdict,
  resignRequestObject,
} from '../wallet/index.ts';
import { pickFacts, unprovenScopes } from '../rules/facts.ts';
import { findForPhone, type PhoneHandoff } from './phone-handoff.ts';
import { digestToken } from '../crypto/tokens.ts';
import { openWalletMaterial } from './wallet-offer.ts';
import { newResponseCode, redirectUriOf } from './wallet-return.ts';
import { isOpenStatus } from '../rules/effective-status.ts';
import { approveRequest, EXPIRED_GRACE_MS, findRequestForPoller, isRequestId, settle } from './verify-requests.ts';

type WalletResponseDeps = Pick<AppDeps, 'store' | 'clock' | 'nullifierKey' | 'blind' | 'wallet'> & {
  config?: Pick<AppDeps['config'], 'appUrl'>;
};

/**
 * What the route answers and logs: never a credential, a token or a value from the presentation;
 * `detail` is one of a closed set of our phrases (RefusalDetail and the three below).
 */
export type WalletOutcome =
  | { status: 'completed' | 'cancelled'; requestId: string; redirectUri?: string }
  | {
      status: 'failed';
      requestId: string;
      reason: Extract<FailReason, 'failed' | 'claims_missing'>;
      redirectUri?: string;
    }
  | {
      status: 'refused';
      check: WalletCheck | 'unknown_request' | 'origin';
      description: string;
      detail:
        | RefusalDetail
        | 'unknown request id, or no wallet request bound to it'
        | 'lost the compare-and-set'
        | 'Origin header';
    };

const UNKNOWN_REQUEST: WalletOutcome = {
  status: 'refused',
  check: 'unknown_request',
  description: 'the verification request does not exist or does not accept a wallet response',
  detail: 'unknown request id, or no wallet request bound to it',
};

function viewOf(record: VerifyRequestRecord): RequestView {
  return { waiting: isOpenStatus(record.status), expiresAt: record.deadlineAt };
}

/** A refusal for a request that stopped waiting while its answer was being checked. */
function notWaiting(): WalletOutcome {
  return {
    status: 'refused',
    check: 'request_not_waiting',
    description: WALLET_CHECKS.request_not_waiting,
    detail: 'lost the compare-and-set',
  };
}

/**
 * Settles the request from a verdict (see the table at the top). With `appUrl` (a wallet's post,
 * design.md §19) the settled request keeps a fresh response_code's digest, written in the same
 * compare-and-set, and the outcome carries the `redirect_uri` back to the phone page's done view.
 */
async function settleFromVerdict(
  deps: WalletResponseDeps,
  record: VerifyRequestRecord,
  verdict: WalletVerdict,
  appUrl?: string,
): Promise<WalletOutcome> {
  if (verdict.status === 'refused') return verdict;
  const now = deps.clock.now();
  const code = appUrl === undefined ? null : newResponseCode();
  const back = code === null ? {} : { redirectUri: redirectUriOf(appUrl!, record.id, code) };
  const extra = code === null ? {} : { responseCodeDigest: digestToken(code) };
  try {
    if (verdict.status === 'cancelled') {
      await settle(deps.store, record, now, {
        status: 'failed',
        reason: 'cancelled',
        method: 'eudi_wallet',
        expiresAt: now + EXPIRED_GRACE_MS,
        ...extra,
      });
      return { status: 'cancelled', requestId: record.id, ...back };
    }
    const facts = pickFacts(verdict.facts, record.scopes);
    const reason =
      unprovenScopes(facts, record.scopes).length > 0
        ? 'claims_missing'
        : record.scopes.includes('isAdult') && facts.isAdult !== true
          ? 'failed'
          : null;
    if (reason !== null) {
      await settle(deps.store, record, now, {
        status: 'failed',
        reason,
        method: 'eudi_wallet',
        expiresAt: now + EXPIRED_GRACE_MS,
        ...extra,
      });
      return { status: 'failed', requestId: record.id, reason, ...back };
    }
    await approveRequest(deps, record, { method: 'eudi_wallet', subject: null, facts }, extra);
    return { status: 'completed', requestId: record.id, ...back };
  } catch (error) {
    // ALREADY_FINISHED / REQUEST_EXPIRED from the compare-and-set: another answer (or the clock) won.
    if (error instanceof ServiceError && (error.code === 'ALREADY_FINISHED' || error.code === 'REQUEST_EXPIRED'))
      return notWaiting();
    throw error;
  }
}

function materialOf(deps: WalletResponseDeps, record: VerifyRequestRecord | null): WalletRequestMaterial | null {
  return record?.wallet ? openWalletMaterial(deps, record.id, record.wallet) : null;
}

/**
 * The wallet's `direct_post` (form-encoded body, as received).
 *
 * @example const outcome = await answerDirectPost(deps, { requestId: params.requestId, body: request.rawBody.toString('utf8') })
 */
export async function answerDirectPost(
  deps: WalletResponseDeps,
  input: { requestId: string; body: string },
): Promise<WalletOutcome> {
  const now = deps.clock.now();
  const record = isRequestId(input.requestId) ? await deps.store.getRequest(input.requestId, now) : null;
  const material = materialOf(deps, record);
  if (!record || !material) return UNKNOWN_REQUEST;
  const verdict = await verifyWalletResponse({
    body: input.body,
    material,
    trust: deps.wallet.trust,
    status: deps.wallet.status,
    request: viewOf(record),
    now,
  });
  return settleFromVerdict(deps, record, verdict, deps.config?.appUrl);
}

/**
 * The signed request object a wallet fetches from the link's request_uri (docs/design.md §16):
 * the JWS stored with the request, while the request waits; null for an unknown request, one made
 * unsigned, or one that stopped waiting.
 *
 * @example const jws = await signedRequestObject(deps, params.requestId)
 */
export async function signedRequestObject(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  requestId: string,
): Promise<string | null> {
  const now = deps.clock.now();
  const record = isRequestId(requestId) ? await deps.store.getRequest(requestId, now) : null;
  if (!record?.wallet?.signed || !isOpenStatus(record.status) || now >= record.deadlineAt) return null;
  return record.wallet.signed.requestObject;
}

/**
 * The request object for a wallet's POST to request_uri (design.md §19, OpenID4VP 1.0 §5.10):
 * signed now with its `wallet_nonce`; null where the GET finds nothing (or the access certificate
 * changed since). Neither is single use.
 *
 * @example const jws = await postedRequestObject(deps, params.requestId, form.get('wallet_nonce'))
 */
export async function postedRequestObject(
  deps: Pick<AppDeps, 'store' | 'clock' | 'wallet'>,
  requestId: string,
  walletNonce: string,
): Promise<string | null> {
  const now = deps.clock.now();
  const record = isRequestId(requestId) ? await deps.store.getRequest(requestId, now) : null;
  const signed = record?.wallet?.signed;
  if (!signed || !isOpenStatus(record.status) || now >= record.deadlineAt || !deps.wallet.access) return null;
  return resignRequestObject(deps.wallet.access, signed, walletNonce, now);
}

/**
 * What `navigator.credentials.get` gave the partner page, posted by the loader with its poll
 * token. The Origin must be the request's (the partner's domain, or the session token's origin
 * on ADULT_BLIND, checked by its hash): the device signature is bound to it.
 *
 * @example const outcome = await answerDcApiResponse(deps, { requestId, pollToken: query.pt, origin, credential: body })
 */
export async function answerDcApiResponse(
  deps: WalletResponseDeps,
  input: { requestId: string; pollToken: unknown; origin: string | null; credential: unknown },
): Promise<WalletOutcome> {
  const record = await findRequestForPoller(deps.store, input.requestId, input.pollToken, deps.clock.now());
  if (!record) return UNKNOWN_REQUEST;
  const allowed = input.origin !== null && (await originMatches(deps, record, input.origin));
  return verifyDcApi(deps, record, allowed ? input.origin : null, input.credential);
}

/**
 * What `navigator.credentials.get` gave the phone page, posted with the phone's handoff token
 * (design.md §12: the wallet on this phone). The Origin must be the phone page's, `appOrigin` (the
 * app URL's origin): the device signature is bound to it. An unknown request or a wrong handoff
 * token is 404 NOT_FOUND, as for the phone's other calls; everything else answers as for the
 * partner page.
 *
 * @example const outcome = await answerPhoneDcApiResponse(deps, { handoff, origin, appOrigin, credential: body.credential })
 */
export async function answerPhoneDcApiResponse(
  deps: WalletResponseDeps,
  input: { handoff: PhoneHandoff; origin: string | null; appOrigin: string; credential: unknown },
): Promise<WalletOutcome> {
  const record = await findForPhone(deps, input.handoff);
  return verifyDcApi(deps, record, input.origin === input.appOrigin ? input.origin : null, input.credential);
}

/** Verifies a Digital Credentials API answer bound to `origin` (null: the Origin was refused) and settles. */
async function verifyDcApi(
  deps: WalletResponseDeps,
  record: VerifyRequestRecord,
  origin: string | null,
  credential: unknown,
): Promise<WalletOutcome> {
  const material = materialOf(deps, record);
  if (!material) return UNKNOWN_REQUEST;
  if (origin === null) {
    return {
      status: 'refused',
      check: 'origin',
      description: 'the page origin is not the one this request was made for',
      detail: 'Origin header',
    };
  }
  const now = deps.clock.now();
  const verdict = await verifyDcApiResponse({
    credential,
    origin,
    material,
    trust: deps.wallet.trust,
    status: deps.wallet.status,
    request: viewOf(record),
    now,
  });
  return settleFromVerdict(deps, record, verdict);
}

async function originMatches(
  deps: Pick<AppDeps, 'store'>,
  record: VerifyRequestRecord,
  origin: string,
): Promise<boolean> {
  if (record.rail === 'adult_blind') return record.originHash !== null && originHash(origin) === record.originHash;
  const partner = record.partnerId === null ? null : await deps.store.getPartner(record.partnerId);
  return partner !== null && partner.domain === origin;
}
