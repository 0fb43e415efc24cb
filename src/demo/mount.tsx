import { effect } from '@preact/signals';
import { render } from 'preact';
import { DemoPage } from './DemoPage.tsx';
import type { LiveModel } from './live.ts';

/**
 * Renders the page and renders it again whenever a signal it read changes (the build drops
 * @preact/signals' automatic component subscriptions, see vite.config.ts).
 *
 * @example const unmount = mountDemoPage(document.getElementById('app')!, { live, partnerUrl });
 */
export function mountDemoPage(root: HTMLElement, props: { live: LiveModel; partnerUrl: string }): () => void {
  const dispose = effect(() => render(<DemoPage live={props.live} partnerUrl={props.partnerUrl} />, root));
  return () => {
    dispose();
    render(null, root);
  };
}
