/**
 * The phone page's state: what it shows, what the visitor picked, and the actions (load, the
 * persona picker's submit, an identity provider's start, the wallet on this phone). Components
 * only render these signals.
 */
import { computed, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import type {
  DcApiRequest,
  LoginResult,
  Method,
  Outcome,
  PersonaSummary,
  PhoneMethod,
  PhoneOpened,
  SandboxWalletChoice,
} from '../protocol/api.ts';
import { WALLET_CREDENTIAL_OF_QUERY_ID } from '../protocol/api.ts';
import type { ApiFailureCode, PhoneApi } from './api.ts';
import type { EndingKey, NoticeKey, ProblemKey } from './copy/index.ts';
import type { Handoff } from './handoff.ts';

export type PhoneView =
  | { kind: 'loading' }
  | { kind: 'problem'; problem: ProblemKey; retryable: boolean }
  | {
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
}

export interface PhoneModel {
  readonly view: ReadonlySignal<PhoneView>;
  /** true when the service runs in sandbox (open says so); null until known */
  readonly sandbox: ReadonlySignal<boolean | null>;
  readonly personas: ReadonlySignal<PersonaSummary[]>;
  readonly persona: Signal<string>;
  /** the only method the persona picker accepts for this request (design.md §4: eudi_wallet iff client_proof_mode) */
  readonly method: ReadonlySignal<Method>;
  /** what the sandbox wallet may present to the request's wallet link, in its order (none without the wallet path) */
  readonly credentials: ReadonlySignal<SandboxWalletChoice[]>;
  /** the one the sandbox wallet presents (design.md §13); null: the first the request accepts */
  readonly credential: Signal<SandboxWalletChoice | null>;
  /** true where the browser can ask a wallet on this phone (Digital Credentials API) */
  readonly canUseWalletHere: boolean;
  load(): Promise<void>;
  submit(outcome: Outcome): Promise<void>;
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

const NO_ENVIRONMENT: PhoneEnvironment = { navigate: () => {}, requestCredential: null };

/**
 * What the sandbox wallet may present to a wallet link, in the order of its DCQL query (design.md
 * §13): each credential asked, after the PID the PID without age_over_18 when the query offers
 * the birth date instead (`claim_sets`, design.md §15), and for the SD-JWT VC PID that PID and the
 * same revoked on the sandbox's status list. An unknown id or an unreadable link gives none.
 *
 * @example credentialsOfLink('openid4vp://?…&dcql_query=%7B%22credentials%22%3A%5B%7B%22id%22%3A%22pid%22…') // ['pid', 'pid-no-age', …]
 */
export function credentialsOfLink(link: string): SandboxWalletChoice[] {
  try {
    const query = JSON.parse(new URLSearchParams(link.slice(link.indexOf('?') + 1)).get('dcql_query') ?? '') as {
      credentials?: { id?: unknown; claim_sets?: unknown }[];
    };
    return (query.credentials ?? []).flatMap(({ id, claim_sets: claimSets }) => {
      if (typeof id !== 'string' || !Object.hasOwn(WALLET_CREDENTIAL_OF_QUERY_ID, id)) return [];
      const credential = WALLET_CREDENTIAL_OF_QUERY_ID[id as keyof typeof WALLET_CREDENTIAL_OF_QUERY_ID];
      if (credential === 'pid_sd') return ['pid-sd-jwt', 'pid-sd-jwt-revoked'];
      return credential === 'pid' && Array.isArray(claimSets) ? ['pid', 'pid-no-age'] : [credential];
    });
  } catch {
    return [];
  }
}

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
  const personas = signal<PersonaSummary[]>([]);
  const persona = signal('');
  const method = computed<Method>(() => {
    const current = view.value;
    return current.kind === 'asking' && current.request.client_proof_mode ? 'eudi_wallet' : 'face_check';
  });
  const credentials = computed<SandboxWalletChoice[]>(() => {
    const current = view.value;
    const wallet = current.kind === 'asking' ? current.request.methods.find((m) => m.id === 'eudi_wallet') : undefined;
    return wallet && 'wallet_link' in wallet ? credentialsOfLink(wallet.wallet_link) : [];
  });
  const credential = signal<SandboxWalletChoice | null>(null);
  // Read once: a retry or a reload shows the request's status, not the provider's result again.
  let login = handoff?.login ?? null;

  async function load(): Promise<void> {
    if (entry === 'unknown_sign_in') {
      view.value = { kind: 'finished', ending: 'link_expired' };
      return;
    }
    if (!handoff?.h) {
      const ending = login && endingFromHint(login);
      view.value = ending
        ? { kind: 'finished', ending }
        : { kind: 'problem', problem: 'MISSING_LINK', retryable: false };
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
    if (sandbox.value) {
      const list = await api.listPersonas();
      if (!list.ok || list.data.length === 0) {
        login = hint;
        view.value = { kind: 'problem', problem: list.ok ? 'OTHER' : problemOf(list.code), retryable: true };
        return;
      }
      personas.value = list.data;
      if (!list.data.some((p) => p.id === persona.value)) persona.value = list.data[0]!.id;
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

  /** A finished request: what the provider's sign-in (or the wallet) ended in, else "already finished". */
  function endedView(request: PhoneOpened, hint: LoginResult | null): PhoneView {
    if (hint === 'finished') return { kind: 'finished', ending: 'ended' };
    if (hint === 'approved' || hint === 'failed') {
      return { kind: 'finished', ending: request.status === 'completed' ? 'approved' : (request.reason ?? 'failed') };
    }
    return { kind: 'problem', problem: 'ALREADY_FINISHED', retryable: false };
  }

  /** The asking view, if nothing is under way; the handoff token it needs. */
  function idle(): { current: Extract<PhoneView, { kind: 'asking' }>; h: string; requestId: string } | null {
    const current = view.peek();
    if (current.kind !== 'asking' || current.sending !== null || current.busy !== null || !handoff?.h) return null;
    return { current, h: handoff.h, requestId: handoff.requestId };
  }

  /** After a failed call: the explanation when the request can't be answered any more, else the form with an error. */
  function fail(current: Extract<PhoneView, { kind: 'asking' }>, code: ApiFailureCode): void {
    const problem = problemOf(code);
    view.value = isFinal(problem)
      ? { kind: 'problem', problem, retryable: false }
      : { ...current, sending: null, busy: null, error: problem, notice: null };
  }

  async function submit(outcome: Outcome): Promise<void> {
    const at = idle();
    if (!at) return;
    view.value = { ...at.current, sending: outcome, error: null, notice: null };
    const chosen = credential.value;
    const result = await api.complete(at.requestId, {
      h: at.h,
      persona: persona.value,
      method: method.value,
      outcome,
      ...(method.value === 'eudi_wallet' && chosen && credentials.value.includes(chosen) ? { credential: chosen } : {}),
    });
    if (result.ok) view.value = { kind: 'done', outcome };
    else fail(at.current, result.code);
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
    const offer = at?.current.request.methods.find(
      (m): m is Extract<PhoneMethod, { id: 'eudi_wallet' }> => m.id === 'eudi_wallet',
    );
    if (!at || !offer || !environment.requestCredential) return;
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

  return {
    view,
    sandbox,
    personas,
    persona,
    method,
    credentials,
    credential,
    canUseWalletHere: environment.requestCredential !== null,
    load,
    submit,
    startProvider,
    useWallet,
  };
}
