/**
 * The phone page's state: what it shows and the actions (load, an identity provider's start, the
 * wallet on this phone). Components only render these signals. In sandbox, the persona picker is
 * a wing of its own (src/phone/sandbox/), loaded with import() when open offers it, so
 * production's page never downloads it (docs/design.md §4).
 */
import { signal, type ReadonlySignal, type Signal } from '@preact/signals';
import type { ComponentType } from 'preact';
import type { DcApiRequest, Locale, LoginResult, Outcome, PhoneMethod, PhoneOpened } from '../protocol/wire.ts';
import type { ApiFailureCode, PhoneApi } from './phone-client.ts';
import type { EndingKey, NoticeKey, ProblemKey } from './copy/index.ts';
import type { Handoff } from './handoff.ts';

/** The request and the ways to prove it, offered. */
export interface AskingView {
  kind: 'asking';
  request: PhoneOpened;
  /** the persona picker's verdict being sent */
  sending: Outcome | null;
  /** the method under way: a provider being opened (its id), or `eudi_wallet` */
  busy: string | null;
  error: ProblemKey | null;
  /** why the methods are offered again (the request still waits) */
  notice: NoticeKey | null;
}

export type PhoneView =
  | { kind: 'loading' }
  | { kind: 'problem'; problem: ProblemKey; retryable: boolean }
  | AskingView
  /** the persona picker's verdict was recorded (sandbox) */
  | { kind: 'done'; outcome: Outcome }
  /** an identity provider or the wallet ended the request, or the sign-in link was unknown */
  | { kind: 'finished'; ending: EndingKey };

/** What the page needs from the browser beyond the API: kept out so tests can stand in. */
export interface PhoneEnvironment {
  /** leaves for the identity provider (`location.assign`) */
  navigate(url: string): void;
  /**
   * The Digital Credentials API where the browser has it, else null. Called first thing in the
   * click handler: the browser requires the user activation.
   */
  requestCredential: ((requests: DcApiRequest[]) => Promise<unknown>) | null;
  /**
   * Loads the sandbox wing (main.tsx: `import('./sandbox/wing.tsx')`), called only when open
   * offers the persona picker; absent, a request that offers it shows a problem.
   */
  loadSandbox?: (port: SandboxPort) => Promise<SandboxWing>;
  /**
   * Switches the page to the request's language once open told it (design.md §20; main.tsx
   * loads its copy), before anything of the request shows; absent, the page keeps its own.
   */
  adoptLocale?: (locale: Locale) => Promise<void>;
}

/** What the sandbox wing is given: the API, the page's view, and the model's own rules for an answer. */
export interface SandboxPort {
  readonly api: PhoneApi;
  /** the wing reads the asking view and writes its verdict's: sending, done, an error */
  readonly view: Signal<PhoneView>;
  /** the asking view if nothing is under way, with the handoff token it needs */
  idle(): { current: AskingView; h: string; requestId: string } | null;
  /** after a failed call: the explanation when the request can't be answered any more, else the form with an error */
  fail(current: AskingView, code: ApiFailureCode): void;
}

/** Where the persona picker sits in the asking view (PhonePage.tsx). */
export interface SandboxFormProps {
  sending: Outcome | null;
  busy: boolean;
  /** under its own heading, when other ways to prove it come first */
  titled: boolean;
  /** an error to show above the verdict buttons */
  error: string | null;
}

/** The sandbox wing (src/phone/sandbox/wing.tsx), once loaded. */
export interface SandboxWing {
  /** reads the personas before the form shows; null when ready, else why not */
  prepare(): Promise<ApiFailureCode | null>;
  Form: ComponentType<SandboxFormProps>;
}

export interface PhoneModel {
  readonly view: ReadonlySignal<PhoneView>;
  /** true when the service runs in sandbox (open says so); null until known */
  readonly sandbox: ReadonlySignal<boolean | null>;
  /** the persona picker, loaded when open offered it (sandbox); null until then, and in production */
  readonly wing: ReadonlySignal<SandboxWing | null>;
  /** true where the browser can ask a wallet on this phone (Digital Credentials API) */
  readonly canUseWalletHere: boolean;
  load(): Promise<void>;
  startProvider(providerId: string): Promise<void>;
  useWallet(): Promise<void>;
}

