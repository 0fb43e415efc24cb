/**
 * The designers' preview: the real components, in a shadow root, driven by a fixed model instead
 * of the flow: no network, no timers, a fake QR payload and a frozen countdown, so every state ×
 * theme × locale × accent renders the same way every time. The demo page (src/demo) imports it;
 * it carries every locale (copy/all.ts), the UI bundle does not.
 */
import { Fragment, h, render } from 'preact';
import type { FailReason } from '../protocol/api.ts';
import type { QrModules } from '../protocol/qr.ts';
import type { Layout, LoaderErrorCode, LocaleOption, Size, Theme, WidgetState } from '../shared/contract.ts';
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
  /** `mobile` also previews a phone (where the wallet link is a link); default desktop */
  layout?: Layout;
  /** `data-size`; default regular */
  size?: Size;
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
/**
 * What the preview wallet QR encodes: shaped like a real av:// link (DESIGN §11, its DCQL query
 * and a nonce and state as long as the service's), pointing nowhere, so the preview shows the
 * wallet QR code as dense as the real one.
 */
export const PREVIEW_WALLET_LINK =
  'av://?response_type=vp_token&response_mode=direct_post' +
  '&client_id=redirect_uri%3Ahttps%3A%2F%2Fsvc.example%2Foid4vp%2Fresponse%2Fvr_preview0000000000000000' +
  '&response_uri=https%3A%2F%2Fsvc.example%2Foid4vp%2Fresponse%2Fvr_preview0000000000000000' +
  '&dcql_query=' +
  '%7B%22credentials%22%3A%5B%7B%22id%22%3A%22proof_of_age%22%2C%22format%22%3A%22mso_mdoc%22' +
  '%2C%22meta%22%3A%7B%22doctype_value%22%3A%22eu.europa.ec.av.1%22%7D%2C%22claims%22%3A%5B%7' +
  'B%22path%22%3A%5B%22eu.europa.ec.av.1%22%2C%22age_over_18%22%5D%7D%5D%7D%5D%7D' +
  '&nonce=ppppppppppppppppppppppppppppppppppppppppppp' +
  '&state=sssssssssssssssssssssssssssssssssssssssssss';
/** PREVIEW_WALLET_LINK's QR code, precomputed the same way (the service encodes the wallet link when it offers one). */
export const PREVIEW_WALLET_QR: QrModules = {
  size: 93,
  bits:
    '/uL0p61lz6kVkdP8FRxSiaFwFfEvGNBuktK24AGhOMt8ort1xwRr1KOOo0Rppduh5ev/eY6PnLBHLsEYuJxJsNVFusvpB/qqqqqq' +
    'qqqqqqqv4BrRLxdKFzFzQqYAt08f/9VAffpwSepbIbnBt21ufUxtmyHXxQpRTWKXp2tyH56JGCytcpWIihZlhzZxHq3mp3p1MEfj' +
    '3Zpkzr/Hzna5+MdYIXwiA/9rBrwhErXQl4ykBSETqVgT8VxFdjp8NGFIdK7NZCCsJhT/GQY6qmzChUfOkSo4JtT8V/6tmSAoZIfq' +
    'VQN6t+1+cDDuhZC0nFez7cY3Q05OHo+63EPFn1SiP30bPy5F3RNR/2D+ciOTy1kFmgizLsXxUitPEKwmp3UuvPjfRoJmYLDxAcbZ' +
    'scNcuPOcCPi7hjch8kAApwewU9QmISoS0HD49fP6cOUfoBoG/sRM2nxeQyBHjWTUTivnu+uNWsK7r9iqwRvz0R8YhBE/EeUT76C/' +
    'X6WmWPoShz/r6/2NKkGuNswlzklf5Ptoqm3V9WExsw6QX//WIPsjOglgArC5bnvmxTlZFOcHFGRJG+/DyjgBYN/SSpkCDC0Mx+ON' +
    '8t+aH5dqNPoVo3tGpC8/Sg03TGN6QZ5J7txrTjS1n8gyjL2bCQ5v7JKIu9GkIdAdgUyp8S4pV434s7X6RRd1302lOgCsQ8SVK1Aj' +
    'mUXW/C1oh03w3wnSihhVvR/kjQikM7NVh3uiwubzWkSgyhuUuIw7x0UAHhsA5K5oS1AnhBMFdBoV1FgqTmrP0LeH/2SrDgYbKra0' +
    '+TpD+dimSYNnM+c1rBKCwvSZIOnUJ4KPibUC7m4Am1IsH9SbafAZhyOKOxN6P5xuBubab8vK/9OAHvzezR/yxpgpx8sC/EiggsfG' +
    'spBiqEpeq4n6sqMRoTxxEDmtGlflcY78c3L4pX4fsEvl/WC9w7FjivY99MfGiIgTcFENgOphU5c+XKmmFVALBGVJsH9+pznm+1Rt' +
    'c1hDhFr9iBw1ha/aaWHGQPzrk49U1sjZPfA1q2XbLNMmN2N557R27rvj3hLNfnWx5aD0ikBsOb7GeG8R0tU9Ho7CgGSZ7VAfv0n7' +
    '8RuZpNMreshhLwnSQu9jIlwlpeOo0qmExtAEknClxYrYYcpBvnuvT71qppcjchG5/EZkaeo8RR4SxvDgEDSxUeF7gjgPeuJCJxPI' +
    'j8YXTXUbQpoqXdXrSpdVLeCRRIEd5WbwPxtbw7bgP3a6L92XHH4cZUUV4AG+NSNgu5VlG/PC2l+2UgtRg4Pat8O68oZItjsqH0vg' +
    'AAY91JP7oX1v/mFg/QB+5LR3ylrFrJLca/ulIWocUP6j8J1qUFWgoxq3kZGWpH0eumgnj6duovzpbp+91UC2MiI05KWXAciuvQsB' +
    'Q8NYOZh9o5EEzB2PBi3aV/UrWh/vmww/egDOQYg3TgA=',
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
        size: options.size ?? 'regular',
        phone: options.layout === 'mobile',
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
