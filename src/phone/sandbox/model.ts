/**
 * The persona picker's state (design.md §4): the personas, the one picked, the method this request
 * accepts, the sandbox wallet's credential, and the verdict's submit. It answers through the page's
 * model (SandboxPort), so the view moves as for every other way to prove it.
 */
import { computed, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import { WALLET_CREDENTIAL_OF_QUERY_ID, type Method, type Outcome } from '../../protocol/wire.ts';
import type { PersonaSummary, SandboxWalletChoice } from '../../protocol/sandbox.ts';
import type { ApiFailureCode } from '../phone-client.ts';
import type { SandboxPort } from '../model.ts';
import { createSandboxApi } from './sandbox-client.ts';

export interface SandboxModel {
  readonly personas: ReadonlySignal<PersonaSummary[]>;
  readonly persona: Signal<string>;
  /** the only method the persona picker accepts for this request (design.md §4: eudi_wallet iff client_proof_mode) */
  readonly method: ReadonlySignal<Method>;
  /** what the sandbox wallet may present to the request's wallet link, in its order (none without the wallet path) */
  readonly credentials: ReadonlySignal<SandboxWalletChoice[]>;
  /** the one the sandbox wallet presents (design.md §13); null: the first the request accepts */
  readonly credential: Signal<SandboxWalletChoice | null>;
  /** reads the personas, keeping the one picked if it is still offered; null when there are some */
  prepare(): Promise<ApiFailureCode | null>;
  submit(outcome: Outcome): Promise<void>;
}

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

/** @example const sandbox = createSandboxModel(port); if ((await sandbox.prepare()) === null) await sandbox.submit('approved'); */
export function createSandboxModel(port: SandboxPort): SandboxModel {
  const api = createSandboxApi(port.api);
  const { view } = port;
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

  async function prepare(): Promise<ApiFailureCode | null> {
    const list = await api.listPersonas();
    if (!list.ok) return list.code;
    if (list.data.length === 0) return 'INTERNAL_ERROR';
    personas.value = list.data;
    if (!list.data.some((p) => p.id === persona.value)) persona.value = list.data[0]!.id;
    return null;
  }

  async function submit(outcome: Outcome): Promise<void> {
    const at = port.idle();
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
    else port.fail(at.current, result.code);
  }

  return { personas, persona, method, credentials, credential, prepare, submit };
}
