/**
 * Stage two of the loader (design.md §7): inject the UI bundle from the loader's own origin, once,
 * and retry once after a failed load; beside it, the script of each locale the bundle does not
 * carry, so that it costs no round trip after the bundle's (docs/embedding.md#languages). The UI asks for the
 * locale scripts it needs later (`update({ locale })`) through the same function, so scripts are
 * added in one place, with the loader's nonce.
 */
import type { Locale } from '../protocol/wire.ts';
import { UI_GLOBAL, type MountWidget } from '../shared/contract.ts';
import { localeScriptUrl, type BesideBundle } from '../shared/locale.ts';

type UiWindow = Window & { [UI_GLOBAL]?: MountWidget };

export interface UiLoader {
  /**
   * The UI bundle, loaded at most once at a time: concurrent callers share one <script>, a
   * failed load is retried once, and after two failures the next call starts over. Given a
   * locale, its script starts beside the bundle.
   */
  loadUi(locale?: Locale): Promise<MountWidget>;
  /**
   * Runs the script of `locale` (none for fr), or the blinding chunk (`private`), once,
   * resolving when it has run; after a failed load (the tag leaves the page) the next call
   * tries again.
   */
  loadCopy(locale?: BesideBundle): Promise<unknown>;
}

/**
 * @example
 * const { loadUi } = createUiLoader('https://widget.example/v4/ui.3f9a1c.js', script.nonce);
 * const mount = await loadUi('de'); // ui.3f9a1c-de.js is on its way too
 */
export function createUiLoader(url: string, nonce?: string): UiLoader {
  let pending: Promise<MountWidget> | undefined;
  const copies: Partial<Record<BesideBundle, Promise<unknown>>> = {};
  /** Adds a script (async, as injected scripts are); a failed one is removed, so a retry adds it anew. */
  const add = (src: string, loaded: () => unknown, failed = loaded): void => {
    const script = document.createElement('script');
    script.src = src;
    script.crossOrigin = 'anonymous';
    if (nonce) script.nonce = nonce;
    script.onload = loaded;
    script.onerror = () => {
      script.remove();
      failed();
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
  const loadCopy = (locale?: BesideBundle): Promise<unknown> => {
    const src = localeScriptUrl(url, locale);
    return src
      ? (copies[locale!] ??= new Promise((resolve, reject) =>
          add(
            src,
            () => resolve(0),
            () => {
              delete copies[locale!];
              reject(new Error('copy'));
            },
          ),
        ))
      : Promise.resolve();
  };
  return {
    loadUi(locale) {
      // the locale script first: the smaller one, so neither waits on the other (e2e/locales.spec.ts)
      loadCopy(locale).catch(() => 0); // the UI falls back to French if it fails
      return (pending ??= inject()
        .catch(inject)
        .catch((error: unknown) => {
          pending = undefined;
          throw error;
        }));
    },
    loadCopy,
  };
}
