/**
 * The designers' preview: the real components, in a shadow root, driven by a fixed model instead
 * of the flow: no network, no timers, a fake QR payload and a frozen countdown, so every state ×
 * theme × locale × accent renders the same way every time. The demo page (src/demo) imports it;
 * it carries every locale (copy/all.ts), the UI bundle does not.
 */
import { Fragment, h, render } from 'preact';
import type { FailReason } from '../protocol/wire.ts';
import type { QrModules } from '../protocol/qr.ts';
import {
  reservedHeight,
  type Layout,
  type LoaderErrorCode,
  type LocaleOption,
  type Size,
  type Theme,
  type WidgetState,
} from '../shared/contract.ts';
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
  /**
   * for `error`: false is an error retrying cannot mend, the site's configuration (design.md §14:
   * no retry button, "this site's age check is not set up correctly"); default true, the service unavailable
   */
  retryable?: boolean;
  /** `#rgb` or `#rrggbb`, as `data-accent` (not validated here) */
  accent?: string;
  /**
   * client proof mode with the EUDI wallet path: the QR and buttons open the wallet link, the
   * age-verification app's `av://` (true, design.md §11) or any wallet's `openid4vp://` (design.md §13)
   */
  wallet?: boolean | 'openid4vp';
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
 * What the preview wallet QR encodes: shaped like a real av:// link (design.md §11, its DCQL query
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
/**
 * What the preview QR encodes for a client-proof request beyond isAdult (design.md §13): an
 * `openid4vp://` link asking any EU wallet for a PID or a driving licence, its DCQL query as the
 * service writes it for [isAdult, isFrench] (nonce and state shortened), so the designers see the
 * real density of that QR code.
 */
export const PREVIEW_OPENID4VP_LINK =
  'openid4vp://?response_type=vp_token&response_mode=direct_post&client_id=redirect_uri%3Ahttps%3A%2F%2' +
  'Fsvc.example%2Foid4vp%2Fresponse%2Fvr_preview&response_uri=https%3A%2F%2Fsvc.example%2Foid4vp%2Fresp' +
  'onse%2Fvr_preview&dcql_query=%7B%22credentials%22%3A%5B%7B%22id%22%3A%22pid%22%2C%22format%22%3A%22m' +
  'so_mdoc%22%2C%22meta%22%3A%7B%22doctype_value%22%3A%22eu.europa.ec.eudi.pid.1%22%7D%2C%22claims%22%3' +
  'A%5B%7B%22path%22%3A%5B%22eu.europa.ec.eudi.pid.1%22%2C%22age_over_18%22%5D%7D%2C%7B%22path%22%3A%5B' +
  '%22eu.europa.ec.eudi.pid.1%22%2C%22nationality%22%5D%7D%5D%7D%2C%7B%22id%22%3A%22mdl%22%2C%22format%' +
  '22%3A%22mso_mdoc%22%2C%22meta%22%3A%7B%22doctype_value%22%3A%22org.iso.18013.5.1.mDL%22%7D%2C%22clai' +
  'ms%22%3A%5B%7B%22path%22%3A%5B%22org.iso.18013.5.1%22%2C%22age_over_18%22%5D%7D%2C%7B%22path%22%3A%5' +
  'B%22org.iso.18013.5.1%22%2C%22nationality%22%5D%7D%5D%7D%5D%2C%22credential_sets%22%3A%5B%7B%22optio' +
  'ns%22%3A%5B%5B%22pid%22%5D%2C%5B%22mdl%22%5D%5D%7D%5D%7D&nonce=preview&state=preview';
