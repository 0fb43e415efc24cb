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
  /** `#rgb` or `#rrggbb`, as `data-accent` (not validated here) */
  accent?: string;
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
      legacyCss ? h('style', null, CSS + extraCss) : null,
      h(App, {
        state: options.state,
        copy: ALL_COPY[lang],
        lang,
        theme: options.theme,
        layout: options.layout ?? 'desktop',
        sandbox: options.sandbox === true,
        deepLink: PREVIEW_DEEP_LINK,
        qr: PREVIEW_QR,
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
