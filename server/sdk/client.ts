/**
 * The partner SDK client: signed calls to the partner API with the spec's retry rules.
 * Publishable on its own: it imports only `node:` modules and files of this directory.
 *
 * Each call serialises its body once and signs exactly those bytes; each retry is signed again
 * with a fresh nonce and timestamp (a replayed nonce would be REPLAY_DETECTED). `exchange`
 * sends an Idempotency-Key and keeps it across its own retries, so an answer lost on the way
 * back is fetched again instead of burning the visitor's grant.
 */
import { randomUUID } from 'node:crypto';
import { SvcApiError, type SvcErrorCode } from './errors.ts';
import { DEFAULT_RETRY_POLICY, parseRetryAfterMs, realSleep, retryDelayMs, type RetryPolicy, type Sleep } from './retry.ts';
import { signRequest } from './signing.ts';

// ---- Wire types (copied from the service's protocol so that this directory stands alone; a
// type test keeps them identical) ---------------------------------------------------------------

export type Scope = 'isAdult' | 'isFrench' | 'isEU' | 'isMale' | 'isFemale' | 'isUnique' | 'revealNationality' | 'revealBirthYear';
export type Method = 'face_check' | 'eudi_wallet';

export interface Attributes {
  age_over_18?: boolean;
  is_male?: boolean;
  is_female?: boolean;
  is_french?: boolean;
  is_eu?: boolean;
  nationality?: string;
  birth_year?: number;
  nullifier?: string;
  verification_method?: Method;
  verified_at?: number;
}

export interface ExchangeResponse {
  pass_token: string;
  expires_in: number;
  token_type: 'Bearer';
  age_over_18?: boolean;
  scopes: Scope[];
  attributes: Attributes;
}

export type PassScope = 'age_verification' | 'identity_verification' | 'multi_scope_verification';

export interface IntrospectActive {
  active: true;
  scope: PassScope;
  exp: number;
  iat: number;
  sub: string;
  attributes: Attributes;
  scopes_verified: Scope[];
  proof_metadata: { proof_count: number; total_generation_time_ms: number };
}

export type IntrospectResponse = IntrospectActive | { active: false };

export interface PartnerVerifyRequestCreated {
  request_id: string;
  deep_link: string;
  expires_at: number;
}

export interface VerifyStatus {
  status: 'pending' | 'in_progress' | 'completed' | 'failed' | 'expired';
  expires_at: number;
  result?: { grant_code: string } | { attestation: string };
  reason?: 'failed' | 'cancelled';
}

// ---- Client --------------------------------------------------------------------------------------

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
  /** overrides of the spec's retry rules; maxAttempts is capped at 3 */
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
  /** A signed call to any other signed route (e.g. the billing session); same retry rules. */
  request<T>(input: { method: 'GET' | 'POST'; url: string; body?: unknown; headers?: Record<string, string> }): Promise<T>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const SPEC_MAX_ATTEMPTS = 3;

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
  if (typeof options.secret !== 'string' || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(options.secret) || Buffer.from(options.secret, 'base64').length < 16) {
    throw new TypeError('createPartnerClient: secret must be the base64 Partner Secret as issued');
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.clock ? () => options.clock!.now() : Date.now;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const maxAttempts = Math.max(1, Math.min(SPEC_MAX_ATTEMPTS, Math.floor(policy.maxAttempts)));

  async function request<T>(input: { method: 'GET' | 'POST'; url: string; body?: unknown; headers?: Record<string, string> }): Promise<T> {
    const { method, url } = input;
    const path = new URL(url).pathname;
    // Serialised once: these exact bytes are hashed, signed and sent, on every attempt.
    const body = method === 'GET' ? '' : JSON.stringify(input.body ?? {});
    for (let attempt = 1; ; attempt++) {
      const signed: Record<string, string> = {
        ...signRequest({ partnerId: options.partnerId, secret: options.secret, body, timestamp: Math.floor(now() / 1000) }),
      };
      if (method === 'GET') delete signed['Content-Type'];
      const outcome = await attemptOnce(fetchImpl, url, { method, headers: { ...signed, ...input.headers }, body: method === 'GET' ? undefined : body }, timeoutMs);
      if (outcome.kind === 'answer') options.onResponse?.({ method, path, status: outcome.status, cid: outcome.cid, attempt });
      if (outcome.kind === 'answer' && outcome.status >= 200 && outcome.status < 300) {
        if (outcome.json === undefined) {
          throw new SvcApiError({ status: outcome.status, code: 'INVALID_RESPONSE', message: `${path} answered ${outcome.status} without a JSON body`, cid: outcome.cid, attempts: attempt });
        }
        return outcome.json as T;
      }
      const retryAfterMs = outcome.kind === 'answer' ? parseRetryAfterMs(outcome.retryAfter, now()) : null;
      const error = toError(outcome, path, attempt, retryAfterMs);
      if (!error.retryable || attempt >= maxAttempts) throw error;
      const delay = retryDelayMs(attempt, retryAfterMs, policy, random);
      if (delay === null) throw error;
      await sleep(delay);
    }
  }

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
      return request<IntrospectResponse>({ method: 'POST', url: `${apiUrl}/v1/introspect`, body: { pass_token: passToken } });
    },
    createVerifyRequest(input = {}) {
      const body: Record<string, unknown> = {};
      if (input.scopes !== undefined) body.scopes = input.scopes;
      if (input.clientProofMode !== undefined) body.client_proof_mode = input.clientProofMode;
      return request<PartnerVerifyRequestCreated>({ method: 'POST', url: `${appUrl}/api/partner/verify-request`, body });
    },
    getVerifyStatus(requestId) {
      requireString(requestId, 'requestId');
      return request<VerifyStatus>({ method: 'GET', url: `${appUrl}/api/partner/verify-status/${encodeURIComponent(requestId)}` });
    },
    request,
  };
}

type Outcome =
  | { kind: 'answer'; status: number; cid: string | null; json: unknown; retryAfter: string | null }
  | { kind: 'network'; cause: unknown };

async function attemptOnce(fetchImpl: typeof fetch, url: string, init: RequestInit, timeoutMs: number): Promise<Outcome> {
  try {
    const response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    return {
      kind: 'answer',
      status: response.status,
      cid: response.headers.get('x-svc-cid'),
      json: parseJson(text),
      retryAfter: response.headers.get('retry-after'),
    };
  } catch (cause) {
    return { kind: 'network', cause };
  }
}

function toError(outcome: Outcome, path: string, attempts: number, retryAfterMs: number | null): SvcApiError {
  if (outcome.kind === 'network') {
    const reason = outcome.cause instanceof Error ? outcome.cause.message : String(outcome.cause);
    return new SvcApiError({ status: 0, code: 'NETWORK_ERROR', message: `${path}: no answer (${reason})`, attempts, cause: outcome.cause });
  }
  const body = outcome.json as { error?: unknown; message?: unknown } | undefined;
  const code: SvcErrorCode = typeof body?.error === 'string' ? body.error : outcome.status === 429 ? 'Too many requests' : outcome.status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_RESPONSE';
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

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
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
