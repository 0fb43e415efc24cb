import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { COLUMNS, GALLERY_ROWS } from './gallery.ts';
import { createLiveModel } from './live.ts';
import { mountDemoPage } from './mount.tsx';

const host = document.createElement('div');
document.body.append(host);
let unmount = () => {};
afterEach(() => unmount());

function mount() {
  act(() => {
    unmount = mountDemoPage(host, { live: createLiveModel(), partnerUrl: 'http://localhost:8788' });
  });
}

describe('designers’ demo page', () => {
  it('shows every widget state in both themes and both locales', () => {
    mount();
    const states = ['creating', 'waiting', 'scanned', 'completed', 'confirming', 'redirecting', 'failed', 'expired', 'error'];
    for (const state of states) {
      const row = host.querySelector(`[data-testid="gallery-row-${state}"]`)!;
      const widgets = [...row.querySelectorAll('[data-testid="svc-widget"]')];
      expect(widgets.map((w) => w.getAttribute('data-state'))).toEqual([state, state, state, state]);
      expect([...row.querySelectorAll('figcaption')].map((f) => f.textContent)).toEqual(['Dark · français', 'Dark · English', 'Light · français', 'Light · English']);
    }
    expect(host.querySelectorAll('[data-testid="svc-widget"]')).toHaveLength(GALLERY_ROWS.length * COLUMNS.length);
  });

  it('renders the widget itself in each cell, in the cell’s locale', () => {
    mount();
    const row = host.querySelector('[data-testid="gallery-row-waiting"]')!;
    const [darkFr, darkEn] = [...row.querySelectorAll('[data-testid="svc-widget"]')].map((w) => w.shadowRoot!);
    expect(darkFr?.querySelector('h2')?.textContent).not.toBe(darkEn?.querySelector('h2')?.textContent);
    expect(darkFr?.querySelector('svg[role="img"]')).not.toBeNull();
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
