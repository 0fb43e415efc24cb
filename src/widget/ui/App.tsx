/**
 * @jsxRuntime classic
 * @jsx h
 */
import { h } from 'preact';
import type { FailReason, Locale } from '../../protocol/wire.ts';
import type { QrModules } from '../../protocol/qr.ts';
import type { Layout, Size, SvcError, Theme, WidgetState } from '../../shared/contract.ts';
import type { Copy } from '../copy/fr.ts';
import type { IconName } from './Icon.tsx';
import { MobileWaiting } from './MobileWaiting.tsx';
import { qrDrawing } from './Qr.tsx';
import { Status } from './Status.tsx';
import { Waiting } from './Waiting.tsx';

/** Everything the widget shows, as plain values: the flow model or the preview fills it in. */
export interface ViewProps {
  state: WidgetState;
  copy: Copy;
  lang: Locale;
  theme: Theme;
  layout: Layout;
  /** `compact`: the shorter card for checkout columns and modals (docs/embedding.md#sizes) */
  size: Size;
  /**
   * The device is a phone (src/widget/model/layout.ts, whatever `data-layout` says): only there
   * can the wallet link open an app, so only there is it a link
   * (docs/decisions.md#where-the-build-changed-the-first-design).
   */
  phone: boolean;
  sandbox: boolean;
  deepLink?: string;
  /**
   * design.md §11: the av:// wallet link. The QR code encodes it (the service's modules); on a phone
   * the buttons open it instead of the deep link, elsewhere they open the deep link.
   */
  walletLink?: string;
  /** the Digital Credentials API button: present where the API exists and the request offers it */
  onWallet?: () => void;
  /** the wallet on this device declined or failed: a retryable failure, back to the QR */
  walletFailed?: boolean;
  onBackToQr?: () => void;
  /** the deep link's QR code as the service precomputed it */
  qr?: QrModules;
  secondsLeft: number;
  reason?: FailReason;
  error?: SvcError | null;
  qrShown: boolean;
  onRetry(): void;
  onShowQr(): void;
}

/** Each state but waiting by its icon; its words are the copy's `<state>Title` and `<state>Help`. */
const ICONS: Record<Exclude<WidgetState, 'waiting'>, IconName> = {
  creating: 'spin',
  scanned: 'phone',
  completed: 'check',
  confirming: 'spin',
  redirecting: 'check',
  failed: 'cross',
  expired: 'clock',
  error: 'alert',
};

/** What a status view can say: a state's words, or one of its variants'. */
type Words = keyof typeof ICONS | 'cancelled' | 'timeout' | 'walletFailed';

/** The card: a header (with the test-mode mark), the current state, and the polite live region. */
export function App(p: ViewProps) {
  const { copy, state } = p;
  let body;
  let title: string;
  const link = (p.phone && p.walletLink) || p.deepLink;
  if (state === 'waiting' && link && !p.walletFailed) {
    const drawing = qrDrawing(p.qr);
    // Without modules from the service there is no QR code to show: the link is the way in.
    const mobile = !drawing || (p.layout === 'mobile' && !p.qrShown);
    title = mobile ? copy.mobileTitle : p.walletLink ? copy.walletTitle : copy.waitingTitle;
    body = mobile ? (
      <MobileWaiting
        copy={copy}
        deepLink={link}
        wallet={link == p.walletLink}
        onShowQr={drawing ? p.onShowQr : undefined}
        onWallet={p.onWallet}
      />
    ) : (
      <Waiting
        copy={copy}
        lang={p.lang}
        title={title}
        compact={p.size == 'compact'}
        deepLink={link}
        drawing={drawing}
        secondsLeft={p.secondsLeft}
        sameTab={p.phone}
        onWallet={p.onWallet}
      />
    );
  } else {
    // the wallet on this device declined: a retryable failure, back to the QR code
    const walletFailed = (state === 'waiting' || state === 'scanned') && p.walletFailed;
    const shown = state === 'waiting' ? 'creating' : state;
    let words: Words = walletFailed ? 'walletFailed' : shown;
    if (state === 'failed' && p.reason === 'cancelled') words = 'cancelled';
    if (state === 'error' && p.error?.code === 'SERVER_VERIFY_TIMEOUT') words = 'timeout';
    const canRetry = state === 'failed' || (state === 'error' && p.error?.retryable !== false);
    // Whose problem an error is (design.md §14): one that retrying cannot mend (INIT_FAILED from a
    // bad attribute, INVALID_PARTNER, ORIGIN_NOT_ALLOWED: src/widget/net/create.ts) is the site's
    // configuration, told as such; a network error or a 5xx (retryable) reads as the service being unavailable.
    title = copy[`${words}Title`];
    body = (
      <Status
        icon={walletFailed ? 'cross' : ICONS[shown]}
        title={title}
        help={state === 'error' && !canRetry ? copy.configHelp : copy[`${words}Help`]}
        action={walletFailed ? copy.backToQr : canRetry ? copy.retry : undefined}
        onAction={walletFailed ? p.onBackToQr : p.onRetry}
      />
    );
  }
  return (
    <section class={`card ${p.theme} ${p.size}`} lang={p.lang} aria-label={copy.brand} data-testid="svc-card">
      <header class="head">
        <span>{copy.brand}</span>
        {p.sandbox && (
          <span class="badge" data-testid="svc-test-mode">
            {copy.testMode}
          </span>
        )}
      </header>
      {body}
      <p class="sr" role="status" data-testid="svc-live">
        {title}
      </p>
    </section>
  );
}
