/**
 * The partner API's two use cases (docs/partner-api.md: POST /v1/exchange, POST /v1/introspect;
 * design.md §5–6): a grant code becomes a pass token once, and a pass token is checked. The shapes
 * of both answers are pass-tokens.ts's pure functions.
 */
import { PREFIX, type ExchangeResponse, type IntrospectResponse } from '../../src/protocol/wire.ts';
import { seal, unseal } from '../crypto/seal.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import type { ExchangeReplayRecord, NonceRead, NonceReadResult, PartnerRecord } from '../store/store.ts';
import {
  exchangeResponseOf,
  INACTIVE,
  introspectionOf,
  issuePassToken,
  passTokenExpiryOf,
  passTokenRecordOf,
} from './pass-tokens.ts';
import { digestToken, isTokenShaped, newToken } from '../crypto/tokens.ts';

/** What an exchange replay is sealed for, with its grant code (crypto/seal.ts). */
export const SEAL_PURPOSE = 'exchange-replay';

type PartnerApiDeps = Pick<AppDeps, 'store' | 'clock'>;

/**
 * Exchanges a grant code for a pass token: 400 INVALID_GRANT without the g_ prefix; 401
 * GRANT_INVALID when it is unknown, expired, already used, or another partner's (which burns it:
 * a grant code another partner holds has leaked). With an Idempotency-Key, a retry with the same
 * grant code gets the first answer again, and another grant code under the same key is refused.
 *
 * @example const response = await exchangeGrant(deps, partner, { grantCode: 'g_…', idempotencyKey: 'order-42' })
 */
export async function exchangeGrant(
  deps: PartnerApiDeps,
  partner: PartnerRecord,
  input: { grantCode: string; idempotencyKey: string | null },
  taken: { read: NonceRead; result: NonceReadResult } | null = null,
): Promise<ExchangeResponse> {
  const { grantCode, idempotencyKey } = input;
  if (!grantCode.startsWith(PREFIX.grant))
    throw new ServiceError('INVALID_GRANT', { cause: 'grant_code lacks the g_ prefix' });
  const grantDigest = digestToken(grantCode);
  // What the nonce's store step took for this very code and key (grantReadWithNonce), if it ran.
  const read = taken?.read;
  const ahead =
    read?.kind === 'grant' && read.digest === grantDigest && (read.replay?.idempotencyKey ?? null) === idempotencyKey
      ? taken!.result
      : null;
  if (idempotencyKey !== null) {
    const replayed = ahead
      ? await replayAnswer(deps, ahead.replay, grantCode, grantDigest)
      : await findReplay(deps, partner, idempotencyKey, grantCode, grantDigest);
    if (replayed) return replayed;
  }

  const now = deps.clock.now();
  const grant = ahead
    ? ahead.grant
    : isTokenShaped(grantCode, 'grant')
      ? await deps.store.consumeGrant(grantDigest, now)
      : null;
  if (!grant) {
    // A retry racing its own first attempt: the first may have stored its answer meanwhile.
    const replayed =
      idempotencyKey === null ? null : await findReplay(deps, partner, idempotencyKey, grantCode, grantDigest);
    if (replayed) return replayed;
    throw new ServiceError('GRANT_INVALID', { cause: 'grant unknown, expired or already used' });
  }
  // Consumed even so: a grant code another partner holds has leaked and is worthless from now on.
  if (grant.partnerId !== partner.id)
    throw new ServiceError('GRANT_INVALID', { cause: 'grant belongs to another partner' });

  // Stored in the nonce's step already (grantReadWithNonce), with its replay record, or now.
  const minted = (read as Partial<GrantReadWithNonce> | undefined)?.passToken;
  const issued = ahead?.issued && minted ? { passToken: minted, record: ahead.issued } : null;
  const { passToken, record } = issued ?? issuePassToken(grant, now);
  if (!issued) await deps.store.putPassToken(record);
  if (idempotencyKey !== null && !(issued && read?.kind === 'grant' && read.replaySealed)) {
    await deps.store.putExchangeReplay(
      {
        partnerId: partner.id,
        idempotencyKey,
        grantDigest,
        sealedResponse: seal(grantCode, SEAL_PURPOSE, passToken),
        expiresAt: grant.expiresAt,
      },
      now,
    );
  }
  return exchangeResponseOf(passToken, record);
}

/** The first answer for this key, if this same grant code produced it; GRANT_INVALID for another code. */
async function findReplay(
  deps: PartnerApiDeps,
  partner: PartnerRecord,
  key: string,
  grantCode: string,
  grantDigest: string,
): Promise<ExchangeResponse | null> {
  const replay = await deps.store.getExchangeReplay(partner.id, key, deps.clock.now());
  return replayAnswer(deps, replay, grantCode, grantDigest);
}

