import { effect, signal } from '@preact/signals';
import { render } from 'preact';
import type { MountWidget } from '../shared/contract.ts';
import { resolveLocale } from '../shared/locale.ts';
import { COPY } from './copy/index.ts';
import { createFlow } from './model/flow.ts';
import { detectLayout } from './model/layout.ts';
import { CSS, adoptStyles } from './styles.ts';
import { App } from './ui/App.tsx';

/**
 * Mounts one widget in `container`: an element of its own holding an open shadow root, the flow
 * model, and one effect that re-renders the view whenever a signal it reads changes.
 * `remove()` leaves the container exactly as it was.
 *
 * @example
 * const widget = mountWidget(document.getElementById('svc-widget')!, { config, create, emit, keepResult, navigate });
 * widget.update({ theme: 'light' });
 */
export const mountWidget: MountWidget = (container, options) => {
  const host = document.createElement('div');
  host.setAttribute('data-testid', 'svc-widget');
  container.append(host);
  const root = host.attachShadow({ mode: 'open' });
  const legacyCss = !adoptStyles(root);

  const theme = signal(options.config.theme);
  const locale = signal(options.config.locale);
  const layout = signal(options.config.layout ?? detectLayout());
  const flow = createFlow({
    ...options,
    emit(event) {
      if (event.type === 'state') host.setAttribute('data-state', event.state);
      options.emit(event);
    },
  });

  const stop = effect(() => {
    const lang = resolveLocale(locale.value);
    render(
      <>
        {legacyCss && <style>{CSS}</style>}
        <App
          state={flow.state.value}
          copy={COPY[lang]}
          lang={lang}
          theme={theme.value}
          layout={layout.value}
          sandbox={flow.request.value?.sandbox === true}
          deepLink={flow.request.value?.deep_link}
          walletLink={flow.request.value?.wallet_link}
          onWallet={flow.canUseWallet.value ? flow.useWallet : undefined}
          walletFailed={flow.walletFailed.value}
          onBackToQr={flow.backToQr}
          qr={flow.request.value?.qr}
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
  });

  return {
    reset: flow.reset,
    remove() {
      stop();
      flow.dispose();
      render(null, root);
      host.remove();
    },
    // called by partners' code through SVC: unknown values are ignored, not thrown on
    update(next) {
      if (['dark', 'light', 'auto'].includes(next?.theme!)) theme.value = next.theme!;
      if (['fr', 'en', 'auto'].includes(next?.locale!)) locale.value = next.locale!;
      if (['desktop', 'mobile'].includes(next?.layout!)) layout.value = next.layout!;
    },
    get state() {
      return flow.state.peek();
    },
  };
};
