/**
 * Stage two of the loader (DESIGN §7): inject the UI bundle from the loader's own origin, once,
 * and retry once after a failed load.
 */
import { UI_GLOBAL, type MountWidget } from '../shared/contract.ts';

type UiWindow = Window & { [UI_GLOBAL]?: MountWidget };

/**
 * Returns a function that loads the UI bundle at most once at a time: concurrent callers share
 * one <script>, a failed load is retried once, and after two failures the next call starts over.
 *
 * @example
 * const loadUi = createUiLoader('https://widget.example/v4/ui.3f9a1c.js', script.nonce);
 * const mount = await loadUi();
 */
export function createUiLoader(url: string, nonce?: string): () => Promise<MountWidget> {
  let pending: Promise<MountWidget> | undefined;
  const inject = (): Promise<MountWidget> =>
    new Promise((resolve, reject) => {
      const ready = (): boolean => {
        const mount = (window as UiWindow)[UI_GLOBAL];
        if (typeof mount === 'function') resolve(mount);
        return typeof mount === 'function';
      };
      if (ready()) return;
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      script.crossOrigin = 'anonymous';
      if (nonce) script.nonce = nonce;
      script.onload = () => ready() || reject(new Error('ui'));
      script.onerror = () => {
        script.remove();
        reject(new Error('ui'));
      };
      document.head.append(script);
    });
  return () =>
    (pending ??= inject()
      .catch(inject)
      .catch((error: unknown) => {
        pending = undefined;
        throw error;
      }));
}
