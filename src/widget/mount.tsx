/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import { effect, signal } from './model/signals.ts';
import { Fragment, h, render } from 'preact';
import type { Locale } from '../protocol/wire.ts';
import { ACCENT_PATTERN, type MountWidget } from '../shared/contract.ts';
import { accentCss } from './accent.ts';
import { copyOf, loadCopy, type Copy } from './copy/index.ts';
import { createFlow } from './model/flow.ts';
import { createRequest, readCreateAnswer } from './net/create.ts';
import { detectLayout } from './model/layout.ts';
import { adoptStyles, cssWith } from './styles.ts';
import { App } from './ui/App.tsx';

/**
 * Mounts one widget in `container`: an element of its own holding an open shadow root, the flow
 * model, and one effect that re-renders the view whenever a signal it reads changes.
 * `remove()` leaves the container exactly as it was.
 *
 * @example
 * const widget = mountWidget(document.getElementById('svc-widget')!, { config, send, emit, keepResult, loadCopy, resolveLocale });
 * widget.update({ theme: 'light' });
 */
export const mountWidget: MountWidget = (container, options) => {
  const host = document.createElement('div');
  host.setAttribute('data-testid', 'svc-widget');
  container.append(host);
  const root = host.attachShadow({ mode: 'open' });

  const { config } = options;
  const theme = signal(config.theme);
  const locale = signal(config.locale);
  const detected = detectLayout();
  const layout = signal(config.layout == 'auto' ? detected : config.layout);
  // The loader refused a malformed accent already (INIT_FAILED); never put one in a stylesheet.
  const accent = signal(ACCENT_PATTERN.test(config.accent!) ? config.accent : undefined);
  /** the language on screen and its copy; null until the first one is here */
  const shown = signal<[Locale, Copy] | null>(null);
  const legacyCss = !adoptStyles(root);
  const flow = createFlow({
    ...options,
    create: (signal) => createRequest(options.send, signal),
    created: options.sent && readCreateAnswer(options.sent, options.sentController),
    navigate: (url) => location.assign(url),
    emit(...event) {
      if (event[0] == 'state') host.setAttribute('data-state', event[1]);
      options.emit(...event);
    },
  });

  let disposed = false;
  const stops = [
    // A locale the bundle does not carry is loaded first; the card keeps its current language
    // meanwhile (none at all before the first: the card appears once it can speak), and falls
    // back to French, the bundle's own, if the locale script cannot be loaded.
    effect(() => {
      const wanted = options.resolveLocale(locale.value);
      const show = (lang: Locale, copy: Copy): void => {
        if (!disposed && options.resolveLocale(locale.peek()) === wanted) shown.value = [lang, copy];
      };
      const here = copyOf(wanted);
      if (here) shown.value = [wanted, here];
      else
        loadCopy(wanted, options.loadCopy).then(
          (copy) => show(wanted, copy),
          () => shown.peek() || show('fr', copyOf('fr')!),
        );
    }),
    effect(() => {
      if (!legacyCss) adoptStyles(root, accent.value && accentCss(accent.value));
    }),
    effect(() => {
      const [lang, copy] = shown.value ?? [];
      if (!copy) return;
      const state = flow.state.value;
      const request = flow.request.value;
      render(
        <>
          {legacyCss && <style>{cssWith(accent.value && accentCss(accent.value))}</style>}
          <App
            state={state}
            copy={copy}
            lang={lang!}
            theme={theme.value}
            layout={layout.value}
            size={config.size}
            phone={detected == 'mobile'}
            sandbox={request?.sandbox === true}
            deepLink={request?.deep_link}
            walletLink={request?.wallet_link}
            onWallet={flow.canUseWallet.value ? flow.useWallet : undefined}
            walletFailed={flow.walletFailed.value}
            onBackToQr={flow.backToQr}
            qr={request?.qr}
            secondsLeft={flow.secondsLeft.value}
            reason={flow.reason.value}
            error={flow.error.value}
            qrShown={flow.qrShown.value}
            onRetry={flow.retry}
            onShowQr={flow.showQr}
          />
        </>,
        root,
      );
    }),
  ];

  return {
    reset: flow.reset,
    remove() {
      disposed = true;
      for (const stop of stops) stop();
      flow.dispose();
      render(null, root);
      host.remove();
    },
    // called by partners' code through SVC: unknown values are ignored, not thrown on; a locale
    // is a BCP 47 tag as data-locale (design.md §20), taken when its language is spoken here
    update(next) {
      const { theme: t, locale: l, layout: y, accent: a } = next ?? {};
      if (['dark', 'light', 'auto'].includes(t!)) theme.value = t!;
      if (l == 'auto' || options.resolveLocale(l) == l?.toLowerCase().split('-')[0]) locale.value = l!;
      if (['desktop', 'mobile'].includes(y!)) layout.value = y!;
      if (ACCENT_PATTERN.test(a!)) accent.value = a;
    },
    get state() {
      return flow.state.peek();
    },
  };
};
