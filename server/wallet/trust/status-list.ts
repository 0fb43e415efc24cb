/**
 * IETF Token Status List (draft-ietf-oauth-status-list; design.md §15): a credential's
 * `status.status_list {idx, uri}` → GET `uri` (`Accept: application/statuslist+jwt`) → the Status
 * List Token, verified (`typ` `statuslist+jwt`, ES256, `x5c` to the wallet trust bundle, `sub` =
 * `uri`, `iat`/`exp`) → the value at `idx`: 0 valid, 1 revoked, 2 suspended.
 *
 * - Cache per `uri` until `exp` or `iat + ttl`, at most one hour; one fetch per `uri` at a time
 *   whatever the number of concurrent checks (single flight).
 * - The fetch (createStatusFetcher): 3 s, 1 MB; https only, from a public address it resolved
 *   itself and connects to (no DNS rebinding between check and connect); a sandbox service also
 *   fetches its own status list over http on loopback, and no other loopback URI.
 * - Policy (design.md §15; `SVC_WALLET_STATUS` picks it, boot.ts builds one checker per process):
 *   `prefer` (unreachable → accepted, one log line naming the list's origin, never the index),
 *   `require` (unreachable → refused, "status unavailable"), `off`. A list that answers but does
 *   not verify, or says revoked or suspended, is refused under both.
 *
 * Where the libraries stop (docs/wallets.md#where-the-libraries-stop), the gaps this file covers:
 *
 * 20. `SDJwtVcInstance.verify` fetches the status list itself: global fetch of any URI (private
 *    addresses included), a 10 s timeout, no size cap, no cache, the list token verified with the
 *    credential issuer's verifier and neither its `typ` nor its `sub` checked; a status other than 0
 *    throws the same error as a network failure → sd-jwt.ts runs the parent class's SD-JWT
 *    `verify` (no status), and status-list.ts fetches, checks and decides.
 * 23. `StatusList.decompressStatusList` inflates without an output limit (a 1 MB `lst` of zeros
 *    inflates to about 1 GB) and decodes the whole list through strings, and the constructor's
 *    range check lets a value of 2^bits through → status-list.ts inflates with node:zlib under a
 *    limit and reads the one value at `idx` (draft §4.1 bit order); the draft's test vectors show
 *    both decoders agree.
 * 24. `getListFromStatusListJWT` decodes the payload without verifying anything → status-list.ts
 *    verifies the Status List Token (ES256, `x5c` to the trust bundle, `typ`, `sub`, `iat`/`exp`)
 *    before reading `status_list`.
 */
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { inflateSync } from 'node:zlib';
import { traceOutbound } from '../../telemetry/outbound.ts';
import type { X509Certificate } from './certificates.ts';
import { JWT_SKEW_SECONDS } from '../profile.ts';
import { type IssuerKeyRefusal, resolveX5cKey, verifyEs256 } from './jwt-issuer.ts';

export type StatusPolicy = 'prefer' | 'require' | 'off';

export const STATUS_MEDIA_TYPE = 'application/statuslist+jwt';
export const STATUS_TIMEOUT_MS = 3000;
export const STATUS_MAX_BYTES = 1024 * 1024;
/** Longest a verified list is kept, whatever its exp or ttl say. */
export const STATUS_MAX_CACHE_MS = 60 * 60 * 1000;
/** An inflated list larger than this is refused (a 2^20-entry 8-bit list is 1 MiB). */
export const STATUS_MAX_INFLATED_BYTES = 16 * 1024 * 1024;

/** Status Type values (draft §7.1). */
export const STATUS_VALID = 0;
export const STATUS_INVALID = 1;
export const STATUS_SUSPENDED = 2;

/** Why a status list could not be had: the `prefer` policy accepts the credential then. */
export type UnreachableReason =
  | 'the status list URI is not a public https address'
  | 'the status list URI is not a URL'
  | 'the status list did not answer within 3 s'
  | 'the status list answer is larger than 1 MB'
  | 'the status list answered with an HTTP error'
  | 'the status list could not be reached';

/**
 * Where a credential's status is kept: an entry of a Status List Token (draft-ietf-oauth-status-list
 * §6.1), from an SD-JWT's `status.status_list` or an MSO's (checked here).
 */
export interface StatusReference {
  idx: number;
  uri: string;
}