/**
 * A stored replay's answer for this grant code, rebuilt from the pass token it holds (the first
 * answer, exactly: exchangeResponseOf of the same token and record); null for none; GRANT_INVALID
 * for another code's, or once that pass token is gone. A record from before replays were written
 * in the nonce's step holds the answer itself.
 */
async function replayAnswer(
  deps: PartnerApiDeps,
  replay: ExchangeReplayRecord | null,
  grantCode: string,
  grantDigest: string,
): Promise<ExchangeResponse | null> {
  if (!replay) return null;
  if (replay.grantDigest !== grantDigest)
    throw new ServiceError('GRANT_INVALID', { cause: 'idempotency key was used with another grant code' });
  const plaintext = unseal(grantCode, SEAL_PURPOSE, replay.sealedResponse);
  if (plaintext === null)
    throw new ServiceError('GRANT_INVALID', { cause: 'stored replay does not open with this grant code' });
  if (plaintext.startsWith('{')) return JSON.parse(plaintext) as ExchangeResponse;
  const record = isTokenShaped(plaintext, 'pass')
    ? await deps.store.getPassToken(digestToken(plaintext), deps.clock.now())
    : null;
  if (!record) throw new ServiceError('GRANT_INVALID', { cause: "the first answer's pass token is gone" });
  return exchangeResponseOf(plaintext, record);
}

/** A grant to take with the nonce, and the pass token minted for it beforehand (never given to the store). */
export type GrantReadWithNonce = Extract<NonceRead, { kind: 'grant' }> & { passToken: string };

/**
 * The grant a valid exchange names, to take in the nonce's store step, with the pass token the
 * store writes for it in that same step where it can (design.md §23; SQLite: one transaction),
 * and, with an Idempotency-Key, the replay record's sealed pass token, written in that step too;
 * null when the code is not a grant's shape (the exchange then refuses it without the store).
 * Another partner's grant is taken (burnt) but issues nothing.
 *
 * @example grantReadWithNonce(partner.id, 'g_…', null, clock.now()) // { kind: 'grant', digest, replay: null, issue, passToken }
 */
export function grantReadWithNonce(
  partnerId: string,
  grantCode: string,
  idempotencyKey: string | null,
  now: number,
): GrantReadWithNonce | null {
  if (!grantCode.startsWith(PREFIX.grant) || !isTokenShaped(grantCode, 'grant')) return null;
  const passToken = newToken('pass');
  const passDigest = digestToken(passToken);
  const keyed = idempotencyKey !== null;
  return {
    kind: 'grant',
    digest: digestToken(grantCode),
    replay: keyed ? { partnerId, idempotencyKey } : null,
    issue: (grant) => (grant.partnerId === partnerId ? passTokenRecordOf(grant, passToken, now, passDigest) : null),
    issueAs: { partnerId, digest: passDigest, issuedAt: now, expiresAt: passTokenExpiryOf(now) },
    ...(keyed && { replaySealed: seal(grantCode, SEAL_PURPOSE, passToken) }),
    passToken,
  };
}

/**
 * The pass token an introspection body names, to read in the nonce's store step (design.md §23);
 * null for a body that names none, or not in a pass token's shape. Reads the body before it is
 * validated, so it only looks.
 *
 * @example passTokenReadWithNonce({ pass_token: 'p_…' }) // { kind: 'pass', digest }
 */
export function passTokenReadWithNonce(body: unknown): PassReadWithNonce | null {
  const passToken = typeof body === 'object' && body !== null ? (body as { pass_token?: unknown }).pass_token : null;
  if (typeof passToken !== 'string' || !isTokenShaped(passToken, 'pass')) return null;
  return { kind: 'pass', digest: digestToken(passToken), passToken };
}

/** A pass token to read with the nonce, and the token itself (never given to the store), so the route need not digest it again. */
export type PassReadWithNonce = Extract<NonceRead, { kind: 'pass' }> & { passToken: string };

/**
 * The state of a pass token (RFC 7662): `{active: false}` and nothing else for a malformed,
 * unknown or expired token, or another partner's (design.md §5), which answers exactly like an
 * unknown one. `readAhead`, the record the nonce's store step read for this same token, saves reading it again.
 *
 * @example await introspectPassToken(deps, partner, 'p_…') // { active: true, scope: 'age_verification', … }
 */
export async function introspectPassToken(
  deps: PartnerApiDeps,
  partner: PartnerRecord,
  passToken: string,
  readAhead: { read: NonceRead; result: NonceReadResult } | null = null,
): Promise<IntrospectResponse> {
  if (!isTokenShaped(passToken, 'pass')) return INACTIVE;
  const read = readAhead?.read.kind === 'pass' ? (readAhead.read as Partial<PassReadWithNonce>) : null;
  const record =
    read && (read.passToken === passToken || read.digest === digestToken(passToken))
      ? readAhead!.result.pass
      : await deps.store.getPassToken(digestToken(passToken), deps.clock.now());
  if (!record || record.partnerId !== partner.id) return INACTIVE;
  return introspectionOf(record);
}
