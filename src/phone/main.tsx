/** The sandbox phone page: the only file here with side effects. */
import { createPhoneApi } from './api.ts';
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

const model = createPhoneModel(createPhoneApi(), takeHandoff(window.location, window.history, sessionStorageOrNull()));
mountPhonePage(document.getElementById('app')!, model);
void model.load();
