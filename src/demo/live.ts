/**
 * The live panel's model: loads the real loader from this origin in explicit-render mode and
 * mounts one widget through `window.SVC.render`, like a partner page would.
 */
import { signal } from '@preact/signals';
import type { Scope } from '../protocol/scopes.ts';
import type {
  Layout,
  LocaleOption,
  SvcApi,
  SvcError,
  SvcResult,
  Size,
  Theme,
  WidgetHandle,
  WidgetState,
} from '../shared/contract.ts';

/**
 * The sandbox partner the live panel creates requests for: registered for this page's origin
 * (fixtures/partners.json), since the service checks the Origin of every create.
 */
export const DEMO_PARTNER_ID = 'pk_test_designer';
export const DEMO_PARTNER_ORIGIN = 'http://localhost:8787';

export interface LiveSettings {
  theme: Theme;
  locale: LocaleOption;
  layout: Layout | 'auto';
  /** `data-size` */
  size: Size;
  scopes: Scope[];
  /** `data-accent`, or null for the default */
  accent: string | null;
}

export interface LiveEvent {
  at: number;
  kind: 'state' | 'error' | 'success' | 'info';
  text: string;
}

declare global {
  interface Window {
    /** set by the loader once it has run (design.md §7) */
    SVC?: SvcApi;
  }
}

let loading: Promise<SvcApi> | null = null;

/**
 * Reports the widget's deep link (an `<a href>` in its open shadow root) whenever it appears,
 * renews or goes away. A MutationObserver on the host does not see inside a shadow root, so
 * each shadow root is observed too as soon as it exists: the link is often rendered after the
 * state change that announced it (the locale script loads first), and reading it once per state
 * change missed it.
 *
 * @example const stop = followDeepLink(host, (href) => console.log(href)); stop();
 */
export function followDeepLink(host: HTMLElement, onChange: (href: string | null) => void): () => void {
  const observed = new WeakSet<ShadowRoot>();
  let last: string | null | undefined;
  const read = () => {
    const root = host.querySelector('[data-testid="svc-widget"]')?.shadowRoot;
    if (root && !observed.has(root)) {
      observed.add(root);
      observer.observe(root, { subtree: true, childList: true, attributes: true });
    }
    const href = root?.querySelector<HTMLAnchorElement>('a[href*="/m/v/"]')?.href ?? null;
    if (href !== last) onChange((last = href));
  };
  const observer = new MutationObserver(read);
  observer.observe(host, { subtree: true, childList: true, attributes: true });
  read();
  return () => observer.disconnect();
}

/**
 * Injects `/v4/loader.min.js` once (explicit render: it mounts nothing by itself).
 *
 * @example const svc = await loadLoader(); svc.render(el, { theme: 'light' });
 */
export function loadLoader(doc: Document = document): Promise<SvcApi> {
  loading ??= new Promise<SvcApi>((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = '/v4/loader.min.js';
    script.dataset.render = 'explicit';
    script.dataset.partnerId = DEMO_PARTNER_ID;
    script.dataset.successPath = '/demo';
    script.addEventListener('load', () => {
      const svc = window.SVC;
      if (svc) svc.ready(() => resolve(svc));
      else reject(new Error('the loader ran but window.SVC is missing'));
    });
    script.addEventListener('error', () => {
      loading = null;
      script.remove();
      reject(new Error('the loader could not be loaded; is the widget built (npm run build)?'));
    });
    doc.head.append(script);
  });
  return loading;
}

/**
 * @example
 * const live = createLiveModel();
 * await live.start(document.getElementById('live-widget')!);
 */
export function createLiveModel() {
  const settings = signal<LiveSettings>({
    theme: 'dark',
    locale: 'en', // the page's language: one language in view until a designer picks another
    layout: 'auto',
    size: 'regular',
    scopes: ['isAdult'],
    accent: null,
  });
  const events = signal<LiveEvent[]>([]);
  const deepLink = signal<string | null>(null);
  const running = signal(false);
  const loadError = signal<string | null>(null);
  let handle: WidgetHandle | null = null;
  let container: HTMLElement | null = null;
  let stopWatching: (() => void) | null = null;

  const log = (kind: LiveEvent['kind'], text: string) => {
    events.value = [...events.value, { at: Date.now(), kind, text }].slice(-30);
  };

  function watchDeepLink(host: HTMLElement): () => void {
    const stopFollowing = followDeepLink(host, (href) => (deepLink.value = href));
    const onState = (event: Event) => {
      const detail = (event as CustomEvent<{ state?: WidgetState } | WidgetState>).detail;
      log('state', String(typeof detail === 'string' ? detail : detail?.state));
    };
    const onError = (event: Event) => log('error', (event as CustomEvent<SvcError>).detail?.code ?? 'error');
    const onSuccess = (event: Event) => {
      const result = (event as CustomEvent<SvcResult>).detail;
      log(
        'success',
        'grant_code' in result
          ? `grant code ${result.grant_code.slice(0, 8)}… received; a partner backend would exchange it now`
          : 'attestation received',
      );
    };
    host.addEventListener('svc:state', onState);
    host.addEventListener('svc:error', onError);
    host.addEventListener('svc:success', onSuccess);
    return () => {
      stopFollowing();
      host.removeEventListener('svc:state', onState);
      host.removeEventListener('svc:error', onError);
      host.removeEventListener('svc:success', onSuccess);
    };
  }

  async function start(host: HTMLElement): Promise<void> {
    stop();
    let svc: SvcApi;
    try {
      svc = await loadLoader();
      loadError.value = null;
    } catch (error) {
      loadError.value = (error as Error).message;
      return;
    }
    container = host;
    stopWatching = watchDeepLink(host);
    const { theme, locale, layout, size, scopes, accent } = settings.value;
    log(
      'info',
      `render with ${scopes.join(', ')} · ${theme} · ${locale} · ${layout} · ${size}${accent ? ` · ${accent}` : ''}`,
    );
    handle = svc.render(host, {
      partnerId: DEMO_PARTNER_ID,
      successPath: '/demo',
      theme,
      locale,
      scopes,
      ...(layout === 'auto' ? {} : { layout }),
      size,
      ...(accent ? { accent } : {}),
    });
    running.value = true;
  }

  function stop(): void {
    handle?.remove();
    stopWatching?.();
    handle = null;
    stopWatching = null;
    deepLink.value = null;
    running.value = false;
    if (container) container.replaceChildren();
  }

  function change(next: Partial<LiveSettings>): void {
    const previous = settings.value;
    settings.value = { ...previous, ...next };
    if (!handle) return;
    // Theme, locale and accent switch live; scopes, layout and size need a new request, and so
    // does going back to the default accent (update() takes colours only).
    if (
      next.scopes ||
      (next.layout && next.layout !== previous.layout) ||
      (next.size && next.size !== previous.size) ||
      (next.accent === null && previous.accent !== null)
    ) {
      if (container) void start(container);
    } else {
      const { theme, locale, accent } = settings.value;
      handle.update({ theme, locale, ...(accent ? { accent } : {}) });
    }
  }

  return { settings, events, deepLink, running, loadError, start, stop, change, reset: () => handle?.reset() };
}

export type LiveModel = ReturnType<typeof createLiveModel>;
