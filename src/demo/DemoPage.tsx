import { Gallery } from './Gallery.tsx';
import type { GalleryModel } from './gallery.ts';
import type { LiveModel } from './live.ts';
import { LivePanel } from './LivePanel.tsx';

export function DemoPage({
  gallery,
  live,
  partnerUrl,
}: {
  gallery: GalleryModel;
  live: LiveModel;
  partnerUrl: string;
}) {
  return (
    <>
      <header class="demo-header">
        <p class="mark">Sandbox · designers’ page</p>
        <h1>Age verification widget</h1>
        <p class="lede">
          Every state of the widget as partners’ visitors see it, then a live request you can drive from the sandbox
          phone. The example partner site runs at <a href={partnerUrl}>{partnerUrl}</a>.
        </p>
        <nav aria-label="On this page">
          <a href="#gallery-title">Gallery</a> · <a href="#live-title">Live flow</a>
        </nav>
      </header>
      <main>
        <Gallery model={gallery} />
        <LivePanel model={live} partnerUrl={partnerUrl} />
      </main>
    </>
  );
}
