/**
 * `window.SVC` (design.md §7): render widgets, subscribe to their errors, results and states, and
 * read a result that arrived in the address. Everything a partner calls before the UI bundle
 * arrived is queued; nothing here ever throws into the host page.
 */
import {
  type Listener,
  type SvcApi,
  type SvcError,
  type StoredRequest,
  type SvcResult,
  type WidgetConfig,
  type WidgetController,
  type WidgetHandle,
  type WidgetState,
} from '../shared/contract.ts';
import type { LoaderWarnings } from '../protocol/wire.ts';
import { resolveLocale } from '../shared/locale.ts';
import { takeResultFromLocation } from '../shared/result.ts';
import { optionsToRaw, parseConfig, type RawConfig } from './config.ts';
import { sendCreateRequest } from './create.ts';
import type { UiLoader } from './inject.ts';

export const VERSION = '4.0.0';

/** What `window.SVC` runs on: `loadUi` and `loadCopy` are inject.ts's. */
export interface SvcEnvironment extends UiLoader {
  /** the script tag's attributes: defaults for every render() */
  raw: RawConfig;
  apiOrigin: string;
  /** a result the loader found in the address at start */
  result: SvcResult | null;
}

type EventType = 'error' | 'success' | 'state';
/** The attributes naming a partner's global function per event: `data-on-error` is `onError`. */
type HandlerName = `on${Capitalize<EventType>}`;
type EventValue = SvcError | SvcResult | WidgetState;

/**
 * Builds `window.SVC` and the function that starts the script tag's own widget. `main.ts`
 * installs them; tests build their own with a fake UI.
 *
 * @example
 * const { api, autoRender } = createSvc({ raw: { ...script.dataset }, apiOrigin, loadUi, result: null });
 * window.SVC = api;
 * autoRender(script);
 */
