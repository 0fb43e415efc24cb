import type { Copy } from '../copy/fr.ts';
import { Icon } from './Icon.tsx';

/**
 * Mobile waiting: the deep link as the primary button, the QR code one tap away (when there is
 * one). With the EUDI wallet path the button opens the wallet link — the age-verification app's
 * `av://`, or any wallet's `openid4vp://` (DESIGN §13) —, and `onWallet` offers the Digital
 * Credentials API.
 */
export function MobileWaiting(p: {
  copy: Copy;
  deepLink: string;
  wallet: boolean;
  onShowQr?: () => void;
  onWallet?: () => void;
}) {
  const { copy, deepLink, onShowQr } = p;
  return (
    <div class="state">
      <Icon name="phone" />
      <h2 class="title">{copy.mobileTitle}</h2>
      <p class="help">{copy.mobileHelp}</p>
      <a class="button" href={deepLink} data-testid="svc-open-app">
        {p.wallet ? (deepLink.startsWith('av:') ? copy.openWalletApp : copy.openWallet) : copy.openApp}
      </a>
      {p.onWallet && (
        <button type="button" class="link" onClick={p.onWallet} data-testid="svc-use-wallet">
          {copy.useWalletHere}
        </button>
      )}
      {onShowQr && (
        <button type="button" class="link" onClick={onShowQr} data-testid="svc-show-qr">
          {copy.showQr}
        </button>
      )}
    </div>
  );
}