/** What the address said: the request (with a provider's result), a sign-in the service did not know, or nothing usable. */
export type PhoneEntry = Handoff | 'unknown_sign_in' | null;

const PROBLEM_OF: Partial<Record<string, ProblemKey>> = {
  NOT_FOUND: 'NOT_FOUND',
  ALREADY_FINISHED: 'ALREADY_FINISHED',
  REQUEST_EXPIRED: 'REQUEST_EXPIRED',
  NETWORK_ERROR: 'NETWORK_ERROR',
};

function problemOf(code: ApiFailureCode): ProblemKey {
  return PROBLEM_OF[code] ?? 'OTHER';
}

/** A request that is gone or finished can't be answered any more; anything else may be retried. */
function isFinal(problem: ProblemKey): boolean {
  return problem === 'NOT_FOUND' || problem === 'ALREADY_FINISHED' || problem === 'REQUEST_EXPIRED';
}

/** A provider's result shown without the request's status (its handoff token is lost). */
function endingFromHint(login: LoginResult): EndingKey | null {
  if (login === 'approved') return 'approved';
  if (login === 'failed') return 'failed';
  if (login === 'finished') return 'ended';
  return null;
}

/**
 * What the page shows before asking the service anything: the sign-in it did not know, or an
 * address without the handoff token (a provider's result, when it carried one); null when it may ask.
 */
function viewBeforeOpen(entry: PhoneEntry, login: LoginResult | null): PhoneView | null {
  if (entry === 'unknown_sign_in') return { kind: 'finished', ending: 'link_expired' };
  if (entry?.h) return null;
  const ending = login && endingFromHint(login);
  return ending ? { kind: 'finished', ending } : { kind: 'problem', problem: 'MISSING_LINK', retryable: false };
}

/** A finished request: what the provider's sign-in (or the wallet) ended in, else "already finished". */
function endedView(request: PhoneOpened, hint: LoginResult | null): PhoneView {
  if (hint === 'finished') return { kind: 'finished', ending: 'ended' };
  if (hint === 'approved' || hint === 'failed') {
    return { kind: 'finished', ending: request.status === 'completed' ? 'approved' : (request.reason ?? 'failed') };
  }
  return { kind: 'problem', problem: 'ALREADY_FINISHED', retryable: false };
}

/** The asking view, as an action that went somewhere else leaves it. */
type Asking = { current: AskingView; h: string; requestId: string };

/**
 * The wallet on this phone (Digital Credentials API): asks it for the credential the request offers,
 * sends its answer, and shows what the service made of it.
 */
async function answerWithWallet(
  api: PhoneApi,
  environment: PhoneEnvironment,
  view: Signal<PhoneView>,
  at: Asking,
  fail: (current: AskingView, code: ApiFailureCode) => void,
): Promise<void> {
  const offer = at.current.request.methods.find(
    (m): m is Extract<PhoneMethod, { id: 'eudi_wallet' }> => m.id === 'eudi_wallet',
  );
  if (!offer || !environment.requestCredential) return;
  // First thing: the browser requires the user activation of the click that called this.
  const asked = environment.requestCredential(offer.dc_requests);
  view.value = { ...at.current, busy: 'eudi_wallet', error: null, notice: null };
  const credential = (await asked.catch(() => null)) as { protocol?: unknown; data?: unknown } | null;
  if (!credential) {
    view.value = { ...at.current, notice: 'wallet_declined', error: null };
    return;
  }
  // The credential's fields are getters on its prototype: copy them, JSON.stringify sees none.
  const result = await api.sendWalletResponse(at.requestId, {
    h: at.h,
    credential: { protocol: credential.protocol, data: credential.data },
  });
  if (result.ok) {
    const { status, reason } = result.data;
    view.value = { kind: 'finished', ending: status === 'completed' ? 'approved' : (reason ?? 'failed') };
  } else if (result.code === 'invalid_request') {
    view.value = { ...at.current, notice: 'wallet_refused', error: null };
  } else {
    fail(at.current, result.code);
  }
}

