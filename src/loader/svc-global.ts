/**
 * `window.SVC` (design.md §7): render widgets, subscribe to their errors, results and states, and
 * read a result that arrived in the address. Everything a partner calls before the UI bundle
 * arrived is queued; nothing here ever throws into the host page.
 */
import {
  type Listener,
  type MountOptions,
  type SvcApi,
  type SvcError,
  type StoredRequest,
  type SvcResult,
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
}

type EventType = 'error' | 'success' | 'state';
/** The attributes naming a partner's global function per event: `data-on-error` is `onError`. */
type HandlerName = `on${Capitalize<EventType>}`;
type EventValue = SvcError | SvcResult | WidgetState;

/** Tells the page about a widget: see `dispatch` in {@link createSvc}. */
type Dispatch = (
  type: EventType,
  value: EventValue,
  config: Partial<Record<HandlerName, string>> & { debug?: unknown },
  container?: HTMLElement,
) => void;

/** A widget's request, started before its container or the UI exists: the UI's mount options that come from it. */
type StartedRequest = Pick<MountOptions, 'config' | 'sent' | 'storageKey' | 'stored' | 'error'> & {
  sentController: AbortController;
};

/**
 * Builds `window.SVC`, what the page calls and the events it hears, and the function that starts
 * the script tag's own widget. `main.ts` installs them; tests build their own with a fake UI.
 * Read top-down: a widget's request starts at once ({@link startRequest}), the widget is attached
 * to its container ({@link attachWidget}), the script tag's own widget finds or makes one
 * ({@link placeScriptWidget}).
 *
 * @example
 * const [api, autoRender] = createSvc({ raw: { ...script.dataset }, apiOrigin, loadUi, loadCopy }, null);
 * window.SVC = api;
 * autoRender(script);
 */
export function createSvc(
  env: SvcEnvironment,
  /** a result the loader found in the address at start */
  result: SvcResult | null,
): [api: SvcApi, autoRender: (script: Element | null) => void] {
  const { raw: tag, loadUi } = env;
  const widgets = new Map<HTMLElement, WidgetHandle>();
  const listeners = new Set<[EventType, Listener<never>]>();
  let lastError: [SvcError, HTMLElement?] | undefined;

  /**
   * Fans an event out: SVC.on* subscribers, the data-on-* global, the DOM event on the container.
   * `config` is the widget's validated one (its `debug` is data-debug read as a flag), or for a
   * container that was not found, the script tag's attributes (an error reads only data-on-error).
   */
  const dispatch: Dispatch = (type, value, config, container) => {
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

  const subscribe =
    <T>(type: EventType) =>
    (fn: Listener<T>): (() => void) => {
      const entry: [EventType, Listener<never>] = [type, fn];
      listeners.add(entry);
      return () => void listeners.delete(entry);
    };

  /** Starts a configuration's request now; returns what attaches it to a container. */
  const prepare = (raw: RawConfig): ((container: HTMLElement) => WidgetHandle) => {
    const started = startRequest(raw, env);
    return (container) => attachWidget(container, started, env, dispatch, widgets, (kept) => (result = kept));
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
      dispatch('error', initFailed('data-container missing'), tag);
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

  return [api, (script) => placeScriptWidget(script, tag.container || 'svc-widget', prepare(tag))];
}

/**
 * Validates a configuration and starts its request at once, before any container or UI is
 * needed (unless this tab already shows one for this page), with the UI bundle and the locale's
 * script beside it; prints the service's warnings about the attributes.
 */
function startRequest(raw: RawConfig, env: SvcEnvironment): StartedRequest {
  const { config, problem } = parseConfig(raw, env.apiOrigin);
  const sentController = new AbortController();
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
  env.loadUi(resolveLocale(config.locale)).catch(ignore);
  // The first request carries the attributes' names, and the service answers warnings about them
  // (docs/embedding.md#warnings); with a configuration problem it goes without an id: the service
  // creates nothing and answers only those.
  const answer = stored
    ? undefined
    : sendCreateRequest(
        error ? { ...config, partnerId: undefined, sessionToken: undefined } : config,
        sentController.signal,
        raw,
      );
  // A failure is the UI's to report, and the UI gives the request up after 15 s through its controller
  // (src/widget/net/create.ts); caught here, it never reaches the page as an unhandled rejection.
  answer?.then(
    ([, body]) => (body as LoaderWarnings | null | undefined)?.warnings?.map((line) => console.warn('[svc]', line)),
    ignore,
  );
  return { config, sent: error ? undefined : answer, sentController, storageKey, stored, error };
}

/**
 * A started widget in its container: the card's size reserved at once, the handle `render()`
 * returns, whose calls wait for the UI, and the UI mounted once its bundle (and the blinding chunk,
 * when asked) has arrived. Its states and errors go to the page through `dispatch`.
 */
function attachWidget(
  container: HTMLElement,
  started: StartedRequest,
  env: SvcEnvironment,
  dispatch: Dispatch,
  widgets: Map<HTMLElement, WidgetHandle>,
  keepResult: (result: SvcResult) => void,
): WidgetHandle {
  const { config, error } = started;
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
      started.sentController.abort();
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
  (config.redemptionContext ? env.loadCopy('private').then(() => env.loadUi()) : env.loadUi()).then(
    (mountWidget) =>
      queue &&
      safely(() => {
        controller = mountWidget(container, {
          ...started,
          send: (signal) => sendCreateRequest(config, signal),
          emit(type, value) {
            if (type === 'state') setState(value);
            else if (queue) dispatch(type, value, config, container);
          },
          keepResult,
          loadCopy: env.loadCopy,
          resolveLocale,
        });
        queue!.splice(0).map(call);
      }),
    () => !queue || state === 'error' || fail(initFailed('ui load failed', true)),
  );
  return handle;
}

/**
 * The script tag's own widget, whose request started already, in parallel with the UI bundle (the
 * QR code appears after max(create, UI download), not their sum): the container `id` is looked up
 * once the document is parsed, and created after the script tag when the page has none.
 */
function placeScriptWidget(script: Element | null, id: string, mount: (container: HTMLElement) => WidgetHandle): void {
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

/** Runs a partner's callback or a queued call: nothing here ever throws into the host page. */
const safely = (fn: () => void): void => {
  try {
    fn();
  } catch (error) {
    console.error('[svc]', error);
  }
};
const ignore = (): void => undefined;
/** A configuration or load failure as the page hears it. */
const initFailed = (message: string, retryable = false): SvcError => ({ code: 'INIT_FAILED', message, retryable });
