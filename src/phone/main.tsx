/** The phone page: the only file here with side effects. */
import { effect } from '@preact/signals';
import type { DcApiRequest, Locale } from '../protocol/wire.ts';
import { pickLocale } from '../shared/locale.ts';
import { createPhoneApi } from './phone-client.ts';
import { doneRequestOf, showDoneView, takeResponseCode } from './DoneView.tsx';
import { loadPhoneCopy, type PhoneCopy } from './copy/index.ts';
import { isCallbackPage, takeHandoff } from './handoff.ts';
import { createPhoneModel, type PhoneEnvironment } from './model.ts';
import { mountPhonePage } from './mount.tsx';
import { loadSandboxCopy } from './sandbox/copy/index.ts';
import { rememberArrival, wayBack } from './way-back.ts';
import './phone.css';

declare global {
  /** The Digital Credentials API's credential (Chromium); absent where the API is not. */
  var DigitalCredential: { prototype: { protocol: string; data: unknown } } | undefined;
}

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** design.md §13: `navigator.credentials.get` with the request's dc_requests, where the browser has the API. */
function credentialRequester(): PhoneEnvironment['requestCredential'] {
  if (typeof DigitalCredential === 'undefined' || !navigator.credentials) return null;
  return (requests: DcApiRequest[]) =>
    navigator.credentials.get({ mediation: 'required', digital: { requests } } as CredentialRequestOptions);
}

/**
 * design.md §20: the page speaks the request's language (the widget's, which open tells), else its
 * browser's first language spoken here, else English; it downloads that one language only, so it
 * shows once it knows which (as the widget's card appears once it can speak).
 */
function start(): void {
  const root = document.getElementById('app')!;
  let locale = pickLocale(navigator.languages ?? [navigator.language], 'en');
  let copy: PhoneCopy | null = null;
  let unmount = (): void => {};
  // The deep link's own arrival (its fragment carries h), not a return from an identity provider
  const arrivedByLink = new URLSearchParams(window.location.hash.slice(1)).has('h');
  const entry = isCallbackPage(window.location.pathname)
    ? 'unknown_sign_in'
    : takeHandoff(window.location, window.history, sessionStorageOrNull());
  // Opened on the same device from the site's page: the way back to it (way-back.ts).
  const requestId = typeof entry === 'object' && entry ? entry.requestId : null;
  if (requestId && arrivedByLink)
    rememberArrival(sessionStorageOrNull(), requestId, document.referrer, location.origin, window.history.length);
  const back = requestId ? wayBack(sessionStorageOrNull(), requestId, window.history) : null;
  const model = createPhoneModel(createPhoneApi(), entry, {
    navigate: (url) => window.location.assign(url),
    requestCredential: credentialRequester(),
    // design.md §4: the persona picker is a script of its own, fetched only when open offers it
    loadSandbox: async (port) => {
      const [wing, words] = await Promise.all([import('./sandbox/wing.tsx'), loadSandboxCopy(locale)]);
      return wing.openSandboxWing(port, words);
    },
    adoptLocale: async (wanted) => {
      if (copy && wanted === locale) return;
      show(wanted, await loadPhoneCopy(wanted));
    },
  });
  function show(lang: Locale, words: PhoneCopy): void {
    locale = lang;
    copy = words;
    document.documentElement.lang = lang;
    document.title = model.sandbox.peek() ? words.title : words.pageTitle;
    unmount();
    unmount = mountPhonePage(root, model, words, back);
  }
  effect(() => {
    const sandbox = model.sandbox.value;
    if (copy) document.title = sandbox ? copy.title : copy.pageTitle;
  });
  const load = async (): Promise<void> => {
    await model.load();
    // no request to speak for (a broken link, an error): the browser's language
    if (!copy) show(locale, await loadPhoneCopy(locale));
  };
  void load();
  // Back from the provider with the browser's Back button, a page restored from the back/forward
  // cache would still say "Opening…": read the request again.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) void load();
  });
}

// design.md §19: a wallet's redirect_uri opens the done view, which stands alone
const doneRequest = doneRequestOf(window.location.pathname);
if (doneRequest !== null)
  void showDoneView(
    document.getElementById('app')!,
    createPhoneApi(),
    doneRequest,
    takeResponseCode(window.location, window.history),
    loadPhoneCopy,
    pickLocale(navigator.languages ?? [navigator.language], 'en'),
  );
else start();
