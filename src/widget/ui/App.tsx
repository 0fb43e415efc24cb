import type { FailReason, Locale } from '../../protocol/api.ts';
import type { QrModules } from '../../protocol/qr.ts';
import type { Layout, SvcError, Theme, WidgetState } from '../../shared/contract.ts';
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
  sandbox: boolean;
  deepLink?: string;
  /** DESIGN §11: the av:// wallet link, which the QR and the buttons then open instead of the deep link */
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

type Key = keyof Copy;
const STATUS: Record<Exclude<WidgetState, 'waiting'>, [IconName, Key, Key]> = {
  creating: ['spin', 'creatingTitle', 'creatingHelp'],
  scanned: ['phone', 'scannedTitle', 'scannedHelp'],
  completed: ['check', 'completedTitle', 'completedHelp'],
  confirming: ['spin', 'confirmingTitle', 'confirmingHelp'],
  redirecting: ['check', 'redirectingTitle', 'redirectingHelp'],
  failed: ['cross', 'failedTitle', 'failedHelp'],
  expired: ['clock', 'expiredTitle', 'expiredHelp'],
  error: ['alert', 'errorTitle', 'errorHelp'],
};

/** The card: a header (with the test-mode mark), the current state, and the polite live region. */
export function App(p: ViewProps) {
  const { copy, state } = p;
  let body;
  let title: string;
  const link = p.walletLink ?? p.deepLink;
  if ((state === 'waiting' || state === 'scanned') && p.walletFailed) {
    title = copy.walletFailedTitle;
    body = (
      <Status icon="cross" title={title} help={copy.walletFailedHelp} action={copy.backToQr} onAction={p.onBackToQr} />
    );
  } else if (state === 'waiting' && link) {
    const drawing = qrDrawing(p.qr);
    // Without modules from the service there is no QR code to show: the link is the way in.
    const mobile = !drawing || (p.layout === 'mobile' && !p.qrShown);
    title = mobile ? copy.mobileTitle : copy.waitingTitle;
    body = mobile ? (
      <MobileWaiting
        copy={copy}
        deepLink={link}
        wallet={!!p.walletLink}
        onShowQr={drawing ? p.onShowQr : undefined}
        onWallet={p.onWallet}
      />
    ) : (
      <Waiting copy={copy} deepLink={link} drawing={drawing} secondsLeft={p.secondsLeft} onWallet={p.onWallet} />
    );
  } else {
    let [icon, titleKey, helpKey] = STATUS[state === 'waiting' ? 'creating' : state];
    if (state === 'failed' && p.reason === 'cancelled') [titleKey, helpKey] = ['cancelledTitle', 'cancelledHelp'];
    if (state === 'error' && p.error?.code === 'SERVER_VERIFY_TIMEOUT')
      [titleKey, helpKey] = ['timeoutTitle', 'timeoutHelp'];
    const canRetry = state === 'failed' || (state === 'error' && p.error?.retryable !== false);
    title = copy[titleKey];
    body = (
      <Status
        icon={icon}
        title={title}
        help={copy[helpKey]}
        action={canRetry ? copy.retry : undefined}
        onAction={p.onRetry}
      />
    );
  }
  return (
    <section class={'card ' + p.theme} lang={p.lang} aria-label={copy.brand} data-testid="svc-card">
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
