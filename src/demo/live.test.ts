import { afterEach, describe, expect, it } from 'vitest';
import { followDeepLink } from './live.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('followDeepLink', () => {
  let stop = () => {};
  afterEach(() => stop());

  function widgetIn(host: HTMLElement): ShadowRoot {
    const widget = document.createElement('div');
    widget.dataset.testid = 'svc-widget';
    host.append(widget);
    return widget.attachShadow({ mode: 'open' });
  }

  function link(href: string): HTMLAnchorElement {
    const a = document.createElement('a');
    a.href = href;
    return a;
  }

  it('reports a link the widget renders in its shadow root after the state change that announced it', async () => {
    const host = document.createElement('div');
    document.body.append(host);
    const seen: (string | null)[] = [];
    stop = followDeepLink(host, (href) => seen.push(href));
    const root = widgetIn(host);
    host.firstElementChild!.setAttribute('data-state', 'waiting');
    await settle();
    expect(seen).toEqual([null]);

    // Nothing changes in the host's light DOM from here on: only the shadow root does.
    root.append(link('http://localhost:8787/m/v/vr_1#h=h_1'));
    await settle();
    expect(seen).toEqual([null, 'http://localhost:8787/m/v/vr_1#h=h_1']);
  });

  it('follows the link as it renews and reports it gone when the widget is removed', async () => {
    const host = document.createElement('div');
    document.body.append(host);
    const seen: (string | null)[] = [];
    const root = widgetIn(host);
    const a = link('http://localhost:8787/m/v/vr_1#h=h_1');
    root.append(a);
    stop = followDeepLink(host, (href) => seen.push(href));
    expect(seen).toEqual(['http://localhost:8787/m/v/vr_1#h=h_1']);

    a.href = 'http://localhost:8787/m/v/vr_2#h=h_2';
    await settle();
    host.replaceChildren();
    await settle();
    expect(seen).toEqual(['http://localhost:8787/m/v/vr_1#h=h_1', 'http://localhost:8787/m/v/vr_2#h=h_2', null]);
  });

  it('stops reporting once stopped', async () => {
    const host = document.createElement('div');
    const seen: (string | null)[] = [];
    const root = widgetIn(host);
    followDeepLink(host, (href) => seen.push(href))();
    root.append(link('http://localhost:8787/m/v/vr_1#h=h_1'));
    await settle();
    expect(seen).toEqual([null]);
  });
});
