/**
 * The loader's entry and its only side effects (design.md §7): read the script tag once, take a
 * result out of the address if one arrived, install `window.SVC`, and start the script tag's
 * own widget unless the page asked for explicit rendering or is receiving a result.
 */
import { createUiLoader } from './inject.ts';
import { createSvc } from './svc-global.ts';
import { takeResultFromLocation } from '../shared/result.ts';

declare const __UI_FILE__: string;

const host = window as Window & { SVC?: unknown };
// A second copy of the loader on the page: the first one owns the UI and the widgets.
if (!host.SVC) {
  try {
    const script = (document.currentScript ??
      document.querySelector('script[src*="/loader.min.js"]')) as HTMLScriptElement | null;
    const src = script?.src || location.href;
    const raw = { ...script?.dataset };
    const result = takeResultFromLocation();
    const [api, autoRender] = createSvc(
      {
        raw,
        apiOrigin: new URL(src).origin,
        // the UI bundle sits beside the loader (…/v4/), under the hashed name the build wrote here
        ...createUiLoader(new URL(__UI_FILE__, src).href, script?.nonce),
      },
      result,
    );
    host.SVC = api;
    if (!result && raw.render !== 'explicit') autoRender(script);
  } catch (error) {
    console.error('[svc]', 'INIT_FAILED', error);
  }
}
