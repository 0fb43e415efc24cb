import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCALES } from '../protocol/wire.ts';
import { ALL_COPY } from '../widget/copy/all.ts';
import { GALLERY_ROWS, THEMES, createGalleryModel, type GalleryModel } from './gallery.ts';
import { createLiveModel } from './live.ts';
import { mountDemoPage } from './mount.tsx';

const host = document.createElement('div');
document.body.append(host);
let unmount = () => {};
afterEach(() => unmount());

function mount(gallery: GalleryModel = createGalleryModel()) {
  act(() => {
    unmount = mountDemoPage(host, { gallery, live: createLiveModel(), partnerUrl: 'http://localhost:8788' });
  });
  return gallery;
}

const waitingWidgets = () =>
  [...host.querySelectorAll('[data-testid="gallery-row-waiting"] [data-testid="svc-widget"]')].map(
    (w) => w.shadowRoot!,
  );
const waitingTitles = () => waitingWidgets().map((root) => root.querySelector('h2')?.textContent);

describe('designers’ demo page', () => {
  it('shows every widget state in both themes, in English as the page around it to begin with', () => {
    mount();
    const states = [
      'creating',
      'waiting',
      'scanned',
      'completed',
      'confirming',
      'redirecting',
      'failed',
      'expired',
      'error',
    ];
    for (const state of states) {
      const row = host.querySelector(`[data-testid="gallery-row-${state}"]`)!;
      const widgets = [...row.querySelectorAll('[data-testid="svc-widget"]')];
      expect(widgets.map((w) => w.getAttribute('data-state'))).toEqual([state, state]);
      expect([...row.querySelectorAll('figcaption')].map((f) => f.textContent)).toEqual([
        'Dark · English',
        'Light · English',
      ]);
    }
    expect(host.querySelectorAll('[data-testid="svc-widget"]')).toHaveLength(GALLERY_ROWS.length * THEMES.length);
    expect(waitingTitles()).toEqual([ALL_COPY.en.waitingTitle, ALL_COPY.en.waitingTitle]);
    expect(waitingWidgets()[0]!.querySelector('svg[role="img"]')).not.toBeNull();
  });

  it('offers all 24 locales in one picker and re-renders the one grid in the picked locale', () => {
    mount();
    const radios = [...host.querySelectorAll<HTMLInputElement>('input[name="gallery-locale"]')];
    expect(radios.map((r) => r.value)).toEqual([...LOCALES]);
    act(() => radios.find((r) => r.value === 'nl')!.click());
    expect(waitingTitles()).toEqual([ALL_COPY.nl.waitingTitle, ALL_COPY.nl.waitingTitle]);
    expect(host.querySelector('[data-testid="gallery-row-waiting"] figcaption')?.textContent).toBe('Dark · Nederlands');
    // Each preview says which language it is in, so a screen reader switches to it.
    expect(new Set([...host.querySelectorAll('.cell-slot')].map((slot) => slot.getAttribute('lang')))).toEqual(
      new Set(['nl']),
    );
    expect(host.querySelectorAll('[data-testid="svc-widget"]')).toHaveLength(GALLERY_ROWS.length * THEMES.length);
  });

  it('applies the picked accent to every preview, and the default again', () => {
    mount();
    const accentSheets = () =>
      [...host.querySelectorAll('[data-testid="svc-widget"]')].map((w) => w.shadowRoot!.adoptedStyleSheets.length);
    expect(new Set(accentSheets())).toEqual(new Set([1]));
    act(() => host.querySelector<HTMLInputElement>('input[name="gallery-accent"][value="#0a7d4f"]')!.click());
    expect(new Set(accentSheets())).toEqual(new Set([2]));
    expect(host.querySelector('[data-testid="gallery-row-waiting"] figcaption')?.textContent).toBe(
      'Dark · English · #0a7d4f',
    );
    act(() => host.querySelector<HTMLInputElement>('input[name="gallery-accent"][value=""]')!.click());
    expect(new Set(accentSheets())).toEqual(new Set([1]));
  });

  it('starts from the locale and accent in the address, ignoring values it does not know', () => {
    expect(createGalleryModel('?locale=it&accent=%23ffc72c')).toMatchObject({
      locale: { value: 'it' },
      accent: { value: '#ffc72c' },
    });
    expect(createGalleryModel('?locale=xx&accent=red')).toMatchObject({
      locale: { value: 'en' },
      accent: { value: null },
    });
  });

  it('shows the waiting state in the mobile layout', () => {
    mount();
    const row = host.querySelector('[data-testid="gallery-row-waiting-mobile"]')!;
    const widget = row.querySelector('[data-testid="svc-widget"]')!.shadowRoot!;
    expect(widget.querySelector('[data-testid="svc-open-app"]')).not.toBeNull();
  });

  it('removes every preview when the page unmounts', () => {
    mount();
    act(() => unmount());
    expect(host.querySelector('[data-testid="svc-widget"]')).toBeNull();
  });

  it('offers the ADULT_BLIND rail only disabled, saying why and where to try it', () => {
    mount();
    const blind = host.querySelector<HTMLInputElement>('input[name="live-rail"][value="adult_blind"]')!;
    expect(blind.disabled).toBe(true);
    const why = host.querySelector(`#${blind.getAttribute('aria-describedby')}`)!;
    expect(why.textContent).toContain('session token');
    expect(why.querySelector('a')?.getAttribute('href')).toBe('http://localhost:8788');
  });
});