/** Why a status list that answered is refused, under every policy. */
export type StatusTokenProblem =
  | 'the status list token is not a compact JWS'
  | 'the status list token typ is not statuslist+jwt'
  | 'the status list token is not signed with ES256'
  | 'the status list token signature does not verify'
  | 'the status list token is for another sub'
  | 'the status list token iat, exp or ttl is malformed'
  | 'the status list token has expired'
  | 'the status list is malformed'
  | 'the index is outside the status list'
  | IssuerKeyRefusal['detail'];

export class StatusUnreachableError extends Error {
  readonly reason: UnreachableReason;

  constructor(reason: UnreachableReason) {
    super(reason);
    this.reason = reason;
    this.name = 'StatusUnreachableError';
  }
}

export type StatusDecision =
  /** `value` null: not checked (policy off, or unreachable under prefer) */
  | { ok: true; value: number | null }
  | {
      ok: false;
      detail: 'credential revoked' | 'credential suspended' | 'credential status is not valid' | 'status unavailable';
      cause: StatusTokenProblem | UnreachableReason | null;
    };

/** GETs a status list; throws StatusUnreachableError. The service's is createStatusFetcher's. */
export type StatusFetcher = (uri: string) => Promise<string>;

// Addresses a fetch never connects to (RFC 6890 special-purpose, RFC 4193 ULA, …). node:net's
// BlockList judges an IPv4-mapped address (`::ffff:7f00:1` as well as `::ffff:127.0.0.1`) by the
// IPv4 rules; the IPv4-compatible `::/96` (`[::127.0.0.1]`, deprecated by RFC 4291 §2.5.5.1) is
// refused whole, `::` and `::1` with it.
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  // documentation (RFC 9637) and SRv6 SIDs (RFC 9602): never a public server
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

const family = (address: string): 'ipv4' | 'ipv6' | null =>
  (({ 4: 'ipv4', 6: 'ipv6' }) as const)[isIP(address) as 4 | 6] ?? null;

/**
 * Whether an IP address is public: not private, loopback, link-local, ULA, documentation,
 * multicast, IPv4-compatible or reserved; an IPv4-mapped IPv6 address, however spelled, is judged
 * by its IPv4 address.
 *
 * @example isPublicAddress('10.1.2.3') // false
 * @example isPublicAddress('::127.0.0.1') // false
 */
export function isPublicAddress(address: string): boolean {
  const type = family(address);
  return type !== null && !NON_PUBLIC.check(address, type);
}

const isLoopback = (address: string): boolean => {
  const type = family(address);
  return type !== null && LOOPBACK.check(address, type);
};

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The status list fetch: 3 s, 1 MB, `Accept: application/statuslist+jwt`, https only, and every
 * address the name resolves to must be public; the socket connects to the address that was
 * checked. `ownLists` (a sandbox service's own status list, boot.ts) may also be fetched over
 * http and on loopback, compared by origin and path; no other URI reaches a loopback address, so
 * a credential's status URI cannot make the service probe its own host. Each fetch is one span
 * when tracing is on (telemetry/outbound.ts).
 *
 * @example const fetchStatusList = createStatusFetcher({ ownLists: [`${config.appUrl}/sandbox/status/1`] })
 */
export function createStatusFetcher(
  input: {
    /** URIs fetched over http or https on loopback as well (the sandbox's own list); default none */
    ownLists?: readonly string[];
    resolve?: Resolver;
    timeoutMs?: number;
    maxBytes?: number;
    /** extra trusted TLS roots, PEM (tests); default the platform's */
    ca?: string;
  } = {},
): StatusFetcher {
  const resolve = input.resolve ?? systemResolver;
  const timeoutMs = input.timeoutMs ?? STATUS_TIMEOUT_MS;
  const maxBytes = input.maxBytes ?? STATUS_MAX_BYTES;
  const own = new Set((input.ownLists ?? []).map(listKey));
  const fetchOnce: StatusFetcher = async (uri) => {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw new StatusUnreachableError('the status list URI is not a URL');
    }
    const refused = new StatusUnreachableError('the status list URI is not a public https address');
    const isOwn = own.has(listKey(url));
    if (url.protocol !== 'https:' && !(isOwn && url.protocol === 'http:')) throw refused;
    if (url.username || url.password) throw refused;
    // The URL parser writes an IPv6 host in one spelling, bracketed: `[::7f00:1]` for `[::127.0.0.1]`.
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    const allowed = (address: string): boolean =>
      isPublicAddress(address) ? url.protocol === 'https:' : isOwn && isLoopback(address);
    let address: { address: string; family: number };
    if (isIP(hostname)) {
      address = { address: hostname, family: isIP(hostname) };
    } else {
      let found: { address: string; family: number }[];
      try {
        found = await resolve(hostname);
      } catch {
        throw new StatusUnreachableError('the status list could not be reached');
      }
      // Every address must pass: a name with one public and one private address is refused.
      if (found.length === 0) throw new StatusUnreachableError('the status list could not be reached');
      if (!found.every((a) => allowed(a.address))) throw refused;
      address = found[0]!;
    }
    if (!allowed(address.address)) throw refused;
    return get(url, address, timeoutMs, maxBytes, input.ca);
  };
  return (uri) => traceOutbound('status-list', () => fetchOnce(uri));
}

