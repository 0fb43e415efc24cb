import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UI_GLOBAL, type MountWidget } from '../shared/contract.ts';
import { createUiLoader } from './inject.ts';

const URL_ = 'https://svc.example/v4/ui.abc.js';
const uiWindow = window as unknown as Record<string, unknown>;

let appended: HTMLScriptElement[];

// The test plays the browser: scripts are captured instead of loaded, and load or fail on cue.
beforeEach(() => {
  appended = [];
  vi.spyOn(document.head, 'append').mockImplementation(
    (...nodes) => void appended.push(...(nodes as HTMLScriptElement[])),
  );
});

afterEach(() => {
  vi.restoreAllMocks();
  delete uiWindow[UI_GLOBAL];
});

function injected(): HTMLScriptElement[] {
  return appended.filter((s) => s.src === URL_);
}

/** The newest injected script loads (running the bundle, which sets the global) or fails. */
function settleLast(outcome: 'load' | 'error', mount?: MountWidget): void {
  const script = injected().at(-1)!;
  if (outcome === 'load' && mount) uiWindow[UI_GLOBAL] = mount;
  script.dispatchEvent(new Event(outcome));
}

const mount: MountWidget = () => ({ reset() {}, remove() {}, update() {}, state: 'creating' });

describe('createUiLoader', () => {
  it('injects one script for any number of callers', async () => {
    const load = createUiLoader(URL_, 'n0nce').loadUi;
    const a = load();
    const b = load();
    expect(injected()).toHaveLength(1);
    expect(injected()[0]!.nonce).toBe('n0nce');
    expect(injected()[0]!.crossOrigin).toBe('anonymous');
    settleLast('load', mount);
    await expect(a).resolves.toBe(mount);
    await expect(b).resolves.toBe(mount);
  });

  it('retries once after a failed load', async () => {
    const load = createUiLoader(URL_).loadUi;
    const pending = load();
    settleLast('error');
    await new Promise((r) => setTimeout(r, 0));
    expect(injected()).toHaveLength(2); // the retry is a second tag
    settleLast('load', mount);
    await expect(pending).resolves.toBe(mount);
  });

  it('gives up after the retry fails too, and a later call starts over', async () => {
    const load = createUiLoader(URL_).loadUi;
    const pending = load();
    settleLast('error');
    await new Promise((r) => setTimeout(r, 0));
    settleLast('error');
    await expect(pending).rejects.toThrow('ui');
    const again = load();
    settleLast('load', mount);
    await expect(again).resolves.toBe(mount);
  });

  it('fails a load whose script ran without handing over the UI', async () => {
    const load = createUiLoader(URL_).loadUi;
    const pending = load();
    settleLast('load');
    await new Promise((r) => setTimeout(r, 0));
    settleLast('load');
    await expect(pending).rejects.toThrow('ui');
  });

  it('starts the script of a locale the bundle does not carry beside the bundle, with the same nonce', () => {
    const load = createUiLoader(URL_, 'n0nce').loadUi;
    void load('de');
    const locales = appended.filter((s) => s.src !== URL_);
    expect(locales.map((s) => [s.src, s.nonce, s.crossOrigin])).toEqual([
      ['https://svc.example/v4/ui.abc-de.js', 'n0nce', 'anonymous'],
    ]);
    expect(injected()).toHaveLength(1);
    // a failed locale script leaves the page, so it can be added again
    const removed = vi.spyOn(locales[0]!, 'remove');
    locales[0]!.dispatchEvent(new Event('error'));
    expect(removed).toHaveBeenCalled();
  });

  it('starts the script of each widget’s locale once, whoever asks (a later widget, the UI)', () => {
    const { loadUi, loadCopy } = createUiLoader(URL_);
    void loadUi('de');
    void loadUi('nl');
    void loadUi('de');
    void loadCopy('nl');
    expect(appended.map((s) => s.src)).toEqual([URL_.replace('.js', '-de.js'), URL_, URL_.replace('.js', '-nl.js')]);
  });

  it('starts no locale script for French or no locale', () => {
    for (const locale of ['fr', undefined] as const) {
      appended = [];
      void createUiLoader(URL_).loadUi(locale);
      expect(appended.map((s) => s.src)).toEqual([URL_]);
    }
  });

  it('resolves loadCopy once the locale script has run, and tries again after a failed load', async () => {
    const { loadCopy } = createUiLoader(URL_);
    const first = loadCopy('it');
    appended.at(-1)!.dispatchEvent(new Event('error'));
    await expect(first).rejects.toThrow('copy');
    const second = loadCopy('it');
    expect(appended).toHaveLength(2);
    appended.at(-1)!.dispatchEvent(new Event('load'));
    await second;
    await loadCopy('fr'); // resolves at once: the bundle carries French
    expect(appended).toHaveLength(2);
  });

  it('injects nothing when the UI is already on the page', async () => {
    uiWindow[UI_GLOBAL] = mount;
    await expect(createUiLoader(URL_).loadUi()).resolves.toBe(mount);
    expect(injected()).toHaveLength(0);
  });
});
