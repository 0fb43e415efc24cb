/** The sandbox phone page: the only file here with side effects. */
import { pickLocale } from '../shared/locale.ts';
import { createPhoneApi } from './api.ts';
import { PHONE_COPY } from './copy/index.ts';
import { takeHandoff } from './handoff.ts';
import { createPhoneModel } from './model.ts';
import { mountPhonePage } from './mount.tsx';
import './phone.css';

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

// The page stands in for the phone's app: it speaks the phone's language, else English.
const locale = pickLocale([...(navigator.languages ?? [navigator.language]), 'en']);
document.documentElement.lang = locale;
document.title = PHONE_COPY[locale].title;

const model = createPhoneModel(createPhoneApi(), takeHandoff(window.location, window.history, sessionStorageOrNull()));
mountPhonePage(document.getElementById('app')!, model, PHONE_COPY[locale]);
void model.load();
