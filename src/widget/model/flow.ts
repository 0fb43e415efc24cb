/**
 * The verification flow of one widget (design.md §7): create → wait (long poll, net/poll.ts) →
 * server-verify → success (redirect or same-page hand-over). Signals hold the state, actions
 * change it, effects own timers and listeners and clean up after themselves. Components only
 * render it.
 */
import { batch, computed, effect, signal, type ReadonlySignal, type Signal } from './signals.ts';
import {
  GRANT_TTL_MS,
  REQUEST_TTL_MS,
  type FailReason,
  type VerifyRequestCreated,
  type VerifyResult,
  type RequestStatus,
} from '../../protocol/wire.ts';
import type { CreateError, MountOptions, SvcError, SvcResult, WidgetState } from '../../shared/contract.ts';
import { isCurrentPage, resultUrl } from '../../shared/result.ts';
import { pollUntilSettled } from '../net/poll.ts';
import { fetchStatus } from '../net/status.ts';
import { confirmWithPartner } from '../net/server-verify.ts';
import { postWalletResponse } from '../net/wallet.ts';

export interface Flow {
  readonly state: ReadonlySignal<WidgetState>;
  readonly request: ReadonlySignal<VerifyRequestCreated | null>;
  /** whole seconds until the current request expires (the countdown) */
  readonly secondsLeft: ReadonlySignal<number>;
  readonly reason: ReadonlySignal<FailReason | undefined>;
  readonly error: ReadonlySignal<SvcError | null>;
  /** mobile layout: the visitor asked for the QR code instead of the app button */
  readonly qrShown: ReadonlySignal<boolean>;
  /** the wallet on this device (Digital Credentials API) declined or its answer was refused */
  readonly walletFailed: ReadonlySignal<boolean>;
  /** true when the request offers dc_request and this browser has the Digital Credentials API */
  readonly canUseWallet: ReadonlySignal<boolean>;
  /**
   * The "Use a wallet on this device" button (design.md §11): asks the browser for the credential
   * at once (inside the click's user activation), then posts it; polling sees the completion.
   */
  useWallet(): void;
  /** back from a wallet failure to the QR code (the request is still waiting) */
  backToQr(): void;
  /** the retry button: re-confirms after SERVER_VERIFY_TIMEOUT while the grant lives, else starts over */
  retry(): void;
  /** starts over with a new request */
  reset(): void;
  showQr(): void;
  /** aborts requests, clears timers and listeners */
  dispose(): void;
}

/** What the flow needs: the mount options, with the create answers read (net/create.ts), and no copy. */
export interface FlowDeps extends Omit<MountOptions, 'send' | 'sent' | 'loadCopy' | 'resolveLocale'> {
  /** starts a new verification request; rejects with a {@link CreateError} */
  create(signal: AbortSignal): Promise<VerifyRequestCreated>;
  /** the first request, sent by the loader before the UI arrived */
  created?: Promise<VerifyRequestCreated>;
  /** goes to the success path (`location.assign` in the page: mount.tsx) */
  navigate(url: string): void;
}

/** Keeps `request` in this tab under `key` for a reload or Back (design.md §14); none: drops it. */
function keepInTab(key: string, request?: VerifyRequestCreated): void {
  try {
    if (request) sessionStorage[key] = JSON.stringify(request);
    else delete sessionStorage[key];
  } catch {
    // no storage here (a sandboxed frame, storage turned off): nothing to resume later
  }
}

/**
 * The wallet on this device (design.md §11): asks the browser for the credential at once (inside
 * the click's user activation), then posts it; resolves false when it declined or was refused.
 */
function askWallet(apiOrigin: string, created: VerifyRequestCreated, signal?: AbortSignal): Promise<boolean> {
  const asked = navigator.credentials.get({
    mediation: 'required',
    digital: { requests: created.dc_requests ?? [created.dc_request] },
  } as CredentialRequestOptions);
  return postWalletResponse(apiOrigin, created, asked, signal);
}

/**
 * A verified result on its way to the page: confirmed with the partner's backend first when
 * server-verify asks it (SERVER_VERIFY_TIMEOUT through `fail` when it does not say verified in
 * time), then emitted and kept for this page or carried to the success path.
 */
