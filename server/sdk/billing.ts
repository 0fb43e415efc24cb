/**
 * The partner backend's half of the ADULT_BLIND rail: a fresh session token for every page
 * load (POST {app_url}/api/billing/session,
 * docs/adult-blind.md#getting-a-session-token-every-page-load), signed exactly like the exchange,
 * with the header names in lower case as that section documents them for this endpoint and a
 * 32-character hexadecimal nonce. It sends through the same signed request as the client
 * (request.ts), so failures are the same `SvcApiError`s, retried by the same rules.
 *
 * Self-contained: node:crypto and ./ files only.
 */
import { randomBytes } from 'node:crypto';
import { createSignedRequest, type SignedRequestOptions } from './request.ts';
import { signRequest } from './signing.ts';
import type { BillingScope, BillingSessionCreated } from './types.ts';

export interface BillingCredentials {
  /** {app_url}, e.g. "https://svc.example" */
  appUrl: string;
  partnerId: string;
  /** the Partner Secret as issued (base64); only ever used as the HMAC key */
  secret: string;
}

export interface CreateSessionInput {
  /** your site's origin exactly as registered, e.g. "https://shop.example" */
  origin: string;
  /** default [isAdult] */
  scopes?: BillingScope[];
}

/**
 * fetch, clock, sleep, random, timeoutMs, retry and onResponse, as for the client;
 * `retry: { maxAttempts: 1 }` fails fast while a page renders.
 */
export type CreateSessionOptions = Omit<SignedRequestOptions, 'partnerId' | 'secret' | 'sign'>;

export interface Session {
  /** goes into the loader's data-session-token; for this page load only */
  token: string;
  /** seconds; always 300 */
  expiresIn: number;
}

/**
 * The headers of a signed billing-session call: the lower-case names docs/adult-blind.md documents, a 32-hex nonce.
 *
 * @example
 * const body = JSON.stringify({ origin: 'https://shop.example' });
 * await fetch(url, { method: 'POST', headers: billingHeaders({ partnerId, secret, body }), body });
 */
export function billingHeaders(input: {
  partnerId: string;
  secret: string;
  body: string;
  timestamp?: number;
  nonce?: string;
}): Record<string, string> {
  const signed = signRequest({ ...input, nonce: input.nonce ?? randomBytes(16).toString('hex') });
  return {
    'content-type': signed['Content-Type'],
    'x-partner-id': signed['X-Partner-ID'],
    'x-partner-timestamp': signed['X-Partner-Timestamp'],
    'x-partner-nonce': signed['X-Partner-Nonce'],
    'x-partner-signature': signed['X-Partner-Signature'],
  };
}

/**
 * Asks the service for a session token for this page load. Call it on every page load and put
 * the token in the loader's `data-session-token`; never cache it across pages.
 * Rejects with `SvcApiError` (e.g. `FORBIDDEN_RAIL`, `ORIGIN_NOT_ALLOWED`, `INVALID_SCOPES`).
 *
 * @example
 * const { token } = await createSession(
 *   { appUrl: 'https://svc.example', partnerId: 'pk_live_…', secret: process.env.SVC_PARTNER_SECRET! },
 *   { origin: 'https://shop.example', scopes: ['isAdult'] },
 * );
 */
export async function createSession(
  credentials: BillingCredentials,
  input: CreateSessionInput,
  options: CreateSessionOptions = {},
): Promise<Session> {
  const url = `${credentials.appUrl.replace(/\/+$/, '')}/api/billing/session`;
  const request = createSignedRequest({
    ...options,
    partnerId: credentials.partnerId,
    secret: credentials.secret,
    sign: billingHeaders,
  });
  const created = await request({
    method: 'POST',
    url,
    body: input.scopes === undefined ? { origin: input.origin } : { origin: input.origin, scopes: input.scopes },
    read: readSessionCreated,
  });
  return { token: created.token, expiresIn: created.expires_in };
}

function readSessionCreated(json: unknown, status: number): BillingSessionCreated | null {
  const body = json as Partial<Record<keyof BillingSessionCreated, unknown>> | null;
  return status === 201 && typeof body?.token === 'string' && typeof body.expires_in === 'number'
    ? (body as BillingSessionCreated)
    : null;
}
