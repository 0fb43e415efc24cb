'use client';
/**
 * `<SvcWidget>`: the age-verification widget as a React component (docs/embedding.md#windowsvc).
 * It injects the loader (`{widgetUrl}/v4/loader.min.js`, `data-render="explicit"`) once per page,
 * mounts one widget with `window.SVC.render` when it mounts and removes it with
 * `handle.remove()` when it unmounts, so a route change takes the widget, its requests and its
 * timers away. Props are the loader's attributes in camelCase and the `SVC.on*` callbacks.
 * Nothing of React reaches the loader or the UI bundle: this file only calls the public API.
 */
import { createElement, useEffect, useRef, type CSSProperties, type ReactElement } from 'react';

export type WidgetState =
  'creating' | 'waiting' | 'scanned' | 'completed' | 'confirming' | 'redirecting' | 'failed' | 'expired' | 'error';

/** What `onError` receives (`INIT_FAILED` also when the loader itself could not be loaded). */
export interface SvcError {
  code: 'INIT_FAILED' | 'SERVER_VERIFY_TIMEOUT';
  message: string;
  retryable: boolean;
}

/** What `onSuccess` receives: a grant code (STANDARD) or an attestation (ADULT_BLIND), and your state. */
export type SvcResult = ({ grant_code: string } | { attestation: string }) & { state?: string };

/** The loader's attributes (docs/embedding.md), camelCase, as `SVC.render` takes them. */
export interface SvcWidgetOptions {
  partnerId?: string;
  sessionToken?: string;
  successPath: string;
  scopes?: string | readonly string[];
  locale?: string;
  theme?: 'dark' | 'light' | 'auto';
  accent?: string;
  size?: 'regular' | 'compact';
  layout?: 'desktop' | 'mobile' | 'auto';
  debug?: boolean;
  clientProofMode?: boolean;
  serverVerify?: boolean;
  serverVerifyEndpoint?: string;
  serverVerifyTimeout?: number;
  state?: string;
  redemptionContext?: string;
}

export interface SvcWidgetProps extends SvcWidgetOptions {
  /** origin serving the loader and the widget's API, e.g. "https://widget.example" */
  widgetUrl: string;
  onSuccess?: (result: SvcResult) => void;
  onError?: (error: SvcError) => void;
  onState?: (state: WidgetState) => void;
  /** CSP nonce for the loader's script tag, when your policy uses nonces */
  nonce?: string;
  id?: string;
  className?: string;
  style?: CSSProperties;
}

interface WidgetHandle {
  remove(): void;
  update(options: { theme?: string; locale?: string; layout?: string; accent?: string }): void;
}

type Listener<T> = (value: T, container?: HTMLElement) => void;

interface SvcApi {
  render(container: HTMLElement, options: Record<string, unknown>): WidgetHandle;
  onError(fn: Listener<SvcError>): () => void;
  onSuccess(fn: Listener<SvcResult>): () => void;
  onState(fn: Listener<WidgetState>): () => void;
}

const loading = new Map<string, Promise<SvcApi>>();

/** Resolves with `window.SVC`, adding the loader's tag only when no loader is on the page yet. */
export function loadSvc(widgetUrl: string, nonce?: string): Promise<SvcApi> {
  const host = window as Window & { SVC?: SvcApi };
  if (host.SVC) return Promise.resolve(host.SVC);
  const src = `${widgetUrl.replace(/\/+$/, '')}/v4/loader.min.js`;
  let pending = loading.get(src);
  if (!pending) {
    pending = new Promise<SvcApi>((resolve, reject) => {
      const existing = document.querySelector<HTMLScriptElement>(`script[src="${CSS.escape(src)}"]`);
      const script = existing ?? document.createElement('script');
      const done = () => (host.SVC ? resolve(host.SVC) : reject(new Error(`${src} did not install window.SVC`)));
      script.addEventListener('load', done, { once: true });
      script.addEventListener(
        'error',
        () => {
          loading.delete(src);
          if (!existing) script.remove();
          reject(new Error(`${src} could not be loaded`));
        },
        { once: true },
      );
      if (!existing) {
        script.src = src;
        script.async = true;
        script.dataset.render = 'explicit';
        if (nonce) script.nonce = nonce;
        document.head.appendChild(script);
      }
    });
    loading.set(src, pending);
  }
  return pending;
}

/** Options fixed at render: a change makes a new widget (a new verification request). */
function renderKey(p: SvcWidgetProps): string {
  return JSON.stringify([
    p.widgetUrl,
    p.partnerId,
    p.sessionToken,
    p.successPath,
    typeof p.scopes === 'string' ? p.scopes : p.scopes?.join(','),
    p.size,
    p.debug,
    p.clientProofMode,
    p.serverVerify,
    p.serverVerifyEndpoint,
    p.serverVerifyTimeout,
    p.state,
    p.redemptionContext,
  ]);
}

function defined(options: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

/**
 * @example
 * <SvcWidget widgetUrl="https://widget.example" partnerId="pk_live_…" successPath="/age/ok"
 *   scopes={['isAdult']} locale="auto" onSuccess={(r) => fetch('/api/age', { method: 'POST', body: JSON.stringify(r) })} />
 */
export function SvcWidget(props: SvcWidgetProps): ReactElement {
  const container = useRef<HTMLDivElement>(null);
  const handle = useRef<WidgetHandle | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const key = renderKey(props);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const p = latest.current;
    let live = true;
    let unsubscribe: Array<() => void> = [];
    loadSvc(p.widgetUrl, p.nonce).then(
      (svc) => {
        if (!live) return;
        const mine =
          <T>(fn: (value: T) => void): Listener<T> =>
          (value, from) => {
            if (from === element) fn(value);
          };
        unsubscribe = [
          svc.onState(mine((state: WidgetState) => latest.current.onState?.(state))),
          svc.onSuccess(mine((result: SvcResult) => latest.current.onSuccess?.(result))),
          svc.onError(mine((error: SvcError) => latest.current.onError?.(error))),
        ];
        handle.current = svc.render(
          element,
          defined({
            partnerId: p.partnerId,
            sessionToken: p.sessionToken,
            successPath: p.successPath,
            scopes: p.scopes,
            locale: p.locale,
            theme: p.theme,
            accent: p.accent,
            size: p.size,
            layout: p.layout,
            debug: p.debug,
            clientProofMode: p.clientProofMode,
            serverVerify: p.serverVerify,
            serverVerifyEndpoint: p.serverVerifyEndpoint,
            serverVerifyTimeout: p.serverVerifyTimeout,
            state: p.state,
            redemptionContext: p.redemptionContext,
          }),
        );
      },
      (error: unknown) => {
        if (live)
          latest.current.onError?.({
            code: 'INIT_FAILED',
            message: error instanceof Error ? error.message : String(error),
            retryable: true,
          });
      },
    );
    return () => {
      live = false;
      for (const off of unsubscribe) off();
      handle.current?.remove();
      handle.current = null;
    };
  }, [key]);

  // theme, locale, layout and accent switch live, without a new request
  const { theme, locale, layout, accent } = props;
  useEffect(() => {
    handle.current?.update(defined({ theme, locale, layout, accent }));
  }, [theme, locale, layout, accent]);

  return createElement('div', { ref: container, id: props.id, className: props.className, style: props.style });
}
