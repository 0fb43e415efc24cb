import type { Copy } from '../copy/fr.ts';
import { Qr, type QrDrawing } from './Qr.tsx';

/**
 * Desktop waiting: the QR code, its countdown, and the deep link as a plain link beside it. With
 * the EUDI wallet path (DESIGN §11) `deepLink` is the wallet link (the service's QR modules encode
 * it), and `onWallet` (where the Digital Credentials API exists) offers a wallet on this device.
 */
export function Waiting(props: {
  copy: Copy;
  deepLink: string;
  drawing: QrDrawing;
  secondsLeft: number;
  onWallet?: () => void;
}) {
  const { copy, deepLink, drawing, secondsLeft, onWallet } = props;
  const clock = `${Math.floor(secondsLeft / 60)}:${String(secondsLeft % 60).padStart(2, '0')}`;
  return (
    <div class="state">
      <div class="tile">
        <Qr drawing={drawing} label={copy.qrLabel} />
      </div>
      <h2 class="title">{copy.waitingTitle}</h2>
      {/* role=timer is not live: screen readers hear state changes, not every tick */}
      <p class="help" role="timer" data-testid="svc-countdown">
        {copy.expiresIn.replace('{t}', clock)}
      </p>
      {onWallet && (
        <button type="button" class="link" onClick={onWallet} data-testid="svc-use-wallet">
          {copy.useWalletHere}
        </button>
      )}
      <a class="link" href={deepLink} data-testid="svc-open-here">
        {copy.openHere}
      </a>
    </div>
  );
}
