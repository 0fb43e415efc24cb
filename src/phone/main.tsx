/** The phone page: the only file here with side effects. */
import { effect } from '@preact/signals';
import type { DcApiRequest } from '../protocol/api.ts';
import { pickLocale } from '../shared/locale.ts';
import { createPhoneApi } from './api.ts';
import { doneRequestOf, showDoneView, takeResponseCode } from './DoneView.tsx';
import { PHONE_COPY } from './copy/index.ts';
import { isCallbackPage, takeHandoff } from './handoff.ts';
import { createPhoneModel, type PhoneEnvironment } from './model.ts';
import { mountPhonePage } from './mount.tsx';
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

// The page stands in for the phone's app: it speaks the phone's language, else English.
const locale = pickLocale([...(navigator.languages ?? [navigator.language]), 'en']);
const copy = PHONE_COPY[locale];
document.documentElement.lang = locale;

// design.md §19: a wallet's redirect_uri opens the done view, which stands alone
const doneRequest = doneRequestOf(window.location.pathname);
if (doneRequest !== null)
  void showDoneView(
    document.getElementById('app')!,
    createPhoneApi(),
    doneRequest,
    takeResponseCode(window.location, window.history),
    PHONE_COPY,
    locale,
  );
else startPhonePage();

function startPhonePage(): void {
  // The deep link's own arrival (its fragment carries h), not a return from an identity provider
  const arrivedByLink = new URLSearchParams(window.location.hash.slice(1)).has('h');
  const entry = isCallbackPage(window.location.pathname)
    ? 'unknown_sign_in'
    : takeHandoff(window.location, window.history, sessionStorageOrNull());
  // Opened on the same device from the site's page: the way back to it (way-back.ts).
  const requestId = typeof entry === 'object' && entry ? entry.requestId : null;
  if (requestId && arrivedByLink)
    rememberArrival(sessionStorageOrNull(), requestId, document.referrer, location.origin, window.history.length);
  const model = createPhoneModel(createPhoneApi(), entry, {
    navigate: (url) => window.location.assign(url),
    requestCredential: credentialRequester(),
    // design.md §4: the persona picker is a script of its own, fetched only when open offers it
    loadSandbox: async (port) => (await import('./sandbox/wing.tsx')).openSandboxWing(port, locale),
  });
  effect(() => {
    document.title = model.sandbox.value ? copy.title : copy.pageTitle;
  });
  mountPhonePage(
    document.getElementById('app')!,
    model,
    copy,
    requestId ? wayBack(sessionStorageOrNull(), requestId, window.history) : null,
  );
  void model.load();
  // Back from the provider with the browser's Back button, a page restored from the back/forward
  // cache would still say "Opening…": read the request again.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) void model.load();
  });
}
