/**
 * The contract between the loader (`dist/v4/loader.min.js`) and the UI bundle
 * (`dist/v4/ui.<hash>.js`), and the public shapes `window.SVC` hands to partners (design.md §7).
 * Types and tiny constants only: both bundles import it, so every byte here is paid twice.
 */
import type { Locale, VerifyRequestCreated } from '../protocol/wire.ts';
import type { Scope } from '../protocol/scopes.ts';

/** What the widget shows; `data-state` on the host element and `onState` report the same value. */
export type WidgetState =
  | 'creating'
  | 'waiting'
  | 'scanned'
  | 'completed'
  | 'confirming'
  | 'redirecting'
  | 'failed'
  | 'expired'
  /** INIT_FAILED or SERVER_VERIFY_TIMEOUT; the error itself goes to `onError` */
  | 'error';

/** The loader's error codes (docs/partner-api.md#every-error-code, `loader onError`). */
export type LoaderErrorCode = 'INIT_FAILED' | 'SERVER_VERIFY_TIMEOUT';

/** What `onError` and the `svc:error` event receive. */
export interface SvcError {
  code: LoaderErrorCode;
  /** short, for developers; names the attribute for configuration errors */
  message: string;
  retryable: boolean;
}

/** What `onSuccess`, `svc:success` and `consumeResult()` hand over. */
export type SvcResult = ({ grant_code: string } | { attestation: string }) & { state?: string };

export type Theme = 'dark' | 'light' | 'auto';
export type LocaleOption = Locale | 'auto';
export type Layout = 'desktop' | 'mobile';
/**
 * `regular`: the card as tall as its state needs; `compact`: for checkout columns and modals
 * (docs/embedding.md#sizes).
 */
export type Size = 'regular' | 'compact';

/** A validated widget configuration: the script tag's attributes, merged with `render()` options. */
export interface WidgetConfig {
  /** origin serving the loader, the UI bundle and /api/w/* (e.g. `https://widget.example`) */
  readonly apiOrigin: string;
  readonly partnerId?: string;
  readonly sessionToken?: string;
  /** same-origin path, e.g. `/account/verified?x=1`; absent only beside a problem (the UI then goes to `/`) */
  readonly successPath?: string;
  readonly scopes: readonly Scope[];
  /** `data-locale` as written: a BCP 47 tag (`en-GB`), `auto`, or absent (fr); src/shared/locale.ts resolves it */
  readonly locale?: string;
  readonly theme: Theme;
  /** element id of the container, as written (autoRender looks up `svc-widget` when absent) */
  readonly container?: string;
  readonly debug: boolean;
  readonly clientProofMode: boolean;
  readonly serverVerify: boolean;
  /** same-origin path of the partner's confirmation endpoint */
  readonly serverVerifyEndpoint?: string;
  readonly serverVerifyTimeoutSeconds: number;
  /** opaque partner value echoed as `&state=` after the result */
  readonly state?: string;
  /** `auto`: detected from the device (src/widget/model/layout.ts) */
  readonly layout: Layout | 'auto';
  /** `data-size`, `regular` when absent */
  readonly size: Size;
  /** brand accent, `#rgb` or `#rrggbb` (validated): buttons, links and focus rings */
  readonly accent?: string;
  /**
   * `data-redemption-context`: 32 random bytes (base64url, validated) the partner backend made
   * for this page; present, the widget delivers a private attestation (docs/adult-blind.md#private-attestations)
   */
  readonly redemptionContext?: string;
  /** names of global functions (`data-on-error`, …) */
  readonly onError?: string;
  readonly onSuccess?: string;
  readonly onState?: string;
}

/**
 * What the UI tells the loader, as `emit`'s arguments (a type and its value: fewer bytes in both
 * scripts than an object per event); the loader fans it out to callbacks and DOM events.
 */
export type WidgetEvent =
  [type: 'state', state: WidgetState] | [type: 'error', error: SvcError] | [type: 'success', result: SvcResult];

/**
 * The answer to POST /api/w/verify-request as the loader read it: the HTTP status and the JSON
 * body (absent when the body is not JSON). The UI says what it means (src/widget/net/create.ts).
 */
export type CreateAnswer = [status: number, body?: unknown];

/**
 * A widget's live request as sessionStorage keeps it (design.md §14): the create answer, what the
 * page already shows (the QR code, the deep link, the wallet fields), never a result.
 */
export type StoredRequest = VerifyRequestCreated;

/** A create that has no answer after this long is given up (and can be retried). */
export const CREATE_TIMEOUT_MS = 15_000;

