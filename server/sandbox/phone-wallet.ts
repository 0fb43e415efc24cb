/**
 * The sandbox phone's "EUDI wallet" method when the wallet path is offered (design.md §4, §11, §13):
 * the sandbox wallet answers the request's wallet link (`av://` or `openid4vp://`) with the
 * credential chosen (the proof of age, the PID with or without age_over_18, or the mDL; default the
 * first the link accepts) and
 * posts to its `response_uri` over HTTP, exactly as a phone wallet would, so the verifier decides,
 * never the phone. A cancel is the wallet's `error=access_denied`. Sandbox only (test support:
 * the sandbox issuer is trusted in sandbox mode only).
 */
import type { RequestStatus } from '../../src/protocol/wire.ts';
import type { SandboxWalletChoice } from '../../src/protocol/sandbox.ts';
import type { AppDeps } from '../deps.ts';
import type { SandboxDeps } from './deps.ts';
import { findActionableForPhone, type PhoneHandoff } from '../domain/index.ts';
import { ServiceError } from '../errors.ts';
import { effectiveStatus } from '../rules/effective-status.ts';
import type { VerifyRequestRecord } from '../store/store.ts';
import { walletLinkOf as linkOfMaterial } from '../wallet/index.ts';
import { findPersona } from './personas.ts';
import { SANDBOX_STATUS_LIST_PATH } from './wallet/sandbox-status-list.ts';
import { loadSandboxIssuer } from './wallet/sandbox-issuer.ts';
import { createDirectPost, CredentialChoiceError, type WalletTamper } from './wallet/sandbox-wallet.ts';

/** Posts a form to a URL and reads the answer: `fetch` in the service, an in-process one in tests. */
export type FormPoster = (url: string, body: string) => Promise<{ status: number; body: string }>;

/** The wallet's HTTP transport: a POST of `application/x-www-form-urlencoded`, as OpenID4VP's direct_post. */
export const postFormOverHttp: FormPoster = async (url, body) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  return { status: res.status, body: await res.text() };
};

export interface WalletPresentation {
  /** the request's status after the verifier answered */
  status: RequestStatus;
  /** what the verifier answered the wallet: 200, or 400 with its error_description */
  verifier: { status: number; error_description?: string };
}

/** The wallet link of a request's stored material (nonce and state travel in it; no secret does). */
export function walletLinkOf(record: VerifyRequestRecord): string | null {
  return record.wallet ? linkOfMaterial(record.wallet) : null;
}

/**
 * The sandbox wallet presents `personaId`'s credential (`credential`, default the first the link
 * accepts), or declines (`cancel`), to the request's response_uri through `post`. 404 / 409 / 410
 * as the phone's other actions; 400 INVALID_REQUEST when the wallet path is not offered for the
 * request (null instead with `onlyIfOffered`), the persona is unknown or the link does not accept
 * the credential.
 *
 * @example await presentWithSandboxWallet(deps, { requestId, handoffToken: body.h }, { personaId: 'fr-adult-m' }, postFormOverHttp)
 */
export async function presentWithSandboxWallet(
  deps: Pick<AppDeps, 'store' | 'clock' | 'config'> & SandboxDeps,
  handoff: PhoneHandoff,
  choice: { personaId: string | null; cancel?: boolean; tamper?: WalletTamper; credential?: SandboxWalletChoice },
  post: FormPoster,
  options: { onlyIfOffered?: boolean } = {},
): Promise<WalletPresentation | null> {
  if (deps.config.mode !== 'sandbox')
    throw new ServiceError('NOT_FOUND', { cause: 'the sandbox wallet exists in sandbox mode only' });
  const record = await findActionableForPhone(deps, handoff);
  const link = walletLinkOf(record);
  if (!link || !record.wallet) {
    if (options.onlyIfOffered) return null;
    throw new ServiceError('INVALID_REQUEST', { cause: 'the wallet path is not offered for this request' });
  }
  let target: { responseUri: string; body: string };
  if (choice.cancel) {
    const form = new URLSearchParams({ error: 'access_denied', state: record.wallet.state });
    target = { responseUri: record.wallet.responseUri, body: form.toString() };
  } else {
    const persona = findPersona(deps.personas, choice.personaId);
    if (!persona) throw new ServiceError('INVALID_REQUEST', { cause: 'unknown persona' });
    const { signed } = record.wallet;
    const options = {
      link,
      // A signed link's request object, as the wallet would fetch it from request_uri (docs/design.md §16).
      ...(signed ? { fetchRequestObject: async () => signed.requestObject } : {}),
      issuer: loadSandboxIssuer(),
      persona,
      now: deps.clock.now(),
      // design.md §15: the sandbox credentials point to the sandbox's status list.
      statusList: deps.config.appUrl + SANDBOX_STATUS_LIST_PATH,
      ...(choice.tamper ? { tamper: choice.tamper } : {}),
      ...(choice.credential ? { credential: choice.credential } : {}),
    };
    try {
      target = await createDirectPost(options);
    } catch (error) {
      if (error instanceof CredentialChoiceError) throw new ServiceError('INVALID_REQUEST', { cause: error.message });
      throw error;
    }
  }
  const answered = await post(target.responseUri, target.body);
  const verifier: WalletPresentation['verifier'] = { status: answered.status };
  if (answered.status !== 200) {
    try {
      const parsed = JSON.parse(answered.body) as { error_description?: unknown };
      if (typeof parsed.error_description === 'string') verifier.error_description = parsed.error_description;
    } catch {
      // not the verifier's JSON: the status says enough
    }
  }
  const after = await deps.store.getRequest(record.id, deps.clock.now());
  return { status: after ? effectiveStatus(after, deps.clock.now()) : 'expired', verifier };
}
