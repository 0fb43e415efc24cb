/**
 * Private attestations (docs/adult-blind.md#private-attestations): the published key sets and the one blind signature a
 * completed private ADULT_BLIND request may have. The service sees only the blinded message: never
 * the token, its nonce or the partner page's redemption context (docs/privacy.md).
 */
import type { AppDeps } from '../deps.ts';
import { isDroppable, orderForPublication, pickCurrent, ensureCurrentKey } from '../crypto/keys.ts';
import {
  maskSigningKey,
  parseTokenRequest,
  publicKeysOf,
  type MaskSigningKey,
  type PrivateAttestationKeySet,
} from '../crypto/private-attestation.ts';
import { ServiceError } from '../errors.ts';
import type { SigningKeyRecord } from '../store/store.ts';
import { effectiveStatus } from '../rules/effective-status.ts';
import { findRequestForPoller, statusView } from './verify-requests.ts';

type KeyDeps = Pick<AppDeps, 'store' | 'clock' | 'config'>;

/** The private-attestation key sets of one service process. */
export interface PrivateAttestationKeys {
  /** What `GET {app_url}/api/billing/private-attestation-keys` answers. */
  keySet(): Promise<PrivateAttestationKeySet>;
  /**
   * The current set's key for `scopeMask`, or null when there is no current set (production
   * before `svc keys rotate --purpose private-attestation`).
   */
  signingKey(scopeMask: number): Promise<MaskSigningKey | null>;
}

/**
 * The key sets over the store. In sandbox mode the first call creates the missing current set
 * (RSA keys take a second or two, so not at boot: most sandboxes never use them); in production
 * `svc keys rotate --purpose private-attestation` makes it. Rotation is read from the store at
 * every call, so a rotation by the CLI or another instance applies at once.
 *
 * @example const keys = createPrivateAttestationKeys(deps); await keys.keySet()
 */
export function createPrivateAttestationKeys(deps: KeyDeps): PrivateAttestationKeys {
  let ensured: Promise<unknown> | null = null;
  const parsed = new Map<string, MaskSigningKey>();

  async function records(): Promise<SigningKeyRecord[]> {
    if (deps.config.mode === 'sandbox') {
      ensured ??= ensureCurrentKey(deps.store, 'private-attestation', deps.clock.now()).catch((error: unknown) => {
        ensured = null;
        throw error;
      });
      await ensured;
    }
    const now = deps.clock.now();
    const all = await deps.store.listKeys('private-attestation');
    const gone = all.filter((r) => isDroppable(r, now)).map((r) => r.kid);
    if (gone.length > 0) await deps.store.updateKeys({ drop: gone });
    return orderForPublication(all, now);
  }

  return {
    async keySet() {
      const published = await records();
      return {
        issuer_name: new URL(deps.config.appUrl).host,
        keys: published.flatMap((record) => publicKeysOf(record).map((key) => ({ ...key, state: record.state }))),
      };
    },
    async signingKey(scopeMask) {
      const current = pickCurrent(await records());
      if (!current) return null;
      const cacheKey = `${current.kid}:${scopeMask}`;
      let key = parsed.get(cacheKey);
      if (!key) {
        const made = maskSigningKey(current, scopeMask);
        if (!made) return null;
        if (parsed.size > 64) parsed.clear();
        parsed.set(cacheKey, made);
        key = made;
      }
      return key;
    },
  };
}

const refuse = (cause: string) => new ServiceError('ATTESTATION_NOT_ISSUABLE', { cause });

/**
 * Signs the widget's blinded TokenRequest (RFC 9578 §6.1, base64url) for request `requestId`,
 * once. In order: a wrong id or poll token is 404 NOT_FOUND (as the status route); a request
 * that is not a completed private ADULT_BLIND request with isAdult proven, or whose token was
 * already signed, 409 ATTESTATION_NOT_ISSUABLE; a token request that is not type 0x0002 for the
 * current key of the proven scope mask, 400 INVALID_REQUEST. The request keeps no trace of the
 * blinded message, only when it was signed.
 *
 * @example const { token_response } = await issuePrivateAttestation(deps, keys, { requestId, pollToken, tokenRequest })
 */
export async function issuePrivateAttestation(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  keys: PrivateAttestationKeys,
  input: { requestId: string; pollToken: unknown; tokenRequest: unknown },
): Promise<{ token_response: string }> {
  const now = deps.clock.now();
  const record = await findRequestForPoller(deps.store, input.requestId, input.pollToken, now);
  if (!record) throw new ServiceError('NOT_FOUND', { cause: 'unknown request or wrong poll token' });
  if (!record.privateAttestation) throw refuse('not a private ADULT_BLIND request');
  if (effectiveStatus(record, now) !== 'completed') throw refuse(`request is ${effectiveStatus(record, now)}`);
  if (record.privateIssuedAt) throw refuse('already signed');
  const result = statusView(record, now, input.pollToken as string).result;
  const scopeMask = result && 'private_attestation' in result ? result.private_attestation.scope_mask : null;
  if (scopeMask === null || (scopeMask & 1) !== 1) throw refuse('isAdult was not proven');

  if (typeof input.tokenRequest !== 'string' || !/^[A-Za-z0-9_-]{1,400}$/.test(input.tokenRequest))
    throw new ServiceError('INVALID_REQUEST', { cause: 'token_request is not base64url' });
  const parsed = parseTokenRequest(Buffer.from(input.tokenRequest, 'base64url'));
  if (!parsed.ok) throw new ServiceError('INVALID_REQUEST', { cause: `token_request: ${parsed.cause}` });
  const key = await keys.signingKey(scopeMask);
  if (!key) throw new ServiceError('SERVICE_UNAVAILABLE', { cause: 'no current private-attestation key set' });
  if (parsed.truncatedTokenKeyId !== key.truncatedTokenKeyId)
    throw new ServiceError('INVALID_REQUEST', { cause: 'token_request names another key' });
  let blindSig: Buffer;
  try {
    blindSig = key.sign(parsed.blindedMsg);
  } catch (cause) {
    throw new ServiceError('INVALID_REQUEST', { cause });
  }
  // Once per request: only the caller whose compare-and-set wins gets the signature.
  const marked = await deps.store.updateRequest(record.id, record.version, { privateIssuedAt: now });
  if (!marked) throw refuse('already signed (concurrently)');
  return { token_response: blindSig.toString('base64url') };
}
