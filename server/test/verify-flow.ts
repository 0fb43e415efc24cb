/**
 * Test helpers for the verification request flow: create (loader or ADULT_BLIND), open and
 * complete on the sandbox phone, poll. Built on `helpers.ts`; other surfaces' tests may use them.
 *
 * @example
 * const t = await makeTestApp();
 * const flow = await startStandardFlow(t);
 * await completeOnPhone(t, flow, { persona: 'fr-adult-m' });
 * const status = await pollStatus(t, flow); // { status: 'completed', result: { grant_code } }
 */
import type { LightMyRequestResponse } from 'fastify';
import type { Method, Outcome, VerifyRequestCreated } from '../../src/protocol/wire.ts';
import { scopeMaskOf, type BlindScope } from '../../src/protocol/scopes.ts';
import { PARTNERS, type TestApp } from './helpers.ts';

/** The registered domain of the fixture partners on localhost (demo, adultOnly, blindShop). */
export const PARTNER_ORIGIN = 'http://localhost:8788';

export interface Flow {
  requestId: string;
  pollToken: string;
  handoff: string;
  created: VerifyRequestCreated;
}

type Target = Pick<TestApp, 'app'>;

/** The `h` of a deep link (`…/m/v/<id>#h=<handoff>`). */
export function handoffOf(deepLink: string): string {
  return new URL(deepLink).hash.replace(/^#h=/, '');
}

/**
 * POST /api/w/verify-request as the loader sends it (text/plain, from the partner's origin).
 *
 * @example const res = await postVerifyRequest(t, { partner_id: 'pk_test_demo' }, { origin: 'http://evil.example' })
 */
export function postVerifyRequest(
  target: Target,
  body: unknown,
  headers: Record<string, string | undefined> = {},
): Promise<LightMyRequestResponse> {
  const merged: Record<string, string> = { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_ORIGIN };
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  return target.app.inject({
    method: 'POST',
    url: '/api/w/verify-request',
    headers: merged,
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function toFlow(res: LightMyRequestResponse): Flow {
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  const created = res.json() as VerifyRequestCreated;
  return {
    requestId: created.request_id,
    pollToken: created.poll_token,
    handoff: handoffOf(created.deep_link),
    created,
  };
}

/** A STANDARD request by the demo partner (or `body` overrides). */
export async function startStandardFlow(target: Target, body: Record<string, unknown> = {}): Promise<Flow> {
  return toFlow(await postVerifyRequest(target, { partner_id: PARTNERS.demo.id, ...body }));
}

/** A session token as the billing route would issue it (app_blind_shop at PARTNER_ORIGIN unless told). */
export async function issueTestSessionToken(
  t: Pick<TestApp, 'deps'>,
  options: { appId?: string; origin?: string; scopes?: BlindScope[]; attestation?: 'private' } = {},
): Promise<string> {
  const { token } = await t.deps.blind.issueSessionToken({
    appId: options.appId ?? 'app_blind_shop',
    origin: options.origin ?? PARTNER_ORIGIN,
    scopeMask: scopeMaskOf(options.scopes ?? ['isAdult']),
    attestation: options.attestation ?? null,
  });
  return token;
}

/** An ADULT_BLIND request from a fresh session token. */
export async function startBlindFlow(
  t: Pick<TestApp, 'app' | 'deps'>,
  options: {
    appId?: string;
    origin?: string;
    scopes?: BlindScope[];
    clientProofMode?: boolean;
    attestation?: 'private';
  } = {},
): Promise<Flow> {
  const session_token = await issueTestSessionToken(t, options);
  const origin = options.origin ?? PARTNER_ORIGIN;
  return toFlow(
    await postVerifyRequest(t, { session_token, client_proof_mode: options.clientProofMode ?? false }, { origin }),
  );
}

export function openOnPhone(
  target: Target,
  flow: Pick<Flow, 'requestId' | 'handoff'>,
): Promise<LightMyRequestResponse> {
  return target.app.inject({
    method: 'POST',
    url: `/api/m/requests/${flow.requestId}/open`,
    payload: { h: flow.handoff },
  });
}

export function completeOnPhone(
  target: Target,
  flow: Pick<Flow, 'requestId' | 'handoff'>,
  body: { persona?: string; method?: Method; outcome?: Outcome; h?: string } = {},
): Promise<LightMyRequestResponse> {
  return target.app.inject({
    method: 'POST',
    url: `/api/m/requests/${flow.requestId}/complete`,
    payload: { h: flow.handoff, persona: 'fr-adult-m', method: 'face_check', outcome: 'approved', ...body },
  });
}

/** GET the status as the widget does; `remoteAddress` is the client's (127.0.0.1 unless told). */
export function getStatus(
  target: Target,
  requestId: string,
  query: Record<string, string> = {},
  remoteAddress?: string,
): Promise<LightMyRequestResponse> {
  const search = new URLSearchParams(query).toString();
  return target.app.inject({
    method: 'GET',
    url: `/api/w/verify-status/${requestId}${search ? `?${search}` : ''}`,
    remoteAddress,
  });
}

/** GET the status with the flow's poll token; throws unless 200. */
export async function pollStatus(
  target: Target,
  flow: Pick<Flow, 'requestId' | 'pollToken'>,
  wait?: number,
): Promise<Record<string, unknown>> {
  const res = await getStatus(target, flow.requestId, {
    pt: flow.pollToken,
    ...(wait === undefined ? {} : { wait: String(wait) }),
  });
  if (res.statusCode !== 200) throw new Error(`status failed: ${res.statusCode} ${res.body}`);
  return res.json();
}
