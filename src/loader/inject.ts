/**
 * Stage two of the loader (DESIGN §7): inject the UI bundle from the loader's own origin, once,
 * and retry once after a failed load; beside it, the script of a locale the bundle does not
 * carry, so that it costs no round trip after the bundle's (issue 11).
 */
import type { Locale } from '../protocol/api.ts';
import { UI_GLOBAL, type MountWidget } from '../shared/contract.ts';
import { localeScriptUrl } from '../shared/locale.ts';

type UiWindow = Window & { [UI_GLOBAL]?: MountWidget };

/**
 * Returns a function that loads the UI bundle at most once at a time: concurrent callers share
 * one <script>, a failed load is retried once, and after two failures the next call starts over.
 * Given a locale outside the bundle on the call that starts the bundle, it starts that locale's
 * script beside it (the bundle joins it, or retries it if it failed: a failed tag is removed).
 *
 * @example
 * const loadUi = createUiLoader('https://widget.example/v4/ui.3f9a1c.js', script.nonce);
 * const mount = await loadUi('de'); // ui.3f9a1c-de.js is on its way too
 */
export function createUiLoader(url: string, nonce?: string): (locale?: Locale) => Promise<MountWidget> {
  let pending: Promise<MountWidget> | undefined;
  /** Adds a script (async, as injected scripts are); a failed one is removed, so a retry adds it anew. */
  const add = (src: string, done: () => unknown = () => 0): void => {
    const script = document.createElement('script');
    script.src = src;
    script.crossOrigin = 'anonymous';
    if (nonce) script.nonce = nonce;
    script.onload = done;
    script.onerror = () => {
      script.remove();
      done();
    };
    document.head.append(script);
  };
  const inject = (): Promise<MountWidget> =>
    new Promise((resolve, reject) => {
      const ready = (): boolean => {
        const mount = (window as UiWindow)[UI_GLOBAL];
        return typeof mount === 'function' && (resolve(mount), true);
      };
      // loaded or failed: either way the bundle has set its global by now, or never will
      if (!ready()) add(url, () => ready() || reject(new Error('ui')));
    });
  return (locale) => {
    // Only beside the bundle's own first load: once the bundle is on its way, it loads (and
    // shares) the locale scripts of later widgets itself.
    const copy = !pending && localeScriptUrl(url, locale);
    if (copy) add(copy);
    return (pending ??= inject()
      .catch(inject)
      .catch((error: unknown) => {
        pending = undefined;
        throw error;
      }));
  };
}
