/**
 * Whether a new verification request offers the EUDI wallet path (design.md §11, §13), and the
 * wallet request it then carries: `wallet_link`, `dc_request` and `dc_requests` for the loader, the
 * material the store keeps to check the answer. The private keys in that material (Annex C's
 * HPKE key, OpenID4VP's ECDH-ES keys for the DC API and for a signed request's answer) are sealed
 * under a service secret (`wallet_material_key`, itself sealed at rest by the store), each bound to
 * the request id.
 */
import type { DcApiRequest, DcRequest } from '../../src/protocol/wire.ts';
import type { Scope } from '../../src/protocol/scopes.ts';
import { seal, unseal } from '../crypto/seal.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import {
  allowedWalletFormats,
  createWalletRequest,
  isWalletProvable,
  walletRequestOf,
  type WalletFormat,
  type WalletFormats,
  type WalletRequestMaterial,
} from '../wallet/index.ts';

/** What verify-request answers when the path is offered. */
export interface WalletOffer {
  walletLink: string;
  dcRequest: DcRequest;
  dcRequests: DcApiRequest[];
}

const sealPurpose = (requestId: string) => `wallet-hpke/${requestId}`;
const ecdhSealPurpose = (requestId: string) => `wallet-ecdh/${requestId}`;
const signedSealPurpose = (requestId: string) => `wallet-signed/${requestId}`;

/**
 * True when the wallet path is offered: client proof mode, every requested scope one a wallet
 * can prove (isAdult, isFrench, isEU: isUnique needs an identity provider), a loader-created
 * request (the signed partner variant answers no wallet link, design.md §3), and the path enabled
 * (always in sandbox; in production with SVC_WALLET_TRUST), and a credential format left to ask
 * (walletFormatsOf, design.md §19).
 */
export function isWalletOffered(
  deps: Pick<AppDeps, 'wallet'> & { config?: Pick<AppDeps['config'], 'walletFormats'> },
  request: {
    scopes: readonly Scope[];
    clientProofMode: boolean;
    channel: 'widget' | 'partner';
    walletFormats?: WalletFormat | null;
  },
): boolean {
  return (
    deps.wallet.trust.enabled &&
    walletFormatsOf(deps, request.walletFormats) !== null &&
    request.clientProofMode &&
    request.channel === 'widget' &&
    isWalletProvable(request.scopes)
  );
}

/**
 * The credential formats a request may ask (design.md §19): the operator's SVC_WALLET_FORMATS
 * narrowed by the partner's `wallet_formats` (STANDARD only: an ADULT_BLIND request never names
 * its partner, design.md §8); null when none is left.
 *
 * @example walletFormatsOf(deps, partner.walletFormats) // 'all' | 'mso_mdoc' | 'dc+sd-jwt' | null
 */
export function walletFormatsOf(
  deps: { config?: Pick<AppDeps['config'], 'walletFormats'> },
  partner: WalletFormat | null | undefined,
): WalletFormats | null {
  return allowedWalletFormats(deps.config?.walletFormats ?? 'all', partner);
}

/**
 * The wallet request for a new verification request `id`, whose methods include the wallet
 * (proving-methods.ts decided it, once, with isWalletOffered).
 *
 * @example const wallet = await offerWallet(deps, { id, scopes, pageOrigin })
 */
export async function offerWallet(
  deps: Pick<AppDeps, 'wallet' | 'config' | 'clock'>,
  request: {
    id: string;
    scopes: readonly Scope[];
    /** the partner page's origin, checked by the caller: its Digital Credentials API requests are signed for it */
    pageOrigin?: string;
    /** the partner's `wallet_formats` (design.md §19); absent or null: the operator's */
    walletFormats?: WalletFormat | null;
  },
): Promise<{ offer: WalletOffer; material: WalletRequestMaterial } | null> {
  const formats = walletFormatsOf(deps, request.walletFormats);
  if (!isWalletProvable(request.scopes) || formats === null) return null;
  const created = await createWalletRequest({
    formats,
    requestId: request.id,
    apiUrl: deps.config.apiUrl,
    scopes: request.scopes,
    access: deps.wallet.access ?? null,
    now: deps.clock.now(),
    // docs/design.md §16: signed requests name the page that hands them over; the phone page's too
    origins: [...(request.pageOrigin ? [request.pageOrigin] : []), phoneOriginOf(deps)],
  });
  const { material } = created;
  const secret = deps.wallet.sealingSecret;
  const sealedKey = seal(secret, sealPurpose(request.id), material.dc.recipientPrivateKey);
  const { oid4vpDc, signed } = material;
  return {
    offer: { walletLink: created.walletLink, dcRequest: created.dcRequest, dcRequests: created.dcRequests },
    material: {
      ...material,
      dc: { ...material.dc, recipientPrivateKey: sealedKey },
      ...(oid4vpDc
        ? { oid4vpDc: { ...oid4vpDc, privateKey: seal(secret, ecdhSealPurpose(request.id), oid4vpDc.privateKey) } }
        : {}),
      ...(signed
        ? { signed: { ...signed, privateKey: seal(secret, signedSealPurpose(request.id), signed.privateKey) } }
        : {}),
    },
  };
}

/** The phone page's origin (the app URL's): where its Digital Credentials API requests come from. */
export function phoneOriginOf(deps: Pick<AppDeps, 'config'>): string {
  return new URL(deps.config.appUrl).origin;
}

/**
 * The link and Digital Credentials API requests a stored wallet request stands for, as the phone
 * page offers them (no secret: the private keys stay sealed in the store), signed for the phone
 * page's origin when the request was.
 *
 * @example const { wallet_link, dc_request, dc_requests } = walletOfferView(deps, record.wallet)
 */
export function walletOfferView(
  deps: Pick<AppDeps, 'config'>,
  stored: WalletRequestMaterial,
): {
  wallet_link: string;
  dc_request: DcRequest;
  dc_requests: DcApiRequest[];
} {
  const { walletLink, dcRequest, dcRequests } = walletRequestOf(stored, phoneOriginOf(deps));
  return { wallet_link: walletLink, dc_request: dcRequest, dc_requests: dcRequests };
}

/**
 * The stored material with its private keys opened, for the verifier.
 *
 * @example const material = openWalletMaterial(deps, record.id, record.wallet)
 */
export function openWalletMaterial(
  deps: Pick<AppDeps, 'wallet'>,
  requestId: string,
  stored: WalletRequestMaterial,
): WalletRequestMaterial {
  const secret = deps.wallet.sealingSecret;
  const key = unseal(secret, sealPurpose(requestId), stored.dc.recipientPrivateKey);
  if (key === null) throw new ServiceError('INTERNAL_ERROR', { cause: 'wallet HPKE key does not open' });
  const opened: WalletRequestMaterial = { ...stored, dc: { ...stored.dc, recipientPrivateKey: key } };
  if (stored.oid4vpDc) {
    const ecdhKey = unseal(secret, ecdhSealPurpose(requestId), stored.oid4vpDc.privateKey);
    if (ecdhKey === null) throw new ServiceError('INTERNAL_ERROR', { cause: 'wallet ECDH-ES key does not open' });
    opened.oid4vpDc = { ...stored.oid4vpDc, privateKey: ecdhKey };
  }
  if (stored.signed) {
    const answerKey = unseal(secret, signedSealPurpose(requestId), stored.signed.privateKey);
    if (answerKey === null)
      throw new ServiceError('INTERNAL_ERROR', { cause: 'signed request answer key does not open' });
    opened.signed = { ...stored.signed, privateKey: answerKey };
  }
  return opened;
}
