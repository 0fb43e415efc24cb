import { effect } from '@preact/signals';
import { render } from 'preact';
import { DemoPage } from './DemoPage.tsx';
import { createGalleryModel, type GalleryModel } from './gallery.ts';
import type { LiveModel } from './live.ts';

/**
 * Renders the page and renders it again whenever a signal it read changes (one effect, rather
 * than @preact/signals' automatic component subscriptions).
 *
 * @example const unmount = mountDemoPage(document.getElementById('app')!, { live, partnerUrl });
 */
export function mountDemoPage(
  root: HTMLElement,
  props: { gallery?: GalleryModel; live: LiveModel; partnerUrl: string },
): () => void {
  const gallery = props.gallery ?? createGalleryModel();
  const dispose = effect(() =>
    render(<DemoPage gallery={gallery} live={props.live} partnerUrl={props.partnerUrl} />, root),
  );
  return () => {
    dispose();
    render(null, root);
  };
}
