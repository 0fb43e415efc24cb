import { effect } from '@preact/signals';
import { render } from 'preact';
import type { PhoneCopy } from './copy/index.ts';
import type { PhoneModel } from './model.ts';
import { PhonePage } from './PhonePage.tsx';

/**
 * Renders the page and renders it again whenever a signal it read changes. The build drops
 * @preact/signals' automatic component subscriptions (vite.config.ts, for the widget's size),
 * so the page subscribes once, here, around a synchronous render.
 *
 * @example const unmount = mountPhonePage(document.getElementById('app')!, model, PHONE_COPY.en);
 */
export function mountPhonePage(
  root: HTMLElement,
  model: PhoneModel,
  copy: PhoneCopy,
  back: (() => void) | null = null,
): () => void {
  const dispose = effect(() => render(<PhonePage model={model} copy={copy} back={back} />, root));
  return () => {
    dispose();
    render(null, root);
  };
}
