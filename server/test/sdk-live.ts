/**
 * The visitor's side of the flows the Python and PHP SDK suites need (scripts/sdk-polyglot.test.ts),
 * over HTTP against a running sandbox service, as the widget and the sandbox phone do it: a
 * STANDARD grant code, an ADULT_BLIND attestation (JWS), and a private attestation (RFC 9578
 * token blinded with @cloudflare/privacypass-ts, as the widget does). Also a command, for trying
 * an SDK by hand against a service you started:
 *
 *   node --import tsx server/test/sdk-live.ts http://localhost:8787 > /tmp/live.json
 */
import { pathToFileURL } from 'node:url';
import { publicVerif } from '@cloudflare/privacypass-ts';
import partners from '../../fixtures/partners.json' with { type: 'json' };
import type { PrivateAttestationKeySet } from '../crypto/private-attestation.ts';
import { createSession } from '../sdk/index.ts';
import { blindTokenRequest } from './private-client.ts';

/** The fixture partners' registered origin. */
export const ORIGIN = 'http://localhost:8788';

export interface LiveFixture {
  api_url: string;
  origin: string;
  standard: { partner_id: string; secret: string };
  blind: { partner_id: string; secret: string; app_id?: string };
  grant_codes: Record<string, string>;
  jws: { attestation: string; app_id: string; origin: string };
  private: { attestation: string; redemption_context: string };
}

function partner(id: string) {
  const found = partners.find((p) => p.id === id);
  if (!found) throw new Error(`no fixture partner ${id}`);
  return { partner_id: found.id, secret: found.secret, app_id: (found as { blind_app_id?: string }).blind_app_id };
}

/**
 * Grants (one per name in `grantsFor`), a JWS attestation and a private attestation from `url`.
 *
 * @example const live = await prepareLive('http://localhost:8787', ['python', 'php']);
 */
export async function prepareLive(url: string, grantsFor: readonly string[]): Promise<LiveFixture> {
  async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  /** A verification request as the loader makes it, completed on the sandbox phone; its final status. */
  async function completedFlow(create: Record<string, unknown>) {
    const created = await post('/api/w/verify-request', create, {
      'content-type': 'text/plain;charset=UTF-8',
      origin: ORIGIN,
    });
    const requestId = created.request_id as string;
    const pollToken = created.poll_token as string;
    const h = new URL(created.deep_link as string).hash.replace(/^#h=/, '');
    await post(`/api/m/requests/${requestId}/open`, { h });
    await post(`/api/m/requests/${requestId}/complete`, {
      h,
      persona: 'fr-adult-m',
      method: 'face_check',
      outcome: 'approved',
    });
    const res = await fetch(`${url}/api/w/verify-status/${requestId}?pt=${encodeURIComponent(pollToken)}`);
    const status = (await res.json()) as { status: string; result?: { grant_code?: string; attestation?: string } };
    if (status.status !== 'completed') throw new Error(`request ${requestId} is ${status.status}`);
    return { requestId, pollToken, status };
  }

  async function grantCode(): Promise<string> {
    const { status } = await completedFlow({ partner_id: 'pk_test_demo', scopes: ['isAdult'] });
    return status.result!.grant_code!;
  }

  async function blindSession(partnerId: string): Promise<string> {
    const { secret } = partner(partnerId);
    const { token } = await createSession({ appUrl: url, partnerId, secret }, { origin: ORIGIN });
    return token;
  }

  async function jwsAttestation(): Promise<string> {
    const { status } = await completedFlow({
      session_token: await blindSession('pk_test_blind_shop'),
      client_proof_mode: false,
    });
    return status.result!.attestation!;
  }

  /** The widget's side of a private attestation: blind a token request, post it, finalise. */
  async function privateAttestation() {
    const { requestId, pollToken } = await completedFlow({
      session_token: await blindSession('pk_test_blind_private'),
      client_proof_mode: false,
    });
    const keySet = (await (
      await fetch(`${url}/api/billing/private-attestation-keys`)
    ).json()) as PrivateAttestationKeySet;
    const context = new Uint8Array(crypto.getRandomValues(new Uint8Array(32)));
    const { client, key, tokenRequest } = await blindTokenRequest(keySet, 1, context);
    const answer = await post(
      `/api/w/private-attestation/${requestId}?pt=${encodeURIComponent(pollToken)}`,
      { token_request: Buffer.from(tokenRequest).toString('base64url') },
      { 'content-type': 'text/plain;charset=UTF-8' },
    );
    const blindSig = Buffer.from(answer.token_response as string, 'base64url');
    const token = await client.finalize(new publicVerif.TokenResponse(new Uint8Array(blindSig)));
    const metadata = Buffer.from(JSON.stringify({ scope_mask: key.scope_mask, epoch: key.epoch })).toString(
      'base64url',
    );
    return {
      attestation: `${Buffer.from(token.serialize()).toString('base64url')}.${metadata}`,
      redemption_context: Buffer.from(context).toString('base64url'),
    };
  }

  const [grants, jws, priv] = await Promise.all([
    Promise.all(grantsFor.map(() => grantCode())),
    jwsAttestation(),
    privateAttestation(),
  ]);
  return {
    api_url: url,
    origin: ORIGIN,
    standard: partner('pk_test_demo'),
    blind: partner('pk_test_blind_shop'),
    grant_codes: Object.fromEntries(grantsFor.map((name, i) => [name, grants[i]!])),
    jws: { attestation: jws, app_id: 'app_blind_shop', origin: ORIGIN },
    private: priv,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const target = process.argv[2] ?? 'http://localhost:8787';
  process.stdout.write(`${JSON.stringify(await prepareLive(target, ['demo']), null, 2)}\n`);
}