async function deliverResult(
  deps: FlowDeps,
  state: Signal<WidgetState>,
  fail: (failure: SvcError) => void,
  delivered: SvcResult,
  signal: AbortSignal,
): Promise<void> {
  const { config } = deps;
  if (config.serverVerify && config.serverVerifyEndpoint) {
    state.value = 'confirming';
    const confirmed = await confirmWithPartner(
      config.serverVerifyEndpoint,
      delivered,
      config.serverVerifyTimeoutSeconds,
      signal,
    );
    if (signal.aborted) return;
    if (!confirmed)
      return fail({ code: 'SERVER_VERIFY_TIMEOUT', message: 'no verified:true in time', retryable: true });
  }
  deps.emit('success', delivered);
  // a config with a problem may have none; reset() can still run it (src/loader/config.ts)
  if (isCurrentPage(config.successPath ?? '/')) {
    deps.keepResult(delivered);
    state.value = 'completed';
  } else {
    state.value = 'redirecting';
    deps.navigate(resultUrl(config.successPath ?? '/', delivered));
  }
}

/**
 * Creates and starts the flow.
 *
 * @example
 * const flow = createFlow({ config, create, emit, keepResult, navigate: (u) => location.assign(u) });
 * effect(() => console.log(flow.state.value)); // creating → waiting → …
 */
