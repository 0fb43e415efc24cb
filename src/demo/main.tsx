/** The designers' page: the only file here with side effects. */
import { createGalleryModel } from './gallery.ts';
import { createLiveModel } from './live.ts';
import { mountDemoPage } from './mount.tsx';
import { readPartnerUrl } from './partner-url.ts';
import './demo.css';

void readPartnerUrl(location.search, (input) => fetch(input)).then((partnerUrl) =>
  mountDemoPage(document.getElementById('app')!, {
    gallery: createGalleryModel(location.search),
    live: createLiveModel(),
    partnerUrl,
  }),
);