/** A status list's origin and path: what `ownLists` compares (a query or fragment changes nothing). */
function listKey(uri: string | URL): string {
  try {
    const url = new URL(uri);
    return `${url.origin}${url.pathname}`;
  } catch {
    return '';
  }
}

function get(
  url: URL,
  address: { address: string; family: number },
  timeoutMs: number,
  maxBytes: number,
  ca: string | undefined,
) {
  return new Promise<string>((resolvePromise, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'GET',
      // TLS checks the certificate against the URL's host name, whatever address was connected to.
      ...(ca ? { ca } : {}),
      headers: { accept: STATUS_MEDIA_TYPE },
      // A fresh connection each time: a pooled socket would skip the address check below.
      agent: false,
      // The connection goes to the address checked above, never to a second resolution.
      lookup: (_host, options, callback) => {
        if ((options as { all?: boolean }).all) callback(null, [address]);
        else callback(null, address.address, address.family);
      },
    });
    const fail = (reason: UnreachableReason) => {
      clearTimeout(timer);
      request.destroy();
      reject(new StatusUnreachableError(reason));
    };
    const timer = setTimeout(() => fail('the status list did not answer within 3 s'), timeoutMs);
    request.on('error', () => fail('the status list could not be reached'));
    request.on('response', (response: IncomingMessage) => {
      if (response.statusCode !== 200) return fail('the status list answered with an HTTP error');
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) return fail('the status list answer is larger than 1 MB');
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) fail('the status list answer is larger than 1 MB');
        else chunks.push(chunk);
      });
      response.on('end', () => {
        clearTimeout(timer);
        resolvePromise(Buffer.concat(chunks).toString('utf8'));
      });
      response.on('error', () => fail('the status list could not be reached'));
    });
    request.end();
  });
}

/** A verified Status List Token: the inflated list and how long it may be kept. */
export interface VerifiedStatusList {
  bits: 1 | 2 | 4 | 8;
  bytes: Uint8Array;
  /** ms since the epoch */
  keepUntil: number;
}

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function decodePart(part: string | undefined): JsonObject | null {
  if (!part || !/^[A-Za-z0-9_-]+$/.test(part)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Verifies a Status List Token for `uri` (draft §5.1, §8.3) and inflates its list (gaps 23, 24).
 *
 * @example const list = verifyStatusListToken(token, uri, anchors, now)
 */
export function verifyStatusListToken(
  token: string,
  uri: string,
  anchors: readonly X509Certificate[],
  now: number,
  refusedKeys: readonly string[] = [],
): VerifiedStatusList | StatusTokenProblem {
  const [h, p, signature, extra] = token.trim().split('.');
  const header = decodePart(h);
  const payload = decodePart(p);
  if (!header || !payload || !signature || extra !== undefined) return 'the status list token is not a compact JWS';
  if (header.typ !== 'statuslist+jwt') return 'the status list token typ is not statuslist+jwt';
  if (header.alg !== 'ES256') return 'the status list token is not signed with ES256';
  const issuer = resolveX5cKey(anchors, now, refusedKeys)(header);
  if ('ok' in issuer) return issuer.detail;
  if (!verifyEs256(issuer.key, `${h}.${p}`, signature)) return 'the status list token signature does not verify';
  if (payload.sub !== uri) return 'the status list token is for another sub';
  const { iat, exp, ttl } = payload;
  if (typeof iat !== 'number' || (exp !== undefined && typeof exp !== 'number'))
    return 'the status list token iat, exp or ttl is malformed';
  if (ttl !== undefined && (typeof ttl !== 'number' || !(ttl > 0)))
    return 'the status list token iat, exp or ttl is malformed';
  if (typeof exp === 'number' && now / 1000 > exp + JWT_SKEW_SECONDS) return 'the status list token has expired';
  const list = payload.status_list;
  if (!isObject(list) || ![1, 2, 4, 8].includes(list.bits as number) || typeof list.lst !== 'string')
    return 'the status list is malformed';
  const bytes = inflateList(list.lst);
  if (!bytes) return 'the status list is malformed';
  const limits = [now + STATUS_MAX_CACHE_MS];
  if (typeof exp === 'number') limits.push(exp * 1000);
  if (typeof ttl === 'number') limits.push((iat + ttl) * 1000);
  return { bits: list.bits as VerifiedStatusList['bits'], bytes, keepUntil: Math.min(...limits) };
}

/** `lst`: base64url of a ZLIB (RFC 1950) DEFLATE stream; inflated under a limit (gap 23). */
export function inflateList(lst: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]+$/.test(lst)) return null;
  try {
    return new Uint8Array(inflateSync(Buffer.from(lst, 'base64url'), { maxOutputLength: STATUS_MAX_INFLATED_BYTES }));
  } catch {
    return null;
  }
}