export function createFlow(deps: FlowDeps): Flow {
  const { config } = deps;
  const state = signal<WidgetState>(deps.error ? 'error' : 'creating');
  const request = signal<VerifyRequestCreated | null>(null);
  const reason = signal<FailReason | undefined>(undefined);
  const error = signal<SvcError | null>(deps.error ?? null);
  const qrShown = signal(false);
  const walletFailed = signal(false);
  const canUseWallet = computed(() => !!request.value?.dc_request && typeof DigitalCredential !== 'undefined');
  const hidden = signal(document.hidden);
  const now = signal(Date.now());
  /** local clock: the service's expires_at shifted onto this device's clock */
  const expiresAt = signal(0);
  const secondsLeft = computed(() => Math.max(0, Math.ceil((expiresAt.value - now.value) / 1000)));

  let run: AbortController | undefined;
  let result: SvcResult | undefined;
  let resultAt = 0;

  const begin = (): AbortSignal => {
    run?.abort();
    run = new AbortController();
    return run.signal;
  };

  const fail = (failure: SvcError): void => {
    batch(() => {
      error.value = failure;
      state.value = 'error';
    });
    deps.emit('error', failure);
  };

  const expire = (): void => {
    run?.abort();
    state.value = 'expired';
    if (!hidden.peek()) void start();
  };

  const secondsLeftNow = (): number => Math.max(0, Math.ceil((expiresAt.peek() - Date.now()) / 1000));

  /** the request waiting for the visitor, kept in sessionStorage too */
  let live: VerifyRequestCreated | undefined;
  const keep = (request?: VerifyRequestCreated): void => {
    live = request;
    keepInTab(deps.storageKey, request);
  };

  /**
   * Shows a request: a new one (`created`, else one created here), or `stored`, the one this tab
   * showed before a reload, Back or a return from the back/forward cache, once its status says it
   * still waits; a stored one that completed is delivered, one that failed, expired or is unknown
   * gives way to a new request.
   */
  async function start(created?: Promise<VerifyRequestCreated>, stored?: VerifyRequestCreated): Promise<void> {
    const signal = begin();
    keep();
    batch(() => {
      // a request on screen that is asked again (pageshow) stays there meanwhile
      if (stored != request.peek()) {
        request.value = null;
        state.value = 'creating';
      }
      walletFailed.value = false;
      reason.value = undefined;
      error.value = null;
      result = undefined;
    });
    let created_: VerifyRequestCreated | undefined;
    let status: RequestStatus | undefined;
    if (stored) {
      const outcome = await fetchStatus(config.apiOrigin, stored, signal, 0);
      if (signal.aborted) return;
      status = outcome.status;
      if (status == 'completed') return complete(outcome.result!, signal);
      // no status (unreachable, throttled): shown all the same, the long poll waits for the service
      if (!/failed|expired/.test(status!)) created_ = stored;
    }
    try {
      created_ ??= await (created ?? deps.create(signal));
    } catch (cause) {
      if (!signal.aborted) {
        fail({
          code: 'INIT_FAILED',
          message: `create failed: ${(cause as Error).message}`,
          retryable: (cause as CreateError).retryable !== false,
        });
      }
      return;
    }
    if (signal.aborted) return;
    // The service's clock is not this device's: trust the lifetime it announces, not the instant,
    // and fall back to the documented lifetime when the two clocks disagree wildly.
    const ttlMs = created_.expires_at - Date.now();
    batch(() => {
      now.value = Date.now();
      expiresAt.value = now.value + (ttlMs > 0 && ttlMs <= REQUEST_TTL_MS ? ttlMs : REQUEST_TTL_MS);
      request.value = created_!;
      state.value = status == 'in_progress' ? 'scanned' : 'waiting';
    });
    keep(created_);
    const settled = await pollUntilSettled(created_, signal, {
      apiOrigin: config.apiOrigin,
      secondsLeft: secondsLeftNow,
      hidden,
      onStatus: (status) => (state.value = status === 'pending' ? 'waiting' : 'scanned'),
    });
    if (!settled || signal.aborted) return;
    keep();
    if (settled.status === 'completed') await complete(settled.result, signal);
    else if (settled.status === 'failed') {
      batch(() => {
        reason.value = settled.reason;
        state.value = 'failed';
      });
    } else expire();
  }

  async function complete(verified: VerifyResult, signal: AbortSignal): Promise<void> {
    result = config.state === undefined ? verified : { ...verified, state: config.state };
    resultAt = Date.now();
    state.value = 'completed';
    await deliver(result, signal);
  }

  const deliver = (delivered: SvcResult, signal: AbortSignal): Promise<void> =>
    deliverResult(deps, state, fail, delivered, signal);

  // Also on `pageshow`: back from the back/forward cache, the live request's status is asked at once
  // (a long poll cut on the way in would otherwise wait out its backoff).
  const onVisibility = (event: Event): void => {
    hidden.value = document.hidden;
    if ((event as PageTransitionEvent).persisted && live) void start(undefined, live);
    else if (!document.hidden && state.peek() === 'expired') void start();
  };
  document.addEventListener('visibilitychange', onVisibility);
  addEventListener('pageshow', onVisibility);

  const stopEffects = [
    effect(() => deps.emit('state', state.value)),
    // The countdown ticks while a QR code is on screen; reaching zero renews the request.
    effect(() => {
      if (state.value !== 'waiting') return;
      const timer = setInterval(() => {
        now.value = Date.now();
        if (now.value >= expiresAt.peek()) expire();
      }, 1000);
      return () => clearInterval(timer);
    }),
  ];

  if (!deps.error) void start(deps.created, deps.stored);

  return {
    state,
    request,
    secondsLeft,
    reason,
    error,
    qrShown,
    retry() {
      const pending = result;
      if (
        state.peek() === 'error' &&
        error.peek()?.code === 'SERVER_VERIFY_TIMEOUT' &&
        pending &&
        Date.now() - resultAt < GRANT_TTL_MS
      ) {
        const signal = begin();
        error.value = null;
        void deliver(pending, signal);
      } else if (error.peek()?.retryable !== false) {
        void start();
      }
    },
    reset: () => void start(),
    showQr() {
      qrShown.value = true;
    },
    walletFailed,
    canUseWallet,
    useWallet() {
      const created = request.peek();
      if (!created?.dc_request) return;
      walletFailed.value = false;
      // First thing in the click handler: the browser requires the user activation.
      void askWallet(config.apiOrigin, created, run?.signal).then((ok) => {
        if (!ok && request.peek() === created) walletFailed.value = true;
      });
    },
    backToQr() {
      walletFailed.value = false;
    },
    dispose() {
      run?.abort();
      keep();
      document.removeEventListener('visibilitychange', onVisibility);
      removeEventListener('pageshow', onVisibility);
      for (const stop of stopEffects) stop();
    },
  };
}
