/**
 * Watches a browser context for what design.md §22 forbids on the pages the project serves or
 * shows (the partner page with the widget, the phone page, the demo, the example partner): a
 * request to any origin but the service's and the page's own, a cookie the service sets other
 * than its login cookie (`svc_login`), a cookie written by a script, and a read of a
 * fingerprinting surface (canvas read-back, WebGL, audio, font probing), instrumented before any
 * script of the page runs.
 *
 * @example
 * const watch = await watchThirdParties(context);
 * …journey…
 * expect(await watch.findings()).toEqual([]);
 */
import type { BrowserContext, Page, Request } from '@playwright/test';
import { SERVICE_URL } from './urls.ts';

/** The login cookie, the one cookie the service may set (docs/providers.md, "One browser"). */
const LOGIN_COOKIES = new Set(['svc_login', '__Host-svc_login']);

/** Runs in every frame before the page's scripts: wraps each surface so a use is recorded. */
function instrument(): void {
  const seen: string[] = [];
  (window as unknown as { __svcSurfaces: string[] }).__svcSurfaces = seen;
  // Reported at once too: a page that navigates away takes its own record with it.
  const report = (window as unknown as { __svcSurfaceUsed?: (label: string) => void }).__svcSurfaceUsed;
  const used = {
    push(label: string) {
      seen.push(label);
      void Promise.resolve(report?.(label)).catch(() => undefined);
    },
  };
  const wrap = (target: object | undefined, name: string, label: string, when?: (args: unknown[]) => boolean) => {
    if (!target) return;
    const original = (target as Record<string, unknown>)[name];
    if (typeof original !== 'function') return;
    Object.defineProperty(target, name, {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]) {
        if (!when || when(args)) used.push(label);
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      },
    });
  };
  wrap(HTMLCanvasElement.prototype, 'toDataURL', 'canvas toDataURL');
  wrap(HTMLCanvasElement.prototype, 'toBlob', 'canvas toBlob');
  wrap(CanvasRenderingContext2D.prototype, 'getImageData', 'canvas getImageData');
  wrap(HTMLCanvasElement.prototype, 'getContext', 'WebGL context', (args) => /webgl/i.test(String(args[0])));
  if (typeof OffscreenCanvas !== 'undefined')
    wrap(OffscreenCanvas.prototype, 'getContext', 'WebGL context', (args) => /webgl/i.test(String(args[0])));
  // One measureText is layout; font probing measures the same text in font after font.
  let measured = 0;
  wrap(CanvasRenderingContext2D.prototype, 'measureText', 'font probing (measureText loop)', () => ++measured > 5);
  if (document.fonts)
    wrap(Object.getPrototypeOf(document.fonts) as object, 'check', 'font probing (document.fonts.check)');
  for (const name of ['AudioContext', 'OfflineAudioContext', 'webkitAudioContext']) {
    const Original = (window as unknown as Record<string, unknown>)[name] as
      (new (...a: unknown[]) => object) | undefined;
    if (typeof Original !== 'function') continue;
    (window as unknown as Record<string, unknown>)[name] = new Proxy(Original, {
      construct(target, args) {
        used.push(`audio ${name}`);
        return Reflect.construct(target, args) as object;
      },
    });
  }
  const cookie = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  if (cookie?.set) {
    Object.defineProperty(Document.prototype, 'cookie', {
      configurable: true,
      get: cookie.get,
      set(value: string) {
        used.push(`document.cookie write ${String(value).split('=')[0]}`);
        cookie.set!.call(this, value);
      },
    });
  }
}

/** The origin of the page a request belongs to (a top-level navigation: where it goes); '' when none. */
function originOfPage(request: Request): string {
  try {
    const frame = request.frame();
    const main = request.isNavigationRequest() && frame === frame.page().mainFrame();
    const origin = new URL(main ? request.url() : frame.page().url()).origin;
    if (origin !== 'null') return origin;
  } catch {
    // no frame (a worker's request): the Referer below says whose it is
  }
  // Firefox can still report a page at about:blank while its first subresources start: its
  // Referer names the document that asked.
  try {
    return new URL(request.headers()['referer'] ?? '').origin;
  } catch {
    return '';
  }
}

export interface ThirdPartyWatch {
  /** every request the context's pages made, `<page origin> → <url>` */
  readonly requests: string[];
  /** what breaks design.md §22, one line each; empty when nothing does */
  findings(): Promise<string[]>;
}

/**
 * Starts watching `context` (install before opening its pages). A page may reach its own origin
 * and the service's; `allowed` adds origins (none by default).
 */
export async function watchThirdParties(context: BrowserContext, allowed: string[] = []): Promise<ThirdPartyWatch> {
  const service = new URL(SERVICE_URL).origin;
  const requests: string[] = [];
  const problems: string[] = [];
  const pages = new Set<Page>();
  const reported: string[] = [];
  await context.exposeBinding('__svcSurfaceUsed', ({ frame }, label: string) => {
    reported.push(`${new URL(frame.url()).origin} read ${label}`);
  });
  await context.addInitScript(instrument);
  context.on('page', (page) => void pages.add(page));
  for (const page of context.pages()) pages.add(page);
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || url.protocol === 'about:') return;
    const pageOrigin = originOfPage(request);
    requests.push(`${pageOrigin} → ${request.url()}`);
    if (![service, pageOrigin, ...allowed].includes(url.origin))
      problems.push(`request from ${pageOrigin || 'a page'} to a third origin: ${request.url()}`);
  });
  context.on('response', (response) => {
    const origin = new URL(response.url()).origin;
    if (origin !== service) return;
    void response.headersArray().then((headers) => {
      for (const { name, value } of headers) {
        if (name.toLowerCase() !== 'set-cookie') continue;
        const cookie = value.split('=')[0]!.trim();
        if (!LOGIN_COOKIES.has(cookie)) problems.push(`the service set cookie ${cookie} (${response.url()})`);
      }
    });
  });
  return {
    requests,
    async findings() {
      const surfaces: string[] = [];
      for (const page of pages) {
        if (page.isClosed()) continue;
        for (const frame of page.frames()) {
          const used = await frame
            .evaluate(() => (window as unknown as { __svcSurfaces?: string[] }).__svcSurfaces ?? [])
            .catch(() => [] as string[]);
          for (const label of new Set(used)) surfaces.push(`${new URL(frame.url()).origin} read ${label}`);
        }
      }
      return [...problems, ...new Set([...reported, ...surfaces])];
    },
  };
}