export function createSvc(env: SvcEnvironment): { api: SvcApi; autoRender(script: Element | null): void } {
  const { raw: tag, loadUi } = env;
  const widgets = new Map<HTMLElement, WidgetHandle>();
  /** SVC.on* subscriptions, in their order */
  const listeners = new Set<[EventType, Listener<never>]>();
  let lastError: [SvcError, HTMLElement?] | undefined;
  let result = env.result;

  const safely = (fn: () => void): void => {
    try {
      fn();
    } catch (error) {
      console.error('[svc]', error);
    }
  };
  const ignore = (): void => undefined;
  const initFailed = (message: string, retryable = false): SvcError => ({ code: 'INIT_FAILED', message, retryable });

  /**
   * Fans an event out: SVC.on* subscribers, the data-on-* global, the DOM event on the container.
   * `config` is the widget's validated one (its `debug` is data-debug read as a flag), or for a
   * container that was not found, just the script tag's data-on-error.
   */
  const dispatch = (
    type: EventType,
    value: EventValue,
    config: Pick<Partial<WidgetConfig>, 'debug' | HandlerName>,
    container?: HTMLElement,
  ): void => {
    if (type === 'error') {
      lastError = [value as SvcError, container];
      console.error('[svc]', (value as SvcError).code, (value as SvcError).message);
    }
    // a result is a credential: never printed, not even in debug mode
    else if (config.debug) console.debug('[svc]', type, type === 'state' ? value : '');
    const named = window[config[('on' + type[0]!.toUpperCase() + type.slice(1)) as HandlerName] as keyof Window];
    for (const [on, fn] of [...listeners, [type, named]])
      if (on === type && typeof fn === 'function') safely(() => fn(value, container));
    container?.dispatchEvent(new CustomEvent('svc:' + type, { detail: value, bubbles: true }));
  };

  /**
   * Validates a configuration and starts its request at once, before any container or UI is
   * needed; returns what mounts it in a container.
   */
  function prepare(raw: RawConfig): (container: HTMLElement) => WidgetHandle {
    const { config, problem } = parseConfig(raw, env.apiOrigin);
    const abort = new AbortController();
    const error = problem ? initFailed(problem) : undefined;
    // The request this tab already shows for this page (design.md §14): the UI asks its status
    // instead of creating one. The UI writes and removes the entry (src/widget/model/flow.ts).
    const storageKey = `svc:v1:${config.partnerId ?? 'blind'}:${config.scopes}:${location.pathname}`;
    let stored: StoredRequest | undefined;
    try {
      stored = JSON.parse(sessionStorage[storageKey]);
    } catch {
      // nothing stored, or no storage (a sandboxed frame): a new request
    }
    // The scripts first, then the request: the service answers them in that order, and the create
    // costs it ~20 ms of work that the bundle would otherwise wait behind (docs/operations.md#widget-benchmark).
    loadUi(resolveLocale(config.locale)).catch(ignore);
    // The first request carries the attributes' names, and the service answers warnings about them
    // (docs/embedding.md#warnings); with a configuration problem it goes without an id: the service
    // creates nothing and answers only those.
    const answer = stored
      ? undefined
      : sendCreateRequest(
          error ? { ...config, partnerId: undefined, sessionToken: undefined } : config,
          abort.signal,
          raw,
        );
    const sent = error ? undefined : answer;
    // A failure is the UI's to report, and the UI gives the request up after 15 s through its controller
    // (src/widget/net/create.ts); caught here, it never reaches the page as an unhandled rejection.
    answer?.then(
      ([, body]) => (body as LoaderWarnings | null | undefined)?.warnings?.map((line) => console.warn('[svc]', line)),
      ignore,
    );

    return (container) => {
      // No layout shift (design.md §7, §14, docs/embedding.md): the card's size, reserved through the
      // CSSOM (a CSP's style-src does not govern it) before the UI arrives; the card inherits it (styles.ts).
      container.style.minHeight = config.clientProofMode ? '620px' : config.size == 'compact' ? '276px' : '400px';
      let state: WidgetState = 'creating';
      let controller: WidgetController | undefined;
      /** calls made before the UI arrived; undefined once removed */
      let queue: Array<(c: WidgetController) => void> | undefined = [];
      const call = (fn: (c: WidgetController) => void): void => {
        if (controller) safely(() => fn(controller!));
        else queue?.push(fn);
      };
      const setState = (next: WidgetState): void => {
        if (queue && next !== state) dispatch('state', (state = next), config, container);
      };
      const fail = (failure: SvcError): void => {
        dispatch('error', failure, config, container);
        setState('error');
      };
      const handle: WidgetHandle = {
        reset: () => call((c) => c.reset()),
        remove() {
          queue = undefined;
          abort.abort();
          controller?.remove();
          widgets.delete(container);
        },
        update: (next) => call((c) => c.update(next)),
        get state() {
          return state;
        },
      };
      widgets.set(container, handle);

      if (error) fail(error);
      else dispatch('state', state, config, container);
      // A page with a redemption context gets private attestations: the UI mounts once the
      // blinding chunk beside it has run (docs/adult-blind.md#private-attestations), so that it
      // sees every status answer; a chunk that cannot be loaded fails as the UI would.
      (config.redemptionContext ? env.loadCopy('private').then(() => loadUi()) : loadUi()).then(
        (mountWidget) =>
          queue &&
          safely(() => {
            controller = mountWidget(container, {
              config,
              send: (signal) => sendCreateRequest(config, signal),
              sent,
              sentController: abort,
              storageKey,
              stored,
              error,
              emit(type, value) {
                if (type === 'state') setState(value);
                else if (queue) dispatch(type, value, config, container);
              },
              keepResult: (kept) => (result = kept),
              loadCopy: env.loadCopy,
              resolveLocale,
            });
            for (const fn of queue!.splice(0)) call(fn);
          }),
        () => !queue || state === 'error' || fail(initFailed('ui load failed', true)),
      );
      return handle;
    };
  }

  const subscribe =
    <T>(type: EventType) =>
    (fn: Listener<T>): (() => void) => {
      const entry: [EventType, Listener<never>] = [type, fn];
      listeners.add(entry);
      return () => void listeners.delete(entry);
    };

  const api: SvcApi = {
    version: VERSION,
    ready(fn) {
      loadUi().then(() => safely(fn), ignore);
    },
    render(target, options) {
      const container = typeof target === 'string' ? document.getElementById(target) : target;
      if (container instanceof HTMLElement)
        return widgets.get(container) ?? prepare({ ...tag, ...optionsToRaw(options) })(container);
      dispatch('error', initFailed('data-container missing'), { onError: tag.onError });
      return { reset: ignore, remove: ignore, update: ignore, state: 'error' };
    },
    onError(fn) {
      if (lastError) safely(() => fn(...lastError!));
      return subscribe<SvcError>('error')(fn);
    },
    onSuccess: subscribe('success'),
    onState: subscribe('state'),
    consumeResult() {
      const taken = result ?? takeResultFromLocation();
      result = null;
      return taken;
    },
  };

  /**
   * The script tag's own widget: the request starts at once, in parallel with the UI bundle
   * (the QR code appears after max(create, UI download), not their sum); the container is looked
   * up once the document is parsed, and created after the script tag when the page has none.
   */
  function autoRender(script: Element | null): void {
    const mount = prepare(tag);
    const id = tag.container || 'svc-widget';
    const place = (): void => {
      let container = document.getElementById(id);
      if (!container) {
        container = document.createElement('div');
        container.id = id;
        if (script?.parentElement && script.parentElement !== document.head) script.after(container);
        else document.body.append(container);
      }
      mount(container);
    };
    // DOMContentLoaded fires once: the listener needs no { once: true }
    if (document.readyState === 'loading' && !document.getElementById(id))
      document.addEventListener('DOMContentLoaded', place);
    else place();
  }

  return { api, autoRender };
}