/** Everything the UI bundle needs to run one widget. */
export interface MountOptions {
  config: WidgetConfig;
  /** sends POST /api/w/verify-request; rejects when no answer came (network error, abort) */
  send(signal: AbortSignal): Promise<CreateAnswer>;
  /** the first request, sent by the loader before the UI arrived */
  sent?: Promise<CreateAnswer>;
  /** aborts `sent`: the UI gives it up {@link CREATE_TIMEOUT_MS} after it mounted (src/widget/net/create.ts) */
  sentController?: AbortController;
  /**
   * The sessionStorage key of this widget's live request (design.md §14):
   * `svc:v1:<partner id, or "blind">:<scopes sorted, comma-joined>:<location.pathname>`.
   */
  storageKey: string;
  /** the request stored under `storageKey` when the loader started: no `sent` then, the UI asks its status */
  stored?: StoredRequest;
  emit(...event: WidgetEvent): void;
  /** keeps a same-page result for `consumeResult()` */
  keepResult(result: SvcResult): void;
  /**
   * Runs the script of a locale the bundle does not carry (the loader adds every script, with
   * its nonce); rejects when it cannot be loaded. See src/loader/inject.ts.
   */
  loadCopy(locale: Locale): Promise<unknown>;
  /** a BCP 47 tag or `auto` → one of the 24 (src/shared/locale.ts): the loader's own, so the bundle carries none */
  resolveLocale(option?: string): Locale;
  /** mount straight into the error state (configuration error) */
  error?: SvcError;
}

/** The handle the UI gives back per widget; `window.SVC.render` wraps it. */
export interface WidgetController {
  reset(): void;
  remove(): void;
  update(options: WidgetUpdate): void;
  readonly state: WidgetState;
}

/** What `update()` switches live; unknown or malformed values are ignored. */
export interface WidgetUpdate {
  theme?: Theme;
  locale?: LocaleOption;
  layout?: Layout;
  /** `#rgb` or `#rrggbb` */
  accent?: string;
}

export type MountWidget = (container: HTMLElement, options: MountOptions) => WidgetController;

/** A failed create, as the UI reads it: the catalogue code when the service sent one (src/widget/net/create.ts). */
export interface CreateError extends Error {
  retryable: boolean;
}

/**
 * The height in CSS px the loader reserves for a card in its container before the UI arrives, and
 * that every state of the card keeps (design.md §14's no layout shift, docs/embedding.md#no-layout-shift):
 * the card's CSS inherits it (src/widget/styles.ts), the designers' preview sets it as the loader
 * does. Client proof mode has the tallest card in either size: the wallet's QR code keeps 3 px a
 * module (up to the card's 360 px inner width) with its words under it.
 *
 * @example reservedHeight({ size: 'compact', clientProofMode: false }) // 276
 */
export function reservedHeight(config: { size?: Size; clientProofMode?: boolean }): number {
  return config.clientProofMode ? 620 : config.size == 'compact' ? 276 : 400;
}

/** `data-accent` and the `accent` option: a hex colour, `#rgb` or `#rrggbb`; no names, no functions, no alpha. */
export const ACCENT_PATTERN = /^#([\da-f]{3}){1,2}$/i;

/**
 * The global the UI bundle sets when it runs. The loader reads it on `load` and leaves it there:
 * a later injection finds it already set and adds no second script.
 */
export const UI_GLOBAL = '__svcUi';

// ---- window.SVC: what partners call -----------------------------------------------------------

/** `SVC.render` options: the attributes in camelCase. */
export interface RenderOptions {
  partnerId?: string;
  sessionToken?: string;
  successPath?: string;
  scopes?: string | readonly string[];
  /** a BCP 47 tag (`en-GB` → `en`) or `auto`, as `data-locale` */
  locale?: LocaleOption | (string & {});
  theme?: Theme;
  debug?: boolean;
  clientProofMode?: boolean;
  serverVerify?: boolean;
  serverVerifyEndpoint?: string;
  serverVerifyTimeout?: number;
  state?: string;
  layout?: Layout | 'auto';
  /** as `data-size`; set at render, update() does not switch it */
  size?: Size;
  /** `#rgb` or `#rrggbb`, as `data-accent` */
  accent?: string;
  /**
   * as `data-redemption-context`, validated the same way; the blinding chunk reads the script
   * tag's (docs/adult-blind.md#private-attestations)
   */
  redemptionContext?: string;
  onError?: string;
  onSuccess?: string;
  onState?: string;
}

/** What `SVC.render` returns: one widget. */
export interface WidgetHandle {
  /** starts over with a new verification request */
  reset(): void;
  /** aborts requests, clears timers and listeners, and removes the widget's DOM */
  remove(): void;
  /** switches theme, locale, layout or accent live; unknown values are ignored */
  update(options: WidgetUpdate): void;
  readonly state: WidgetState;
}

/** Callbacks get the value and the widget's container (absent for a container that was not found). */
export type Listener<T> = (value: T, container?: HTMLElement) => void;

/** `window.SVC`, as `src/loader/svc-global.ts` builds it. */
export interface SvcApi {
  readonly version: string;
  /** calls `fn` once the UI bundle has loaded (soon after, if it already has) */
  ready(fn: () => void): void;
  /** mounts a widget in `container` (an element or its id); idempotent per container */
  render(container: HTMLElement | string, options?: RenderOptions): WidgetHandle;
  /** also receives the last error that happened before subscribing; returns an unsubscribe function */
  onError(fn: Listener<SvcError>): () => void;
  onSuccess(fn: Listener<SvcResult>): () => void;
  onState(fn: Listener<WidgetState>): () => void;
  /** the result from the address fragment or from a same-page success, once; null otherwise */
  consumeResult(): SvcResult | null;
}
