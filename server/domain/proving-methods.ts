/**
 * Which methods can prove a request (design.md §3, §11, §12), asked once when it is created: a
 * request that no enabled method can complete is refused with 400 NO_METHOD before anything is
 * stored, rather than created with a deep link nobody can finish.
 *
 * This module owns the decision: the create path asks `provingMethods` (by id), the phone page
 * `phoneMethodsOf` (what it shows); both read the providers through `providersFor` and the wallet
 * through the one decision `isWalletOffered` takes at creation (kept as the request's wallet
 * material), so the two lists cannot drift apart.
 *
 * Methods, in the order the phone page lists them (§12):
 *  - `eudi_wallet`: client proof mode, every scope one of isAdult, isFrench, isEU (the proof of
 *    age, the EU PID or an mDL proves them, design.md §13; isUnique needs a provider), a
 *    loader-created request, and wallet trust enabled (always in sandbox; in production with
 *    SVC_WALLET_TRUST), wallet-offer.ts;
 *  - each enabled identity provider whose `--proves` covers the scopes (§12, provider-login.ts);
 *  - `sandbox`: the persona picker, which proves everything, in sandbox mode only.
 */
import type { PhoneMethod } from '../../src/protocol/wire.ts';
import type { Scope } from '../../src/protocol/scopes.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import type { ProviderRecord, Store, VerifyRequestRecord } from '../store/store.ts';
import { methodProblem } from './provider-registry.ts';
import { isWalletOffered, walletOfferView } from './wallet-offer.ts';
import type { WalletFormat } from '../wallet/index.ts';

/**
 * True when the provider is enabled, its `proves` covers every scope and its method is one
 * `svc providers add` accepts (never the wallet's `eudi_wallet`, even in a row written around the CLI).
 */
export function provesAll(provider: ProviderRecord, scopes: readonly Scope[]): boolean {
  return (
    provider.enabled &&
    methodProblem(provider.method) === null &&
    scopes.every((scope) => provider.proves.includes(scope))
  );
}

/**
 * The enabled providers that can prove every scope, in the order they were registered.
 *
 * @example const providers = await providersFor(deps.store, record.scopes)
 */
export async function providersFor(store: Store, scopes: readonly Scope[]): Promise<ProviderRecord[]> {
  return (await store.listProviders()).filter((provider) => provesAll(provider, scopes));
}

/** A method by its id: the wallet, a provider's `idp_…`, or the sandbox's persona picker. */
export type ProvingMethod = 'eudi_wallet' | 'sandbox' | `idp_${string}`;

/** What decides the methods: the request as it is about to be created. */
export interface ProvableRequest {
  scopes: readonly Scope[];
  clientProofMode: boolean;
  /** who created it: the loader (`widget`) or a signed partner call (`partner`) */
  channel: 'widget' | 'partner';
  /** the partner's `wallet_formats` (design.md §19): absent or null, the operator's SVC_WALLET_FORMATS */
  walletFormats?: WalletFormat | null;
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

/**
 * The ways the phone can prove a stored request, in the same order: the EUDI wallet when the
 * request was made with a wallet request (the create-time decision), each enabled provider that
 * proves every scope, the sandbox.
 *
 * @example const methods = await phoneMethodsOf(deps, record)
 */
export async function phoneMethodsOf(
  deps: Pick<AppDeps, 'store' | 'config'>,
  record: VerifyRequestRecord,
): Promise<PhoneMethod[]> {
  const methods: PhoneMethod[] = [];
  if (record.wallet) methods.push({ id: 'eudi_wallet', ...walletOfferView(deps, record.wallet) });
  for (const provider of await providersFor(deps.store, record.scopes))
    methods.push({ id: provider.id as `idp_${string}`, name: provider.name, method: provider.method });
  if (deps.config.mode === 'sandbox') methods.push({ id: 'sandbox' });
  return methods;
}
