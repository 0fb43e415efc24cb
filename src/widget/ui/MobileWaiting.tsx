import type { Copy } from '../copy/fr.ts';
import { Icon } from './Icon.tsx';

/** Mobile waiting: the deep link as the primary button, the QR code one tap away (when there is one). */
export function MobileWaiting({ copy, deepLink, onShowQr }: { copy: Copy; deepLink: string; onShowQr?: () => void }) {
  return (
    <div class="state">
      <Icon name="phone" />
      <h2 class="title">{copy.mobileTitle}</h2>
      <p class="help">{copy.mobileHelp}</p>
      <a class="button" href={deepLink} data-testid="svc-open-app">
        {copy.openApp}
      </a>
      {onShowQr && (
        <button type="button" class="link" onClick={onShowQr} data-testid="svc-show-qr">
          {copy.showQr}
        </button>
      )}
    </div>
  );
}
