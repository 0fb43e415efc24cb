/** The sandbox phone page: the only file here with side effects. */
import { render } from 'preact';
import { createPhoneApi } from './api.ts';
import { takeHandoff } from './handoff.ts';
import { createPhoneModel } from './model.ts';
import { PhonePage } from './PhonePage.tsx';
import './phone.css';

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

const model = createPhoneModel(createPhoneApi(), takeHandoff(window.location, window.history, sessionStorageOrNull()));
render(<PhonePage model={model} />, document.getElementById('app')!);
void model.load();
