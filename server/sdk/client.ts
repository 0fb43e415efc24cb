/**
 * The partner SDK client: signed calls to the partner API with the retry rules of
 * docs/partner-api.md#the-partner-sdk-serversdk. Publishable on its own: it imports only `node:`
 * modules and files of this directory.
 *
 * Every call goes through `createSignedRequest` (request.ts), which signs each attempt afresh.
 * `exchange` sends an Idempotency-Key and keeps it across its own retries, so an answer lost on
 * the way back is fetched again instead of burning the visitor's grant.
 */
import { randomUUID } from 'node:crypto';
import { createSignedRequest, type ResponseInfo } from './request.ts';
import type { RetryPolicy, Sleep } from './retry.ts';
import type {
  ExchangeResponse,
  IntrospectResponse,
  PartnerVerifyRequestCreated,
  Scope,
  VerifyStatus,
} from './types.ts';

export interface PartnerClientOptions {
  /** {api_url}: base of /v1/exchange and /v1/introspect, e.g. https://api.example */
  apiUrl: string;
  /** {app_url}: base of /api/partner/* and /api/billing/*; defaults to apiUrl */
  appUrl?: string;
  partnerId: string;
  /** the Partner Secret exactly as issued (base64 text); it is base64-decoded for the HMAC key */
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
}

export interface PartnerClient {
  /**
   * POST /v1/exchange: the pass token and attributes a grant code is worth. Rejects with
   * `SvcApiError` (`GRANT_INVALID` when the code is unknown, expired, used or another partner's).
   */
  exchange(grantCode: string, options?: { idempotencyKey?: string }): Promise<ExchangeResponse>;
  /** POST /v1/introspect: `{active: false}` for an expired, unknown or foreign token. */
  introspect(passToken: string): Promise<IntrospectResponse>;
  /** POST /api/partner/verify-request: a verification request started from the partner's server. */
  createVerifyRequest(input?: { scopes?: Scope[]; clientProofMode?: boolean }): Promise<PartnerVerifyRequestCreated>;
  /** GET /api/partner/verify-status/:requestId; poll at most once a second. */
  getVerifyStatus(requestId: string): Promise<VerifyStatus>;
  /** A signed call to a signed route this client has no method for; same signing and retry rules. */
  request<T>(input: {
    method: 'GET' | 'POST';
    url: string;
    body?: unknown;
    headers?: Record<string, string>;
  }): Promise<T>;
}

/**
 * Creates a client for one partner.
 *
 * @example
 * const svc = createPartnerClient({
 *   apiUrl: 'https://api.example',
 *   partnerId: process.env.SVC_PARTNER_ID!,
 *   secret: process.env.SVC_PARTNER_SECRET!,
 *   onResponse: ({ path, status, cid }) => log.info({ path, status, cid }, 'svc'),
 * });
 * const { pass_token, age_over_18 } = await svc.exchange(grantCode);
 */
export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  const apiUrl = baseUrl(options.apiUrl, 'apiUrl');
  const appUrl = options.appUrl === undefined ? apiUrl : baseUrl(options.appUrl, 'appUrl');
  if (typeof options.partnerId !== 'string' || !/^[A-Za-z0-9_]{1,64}$/.test(options.partnerId)) {
    throw new TypeError('createPartnerClient: partnerId must be the Partner ID, e.g. pk_live_…');
  }
  if (
    typeof options.secret !== 'string' ||
    !/^[A-Za-z0-9+/_-]+={0,2}$/.test(options.secret) ||
    Buffer.from(options.secret, 'base64').length < 16
  ) {
    throw new TypeError('createPartnerClient: secret must be the base64 Partner Secret as issued');
  }
  const { fetch, clock, sleep, random, timeoutMs, retry, onResponse } = options;
  const { partnerId, secret } = options;
  const request = createSignedRequest({ partnerId, secret, fetch, clock, sleep, random, timeoutMs, retry, onResponse });

  return {
    exchange(grantCode, callOptions = {}) {
      requireString(grantCode, 'grantCode');
      const idempotencyKey = callOptions.idempotencyKey ?? randomUUID();
      return request<ExchangeResponse>({
        method: 'POST',
        url: `${apiUrl}/v1/exchange`,
        body: { grant_code: grantCode },
        headers: { 'Idempotency-Key': idempotencyKey },
      });
    },
    introspect(passToken) {
      requireString(passToken, 'passToken');
      return request<IntrospectResponse>({
        method: 'POST',
        url: `${apiUrl}/v1/introspect`,
        body: { pass_token: passToken },
      });
    },
    createVerifyRequest(input = {}) {
      const body: Record<string, unknown> = {};
      if (input.scopes !== undefined) body.scopes = input.scopes;
      if (input.clientProofMode !== undefined) body.client_proof_mode = input.clientProofMode;
      return request<PartnerVerifyRequestCreated>({
        method: 'POST',
        url: `${appUrl}/api/partner/verify-request`,
        body,
      });
    },
    getVerifyStatus(requestId) {
      requireString(requestId, 'requestId');
      return request<VerifyStatus>({
        method: 'GET',
        url: `${appUrl}/api/partner/verify-status/${encodeURIComponent(requestId)}`,
      });
    },
    request,
  };
}

function baseUrl(value: string, name: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value.replace(/\/+$/, '');
  } catch {
    // fall through to the one error below
  }
  throw new TypeError(`createPartnerClient: ${name} must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
}

function requireString(value: unknown, name: string): void {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string`);
}
