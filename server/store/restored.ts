/**
 * The store after `svc store restore` (docs/operations.md#backups-and-restores, design.md §23): a
 * backup holds single-use values that were spent after it was taken (a grant exchanged, a login
 * state or a response code used, a private attestation issued), so a restore would make them
 * spendable again. Everything single-use created before the restore's `restored_at` is refused
 * instead: a grant verified before it is unknown, and a request created before it is unknown (its
 * handoff, wallet response code and private-attestation right go with it: every change of a
 * request follows a read of it, updateRequest's compare-and-set). A login state of such a request
 * is taken and read as already used, so its callback answers like a replayed one. Pass
 * tokens are not single-use and stay valid until their expiry; partner signatures made before
 * the restore are refused in auth/partner-auth.ts (their nonces may be missing from the backup).
 */
import type { GrantRecord, Store } from './store.ts';

/** The secrets-table name `svc store restore` writes: ms since the epoch, plain (not sealed). */
export const RESTORED_AT = 'restored_at';

/**
 * Records `restoredAt` (ms since the epoch) in `store`, over an earlier one.
 *
 * @example await markRestored(store, Date.now())
 */
export async function markRestored(store: Store, restoredAt: number): Promise<void> {
  await store.getOrCreateSecret(RESTORED_AT, String(restoredAt));
  await store.replaceSecret(RESTORED_AT, String(restoredAt));
}

/**
 * @example const store = restoredAt > 0 ? restoredStore(sealed, restoredAt) : sealed
 */
export function restoredStore(inner: Store, restoredAt: number): Store {
  return {
    ...inner,
    kind: inner.kind,
    async getRequest(id, now) {
      const record = await inner.getRequest(id, now);
      return record && record.createdAt < restoredAt ? null : record;
    },
    async takeLoginState(digest, now) {
      // A login state is made only for a readable request, so one whose request predates the
      // restore was made before it too.
      const state = await inner.takeLoginState(digest, now);
      if (!state) return null;
      const record = await inner.getRequest(state.requestId, now);
      return record && record.createdAt < restoredAt ? null : state;
    },
    async consumeGrant(digest, now) {
      const grant = await inner.consumeGrant(digest, now);
      return grant && grant.verifiedAt < restoredAt ? null : grant;
    },
    async rememberNonceAnd(partnerId, nonce, expiresAt, now, read) {
      // A grant from before the restore is refused, and no pass token is issued for it.
      const issue = read.kind === 'grant' ? read.issue : undefined;
      const guarded =
        issue && read.kind === 'grant'
          ? {
              ...read,
              issue: (grant: GrantRecord) => (grant.verifiedAt < restoredAt ? null : issue(grant)),
              // the same rule for a store that issues from `issueAs` (Redis's script), and with it the replay
              ...(read.issueAs && { issueAs: { ...read.issueAs, verifiedSince: restoredAt } }),
            }
          : read;
      const result = await inner.rememberNonceAnd(partnerId, nonce, expiresAt, now, guarded);
      return result.grant && result.grant.verifiedAt < restoredAt ? { ...result, grant: null } : result;
    },
  };
}
