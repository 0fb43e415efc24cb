/** The designers' page: the only file here with side effects. */
import { createGalleryModel } from './gallery.ts';
import { createLiveModel } from './live.ts';
import { mountDemoPage } from './mount.tsx';
import './demo.css';

// `?partner=` lets the page point at an example partner that does not run on the default port.
const partnerUrl =
  new URLSearchParams(location.search).get('partner')?.match(/^https?:\/\/[^\s"'<>]+$/)?.[0] ?? 'http://localhost:8788';

mountDemoPage(document.getElementById('app')!, {
  gallery: createGalleryModel(location.search),
  live: createLiveModel(),
  partnerUrl,
});