const NO_ENVIRONMENT: PhoneEnvironment = { navigate: () => {}, requestCredential: null };

/**
 * @example
 * const model = createPhoneModel(createPhoneApi(), takeHandoff(location, history, sessionStorage), {
 *   navigate: (url) => location.assign(url),
 *   requestCredential: null,
 * });
 * await model.load();
 */
export function createPhoneModel(
  api: PhoneApi,
  entry: PhoneEntry,
  environment: PhoneEnvironment = NO_ENVIRONMENT,
): PhoneModel {
  const handoff = entry === 'unknown_sign_in' ? null : entry;
  const view = signal<PhoneView>({ kind: 'loading' });
  const sandbox = signal<boolean | null>(null);
  const wing = signal<SandboxWing | null>(null);
  // Read once: a retry or a reload shows the request's status, not the provider's result again.
  let login = handoff?.login ?? null;

  async function load(): Promise<void> {
    const before = viewBeforeOpen(entry, login);
    if (before || !handoff?.h) {
      view.value = before!;
      return;
    }
    view.value = { kind: 'loading' };
    const opened = await api.open(handoff.requestId, handoff.h);
    if (!opened.ok) {
      view.value = {
        kind: 'problem',
        problem: problemOf(opened.code),
        retryable: opened.code === 'NETWORK_ERROR' || opened.status >= 500,
      };
      return;
    }
    const request = opened.data;
    // a language whose copy cannot be fetched leaves the page in the one it speaks
    if (request.locale) await environment.adoptLocale?.(request.locale).catch(() => {});
    const hint = login;
    login = null;
    sandbox.value = request.sandbox ?? request.methods.some((m) => m.id === 'sandbox');
    if (request.status === 'completed' || request.status === 'failed') {
      view.value = endedView(request, hint);
      return;
    }
    if (request.status === 'expired') {
      view.value = { kind: 'problem', problem: 'REQUEST_EXPIRED', retryable: false };
      return;
    }
    if (request.methods.some((m) => m.id === 'sandbox')) {
      const failure = await openWing();
      if (failure) {
        login = hint;
        view.value = { kind: 'problem', problem: problemOf(failure), retryable: true };
        return;
      }
    }
    view.value = {
      kind: 'asking',
      request,
      sending: null,
      busy: null,
      error: null,
      notice: hint === 'refused' ? 'refused' : null,
    };
  }

  /** Loads the persona picker once, and has it read the personas; null when it may show. */
  async function openWing(): Promise<ApiFailureCode | null> {
    if (!wing.peek()) {
      if (!environment.loadSandbox) return 'INTERNAL_ERROR';
      try {
        wing.value = await environment.loadSandbox({ api, view, idle, fail });
      } catch {
        // its script could not be fetched: the visitor may retry
        return 'NETWORK_ERROR';
      }
    }
    return wing.peek()!.prepare();
  }

  /** The asking view, if nothing is under way; the handoff token it needs. */
  function idle(): Asking | null {
    const current = view.peek();
    if (current.kind !== 'asking' || current.sending !== null || current.busy !== null || !handoff?.h) return null;
    return { current, h: handoff.h, requestId: handoff.requestId };
  }

  /** After a failed call: the explanation when the request can't be answered any more, else the form with an error. */
  function fail(current: AskingView, code: ApiFailureCode): void {
    const problem = problemOf(code);
    view.value = isFinal(problem)
      ? { kind: 'problem', problem, retryable: false }
      : { ...current, sending: null, busy: null, error: problem, notice: null };
  }

  async function startProvider(providerId: string): Promise<void> {
    const at = idle();
    if (!at) return;
    view.value = { ...at.current, busy: providerId, error: null, notice: null };
    const result = await api.startProvider(at.requestId, providerId, at.h);
    // The page stays busy while the browser leaves for the provider.
    if (result.ok) environment.navigate(result.data.authorization_url);
    else fail(at.current, result.code);
  }

  async function useWallet(): Promise<void> {
    const at = idle();
    if (at) await answerWithWallet(api, environment, view, at, fail);
  }

  return {
    view,
    sandbox,
    wing,
    canUseWalletHere: environment.requestCredential !== null,
    load,
    startProvider,
    useWallet,
  };
}