/** PREVIEW_OPENID4VP_LINK's QR code, precomputed the same way. */
export const PREVIEW_OPENID4VP_QR: QrModules = {
  size: 117,
  bits:
    '/t5Tg4IJnnRmxqxxkGP8FIKiukYHY16rANyn4lBumAcdSJUOibxOwK1bzrt1dfaBLGyYO2MVXGoGhdukq7v+NlHv4aBr9ekqLsE9aM8b' +
    'vw7Gp2jRp8DZB/qqqqqqqqqqqqqqqqqv4BLK0kdASPGH6tRtZtcAty7ZA/Q22vxmyH/DvyJYBGYecLbkm9lnMNurqaXYseAh9fpbdKVu' +
    'A+M7U4uA4P/t9qLUp0L0D8J0WD6nilI0qbdNcxA1x5mx8Hqn+8ig9bnSBk2TBmL1wNrZta2ScVXkLgWBbxX/ki7mPthktB3gVC8IVCq9' +
    'k+ymAkdU+nrZpVccIXHcwi1JQOnwuBUAUo07YIrqhj9x21JjwU4C8H8H581Ag3GFPSiH4lAP6twnfo6ujrp2gL3M0/2PHmwvWzSdBVan' +
    'SpE2sGD2+3EiX04GWZXgdJcqMpXuF9ExpRCIha3Tr0B0j8BcC8EAKh2gmr2SR8RpnAJ1kwsRSCuoFaq5jnJDF7iQmcYb1Q8Q37mkG1Sx' +
    'ahLkKCkpG61wWvVqfC9q9IViyG0qHM7JqcqIGQ/UbGAEQ0Yf3dgUvzZAYOdUeKZooX6y3E/mtCvj9Sv/5H8+4Rhg+8f04PEvSvxNapUS' +
    '2q35EqnbgK0F2Kva5mqwxT2UESf6rFi5jxs0S8Vz4Q6E/SRfPsM4T/AuE/q5pz2ag+JUX0D0meDUkSnkhUsll5ej0tj+59hogW5ci5rU' +
    '3oDhtQi7h7pCkjoGSlVbzgeBKBakb1XV0hXtE4BedCJE9qSq/q1vm5qo674B7HWAeLUQKHrq4NtGUEf+b7CJw5KJanRsrNFMB4kkp9tS' +
    'kf9DpSAgngAmpDQvtPZPvv4P9j2uMEDIQztYEauGb3Xe0gDad1HfHmNmC1OZXtghli8ppFF7N6MbReDaFeUL8795U3cPBT/2LcE2LeCz' +
    'Jq+LQTYcAr41n+tUTlwEaIJVyetoPi3QJf97zYaLoiyP4/SQdCK1IBaBbg0IsKAqWB9KDCVoAA8K2NIqGMy08gqKNAbiBApELo6yu4B+' +
    'M7560KaNWJ0x6F3p0rTKUC4zpTm38T9XXqmNDwOM4GsvYvrnYJbLr8LD3/5VQfiam/+bfH+kxPtx0UY9vFAW8Rz1mMfKoBkMqs0LK7Vo' +
    'GqQuJqsRkwZcR7L5HUp0xUjUkbr/fKS+LcA/89iv97+p+kbmFcDDj4kxWeFgqSBBgGiASGnxT1GEe0NRblLLADlcvSa69qGitgNCfo90' +
    'gzlCH4GHbZpGTc5csc8+wbiarWFpfoUkga29yYanzyoUcNYXkH9ViWoDsp3qBh8yt5RL0tanzFYHT6VtPgFaGrzWxDENxypf3miXlIRn' +
    'rEMtu+iPi3mMRHry/QNCgfecNvLTB5QXcaAdLpSsBcfwhU0cj0qYLyvjVct1wxB6npUtXuoW6361EzhrQ7pYJKhLBjmYm4pCzVKVBUeh' +
    'dUfhe/xxLyTXll/BNi9CNifKUeaoGX766YVMtceFsGyRh/z+kYxNNrkLy7pZ6iaICRxaQixgkdxXtS7/5SltQ5KkKzIYRnmPyFzLyH1T' +
    'PhKsWLNaIiyTXbma3c6BhMjcSMQ9t1A6MvgZMctr6BmJ+mN6f/QrH7FvU+dRE1IsVJB3H+L8Rcp+kY+uhtnrgIxq4I3mvGQzrMRGxZEU' +
    '2hBEqoJRPHfcW/+CJb+wXgPkfkP5egL/0oaCaaxSnIJoVgio+gfOImtrfxD2YdcQMEp9IF76pTnVYVcrbVyb6Eqx50yw4ybjWvZVzz5S' +
    'mvoGkGVBGS4vN/a1FPoHXtonywz8ZmGax/JJ2wjvRd3qwzCSqLNtrMcpOGE6QYyBPowHnwmsg5COFuDCU/BcLwGh8M2aj/b8pUE2D8HQ' +
    '+ofKAkElxfz114k12oTUAfm5iyjjlMyfi/HTiPJpq87uN6rxAEfkNdK1KGgTF7LeRSHIhonI8IXI4F42eSf+q0LS1EcfFB/bvuY+nBsb' +
    '57Ta2IIC9gU69j6ECtCJ8Hqz9G3/pDoSTzdQOAUtyMANSndtCjc5a1LD24HBjOXHCeOD0Ix17JNKFX6mNjOSA2kGnBtrzsX2nHQvFORv' +
    'UKEvFeJIjqFlZeBeT+BUNUD8rRYqZGs+Bxo/jQwj4sbo/ABWuTMWzjvEHjvxtXBsY/rMVArau0a1K1etOkbqkFmIdkTsdrHAfCxg1KUX' +
    'ul6IU/H8cf7dAH6dLd/11KTvl6o46M8444Y20GmusunfGqNipD8GwU5GotkEKchwpTyFanwnptat1p/rAy1X8k3BHGh20HFzOgA=',
};
/** The frozen countdown: 4:32 left, which the widget says as 5 minutes (Waiting.tsx). */
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
  // the height the loader reserves in a real container, which the card inherits (styles.ts)
  element.style.setProperty(
    'min-height',
    `${reservedHeight({ size: options.size, clientProofMode: options.wallet !== undefined && options.wallet !== false })}px`,
  );
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
        qr: options.wallet === 'openid4vp' ? PREVIEW_OPENID4VP_QR : options.wallet ? PREVIEW_WALLET_QR : PREVIEW_QR,
        walletLink:
          options.wallet === 'openid4vp' ? PREVIEW_OPENID4VP_LINK : options.wallet ? PREVIEW_WALLET_LINK : undefined,
        onWallet: options.walletHere ? () => undefined : undefined,
        walletFailed: options.walletFailed === true,
        onBackToQr: () => undefined,
        secondsLeft: PREVIEW_SECONDS_LEFT,
        reason: options.reason ?? 'failed',
        error:
          options.state === 'error' ? { code: errorCode, message: '', retryable: options.retryable ?? true } : null,
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
