/**
 * The designers' preview: the real components, in a shadow root, driven by a fixed model instead
 * of the flow: no network, no timers, a fake QR payload and a frozen countdown, so every state ×
 * theme × locale × accent renders the same way every time. The demo page (src/demo) imports it;
 * it carries every locale (copy/all.ts), the UI bundle does not.
 */
import { Fragment, h, render } from 'preact';
import type { FailReason } from '../protocol/api.ts';
import type { QrModules } from '../protocol/qr.ts';
import type { Layout, LoaderErrorCode, LocaleOption, Theme, WidgetState } from '../shared/contract.ts';
import { resolveLocale } from '../shared/locale.ts';
import { accentCss } from './accent.ts';
import { ALL_COPY } from './copy/all.ts';
import { adoptStyles, cssWith } from './styles.ts';
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
  /** `#rgb` or `#rrggbb`, as `data-accent` (not validated here) */
  accent?: string;
  /** client proof mode with the EUDI wallet path (DESIGN §11): the QR and buttons open the wallet link */
  wallet?: boolean;
  /** with `wallet`: the "Use a wallet on this device" button (where the Digital Credentials API exists) */
  walletHere?: boolean;
  /** the wallet on this device declined: the retryable failure */
  walletFailed?: boolean;
}

/** What the preview QR code encodes: shaped like a real deep link, pointing nowhere. */
export const PREVIEW_DEEP_LINK = 'https://svc.example/m/v/vr_preview0000000000000000000000000000000000#h=h_preview';
/**
 * PREVIEW_DEEP_LINK's QR code as the service would send it (error correction M): precomputed, so
 * the preview needs no encoder either (preview.test.ts checks it against qrcode-generator).
 */
export const PREVIEW_QR: QrModules = {
  size: 37,
  bits:
    '/uif4/wUNTgQbplumrt1D9Tl26Y/Ka7BHX1hB/qqqq/gF/gUALcId4JeTzntIpmxs0kgOCEEnkzy/m97mMOZHeQ6AnkijaBg4nFy0D' +
    'f9dwiwefnqhoitl5Gblk0kdVVKXMCLDYQoPtGmtEMQ1Xgc4vXJW6ovw5CU3u4Gmk1YPnlokzHpdv8AR9akX/tlOCqwWUx3ErpQnY/' +
    'F1G1v1u6jU1ehBB4k40/oLy8rgA==',
};
/** What the preview wallet QR encodes: shaped like a real av:// link, pointing nowhere. */
export const PREVIEW_WALLET_LINK =
  'av://?response_type=vp_token&response_mode=direct_post' +
  '&client_id=redirect_uri%3Ahttps%3A%2F%2Fsvc.example%2Foid4vp%2Fresponse%2Fvr_preview' +
  '&response_uri=https%3A%2F%2Fsvc.example%2Foid4vp%2Fresponse%2Fvr_preview&nonce=preview&state=preview';
/** PREVIEW_WALLET_LINK's QR code, precomputed the same way (the service encodes the wallet link when it offers one). */
export const PREVIEW_WALLET_QR: QrModules = {
  size: 61,
  bits:
    '/jR9bOZ/W/wQNhpMDwjQbp+aYqFK7rt0+8IdAEhV26ai/f3qQy7BSdCceBExB/qqqqqqqq/gDvO3EelQAJbpel/K8pUBrW0ZTKAAjc6A' +
    'hgOvO9Q3K1OmgpcLCCntSVdL/Zho/jQfMthFZsc77bQ1fkHnLzie9DM1E7EGlF+ovQvs8cUGNqhaSwpcyqtxp3dWfwNLXFLYVR9ydan3' +
    'gqsLNFYs2uboCMCgb4TJGvVP5n6VN0UBKrLhB38a53+YxItshQcZ6BJIbZcJQBegKF54GpVAU31LBfpDs/vUyP40ZCGEQegUdeuH8Otz' +
    'NirvELHNHSNLFh+ZGk/P9p/Qz48DekQAmgL2TWiLuOnnUb/uZf0rVQlkhcJnnYolyFAsFpJJIxxYrnwKMyPuEaR30yF5oZoL/N3uSC/O' +
    'bQnIsTYSZ6XmpybotmYk90Lh3mZQt8Z7pMR8PIl6PPiQhTmoBIwvSV3wsiV7HnigVwpb2JDRSzAxbdm7gg1IbQEppJI5T8fBkoTyWovR' +
    'U8UpG1N9DzHGov21mP+AVjkUaWTUb/jyxetlYmpwVnnpF+F7Fbpy1Q/vtq+d11ehTMrE166GHmAaQ6SrBNMSu5vneI/q1YyZ+4+JgA==',
};
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
  const extraCss = options.accent ? accentCss(options.accent) : '';
  const legacyCss = !adoptStyles(root, extraCss);
  const lang = resolveLocale(options.locale);
  const errorCode = options.errorCode ?? 'INIT_FAILED';
  render(
    h(
      Fragment,
      null,
      legacyCss ? h('style', null, cssWith(extraCss)) : null,
      h(App, {
        state: options.state,
        copy: ALL_COPY[lang],
        lang,
        theme: options.theme,
        layout: options.layout ?? 'desktop',
        sandbox: options.sandbox === true,
        deepLink: PREVIEW_DEEP_LINK,
        qr: options.wallet ? PREVIEW_WALLET_QR : PREVIEW_QR,
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
