/**
 * @jsxRuntime classic
 * @jsx h
 */
import { h } from 'preact';
import type { Copy } from '../copy/fr.ts';
import { Icon } from './Icon.tsx';

/**
 * Mobile waiting: the deep link as the primary button, the QR code one tap away (when there is
 * one). With the EUDI wallet path on a phone the button opens the wallet link (`wallet`: the age-verification app's
 * `av://`, or any wallet's `openid4vp://`, design §13), and
 * `onWallet` offers the Digital Credentials API. The buttons sit in `.row`: one under the other,
 * or side by side in the compact card, which also leaves the icon out.
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
    <div class="state m">
      <Icon name="phone" />
      <div class="text">
        <h2 class="title">{copy.mobileTitle}</h2>
        <p class="help">{copy.mobileHelp}</p>
        <div class="row">
          <a class="button" href={deepLink} data-testid="svc-open-app">
            {p.wallet ? (deepLink.startsWith('av:') ? copy.openWalletApp : copy.openWallet) : copy.openApp}
          </a>
          {p.onWallet && (
            <button class="link" onClick={p.onWallet} data-testid="svc-use-wallet">
              {copy.useWalletHere}
            </button>
          )}
          {onShowQr && (
            <button class="link" onClick={onShowQr} data-testid="svc-show-qr">
              {copy.showQr}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
