/**
 * The partner backend's half of the ADULT_BLIND rail: a fresh session token for every page
 * load (spec: POST {app_url}/api/billing/session), signed exactly like the exchange, with the
 * header names in lower case as the spec documents them for this endpoint and a 32-character
 * hexadecimal nonce. Failures are `SvcApiError`s, retried by the spec's rules like every call
 * of the SDK.
 *
 * Self-contained: node:crypto and ./ files only.
 */
import { randomBytes } from 'node:crypto';
import { SvcApiError, type SvcErrorCode } from './errors.ts';
import { DEFAULT_RETRY_POLICY, parseRetryAfterMs, realSleep, retryDelayMs, type RetryPolicy, type Sleep } from './retry.ts';
import { signRequest } from './signing.ts';

/** The scopes the billing-session endpoint accepts (scope_mask bits 0–3). */
export type BillingScope = 'isAdult' | 'isFrench' | 'isEU' | 'isUnique';

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

export interface CreateSessionOptions {
  /** defaults to the global fetch */
  fetch?: typeof fetch;
  /** time source for the signature timestamp; defaults to the system clock */
  clock?: { now(): number };
  /** waits between retries; tests inject one that returns at once */
  sleep?: Sleep;
  /** jitter source in [0, 1) */
  random?: () => number;
  /** per-attempt timeout in ms (default 10 000) */
  timeoutMs?: number;
  /** overrides of the spec's retry rules (maxAttempts ≤ 3); `{ maxAttempts: 1 }` fails fast while a page renders */
  retry?: Partial<RetryPolicy>;
}

export interface Session {
  /** goes into the loader's data-session-token; for this page load only */
  token: string;
  /** seconds; always 300 */
  expiresIn: number;
}

/**
 * The headers of a signed billing-session call: the spec's lower-case names, a 32-hex nonce.
 *
 * @example
 * const body = JSON.stringify({ origin: 'https://shop.example' });
 * await fetch(url, { method: 'POST', headers: billingHeaders({ partnerId, secret, body }), body });
 */
export function billingHeaders(input: { partnerId: string; secret: string; body: string; timestamp?: number; nonce?: string }): Record<string, string> {
  const signed = signRequest({ ...input, nonce: input.nonce ?? randomBytes(16).toString('hex') });
  return {
    'content-type': signed['Content-Type'],
    'x-partner-id': signed['X-Partner-ID'],
    'x-partner-timestamp': signed['X-Partner-Timestamp'],
    'x-partner-nonce': signed['X-Partner-Nonce'],
    'x-partner-signature': signed['X-Partner-Signature'],
  };
}

type Answer = { status: number; cid: string | null; json: unknown; retryAfter: string | null };

async function send(fetchImpl: typeof fetch, url: string, init: RequestInit, timeoutMs: number): Promise<Answer | { cause: unknown }> {
  try {
    const response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, cid: response.headers.get('x-svc-cid'), json, retryAfter: response.headers.get('retry-after') };
  } catch (cause) {
    return { cause };
  }
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
export async function createSession(credentials: BillingCredentials, input: CreateSessionInput, options: CreateSessionOptions = {}): Promise<Session> {
  const url = `${credentials.appUrl.replace(/\/+$/, '')}/api/billing/session`;
  // Serialised once: these exact bytes are hashed, signed and sent, on every attempt.
  const body = JSON.stringify(input.scopes === undefined ? { origin: input.origin } : { origin: input.origin, scopes: input.scopes });
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.clock ? () => options.clock!.now() : Date.now;
  const sleep = options.sleep ?? realSleep;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const maxAttempts = Math.max(1, Math.min(3, Math.floor(policy.maxAttempts)));

  for (let attempt = 1; ; attempt++) {
    // Signed afresh each time: a nonce is single use and the timestamp must be current.
    const headers = billingHeaders({ partnerId: credentials.partnerId, secret: credentials.secret, body, timestamp: Math.floor(now() / 1000) });
    const answer = await send(fetchImpl, url, { method: 'POST', headers, body }, options.timeoutMs ?? 10_000);
    let error: SvcApiError;
    let retryAfterMs: number | null = null;
    if ('cause' in answer) {
      const reason = answer.cause instanceof Error ? answer.cause.message : String(answer.cause);
      error = new SvcApiError({ status: 0, code: 'NETWORK_ERROR', message: `/api/billing/session: no answer (${reason})`, attempts: attempt, cause: answer.cause });
    } else {
      const json = answer.json as { token?: unknown; expires_in?: unknown; error?: unknown; message?: unknown } | undefined;
      if (answer.status === 201 && typeof json?.token === 'string' && typeof json.expires_in === 'number') {
        return { token: json.token, expiresIn: json.expires_in };
      }
      retryAfterMs = parseRetryAfterMs(answer.retryAfter, now());
      const code: SvcErrorCode = typeof json?.error === 'string' ? json.error : answer.status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_RESPONSE';
      error = new SvcApiError({
        status: answer.status,
        code,
        message: typeof json?.message === 'string' ? json.message : `/api/billing/session answered HTTP ${answer.status}`,
        cid: answer.cid,
        retryAfterSeconds: retryAfterMs === null ? null : Math.ceil(retryAfterMs / 1000),
        attempts: attempt,
      });
    }
    if (!error.retryable || attempt >= maxAttempts) throw error;
    const delay = retryDelayMs(attempt, retryAfterMs, policy, options.random);
    if (delay === null) throw error;
    await sleep(delay);
  }
}
