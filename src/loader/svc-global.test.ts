import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  reservedHeight,
  type MountOptions,
  type MountWidget,
  type WidgetController,
  type WidgetState,
} from '../shared/contract.ts';
import { createSvc } from './svc-global.ts';
import type { RawConfig } from './config.ts';

const API = 'https://svc.example';
const created = {
  request_id: 'vr_1',
  poll_token: 'pt_1',
  deep_link: `${API}/m/v/vr_1#h=h_1`,
  expires_at: 0,
  poll_after_ms: 1000,
};

/** A stand-in for the UI bundle: records mounts and the calls made on them. */
function fakeUi() {
  const mounts: Array<{ container: HTMLElement; options: MountOptions; calls: string[]; removed: boolean }> = [];
  const mount: MountWidget = (container, options) => {
    const record = { container, options, calls: [] as string[], removed: false };
    mounts.push(record);
    const host = document.createElement('div');
    container.append(host);
    const controller: WidgetController = {
      reset: () => void record.calls.push('reset'),
      update: (next) => void record.calls.push(`update:${next.theme ?? ''}:${next.locale ?? ''}`),
      remove: () => {
        record.removed = true;
        host.remove();
      },
      state: 'waiting',
    };
    return controller;
  };
  return { mount, mounts };
}

let fetchCalls: string[];
let fetchBodies: string[];
let containers: HTMLElement[];

beforeEach(() => {
  fetchCalls = [];
  fetchBodies = [];
  containers = [];
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
    fetchCalls.push(url);
    fetchBodies.push(String(init?.body));
    return Promise.resolve(new Response(JSON.stringify(created), { status: 201 }));
  });
  vi.spyOn(console, 'error').mockImplementation(() => {});
  history.replaceState(null, '', '/shop');
});