/**
 * The status at `idx` (draft §4.1): `bits` per entry, packed from the least significant bit of
 * each byte. Null when `idx` is past the end.
 *
 * @example readStatus(new Uint8Array([0xb9, 0xa3]), 1, 0) // 1
 */
export function readStatus(bytes: Uint8Array, bits: 1 | 2 | 4 | 8, idx: number): number | null {
  const bit = idx * bits;
  const byte = bytes[Math.floor(bit / 8)];
  if (!Number.isSafeInteger(idx) || idx < 0 || byte === undefined) return null;
  return (byte >> (bit % 8)) & ((1 << bits) - 1);
}

export interface StatusChecker {
  check(reference: StatusReference): Promise<StatusDecision>;
}

/**
 * Decides a credential's status under a policy, with the cache and single flight described above.
 * `log` receives one line per unreachable list under `prefer`: its origin and why, never the index.
 *
 * @example const status = createStatusChecker({ policy: 'prefer', anchors, fetch, clock, log: app.log.warn })
 */
export function createStatusChecker(input: {
  policy: StatusPolicy;
  anchors: readonly X509Certificate[];
  /** WalletTrust.refusedKeys */
  refusedKeys?: readonly string[];
  fetch: StatusFetcher;
  clock: () => number;
  log: (line: string) => void;
}): StatusChecker {
  const cache = new Map<string, VerifiedStatusList>();
  const inFlight = new Map<string, Promise<VerifiedStatusList | StatusTokenProblem>>();

  const load = (uri: string): Promise<VerifiedStatusList | StatusTokenProblem> => {
    const cached = cache.get(uri);
    if (cached && cached.keepUntil > input.clock()) return Promise.resolve(cached);
    const pending = inFlight.get(uri);
    if (pending) return pending;
    const loading = input
      .fetch(uri)
      .then((token) => {
        const verified = verifyStatusListToken(token, uri, input.anchors, input.clock(), input.refusedKeys);
        if (typeof verified !== 'string') cache.set(uri, verified);
        return verified;
      })
      .finally(() => inFlight.delete(uri));
    inFlight.set(uri, loading);
    return loading;
  };

  return {
    async check({ idx, uri }) {
      if (input.policy === 'off') return { ok: true, value: null };
      let list: VerifiedStatusList | StatusTokenProblem;
      try {
        list = await load(uri);
      } catch (error) {
        const reason: UnreachableReason =
          error instanceof StatusUnreachableError ? error.reason : 'the status list could not be reached';
        if (input.policy === 'require') return { ok: false, detail: 'status unavailable', cause: reason };
        input.log(`status list at ${originOf(uri)} unreachable (${reason}); accepted under the prefer policy`);
        return { ok: true, value: null };
      }
      if (typeof list === 'string') return { ok: false, detail: 'credential status is not valid', cause: list };
      const value = readStatus(list.bytes, list.bits, idx);
      if (value === null)
        return { ok: false, detail: 'credential status is not valid', cause: 'the index is outside the status list' };
      if (value === STATUS_VALID) return { ok: true, value };
      if (value === STATUS_INVALID) return { ok: false, detail: 'credential revoked', cause: null };
      if (value === STATUS_SUSPENDED) return { ok: false, detail: 'credential suspended', cause: null };
      return { ok: false, detail: 'credential status is not valid', cause: null };
    },
  };
}

function originOf(uri: string): string {
  try {
    return new URL(uri).origin;
  } catch {
    return 'an unparsable URI';
  }
}
