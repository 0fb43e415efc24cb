/**
 * The phone page's state: what it shows, what the tester picked, and the two actions (load,
 * submit). Components only render these signals.
 */
import { computed, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import type { Method, Outcome, PersonaSummary, PhoneOpened } from '../protocol/api.ts';
import type { PhoneApi } from './api.ts';
import type { ProblemKey } from './copy/index.ts';
import type { Handoff } from './handoff.ts';

export type PhoneView =
  | { kind: 'loading' }
  | { kind: 'problem'; problem: ProblemKey; retryable: boolean }
  | { kind: 'asking'; request: PhoneOpened; sending: Outcome | null; error: ProblemKey | null }
  | { kind: 'done'; outcome: Outcome };

export interface PhoneModel {
  readonly view: ReadonlySignal<PhoneView>;
  readonly personas: ReadonlySignal<PersonaSummary[]>;
  readonly persona: Signal<string>;
  /** the only method this request accepts (DESIGN §4: eudi_wallet iff client_proof_mode) */
  readonly method: ReadonlySignal<Method>;
  load(): Promise<void>;
  submit(outcome: Outcome): Promise<void>;
}

const PROBLEM_OF: Partial<Record<string, ProblemKey>> = {
  NOT_FOUND: 'NOT_FOUND',
  ALREADY_FINISHED: 'ALREADY_FINISHED',
  REQUEST_EXPIRED: 'REQUEST_EXPIRED',
  NETWORK_ERROR: 'NETWORK_ERROR',
};

function problemOf(code: string): ProblemKey {
  return PROBLEM_OF[code] ?? 'OTHER';
}

/**
 * @example
 * const model = createPhoneModel(createPhoneApi(), takeHandoff(location, history, sessionStorage));
 * await model.load();
 */
export function createPhoneModel(api: PhoneApi, handoff: Handoff | null): PhoneModel {
  const view = signal<PhoneView>({ kind: 'loading' });
  const personas = signal<PersonaSummary[]>([]);
  const persona = signal('');
  const method = computed<Method>(() => {
    const current = view.value;
    return current.kind === 'asking' && current.request.client_proof_mode ? 'eudi_wallet' : 'face_check';
  });

  async function load(): Promise<void> {
    if (!handoff?.h) {
      view.value = { kind: 'problem', problem: 'MISSING_LINK', retryable: false };
      return;
    }
    view.value = { kind: 'loading' };
    const [opened, list] = await Promise.all([api.open(handoff.requestId, handoff.h), api.listPersonas()]);
    if (!opened.ok) {
      view.value = {
        kind: 'problem',
        problem: problemOf(opened.code),
        retryable: opened.code === 'NETWORK_ERROR' || opened.status >= 500,
      };
      return;
    }
    if (!list.ok || list.data.length === 0) {
      view.value = { kind: 'problem', problem: problemOf(list.ok ? 'OTHER' : list.code), retryable: true };
      return;
    }
    personas.value = list.data;
    if (!list.data.some((p) => p.id === persona.value)) persona.value = list.data[0]!.id;
    if (opened.data.status === 'completed' || opened.data.status === 'failed') {
      view.value = { kind: 'problem', problem: 'ALREADY_FINISHED', retryable: false };
      return;
    }
    if (opened.data.status === 'expired') {
      view.value = { kind: 'problem', problem: 'REQUEST_EXPIRED', retryable: false };
      return;
    }
    view.value = { kind: 'asking', request: opened.data, sending: null, error: null };
  }

  async function submit(outcome: Outcome): Promise<void> {
    const current = view.value;
    if (current.kind !== 'asking' || current.sending !== null || !handoff?.h) return;
    view.value = { ...current, sending: outcome, error: null };
    const result = await api.complete(handoff.requestId, {
      h: handoff.h,
      persona: persona.value,
      method: method.value,
      outcome,
    });
    if (result.ok) {
      view.value = { kind: 'done', outcome };
      return;
    }
    const problem = problemOf(result.code);
    // A request that is gone or finished can't be answered any more; anything else may be retried.
    if (problem === 'NOT_FOUND' || problem === 'ALREADY_FINISHED' || problem === 'REQUEST_EXPIRED') {
      view.value = { kind: 'problem', problem, retryable: false };
    } else {
      view.value = { ...current, sending: null, error: problem };
    }
  }

  return { view, personas, persona, method, load, submit };
}
