/**
 * @jsxRuntime classic
 * @jsx h
 */
import { h } from 'preact';
import type { Copy } from '../copy/fr.ts';
import { plural } from '../copy/plural.ts';
import { Qr, type QrDrawing } from './Qr.tsx';

/**
 * Desktop waiting: the QR code, its countdown, and the deep link as a link beside it (in a new tab,
 * but on a phone showing the QR code). With
 * the EUDI wallet path (design.md §11) the QR code encodes the wallet link (the service's modules),
 * `title` says to scan it with a wallet app, `deepLink` is the wallet link on a phone only (App.tsx),
 * and `onWallet` (where the Digital Credentials API exists) offers a wallet on this device.
 * The title, the countdown and the links sit in `.text`: below the QR code, or beside it in the
 * compact card.
 */
export function Waiting(props: {
  copy: Copy;
  /** the copy's language, for its plural rules */
  lang: string;
  title: string;
  /** the compact card's smaller QR code (Qr.tsx) */
  compact: boolean;
  deepLink: string;
  drawing: QrDrawing;
  secondsLeft: number;
  /** on a phone the deep link opens in this tab (Back comes back to the same request); elsewhere in a new one */
  sameTab: boolean;
  onWallet?: () => void;
}) {
  const { copy, deepLink, drawing, secondsLeft, onWallet } = props;
  return (
    <div class="state">
      <div class="tile">
        <Qr drawing={drawing} label={copy.qrLabel} least={props.compact ? 160 : 200} />
      </div>
      <div class="text">
        <h2 class="title">{props.title}</h2>
        {/* role=timer is not live: screen readers hear state changes, not this. The minutes left,
            counted up, in words for everyone (design.md §20): a screen reader would read m:ss as a
            time of day, and the words change once a minute, not every second */}
        <p class="help" role="timer" data-testid="svc-countdown">
          {plural(props.lang, copy.expiresIn, Math.ceil(secondsLeft / 60) || 1)}
        </p>
        {onWallet && (
          <button class="link" onClick={onWallet} data-testid="svc-use-wallet">
            {copy.useWalletHere}
          </button>
        )}
        {/* on a desktop the phone page opens beside the partner's page, which keeps waiting (design.md §14) */}
        <a
          class="link"
          href={deepLink}
          target={props.sameTab ? undefined : '_blank'}
          rel="noopener"
          data-testid="svc-open-here"
        >
          {copy.openHere}
        </a>
      </div>
    </div>
  );
}
