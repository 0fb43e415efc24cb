/** The phone page: the only file here with side effects. */
import { effect } from '@preact/signals';
import type { DcApiRequest } from '../protocol/api.ts';
import { pickLocale } from '../shared/locale.ts';
import { createPhoneApi } from './api.ts';
import { loadPhoneCopy } from './copy/index.ts';
import { isCallbackPage, takeHandoff } from './handoff.ts';
import { createPhoneModel, type PhoneEnvironment } from './model.ts';
import { mountPhonePage } from './mount.tsx';
import { loadSandboxCopy } from './sandbox/copy/index.ts';
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
 * design.md §20: the page speaks the request's language (the widget's, which open tells), else
 * its browser's first language spoken here, else English; it downloads that language only.
 */
async function start(): Promise<void> {
  let locale = pickLocale(navigator.languages ?? [navigator.language], 'en');
  let copy = await loadPhoneCopy(locale);
  const root = document.getElementById('app')!;
  const entry = isCallbackPage(window.location.pathname)
    ? 'unknown_sign_in'
    : takeHandoff(window.location, window.history, sessionStorageOrNull());
  let unmount = (): void => {};
  const model = createPhoneModel(createPhoneApi(), entry, {
    navigate: (url) => window.location.assign(url),
    requestCredential: credentialRequester(),
    // design.md §4: the persona picker is a script of its own, fetched only when open offers it
    loadSandbox: async (port) => {
      const [wing, words] = await Promise.all([import('./sandbox/wing.tsx'), loadSandboxCopy(locale)]);
      return wing.openSandboxWing(port, words);
    },
    async adoptLocale(wanted) {
      if (wanted === locale) return;
      copy = await loadPhoneCopy(wanted);
      locale = wanted;
      show();
    },
  });
  function show(): void {
    document.documentElement.lang = locale;
    document.title = model.sandbox.peek() ? copy.title : copy.pageTitle;
    unmount();
    unmount = mountPhonePage(root, model, copy);
  }
  effect(() => {
    document.title = model.sandbox.value ? copy.title : copy.pageTitle;
  });
  show();
  void model.load();
  // Back from the provider with the browser's Back button, a page restored from the back/forward
  // cache would still say "Opening…": read the request again.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) void model.load();
  });
}

void start();
