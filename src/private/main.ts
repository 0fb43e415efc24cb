/**
 * The blinding chunk's entry (`dist/v4/ui.<hash>-private.js`, docs/adult-blind.md#private-attestations):
 * the loader adds it, with its nonce, on a page whose script tag has `data-redemption-context`,
 * in parallel with the UI bundle, and mounts the card once it has run (src/loader/svc-global.ts). It
 * makes no request until a private request completes; it reads the context from the script tag
 * (an `SVC.render` option of that name is validated, but the tag's is the one used).
 */
import { interceptStatus } from './intercept.ts';

const PRIVATE_READY = '__svcPrivate';
const host = window as Window & { [PRIVATE_READY]?: true };
// once per page, whatever the number of widgets or loaders
if (!host[PRIVATE_READY]) {
  host[PRIVATE_READY] = true;
  const apiOrigin = new URL((document.currentScript as HTMLScriptElement).src).origin;
  window.fetch = interceptStatus(
    window.fetch.bind(window),
    apiOrigin,
    () => document.querySelector<HTMLScriptElement>('script[data-redemption-context]')?.dataset.redemptionContext,
  );
}
