/**
 * The designers' preview: the real components, in a shadow root, driven by a fixed model instead
 * of the flow: no network, no timers, a fake QR payload and a frozen countdown, so every state ×
 * theme × locale renders the same way every time. The demo page (src/demo) imports it.
 */
import { Fragment, h, render } from 'preact';
import type { FailReason } from '../protocol/api.ts';
import type { Layout, LoaderErrorCode, LocaleOption, Theme, WidgetState } from '../shared/contract.ts';
import { resolveLocale } from '../shared/locale.ts';
import { COPY } from './copy/index.ts';
import { CSS, adoptStyles } from './styles.ts';
import { App } from './ui/App.tsx';

export interface PreviewOptions {
  /** `error` shows INIT_FAILED unless `errorCode` says otherwise */
  state: WidgetState;
  theme: Theme;
  locale: LocaleOption;
  layout?: Layout;
  /** shows the "test mode" mark; default false */
  sandbox?: boolean;
  /** for `failed`: `cancelled` shows the cancellation copy */
  reason?: FailReason;
  errorCode?: LoaderErrorCode;
  /** client proof mode with the EUDI wallet path (DESIGN §11): the QR and buttons open the wallet link */
  wallet?: boolean;
  /** with `wallet`: the "Use a wallet on this device" button (where the Digital Credentials API exists) */
  walletHere?: boolean;
  /** the wallet on this device declined: the retryable failure */
  walletFailed?: boolean;
}

/** What the preview QR code encodes: shaped like a real deep link, pointing nowhere. */
export const PREVIEW_DEEP_LINK = 'https://svc.example/m/v/vr_preview0000000000000000000000000000000000#h=h_preview';
/** What the preview wallet QR encodes: shaped like a real av:// link, pointing nowhere. */
export const PREVIEW_WALLET_LINK =
  'av://?response_type=vp_token&response_mode=direct_post' +
  '&client_id=redirect_uri%3Ahttps%3A%2F%2Fsvc.example%2Foid4vp%2Fresponse%2Fvr_preview' +
  '&response_uri=https%3A%2F%2Fsvc.example%2Foid4vp%2Fresponse%2Fvr_preview&nonce=preview&state=preview';
/** The frozen countdown: 4:32. */
export const PREVIEW_SECONDS_LEFT = 272;

/**
 * Mounts a preview of one state in `host` and returns the function that removes it.
 *
 * @example
 * const unmount = renderPreview(document.querySelector('#cell')!, { state: 'waiting', theme: 'light', locale: 'fr' });
 * unmount(); // host is empty again
 */
export function renderPreview(host: HTMLElement, options: PreviewOptions): () => void {
  const element = document.createElement('div');
  element.setAttribute('data-testid', 'svc-widget');
  element.setAttribute('data-state', options.state);
  host.append(element);
  const root = element.attachShadow({ mode: 'open' });
  const legacyCss = !adoptStyles(root);
  const lang = resolveLocale(options.locale);
  const errorCode = options.errorCode ?? 'INIT_FAILED';
  render(
    h(
      Fragment,
      null,
      legacyCss ? h('style', null, CSS) : null,
      h(App, {
        state: options.state,
        copy: COPY[lang],
        lang,
        theme: options.theme,
        layout: options.layout ?? 'desktop',
        sandbox: options.sandbox === true,
        deepLink: PREVIEW_DEEP_LINK,
        walletLink: options.wallet ? PREVIEW_WALLET_LINK : undefined,
        onWallet: options.walletHere ? () => undefined : undefined,
        walletFailed: options.walletFailed === true,
        onBackToQr: () => undefined,
        secondsLeft: PREVIEW_SECONDS_LEFT,
        reason: options.reason ?? 'failed',
        error: options.state === 'error' ? { code: errorCode, message: '', retryable: true } : null,
        qrShown: false,
        onRetry: () => undefined,
        onShowQr: () => undefined,
      }),
    ),
    root,
  );
  return () => {
    render(null, root);
    element.remove();
  };
}
