/**
 * Whether a new verification request offers the EUDI wallet path (DESIGN §11), and the wallet
 * request it then carries: `wallet_link` and `dc_request` for the loader, the material the store
 * keeps to check the answer. The HPKE private key in that material is sealed under a service
 * secret (`wallet_material_key`, itself sealed at rest by the store), bound to the request id.
 */
import type { DcRequest } from '../../src/protocol/api.ts';
import type { Scope } from '../../src/protocol/scopes.ts';
import { seal, unseal } from '../crypto/seal.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import { createWalletRequest, walletRequestOf, type WalletRequestMaterial } from '../wallet/index.ts';

/** What verify-request answers when the path is offered. */
export interface WalletOffer {
  walletLink: string;
  dcRequest: DcRequest;
}

const sealPurpose = (requestId: string) => `wallet-hpke/${requestId}`;

/**
 * True when the wallet path is offered: client proof mode, scopes exactly [isAdult] (the proof of
 * age proves nothing else), a loader-created request (the signed partner variant answers no wallet
 * link, DESIGN §3), and the path enabled (always in sandbox; in production with SVC_WALLET_TRUST).
 */
export function isWalletOffered(
  deps: Pick<AppDeps, 'wallet'>,
  request: { scopes: readonly Scope[]; clientProofMode: boolean; channel: 'widget' | 'partner' },
): boolean {
  return (
    deps.wallet.trust.enabled &&
    request.clientProofMode &&
    request.channel === 'widget' &&
    request.scopes.length === 1 &&
    request.scopes[0] === 'isAdult'
  );
}

/**
 * The wallet request for a new verification request `id`, or null when the path is not offered.
 *
 * @example const wallet = await offerWallet(deps, { id, scopes, clientProofMode, channel: 'widget' })
 */
export async function offerWallet(
  deps: Pick<AppDeps, 'wallet' | 'config'>,
  request: { id: string; scopes: readonly Scope[]; clientProofMode: boolean; channel: 'widget' | 'partner' },
): Promise<{ offer: WalletOffer; material: WalletRequestMaterial } | null> {
  if (!isWalletOffered(deps, request)) return null;
  const created = await createWalletRequest({ requestId: request.id, apiUrl: deps.config.apiUrl });
  const { material } = created;
  const sealedKey = seal(deps.wallet.sealingSecret, sealPurpose(request.id), material.dc.recipientPrivateKey);
  return {
    offer: { walletLink: created.walletLink, dcRequest: created.dcRequest },
    material: { ...material, dc: { ...material.dc, recipientPrivateKey: sealedKey } },
  };
}

/**
 * The link and Digital Credentials API request a stored wallet request stands for, as the phone
 * page offers them (no secret: the HPKE private key stays sealed in the store).
 *
 * @example const { wallet_link, dc_request } = walletOfferView(record.wallet)
 */
export function walletOfferView(stored: WalletRequestMaterial): { wallet_link: string; dc_request: DcRequest } {
  const { walletLink, dcRequest } = walletRequestOf(stored);
  return { wallet_link: walletLink, dc_request: dcRequest };
}

/**
 * The stored material with its HPKE private key opened, for the verifier.
 *
 * @example const material = openWalletMaterial(deps, record.id, record.wallet)
 */
export function openWalletMaterial(
  deps: Pick<AppDeps, 'wallet'>,
  requestId: string,
  stored: WalletRequestMaterial,
): WalletRequestMaterial {
  const key = unseal(deps.wallet.sealingSecret, sealPurpose(requestId), stored.dc.recipientPrivateKey);
  if (key === null) throw new ServiceError('INTERNAL_ERROR', { cause: 'wallet HPKE key does not open' });
  return { ...stored, dc: { ...stored.dc, recipientPrivateKey: key } };
}