afterEach(() => {
  for (const c of containers) c.remove();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function box(id: string): HTMLElement {
  const el = document.createElement('div');
  el.id = id;
  document.body.append(el);
  containers.push(el);
  return el;
}

function deferredUi() {
  let resolve!: (mount: MountWidget) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<MountWidget>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

function svc(
  raw: RawConfig = { partnerId: 'pk_test_demo', successPath: '/done' },
  loadUi: (locale?: string) => Promise<MountWidget> = () => Promise.resolve(fakeUi().mount),
  result = null,
) {
  const [api, autoRender] = createSvc({ raw, apiOrigin: API, loadUi, loadCopy: () => Promise.resolve() }, result);
  return { api, autoRender };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('window.SVC', () => {
  it('starts the verification request at once, before the UI bundle has arrived', async () => {
    const ui = deferredUi();
    const { api } = svc(undefined, () => ui.promise);
    api.render(box('w1'));
    expect(fetchCalls).toEqual([`${API}/api/w/verify-request`]);
    const fake = fakeUi();
    ui.resolve(fake.mount);
    await flush();
    expect(fake.mounts).toHaveLength(1);
    await expect(fake.mounts[0]!.options.sent).resolves.toEqual([201, created]);
  });

  it('hands the UI the first request with its controller, which the UI gives it up through after 15 s', async () => {
    vi.stubGlobal(
      'fetch',
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) =>
          init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    const fake = fakeUi();
    const { api } = svc(undefined, () => Promise.resolve(fake.mount));
    api.render(box('w1'));
    await flush();
    const { sent, sentController } = fake.mounts[0]!.options;
    sentController!.abort();
    await expect(sent).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('sets no timer of its own, and remove() aborts the first request', async () => {
    vi.useFakeTimers();
    try {
      let aborted = false;
      vi.stubGlobal(
        'fetch',
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal!.addEventListener('abort', () => {
              aborted = true;
              reject(new DOMException('aborted', 'AbortError'));
            }),
          ),
      );
      const handle = svc(undefined, () => new Promise(() => {})).api.render(box('w1'));
      await vi.advanceTimersByTimeAsync(0);
      expect(vi.getTimerCount()).toBe(0);
      handle.remove();
      await vi.advanceTimersByTimeAsync(0);
      expect(aborted).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reserves the card’s size in its container at once, before the UI arrives: taller in client proof mode', () => {
    const { api } = svc(undefined, () => new Promise(() => {}));
    const [regular, compact, proof, proofCompact] = ['r', 'c', 'p', 'pc'].map(box);
    api.render(regular!);
    api.render(compact!, { size: 'compact' });
    api.render(proof!, { clientProofMode: true });
    api.render(proofCompact!, { clientProofMode: true, size: 'compact' });
    expect([regular, compact, proof, proofCompact].map((c) => c!.style.minHeight)).toEqual([
      '400px',
      '276px',
      '620px',
      '620px',
    ]);
    // the heights the preview and e2e/locale-fit.spec.ts hold the card to (src/shared/contract.ts)
    expect(reservedHeight({ size: 'regular' })).toBe(400);
    expect(reservedHeight({ size: 'compact' })).toBe(276);
    expect(reservedHeight({ size: 'compact', clientProofMode: true })).toBe(620);
  });

  it('asks for the locale of each widget with the UI bundle, so its script travels in parallel', async () => {
    const asked: Array<string | undefined> = [];
    const fake = fakeUi();
    const { api } = svc({ partnerId: 'pk_test_demo', successPath: '/done', locale: 'nl' }, (locale) => {
      asked.push(locale);
      return Promise.resolve(fake.mount);
    });
    api.render(box('w1'));
    api.render(box('w2'), { locale: 'pt' });
    expect(asked.filter(Boolean)).toEqual(['nl', 'pt']);
    expect(JSON.parse(fetchBodies[0]!)).toMatchObject({ locale: 'nl' });
  });

  it('adds the blinding chunk beside the UI bundle for a page with a redemption context, and only for it', async () => {
    const asked: Array<string | undefined> = [];
    let chunkRan!: () => void;
    const chunk = new Promise<void>((resolve) => (chunkRan = resolve));
    const loadCopy = (name?: string) => (asked.push(name), chunk);
    const fake = fakeUi();
    const env = { apiOrigin: API, loadUi: () => Promise.resolve(fake.mount), loadCopy };
    createSvc({ ...env, raw: { partnerId: 'pk_test_demo', successPath: '/done' } }, null)[0].render(box('w1'));
    await flush();
    expect(asked).toEqual([]);
    expect(fake.mounts).toHaveLength(1);
    const raw = { sessionToken: 'st', successPath: '/done', redemptionContext: 'A'.repeat(43) };
    createSvc({ ...env, raw }, null)[0].render(box('w2'));
    await flush();
    expect(asked).toEqual(['private']);
    // the UI mounts only once the chunk has run: it must see every status answer
    expect(fake.mounts).toHaveLength(1);
    chunkRan();
    await flush();
    expect(fake.mounts).toHaveLength(2);
  });

  it('reports INIT_FAILED when the blinding chunk cannot be loaded, and mounts no UI that would deliver no token', async () => {
    const fake = fakeUi();
    const errors: unknown[] = [];
    const [api] = createSvc(
      {
        apiOrigin: API,
        raw: { sessionToken: 'st', successPath: '/done', redemptionContext: 'A'.repeat(43) },
        loadUi: () => Promise.resolve(fake.mount),
        loadCopy: () => Promise.reject(new Error('copy')),
      },
      null,
    );
    api.onError((error) => errors.push(error));
    api.render(box('w1'));
    await flush();
    expect(fake.mounts).toHaveLength(0);
    expect(errors).toEqual([{ code: 'INIT_FAILED', message: 'ui load failed', retryable: true }]);
  });

  it('queues handle calls made before the UI arrived and replays them in order', async () => {
    const ui = deferredUi();
    const { api } = svc(undefined, () => ui.promise);
    const handle = api.render(box('w1'));
    handle.update({ theme: 'light' });
    handle.reset();
    expect(handle.state).toBe('creating');
    const fake = fakeUi();
    ui.resolve(fake.mount);
    await flush();
    expect(fake.mounts[0]!.calls).toEqual(['update:light:', 'reset']);
  });

  it('renders once per container and keeps several widgets apart', async () => {
    const fake = fakeUi();
    const { api } = svc(undefined, () => Promise.resolve(fake.mount));
    const a = box('a');
    const first = api.render(a);
    expect(api.render(a)).toBe(first);
    api.render(box('b'), { theme: 'light', locale: 'en' });
    await flush();
    expect(fake.mounts.map((m) => m.container.id)).toEqual(['a', 'b']);
    expect(fake.mounts[1]!.options.config).toMatchObject({ theme: 'light', locale: 'en', partnerId: 'pk_test_demo' });
    expect(fetchCalls).toHaveLength(2);
  });

  it('removes a widget completely, and a removed widget never mounts when the UI arrives later', async () => {
    const ui = deferredUi();
    const { api } = svc(undefined, () => ui.promise);
    const el = box('w1');
    const handle = api.render(el);
    handle.remove();
    const fake = fakeUi();
    ui.resolve(fake.mount);
    await flush();
    expect(fake.mounts).toHaveLength(0);
    expect(el.childNodes).toHaveLength(0);
    // and render works again on the same container
    api.render(el);
    await flush();
    expect(fake.mounts).toHaveLength(1);
    api.render(el).remove();
    expect(fake.mounts[0]!.removed).toBe(true);
    expect(el.childNodes).toHaveLength(0);
  });

  it('fans states, errors and results out to subscribers, data-on-* globals and DOM events on the container', async () => {
    const fake = fakeUi();
    const { api } = svc({ partnerId: 'pk_test_demo', successPath: '/done', onState: 'onAgeState' }, () =>
      Promise.resolve(fake.mount),
    );
    const seen: string[] = [];
    const globalState = vi.fn();
    vi.stubGlobal('onAgeState', globalState);
    api.onState((state) => seen.push(`state:${state}`));
    api.onSuccess((result) => seen.push(`success:${'grant_code' in result ? result.grant_code : ''}`));
    api.onError((error) => seen.push(`error:${error.code}`));
    const el = box('w1');
    el.addEventListener('svc:state', (e) => seen.push(`dom-state:${(e as CustomEvent<WidgetState>).detail}`));
    el.addEventListener('svc:success', () => seen.push('dom-success'));
    api.render(el);
    await flush();
    const { emit } = fake.mounts[0]!.options;
    emit('state', 'waiting');
    emit('state', 'waiting'); // no change, no event
    emit('success', { grant_code: 'g_1' });
    emit('error', { code: 'SERVER_VERIFY_TIMEOUT', message: 'x', retryable: true });
    expect(seen).toEqual([
      'state:creating',
      'dom-state:creating',
      'state:waiting',
      'dom-state:waiting',
      'success:g_1',
      'dom-success',
      'error:SERVER_VERIFY_TIMEOUT',
    ]);
    expect(globalState).toHaveBeenCalledWith('waiting', el);
  });

  it.each([
    ['true', true],
    ['', true],
    ['false', false],
    ['yes', false],
    [undefined, false],
  ])('prints states but never results in debug mode (data-debug=%j: %s)', async (debug, prints) => {
    const fake = fakeUi();
    const debugLog = vi.spyOn(console, 'debug').mockImplementation(() => {});
    const { api } = svc({ partnerId: 'pk_test_demo', successPath: '/done', debug }, () => Promise.resolve(fake.mount));
    api.render(box('w1'));
    await flush();
    fake.mounts[0]!.options.emit('success', { grant_code: 'g_1' });
    expect(debugLog.mock.calls).toEqual(
      prints
        ? [
            ['[svc]', 'state', 'creating'],
            ['[svc]', 'success', ''],
          ]
        : [],
    );
  });

  it('calls the data-on-error global of the script tag for a container that does not exist', () => {
    const { api } = svc({ partnerId: 'pk_test_demo', successPath: '/done', onError: 'onAgeError', debug: 'true' });
    const globalError = vi.fn();
    vi.stubGlobal('onAgeError', globalError);
    const debugLog = vi.spyOn(console, 'debug').mockImplementation(() => {});
    api.render('nowhere');
    expect(globalError).toHaveBeenCalledWith(
      { code: 'INIT_FAILED', message: 'data-container missing', retryable: false },
      undefined,
    );
    expect(console.error).toHaveBeenCalledWith('[svc]', 'INIT_FAILED', 'data-container missing');
    expect(debugLog).not.toHaveBeenCalled();
  });

  it('hands an error that happened before subscribing to a late onError', () => {
    const { api } = svc({ successPath: '/done' });
    api.render(box('w1'));
    const late = vi.fn();
    api.onError(late);
    expect(late).toHaveBeenCalledWith(
      { code: 'INIT_FAILED', message: 'data-partner-id missing', retryable: false },
      expect.any(HTMLElement),
    );
    expect(console.error).toHaveBeenCalledWith('[svc]', 'INIT_FAILED', 'data-partner-id missing');
    // only the attributes' names go, for the service's warnings: no id, so nothing is created
    expect(fetchBodies.map((body) => JSON.parse(body))).toEqual([
      expect.not.objectContaining({ partner_id: expect.anything() }),
    ]);
  });

  it('mounts a configuration error in the error state, so the page shows it', async () => {
    const fake = fakeUi();
    const { api } = svc({ partnerId: 'pk_test_demo', successPath: 'https://evil.example/' }, () =>
      Promise.resolve(fake.mount),
    );
    const handle = api.render(box('w1'));
    await flush();
    expect(handle.state).toBe('error');
    expect(fake.mounts[0]!.options.error).toEqual({
      code: 'INIT_FAILED',
      message: 'data-success-path not same-origin',
      retryable: false,
    });
  });

  it('reports INIT_FAILED when the UI bundle cannot be loaded', async () => {
    const { api } = svc(undefined, () => Promise.reject(new Error('ui')));
    const errors = vi.fn();
    api.onError(errors);
    const handle = api.render(box('w1'));
    await flush();
    expect(errors).toHaveBeenCalledWith(
      { code: 'INIT_FAILED', message: 'ui load failed', retryable: true },
      expect.any(HTMLElement),
    );
    expect(handle.state).toBe('error');
  });

  it('reports INIT_FAILED for a container that does not exist, without throwing', () => {
    const { api } = svc();
    const errors = vi.fn();
    api.onError(errors);
    const handle = api.render('nowhere');
    expect(handle.state).toBe('error');
    expect(() => handle.remove()).not.toThrow();
    expect(errors).toHaveBeenCalledWith(
      { code: 'INIT_FAILED', message: 'data-container missing', retryable: false },
      undefined,
    );
  });

  it('never lets a throwing partner callback break the widget', async () => {
    const fake = fakeUi();
    const { api } = svc(undefined, () => Promise.resolve(fake.mount));
    api.onState(() => {
      throw new Error('partner bug');
    });
    const after = vi.fn();
    api.onState(after);
    expect(() => api.render(box('w1'))).not.toThrow();
    expect(after).toHaveBeenCalledWith('creating', expect.any(HTMLElement));
  });

  it('stops calling a listener after it unsubscribes', async () => {
    const fake = fakeUi();
    const { api } = svc(undefined, () => Promise.resolve(fake.mount));
    const listener = vi.fn();
    const off = api.onState(listener);
    off();
    api.render(box('w1'));
    expect(listener).not.toHaveBeenCalled();
  });

  it('calls ready() callbacks once the UI bundle has loaded', async () => {
    const ui = deferredUi();
    const { api } = svc(undefined, () => ui.promise);
    const ready = vi.fn();
    api.ready(ready);
    await flush();
    expect(ready).not.toHaveBeenCalled();
    ui.resolve(fakeUi().mount);
    await flush();
    expect(ready).toHaveBeenCalledOnce();
  });

  it('gives a same-page result to the first consumeResult() only', async () => {
    const fake = fakeUi();
    const { api } = svc(undefined, () => Promise.resolve(fake.mount));
    api.render(box('w1'));
    await flush();
    fake.mounts[0]!.options.keepResult({ grant_code: 'g_1', state: 's' });
    expect(api.consumeResult()).toEqual({ grant_code: 'g_1', state: 's' });
    expect(api.consumeResult()).toBeNull();
  });

  it('keeps the result found in the address at start for consumeResult()', () => {
    const [api] = createSvc(
      {
        raw: {},
        apiOrigin: API,
        loadUi: () => Promise.resolve(fakeUi().mount),
        loadCopy: () => Promise.resolve(),
      },
      { attestation: 'a.b.c' },
    );
    expect(api.consumeResult()).toEqual({ attestation: 'a.b.c' });
    expect(api.consumeResult()).toBeNull();
  });

  it('reads a result from the address when consumeResult() is called later', () => {
    const { api } = svc();
    history.replaceState(null, '', '/shop?x=1#grant_code=g_9');
    expect(api.consumeResult()).toEqual({ grant_code: 'g_9' });
    expect(location.hash).toBe('');
    expect(location.search).toBe('?x=1');
  });
});

describe('autoRender', () => {
  it('mounts the script tag widget in its data-container', async () => {
    const fake = fakeUi();
    const el = box('age-box');
    const { autoRender } = svc({ partnerId: 'pk_test_demo', successPath: '/done', container: 'age-box' }, () =>
      Promise.resolve(fake.mount),
    );
    autoRender(null);
    await flush();
    expect(fake.mounts[0]!.container).toBe(el);
    expect(fetchCalls).toHaveLength(1);
  });

  it('creates a default container right after the script tag when the page has none', async () => {
    const fake = fakeUi();
    const script = document.createElement('script');
    const wrapper = box('wrapper');
    wrapper.append(script);
    const { autoRender } = svc(undefined, () => Promise.resolve(fake.mount));
    autoRender(script);
    await flush();
    const created = document.getElementById('svc-widget')!;
    expect(script.nextElementSibling).toBe(created);
    expect(fake.mounts[0]!.container).toBe(created);
  });
});

describe('resume (design.md §14)', () => {
  const stored = { ...created, expires_at: Date.now() + 200_000, qr: { size: 21, bits: 'AA' } };
  beforeEach(() => sessionStorage.clear());

  it('computes the key from the partner, the scopes sorted and the path, and hands it to the UI', async () => {
    const fake = fakeUi();
    const { api } = svc({ partnerId: 'pk_test_demo', successPath: '/done', scopes: 'isEU, isAdult' }, () =>
      Promise.resolve(fake.mount),
    );
    api.render(box('w1'));
    await flush();
    expect(fake.mounts[0]!.options.storageKey).toBe('svc:v1:pk_test_demo:isAdult,isEU:/shop');
    expect(fake.mounts[0]!.options.stored).toBeUndefined();
    expect(fetchCalls).toHaveLength(1);
  });

  it('sends no create when this tab stores a request for the page, and hands the entry to the UI', async () => {
    sessionStorage.setItem('svc:v1:pk_test_demo:isAdult:/shop', JSON.stringify(stored));
    const fake = fakeUi();
    svc(undefined, () => Promise.resolve(fake.mount)).api.render(box('w1'));
    await flush();
    expect(fetchCalls).toEqual([]);
    expect(fake.mounts[0]!.options.sent).toBeUndefined();
    expect(fake.mounts[0]!.options.stored).toEqual(stored);
  });

  it('keys an ADULT_BLIND widget by "blind", not by its session token, which changes on every load', async () => {
    sessionStorage.setItem('svc:v1:blind:isAdult:/shop', JSON.stringify(stored));
    const fake = fakeUi();
    svc({ sessionToken: 'st_new_on_every_load', successPath: '/done' }, () => Promise.resolve(fake.mount)).api.render(
      box('w1'),
    );
    await flush();
    expect(fetchCalls).toEqual([]);
    expect(fake.mounts[0]!.options.storageKey).toBe('svc:v1:blind:isAdult:/shop');
  });

  it.each([
    ['another page', 'svc:v1:pk_test_demo:isAdult:/other'],
    ['other scopes', 'svc:v1:pk_test_demo:isAdult,isEU:/shop'],
    ['another partner', 'svc:v1:pk_test_other:isAdult:/shop'],
  ])('creates a new request when only %s has a stored one', async (_name, key) => {
    sessionStorage.setItem(key, JSON.stringify(stored));
    svc().api.render(box('w1'));
    await flush();
    expect(fetchCalls).toHaveLength(1);
  });

  it('creates a new request when the entry is not JSON or the storage cannot be read', async () => {
    sessionStorage.setItem('svc:v1:pk_test_demo:isAdult:/shop', '{not json');
    svc().api.render(box('w1'));
    const descriptor = Object.getOwnPropertyDescriptor(window, 'sessionStorage')!;
    Object.defineProperty(window, 'sessionStorage', {
      configurable: true,
      get: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    });
    try {
      svc().api.render(box('w2'));
    } finally {
      Object.defineProperty(window, 'sessionStorage', descriptor);
    }
    await flush();
    expect(fetchCalls).toHaveLength(2);
  });
});

describe('warnings about the attributes (docs/embedding.md#warnings)', () => {
  let warn: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  const answer = (status: number, body: object) =>
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
      fetchCalls.push(url);
      fetchBodies.push(String(init?.body));
      return Promise.resolve(new Response(JSON.stringify(body), { status }));
    });

  it('names the attributes as written and data-locale as written in the first request', () => {
    svc({ partnerId: 'pk_test_demo', successPath: '/done', sucessPath: '/done', locale: 'xx' }).api.render(box('w1'));
    expect(JSON.parse(fetchBodies[0]!)).toMatchObject({
      partner_id: 'pk_test_demo',
      locale: 'fr',
      attributes: ['partnerId', 'successPath', 'sucessPath', 'locale'],
      locale_tag: 'xx',
    });
  });

  it('names render() options with the tag attributes, as dataset spells them', () => {
    svc({ partnerId: 'pk_test_demo', render: 'explicit' }).api.render(box('w1'), {
      successPath: '/done',
      theme: 'light',
    });
    expect(JSON.parse(fetchBodies[0]!).attributes).toEqual(['partnerId', 'render', 'successPath', 'theme']);
  });

  it("prints each warning of the service's answer as one console warning, with the request going on", async () => {
    const lines = ['unknown attribute data-sucess-path: did you mean data-success-path?', 'data-locale xx is …'];
    answer(201, { ...created, warnings: lines });
    const fake = fakeUi();
    svc(undefined, () => Promise.resolve(fake.mount)).api.render(box('w1'));
    await flush();
    expect(warn.mock.calls).toEqual(lines.map((line) => ['[svc]', line]));
    await expect(fake.mounts[0]!.options.sent).resolves.toEqual([201, { ...created, warnings: lines }]);
  });

  it('prints the warnings of a refusal too: an unknown scope names the nearest known one', async () => {
    const line = 'data-scopes isFrnch: did you mean isFrench?';
    answer(400, { error: 'INVALID_SCOPES', message: 'Scopes are not supported for this partner.', warnings: [line] });
    svc({ partnerId: 'pk_test_demo', successPath: '/done', scopes: 'isFrnch' }).api.render(box('w1'));
    expect(JSON.parse(fetchBodies[0]!).scopes).toEqual(['isFrnch']);
    await flush();
    expect(warn).toHaveBeenCalledWith('[svc]', line);
  });

  it('with a configuration problem sends the names without an id, prints the warnings, and hands the UI no request', async () => {
    answer(400, { error: 'INVALID_REQUEST', message: '…', warnings: ['unknown attribute data-sucess-path: …'] });
    const fake = fakeUi();
    svc({ partnerId: 'pk_test_demo', sucessPath: '/done' }, () => Promise.resolve(fake.mount)).api.render(box('w1'));
    const body = JSON.parse(fetchBodies[0]!);
    expect(body).not.toHaveProperty('partner_id');
    expect(body).not.toHaveProperty('session_token');
    expect(body.attributes).toEqual(['partnerId', 'sucessPath']);
    await flush();
    expect(console.error).toHaveBeenCalledWith('[svc]', 'INIT_FAILED', 'data-success-path missing');
    expect(warn).toHaveBeenCalledWith('[svc]', 'unknown attribute data-sucess-path: …');
    expect(fake.mounts[0]!.options.sent).toBeUndefined();
  });

  it('prints nothing for an answer without warnings, one that is not JSON, or no answer', async () => {
    svc().api.render(box('w1'));
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('<html>', { status: 502 })));
    svc().api.render(box('w2'));
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('offline')));
    svc().api.render(box('w3'));
    await flush();
    expect(warn).not.toHaveBeenCalled();
  });

  it("names nothing in the UI's later requests (renewals, retries): the first one said it all", async () => {
    const fake = fakeUi();
    svc(undefined, () => Promise.resolve(fake.mount)).api.render(box('w1'));
    await flush();
    await fake.mounts[0]!.options.send(new AbortController().signal);
    expect(JSON.parse(fetchBodies[1]!)).not.toHaveProperty('attributes');
    expect(JSON.parse(fetchBodies[1]!)).not.toHaveProperty('locale_tag');
  });
});
