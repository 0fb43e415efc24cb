/**
 * The ADULT_BLIND journey through the real routes, as the partner backend, the loader and the
 * sandbox phone drive it: billing session → verify-request (with Origin) → phone open and approve
 * (h from the deep link's fragment) → status with pt → the attestation.
 *
 * @example
 * const flow = await runBlindFlow(t, { partner: PARTNERS.blindShop, origin: 'http://localhost:8788', persona: 'fr-adult-m' });
 * flow.attestation // compact JWS
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { VerifyRequestCreated, VerifyStatus } from '../../src/protocol/wire.ts';
import type { Clock } from '../clock.ts';
import { signedInjectOptions, type TestPartner } from './helpers.ts';

export interface BlindFlowInput {
  partner: TestPartner;
  /** the partner's registered origin; the loader's requests carry it as Origin */
  origin: string;
  persona: string;
  /** default ['isAdult', 'isUnique'] */
  scopes?: string[];
}

export interface BlindFlowResult {
  sessionToken: string;
  attestation: string;
  requestId: string;
  /** every answer of the verifier path (loader and phone endpoints), in order */
  verifierAnswers: LightMyRequestResponse[];
}

export async function runBlindFlow(
  target: { app: FastifyInstance; clock: Clock },
  input: BlindFlowInput,
): Promise<BlindFlowResult> {
  const { app } = target;
  const fail = (step: string, res: LightMyRequestResponse): never => {
    throw new Error(`ADULT_BLIND flow: ${step} answered ${res.statusCode} ${res.body}`);
  };
  const billing = await app.inject(
    signedInjectOptions(target.clock, {
      url: '/api/billing/session',
      partner: input.partner,
      body: { origin: input.origin, scopes: input.scopes ?? ['isAdult', 'isUnique'] },
    }),
  );
  if (billing.statusCode !== 201) fail('billing session', billing);
  const sessionToken = (billing.json() as { token: string }).token;
  const verifierAnswers: LightMyRequestResponse[] = [];

  const created = await app.inject({
    method: 'POST',
    url: '/api/w/verify-request',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: input.origin },
    payload: JSON.stringify({ session_token: sessionToken, client_proof_mode: false, locale: 'en' }),
  });
  verifierAnswers.push(created);
  if (created.statusCode !== 201) fail('verify-request', created);
  const { request_id, poll_token, deep_link } = created.json() as VerifyRequestCreated;
  const h = new URLSearchParams(new URL(deep_link).hash.slice(1)).get('h') ?? '';

  verifierAnswers.push(await app.inject({ url: `/m/v/${request_id}` }));
  verifierAnswers.push(await app.inject({ url: '/api/m/personas' }));
  const phone = async (step: 'open' | 'complete', body: object) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/m/requests/${request_id}/${step}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    verifierAnswers.push(res);
    if (res.statusCode !== 200) fail(`phone ${step}`, res);
  };
  await phone('open', { h });
  await phone('complete', { h, persona: input.persona, method: 'face_check', outcome: 'approved' });

  const status = await app.inject({ url: `/api/w/verify-status/${request_id}?pt=${encodeURIComponent(poll_token)}` });
  verifierAnswers.push(status);
  const body = status.json() as VerifyStatus;
  if (status.statusCode !== 200 || body.status !== 'completed' || !body.result || !('attestation' in body.result))
    fail('verify-status', status);
  return {
    sessionToken,
    attestation: (body.result as { attestation: string }).attestation,
    requestId: request_id,
    verifierAnswers,
  };
}
