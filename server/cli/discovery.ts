/**
 * What `svc providers add` checks at the issuer before it writes anything (docs/operations.md,
 * "Identity providers"): the provider's discovery document, fetched by openid-client's discovery
 * as the relying party will fetch it (providers/relying-party.ts), within a timeout and at most
 * 1 MB, must name the issuer exactly as given (character for character: the nullifier and the
 * tokens' `iss` are keyed on that spelling) and the endpoints a login needs.
 */
import * as client from 'openid-client';
import { isLoopbackHost } from '../rules/urls.ts';
import { quote } from '../rules/printable.ts';
import { capResponses, PROVIDER_RESPONSE_MAX_BYTES, ResponseTooLargeError } from '../providers/capped-fetch.ts';

/** As every answer the relying party reads from a provider; a larger one is refused unread. */
export const DISCOVERY_MAX_BYTES = PROVIDER_RESPONSE_MAX_BYTES;
/** As the relying party's requests to providers. */
export const DISCOVERY_TIMEOUT_MS = 10_000;

/** The endpoints a login needs; `userinfo_endpoint` is checked too when present. */
const REQUIRED_ENDPOINTS = ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const;

export interface DiscoveryCheckOptions {
  timeoutMs?: number;
  maxBytes?: number;
}

/**
 * Fetches `<issuer>/.well-known/openid-configuration` and checks it. Returns null when the
 * provider can be used as given, or why not, in one line.
 *
 * @example await discoveryProblem('https://id.example') // null, or 'https://id.example/.well-known/… did not answer within 10 s'
 */
export async function discoveryProblem(issuer: string, options: DiscoveryCheckOptions = {}): Promise<string | null> {
  const timeoutMs = options.timeoutMs ?? DISCOVERY_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DISCOVERY_MAX_BYTES;
  const url = new URL(issuer);
  const where = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  let metadata: client.ServerMetadata;
  try {
    const configuration = await client.discovery(url, 'svc-providers-add', undefined, undefined, {
      timeout: timeoutMs / 1000,
      [client.customFetch]: capResponses((url, init) => fetch(url, init as RequestInit), maxBytes),
      // deprecated only to stand out: loopback issuers only (issuerProblem has checked it)
      execute: url.protocol === 'http:' ? [client.allowInsecureRequests] : [],
    });
    metadata = configuration.serverMetadata();
  } catch (error) {
    return `${where} ${describeFailure(error, issuer, { timeoutMs, maxBytes })}`;
  }
  // openid-client compares issuers as URLs (`https://id.example` and `https://id.example/` alike).
  if (metadata.issuer !== issuer) return `${where} ${issuerMismatch(String(metadata.issuer), issuer)}`;
  const secure = url.protocol === 'https:';
  for (const name of [...REQUIRED_ENDPOINTS, 'userinfo_endpoint'] as const) {
    const value = metadata[name];
    if (value === undefined && name === 'userinfo_endpoint') continue;
    if (typeof value !== 'string' || value === '') return `${where} has no ${name}`;
    if (!isUsableEndpoint(value, secure))
      return `${where} gives ${name} ${quote(value)}: it must be an https:// URL${secure ? '' : ' (http:// on a loopback host for a loopback issuer)'}`;
  }
  return null;
}

function issuerMismatch(named: string, given: string): string {
  return (
    `names the issuer ${quote(named)}, not ${quote(given)}: give --issuer exactly as the provider spells it ` +
    '(character for character, a trailing "/" included)'
  );
}

/** https://; http:// only on a loopback host, and only for an http:// (loopback) issuer. */
function isUsableEndpoint(value: string, issuerIsHttps: boolean): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  return !issuerIsHttps && url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/** What went wrong, in words, from openid-client's error (its cause chain holds the rest). */
function describeFailure(error: unknown, given: string, limits: { timeoutMs: number; maxBytes: number }): string {
  const chain: unknown[] = [];
  for (let at: unknown = error; at !== undefined && at !== null && chain.length < 5; at = (at as Error).cause)
    chain.push(at);
  const find = (test: (e: unknown) => boolean) => chain.find(test);
  if (find((e) => e instanceof ResponseTooLargeError)) return `answered more than ${limits.maxBytes / 1_048_576} MB`;
  const code = (error as { code?: string }).code;
  if (code === 'OAUTH_TIMEOUT' || find((e) => (e as Error).name === 'TimeoutError'))
    return `did not answer within ${limits.timeoutMs / 1000} s`;
  if (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM') {
    const status = (find((e) => e instanceof Response) as Response | undefined)?.status;
    const redirect = status !== undefined && status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
    return `answered HTTP ${status ?? '?'}, not 200 with a discovery document${redirect}`;
  }
  if (code === 'OAUTH_RESPONSE_IS_NOT_JSON') return 'did not answer with application/json';
  if (code === 'OAUTH_PARSE_ERROR') return 'did not answer a JSON object';
  if (code === 'OAUTH_INVALID_RESPONSE') return 'did not answer a discovery document (no issuer string)';
  if (code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED') {
    const named = (
      find((e) => typeof (e as { body?: { issuer?: unknown } }).body?.issuer === 'string') as
        { body: { issuer: string } } | undefined
    )?.body.issuer;
    return named === undefined ? 'names another issuer' : issuerMismatch(named, given);
  }
  if (find((e) => (e as { code?: string }).code === 'ERR_INVALID_URL')) return 'names an issuer that is not a URL';
  const network = find((e) => /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(String((e as { code?: unknown }).code)));
  if (network) return `could not be reached (${(network as { code: string }).code})`;
  return `could not be read (${(error as Error).message ?? String(error)})`;
}
