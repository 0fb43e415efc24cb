/**
 * The one signed request of the SDK. The partner client and the billing session both send through
 * it, so signing, the retry rules for callers (docs/partner-api.md#the-partner-sdk-serversdk) and the mapping of an
 * answer to an `SvcApiError` are written once.
 *
 * Each call serialises its body once and signs exactly those bytes; each retry is signed again
 * with a fresh nonce and timestamp (a replayed nonce would be REPLAY_DETECTED).
 */
import { SvcApiError, type SvcErrorCode } from './errors.ts';
import {
  DEFAULT_RETRY_POLICY,
  parseRetryAfterMs,
  realSleep,
  retryDelayMs,
  type RetryPolicy,
  type Sleep,
} from './retry.ts';
import { signRequest } from './signing.ts';
import { SVC_HEADERS } from './types.ts';

/** What `onResponse` is told about every answer (log `cid`: support asks for it). */
export interface ResponseInfo {
  method: 'GET' | 'POST';
  /** path only, never the query or the body */
  path: string;
  status: number;
  cid: string | null;
  /** 1 for the first attempt */
  attempt: number;
}

/** The headers of one attempt over these exact body bytes; a fresh nonce every time it is called. */
export type SignHeaders = (input: {
  partnerId: string;
  secret: string;
  body: string;
  timestamp: number;
}) => Record<string, string>;

export interface SignedRequestOptions {
  partnerId: string;
  /** the Partner Secret as issued (base64); only ever used as the HMAC key */
  secret: string;
  /** defaults to the global fetch */
  fetch?: typeof fetch;
  /** time source for the signature timestamp (ms since epoch); defaults to the system clock */
  clock?: { now(): number };
  /** waits between retries; tests inject one that returns at once */
  sleep?: Sleep;
  /** jitter source in [0, 1); defaults to Math.random */
  random?: () => number;
  /** per-attempt timeout in ms (default 10 000); a timeout counts as a network error */
  timeoutMs?: number;
  /** overrides of the retry rules (retry.ts); maxAttempts is capped at 3 */
  retry?: Partial<RetryPolicy>;
  /** called once per answer received, retries included */
  onResponse?: (info: ResponseInfo) => void;
  /** defaults to `signRequest` (X-Partner-… header names, a UUID nonce) */
  sign?: SignHeaders;
}

export interface SignedRequestInput<T> {
  method: 'GET' | 'POST';
  url: string;
  /** serialised as JSON ({} when absent); a GET sends no body and signs the empty string */
  body?: unknown;
  /** sent as is, after the signature headers */
  headers?: Record<string, string>;
  /** checks a 2xx JSON answer; null makes it INVALID_RESPONSE, which is not retried */
  read?: (json: unknown, status: number) => T | null;
}

export type SignedRequest = <T>(input: SignedRequestInput<T>) => Promise<T>;

const DEFAULT_TIMEOUT_MS = 10_000;
const SPEC_MAX_ATTEMPTS = 3;

/**
 * Creates the signed request function for one partner.
 *
 * @example
 * const request = createSignedRequest({ partnerId: 'pk_test_demo', secret: process.env.SVC_PARTNER_SECRET! });
 * const status = await request<VerifyStatus>({ method: 'GET', url: `${appUrl}/api/partner/verify-status/${id}` });
 */
export function createSignedRequest(options: SignedRequestOptions): SignedRequest {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.clock ? () => options.clock!.now() : Date.now;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const sign: SignHeaders = options.sign ?? ((input) => ({ ...signRequest(input) }));
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const maxAttempts = Math.max(1, Math.min(SPEC_MAX_ATTEMPTS, Math.floor(policy.maxAttempts)));

  return async function request<T>(input: SignedRequestInput<T>): Promise<T> {
    const { method, url } = input;
    const path = new URL(url).pathname;
    // Serialised once: these exact bytes are hashed, signed and sent, on every attempt.
    const body = method === 'GET' ? '' : JSON.stringify(input.body ?? {});
    for (let attempt = 1; ; attempt++) {
      const signed = sign({
        partnerId: options.partnerId,
        secret: options.secret,
        body,
        timestamp: Math.floor(now() / 1000),
      });
      const headers = method === 'GET' ? withoutContentType(signed) : { ...signed };
      const init = { method, headers: { ...headers, ...input.headers }, body: method === 'GET' ? undefined : body };
      const outcome = await attemptOnce(fetchImpl, url, init, timeoutMs);
      if (outcome.kind === 'answer')
        options.onResponse?.({ method, path, status: outcome.status, cid: outcome.cid, attempt });
      if (outcome.kind === 'answer' && outcome.status >= 200 && outcome.status < 300) {
        const result =
          outcome.json === undefined
            ? null
            : input.read
              ? input.read(outcome.json, outcome.status)
              : (outcome.json as T);
        if (result === null) {
          const problem = outcome.json === undefined ? 'without a JSON body' : 'without the fields it documents';
          const message = `${path} answered ${outcome.status} ${problem}`;
          throw new SvcApiError({
            status: outcome.status,
            code: 'INVALID_RESPONSE',
            message,
            cid: outcome.cid,
            attempts: attempt,
          });
        }
        return result;
      }
      const retryAfterMs = outcome.kind === 'answer' ? parseRetryAfterMs(outcome.retryAfter, now()) : null;
      const error = toError(outcome, path, attempt, retryAfterMs);
      if (!error.retryable || attempt >= maxAttempts) throw error;
      const delay = retryDelayMs(attempt, retryAfterMs, policy, random);
      if (delay === null) throw error;
      await sleep(delay);
    }
  };
}

type Outcome =
  | { kind: 'answer'; status: number; cid: string | null; json: unknown; retryAfter: string | null }
  | { kind: 'network'; cause: unknown };

async function attemptOnce(
  fetchImpl: typeof fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<Outcome> {
  try {
    const response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    return {
      kind: 'answer',
      status: response.status,
      cid: response.headers.get(SVC_HEADERS.correlationId),
      json: parseJson(text),
      retryAfter: response.headers.get('retry-after'),
    };
  } catch (cause) {
    return { kind: 'network', cause };
  }
}

/**
 * The catalogue code of the answer's body when it has one. Without one (a proxy's page, an empty
 * body) the status decides: a 429 is still a rate limit, whoever answered it.
 */
function toError(outcome: Outcome, path: string, attempts: number, retryAfterMs: number | null): SvcApiError {
  if (outcome.kind === 'network') {
    const reason = outcome.cause instanceof Error ? outcome.cause.message : String(outcome.cause);
    return new SvcApiError({
      status: 0,
      code: 'NETWORK_ERROR',
      message: `${path}: no answer (${reason})`,
      attempts,
      cause: outcome.cause,
    });
  }
  const body = outcome.json as { error?: unknown; message?: unknown } | undefined;
  const code: SvcErrorCode =
    typeof body?.error === 'string'
      ? body.error
      : outcome.status === 429
        ? 'Too many requests'
        : outcome.status >= 500
          ? 'INTERNAL_ERROR'
          : 'INVALID_RESPONSE';
  const message = typeof body?.message === 'string' ? body.message : `${path} answered HTTP ${outcome.status}`;
  return new SvcApiError({
    status: outcome.status,
    code,
    message,
    cid: outcome.cid,
    retryAfterSeconds: retryAfterMs === null ? null : Math.ceil(retryAfterMs / 1000),
    attempts,
  });
}

function withoutContentType(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
