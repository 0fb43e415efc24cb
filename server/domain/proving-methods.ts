/**
 * Which methods can prove a request (design.md §3, §11, §12), asked once when it is created: a
 * request that no enabled method can complete is refused with 400 NO_METHOD before anything is
 * stored (issue 16), rather than created with a deep link nobody can finish.
 *
 * Methods, in the order the phone page lists them (§12):
 *  - `eudi_wallet`: client proof mode, every scope one of isAdult, isFrench, isEU (the proof of
 *    age, the EU PID or an mDL proves them, design.md §13; isUnique needs a provider), a
 *    loader-created request, and wallet trust enabled (always in sandbox; in production with
 *    SVC_WALLET_TRUST), wallet-offer.ts;
 *  - each enabled identity provider whose `--proves` covers the scopes (§12, provider-login.ts);
 *  - `sandbox`: the persona picker, which proves everything, in sandbox mode only.
 */
import type { Scope } from '../../src/protocol/scopes.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import { providersFor } from './provider-login.ts';
import { isWalletOffered } from './wallet-offer.ts';

/** A method by its id: the wallet, a provider's `idp_…`, or the sandbox's persona picker. */
export type ProvingMethod = 'eudi_wallet' | 'sandbox' | `idp_${string}`;

/** What decides the methods: the request as it is about to be created. */
export interface ProvableRequest {
  scopes: readonly Scope[];
  clientProofMode: boolean;
  /** who created it: the loader (`widget`) or a signed partner call (`partner`) */
  channel: 'widget' | 'partner';
}

/**
 * The methods that can prove every scope of `request`, in the phone page's order; empty when
 * none can. Async because identity providers live in the store (§12).
 *
 * @example await provingMethods(deps, { scopes: ['isAdult'], clientProofMode: true, channel: 'widget' }) // ['eudi_wallet', 'sandbox']
 */
export async function provingMethods(
  deps: Pick<AppDeps, 'config' | 'wallet' | 'store'>,
  request: ProvableRequest,
): Promise<ProvingMethod[]> {
  const methods: ProvingMethod[] = [];
  if (isWalletOffered(deps, request)) methods.push('eudi_wallet');
  for (const provider of await providersFor(deps.store, request.scopes)) methods.push(provider.id as `idp_${string}`);
  if (deps.config.mode === 'sandbox') methods.push('sandbox');
  return methods;
}

/**
 * The methods for `request`, or 400 NO_METHOD when there is none.
 *
 * @example await requireProvingMethod(deps, { scopes, clientProofMode, channel: 'partner' })
 */
export async function requireProvingMethod(
  deps: Pick<AppDeps, 'config' | 'wallet' | 'store'>,
  request: ProvableRequest,
): Promise<ProvingMethod[]> {
  const methods = await provingMethods(deps, request);
  if (methods.length === 0) {
    const mode = request.clientProofMode ? 'client proof mode' : 'app mode';
    throw new ServiceError('NO_METHOD', {
      cause: `no enabled method proves [${request.scopes.join(', ')}] in ${mode} for a ${request.channel} request`,
    });
  }
  return methods;
}
