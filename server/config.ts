/**
 * Environment → frozen Config (design.md §1). A bad environment fails at boot with one clear line.
 */
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { parseMasterKey } from './crypto/master-key.ts';
import { ConfigError } from './errors.ts';
import { nearestName } from './rules/nearest-name.ts';
import { isSecureOrLoopbackUrl } from './rules/urls.ts';
import { tooWideProxyRanges } from './limits/proxy-ranges.ts';

export type Mode = 'sandbox' | 'production';

export interface Config {
  /**
   * sandbox or production. When SVC_MODE is unset this is only a default: the store's own mode
   * wins at boot (server/mode.ts), so a production data folder never boots as sandbox.
   */
  readonly mode: Mode;
  /** true when SVC_MODE set the mode explicitly */
  readonly modeFromEnv: boolean;
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  /** {api_url}: base of /v1/... */
  readonly apiUrl: string;
  /** {app_url}: base of /api/billing/..., the phone page /m/v/... and deep links */
  readonly appUrl: string;
  /** {widget_url}: serves /v4/loader.min.js */
  readonly widgetUrl: string;
  readonly dataDir: string;
  /** SVC_REDIS_URL (redis:// or rediss://): selects the Redis store (design.md §10); null: SQLite in dataDir */
  readonly redisUrl: string | null;
  /** SVC_REDIS_PREFIX: namespaces every Redis key, so two deployments can share one Redis (default "svc:") */
  readonly redisPrefix: string;
  /**
   * SVC_REDIS_SENTINELS (`host:port,…`) with SVC_REDIS_MASTER_NAME: the Redis store through
   * Sentinel instead of SVC_REDIS_URL (design.md §17); null: not set
   */
  readonly redisSentinels: {
    readonly hosts: readonly { host: string; port: number }[];
    readonly masterName: string;
  } | null;
  /**
   * SVC_REDIS_MIN_REPLICAS (default 0): replicas that must acknowledge every single-use write and
   * every completion (`WAIT`) before the service answers; fewer within SVC_REDIS_WAIT_MS (default
   * 250): 503 (design.md §17)
   */
  readonly redisMinReplicas: number;
  readonly redisWaitMs: number;
  /** SVC_DRAIN_MS (default 10000, 100–120000): how long a SIGTERM lets in-flight calls finish (design.md §23) */
  readonly drainMs: number;
  /** partner fixtures loaded in sandbox mode */
  readonly fixturesPath: string;
  /** SVC_PROVIDER_FIXTURES: identity providers loaded in sandbox mode (design.md §12), never in production */
  readonly providerFixturesPath: string;
  readonly partnerPort: number;
  /** life of a pending verification request; 300 s (design.md §3), shorter only for e2e renewal tests */
  readonly requestTtlMs: number;
  /** SVC_PROVIDER_MAX_AGE_S: `max_age` sent to identity providers, 0–3600 (docs/providers.md, "A fresh check"); 300 */
  readonly providerMaxAgeSeconds: number;
  /** base64 of 32 bytes; required in production, generated and kept in the store in sandbox */
  readonly nullifierKey: string | null;
  /**
   * SVC_MASTER_KEY, base64 of 32 bytes: seals secrets at rest (crypto/master-key.ts). Required in
   * production; in sandbox, when unset, a key is generated once into the data folder.
   */
  readonly masterKey: string | null;
  /** SVC_MASTER_KEY_PREVIOUS: older master keys (comma-separated) that still open values during a rotation */
  readonly previousMasterKeys: string | null;
  readonly logLevel: string;
  /** directory holding the built widget (dist/) */
  readonly distDir: string;
  /**
   * Which proxies may set X-Forwarded-For, so that per-address rate limits see the visitor and
   * not the proxy: false (default) or a comma list of the proxies' addresses/CIDRs and keywords.
   */
  readonly trustProxy: false | string;
  /** concurrent long polls one client address may hold (past it: answered at once, as wait=0) */
  readonly longPollPerAddress: number;
  /** concurrent long polls this instance holds in all */
  readonly longPollMax: number;
  /** SVC_WALLET_TRUST: PEM bundle of trusted IACA roots (design.md §11); in production the wallet path needs it */
  readonly walletTrustPath: string | null;
  /**
   * SVC_REQUEST_TIMEOUT_MS: time a client has to send a whole request, headers and body, from its
   * first byte; past it the connection is cut (408). It ends when the request is received, so a
   * long poll's wait for its answer is not counted (docs/operations.md#running-the-service, "Timeouts").
   */
  readonly requestTimeoutMs: number;
  /** SVC_HEADERS_TIMEOUT_MS: time to send the request line and headers (and to start a request on a new connection) */
  readonly headersTimeoutMs: number;
  /** SVC_KEEP_ALIVE_TIMEOUT_MS: how long an idle kept-alive connection stays open between two requests */
  readonly keepAliveTimeoutMs: number;
  /**
   * SVC_WALLET_TRUST_ALLOW_TEST=1: production may trust the EU age-verification reference test CA
   * in SVC_WALLET_TRUST (pilots; logged at boot). The sandbox IACA is refused regardless.
   */
  readonly walletTrustAllowTest: boolean;
  /**
   * SVC_METRICS_PORT: the Prometheus listener's port (design.md §17), never the public one; null
   * (unset): no metrics. `npm start` sets 9464.
   */
  readonly metricsPort: number | null;
  /** SVC_METRICS_HOST: the address the metrics listener binds (default 127.0.0.1) */
  readonly metricsHost: string;
  /**
   * SVC_WALLET_STATUS: what a wallet credential's status list decides (design.md §15): `prefer`
   * (default: a list that cannot be fetched → accepted, one log line), `require` (→ refused,
   * "status unavailable"), `off` (never fetched). Revoked or suspended is refused unless `off`.
   */
  readonly walletStatus: 'prefer' | 'require' | 'off';
  /**
   * SVC_WALLET_FORMATS: the wallet credential formats requests ask (design.md §19): `all` (default:
   * every format of §13/§15), `mso_mdoc` or `dc+sd-jwt` alone; a partner's `wallet_formats` narrows it.
   */
  readonly walletFormats: 'all' | 'mso_mdoc' | 'dc+sd-jwt';
  /**
   * SVC_WALLET_ACCESS_CERT / SVC_WALLET_ACCESS_KEY: files holding the access certificate chain
   * (PEM, leaf first) and its PKCS#8 P-256 key, with which the verifier signs wallet requests
   * (docs/design.md §16); both or neither. Unset: the one `svc wallet access-cert import` stored, if any.
   */
  readonly walletAccessCertPath: string | null;
  readonly walletAccessKeyPath: string | null;
}

/** pino's levels: what SVC_LOG_LEVEL may name. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Every SVC_* variable the service reads (README's environment table lists each);
 * SVC_PROVIDER_MAX_AGE_S is the providers' (docs/providers.md).
 */
const SERVICE_VARIABLES = [
  'SVC_MODE',
  'SVC_PORT',
  'SVC_HOST',
  'SVC_PUBLIC_URL',
  'SVC_API_URL',
  'SVC_APP_URL',
  'SVC_WIDGET_URL',
  'SVC_DATA_DIR',
  'SVC_REDIS_URL',
  'SVC_REDIS_PREFIX',
  'SVC_REDIS_SENTINELS',
  'SVC_REDIS_MASTER_NAME',
  'SVC_REDIS_MIN_REPLICAS',
  'SVC_REDIS_WAIT_MS',
  'SVC_DRAIN_MS',
  'SVC_FIXTURES',
  'SVC_PROVIDER_FIXTURES',
  'SVC_REQUEST_TTL_MS',
  'SVC_NULLIFIER_KEY',
  'SVC_MASTER_KEY',
  'SVC_MASTER_KEY_PREVIOUS',
  'SVC_LOG_LEVEL',
  'SVC_DIST_DIR',
  'SVC_TRUST_PROXY',
  'SVC_LONG_POLL_PER_ADDRESS',
  'SVC_LONG_POLL_MAX',
  'SVC_WALLET_TRUST',
  'SVC_WALLET_TRUST_ALLOW_TEST',
  'SVC_WALLET_STATUS',
  'SVC_WALLET_FORMATS',
  'SVC_WALLET_ACCESS_CERT',
  'SVC_WALLET_ACCESS_KEY',
  'SVC_REQUEST_TIMEOUT_MS',
  'SVC_HEADERS_TIMEOUT_MS',
  'SVC_KEEP_ALIVE_TIMEOUT_MS',
  'SVC_PROVIDER_MAX_AGE_S',
  'SVC_METRICS_PORT',
  'SVC_METRICS_HOST',
] as const;

/**
 * SVC_* variables that the tools beside the service read from the same environment (`npm start`,
 * `npm run start:cluster`, the e2e set-up, the example identity provider) or that the docs'
 * partner examples name: set, they are no typo.
 */
const TOOL_VARIABLES = [
  'SVC_LOG_FORMAT',
  'SVC_CLUSTER_DIR',
  'SVC_CLUSTER_REDIS_PORT',
  'SVC_CLUSTER_INSTANCE_PORTS',
  'SVC_E2E_DATA_DIR',
  'SVC_E2E_CLUSTER_DIR',
  'SVC_SCREENSHOTS',
  'SVC_EXAMPLE_IDP_HOST',
  'SVC_PARTNER_ID',
  'SVC_PARTNER_SECRET',
] as const;

/** Every SVC_* name the project knows; any other set in the environment is most likely a typo. */
export const KNOWN_VARIABLES: readonly string[] = [...SERVICE_VARIABLES, ...TOOL_VARIABLES];

/**
 * One warning line per SVC_* variable in `env` that nothing reads, naming the nearest known one:
 * a typo such as SVC_PUBLC_URL would otherwise boot silently on the default.
 *
 * @example unknownVariableWarnings({ SVC_PUBLC_URL: 'https://svc.example' })
 * // ['SVC_PUBLC_URL is not a variable this service reads (did you mean SVC_PUBLIC_URL?); it is ignored']
 */
export function unknownVariableWarnings(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('SVC_') && !KNOWN_VARIABLES.includes(name))
    .sort()
    .map(
      (name) =>
        `${name} is not a variable this service reads (did you mean ${nearestName(name, KNOWN_VARIABLES)}?); it is ignored`,
    );
}

function readLogLevel(env: NodeJS.ProcessEnv): string {
  const raw = env.SVC_LOG_LEVEL;
  if (raw === undefined || raw === '') return env.NODE_ENV === 'test' ? 'silent' : 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw))
    throw new ConfigError(`SVC_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return raw;
}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new ConfigError(`${name} must be a port number (0-65535), got "${raw}"`);
  return n;
}

function url(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConfigError(`${name} must be http(s), got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/** A switch: "1" on; unset, "" or "0" off; anything else is refused rather than guessed. */
function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0') return false;
  if (raw === '1') return true;
  throw new ConfigError(`${name} must be 1 or unset, got "${raw}"`);
}

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

function count(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n > max)
    throw new ConfigError(`${name} must be a whole number from 0 to ${max}, got "${raw}"`);
  return n;
}

function milliseconds(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max)
    throw new ConfigError(`${name} must be a whole number of milliseconds from ${min} to ${max}, got "${raw}"`);
  return n;
}

/**
 * The HTTP edge's timeouts (design.md §1; server/http/timeouts.ts applies them). Headers come first,
 * so their limit cannot exceed the whole request's.
 */
function readTimeouts(
  env: NodeJS.ProcessEnv,
): Pick<Config, 'requestTimeoutMs' | 'headersTimeoutMs' | 'keepAliveTimeoutMs'> {
  const requestTimeoutMs = milliseconds(env, 'SVC_REQUEST_TIMEOUT_MS', 30_000, 1_000, 600_000);
  const headersTimeoutMs = milliseconds(
    env,
    'SVC_HEADERS_TIMEOUT_MS',
    Math.min(10_000, requestTimeoutMs),
    1_000,
    600_000,
  );
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(
      `SVC_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed SVC_REQUEST_TIMEOUT_MS (${requestTimeoutMs}): ` +
        'the headers are part of the request',
    );
  }
  const keepAliveTimeoutMs = milliseconds(env, 'SVC_KEEP_ALIVE_TIMEOUT_MS', 72_000, 1_000, 600_000);
  return { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs };
}

/** One SVC_TRUST_PROXY entry: a keyword, an address, or a CIDR narrower than /0; null when it is none of these. */
function readProxyEntry(entry: string): string | null {
  if (PROXY_KEYWORDS.has(entry)) return entry;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return null;
  if (bits === undefined) return entry;
  const prefix = /^\d{1,3}$/.test(bits) ? Number(bits) : -1;
  return prefix >= 1 && prefix <= (family === 4 ? 32 : 128) ? entry : null;
}

/**
 * Which proxies may set X-Forwarded-For, so that per-address limits see the visitor and not the
 * proxy (docs/operations.md#client-addresses-and-proxies). Only an explicit list: `true` or a
 * catch-all would let any client choose its own rate-limit key by sending the header, and so would
 * a catch-all split in parts, or ranges wider than docs/operations.md allows ("Client addresses",
 * server/limits/proxy-ranges.ts).
 */
function readTrustProxy(raw: string | undefined): false | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  const entries = raw.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => readProxyEntry(entry) === null);
  if (raw.trim() === 'true' || bad !== undefined) {
    throw new ConfigError(
      `SVC_TRUST_PROXY must list the proxies' addresses or CIDRs (or loopback, linklocal, uniquelocal); ` +
        `"true" and catch-alls such as 0.0.0.0/0 would trust any client's X-Forwarded-For, got "${raw}"`,
    );
  }
  const tooWide = tooWideProxyRanges(entries);
  if (tooWide !== null) {
    throw new ConfigError(
      `SVC_TRUST_PROXY must name the proxies, not the Internet: ${tooWide}, ` +
        `so those clients could pick their own rate-limit key, got "${raw}"`,
    );
  }
  return entries.join(',');
}

function readRedisUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  let protocol = '';
  try {
    protocol = new URL(raw).protocol;
  } catch {
    // reported below, without echoing the value: it may hold a password
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:')
    throw new ConfigError('SVC_REDIS_URL must be a redis:// or rediss:// URL');
  return raw;
}

/** SVC_REDIS_SENTINELS and SVC_REDIS_MASTER_NAME: both or neither, and never beside SVC_REDIS_URL. */
function readRedisSentinels(env: NodeJS.ProcessEnv): Config['redisSentinels'] {
  const raw = env.SVC_REDIS_SENTINELS || '';
  const masterName = env.SVC_REDIS_MASTER_NAME || '';
  if (raw === '' && masterName === '') return null;
  if (raw === '' || masterName === '')
    throw new ConfigError('SVC_REDIS_SENTINELS and SVC_REDIS_MASTER_NAME go together: set both, or neither');
  if (env.SVC_REDIS_URL)
    throw new ConfigError('set SVC_REDIS_URL or SVC_REDIS_SENTINELS, not both: Sentinel names the primary');
  if (!/^[\x21-\x7e]{1,64}$/.test(masterName))
    throw new ConfigError(
      `SVC_REDIS_MASTER_NAME must be 1-64 printable characters without spaces, got "${masterName}"`,
    );
  const hosts = raw.split(',').map((entry) => {
    const match = /^\s*(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):(\d{1,5})\s*$/.exec(entry);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65535)
      throw new ConfigError(`SVC_REDIS_SENTINELS must be host:port entries separated by commas, got "${raw}"`);
    return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
  });
  return { hosts, masterName };
}

function readRedisPrefix(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'svc:';
  if (!/^[\x21-\x7e]{1,64}$/.test(raw)) {
    throw new ConfigError(`SVC_REDIS_PREFIX must be 1-64 printable characters without spaces, got "${raw}"`);
  }
  return raw;
}

/** SVC_WALLET_ACCESS_CERT and SVC_WALLET_ACCESS_KEY, resolved: one without the other is a mistake. */
function readAccessPaths(
  env: NodeJS.ProcessEnv,
  cwd: string,
): Pick<Config, 'walletAccessCertPath' | 'walletAccessKeyPath'> {
  const cert = env.SVC_WALLET_ACCESS_CERT || null;
  const key = env.SVC_WALLET_ACCESS_KEY || null;
  if ((cert === null) !== (key === null)) {
    throw new ConfigError(
      `${cert === null ? 'SVC_WALLET_ACCESS_KEY' : 'SVC_WALLET_ACCESS_CERT'} is set without ` +
        `${cert === null ? 'SVC_WALLET_ACCESS_CERT' : 'SVC_WALLET_ACCESS_KEY'}: the access certificate and its key go together`,
    );
  }
  return {
    walletAccessCertPath: cert === null ? null : resolve(cwd, cert),
    walletAccessKeyPath: key === null ? null : resolve(cwd, key),
  };
}

/**
 * The public URLs, each with the variable that sets it (the last three default to the first).
 * Production takes https:// only, or http:// on a loopback host for local trials (design.md §1):
 * wallets refuse an http:// response_uri, and an http:// page hands tokens to whoever is on the path.
 */
const PUBLIC_URLS = [
  ['SVC_PUBLIC_URL', 'publicUrl'],
  ['SVC_API_URL', 'apiUrl'],
  ['SVC_APP_URL', 'appUrl'],
  ['SVC_WIDGET_URL', 'widgetUrl'],
] as const;

/** What production needs from the environment; throws ConfigError naming what is missing or wrong. */
export function checkProductionConfig(
  config: Pick<Config, 'nullifierKey' | 'masterKey' | (typeof PUBLIC_URLS)[number][1]>,
): void {
  if (config.nullifierKey === null) {
    throw new ConfigError('SVC_MODE=production requires SVC_NULLIFIER_KEY (base64 of 32 random bytes)');
  }
  if (config.masterKey === null) {
    throw new ConfigError(
      'SVC_MODE=production requires SVC_MASTER_KEY (base64 of 32 random bytes); it seals secrets at rest',
    );
  }
  // SVC_PUBLIC_URL first: the others default to it, so the first failing one is the one to set.
  for (const [name, field] of PUBLIC_URLS) {
    if (!isSecureOrLoopbackUrl(config[field])) {
      throw new ConfigError(
        `SVC_MODE=production requires ${name} to be https:// (http:// only on localhost, 127.0.0.0/8 or ::1), got "${config[field]}"`,
      );
    }
  }
}

const WALLET_STATUS_POLICIES = ['prefer', 'require', 'off'] as const;

function readWalletStatus(raw: string | undefined): Config['walletStatus'] {
  if (raw === undefined || raw === '') return 'prefer';
  if (!(WALLET_STATUS_POLICIES as readonly string[]).includes(raw))
    throw new ConfigError(`SVC_WALLET_STATUS must be one of ${WALLET_STATUS_POLICIES.join(', ')}, got "${raw}"`);
  return raw as Config['walletStatus'];
}

const WALLET_FORMATS = ['all', 'mso_mdoc', 'dc+sd-jwt'] as const;

function readWalletFormats(raw: string | undefined): Config['walletFormats'] {
  if (raw === undefined || raw === '') return 'all';
  if (!(WALLET_FORMATS as readonly string[]).includes(raw))
    throw new ConfigError(`SVC_WALLET_FORMATS must be one of ${WALLET_FORMATS.join(', ')}, got "${raw}"`);
  return raw as Config['walletFormats'];
}

/**
 * @example const config = loadConfig(process.env)
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const mode = (env.SVC_MODE || 'sandbox') as Mode;
  if (mode !== 'sandbox' && mode !== 'production')
    throw new ConfigError(`SVC_MODE must be "sandbox" or "production", got "${env.SVC_MODE}"`);
  const svcPort = port(env, 'SVC_PORT', 8787);
  const publicUrl = url(env, 'SVC_PUBLIC_URL', `http://localhost:${svcPort}`);
  const ttlRaw = env.SVC_REQUEST_TTL_MS;
  const requestTtlMs = ttlRaw ? Number(ttlRaw) : 300_000;
  if (!Number.isInteger(requestTtlMs) || requestTtlMs < 1000 || requestTtlMs > 300_000) {
    throw new ConfigError(`SVC_REQUEST_TTL_MS must be an integer between 1000 and 300000, got "${ttlRaw}"`);
  }
  const maxAgeRaw = env.SVC_PROVIDER_MAX_AGE_S || '300';
  const providerMaxAgeSeconds = Number(maxAgeRaw);
  if (!/^\d{1,4}$/.test(maxAgeRaw) || providerMaxAgeSeconds > 3600) {
    throw new ConfigError(`SVC_PROVIDER_MAX_AGE_S must be whole seconds between 0 and 3600, got "${maxAgeRaw}"`);
  }
  const nullifierKey = env.SVC_NULLIFIER_KEY || null;
  if (nullifierKey !== null && Buffer.from(nullifierKey, 'base64').length < 32) {
    throw new ConfigError('SVC_NULLIFIER_KEY must be base64 of at least 32 bytes');
  }
  const masterKey = env.SVC_MASTER_KEY || null;
  if (masterKey !== null) parseMasterKey(masterKey, 'SVC_MASTER_KEY');
  const previousMasterKeys = env.SVC_MASTER_KEY_PREVIOUS || null;
  for (const [i, key] of (previousMasterKeys ?? '').split(',').filter(Boolean).entries()) {
    parseMasterKey(key, `SVC_MASTER_KEY_PREVIOUS (key ${i + 1})`);
  }
  const config: Config = Object.freeze({
    mode,
    modeFromEnv: Boolean(env.SVC_MODE),
    port: svcPort,
    host: env.SVC_HOST || '127.0.0.1',
    publicUrl,
    apiUrl: url(env, 'SVC_API_URL', publicUrl),
    appUrl: url(env, 'SVC_APP_URL', publicUrl),
    widgetUrl: url(env, 'SVC_WIDGET_URL', publicUrl),
    dataDir: resolve(cwd, env.SVC_DATA_DIR || './data'),
    redisUrl: readRedisUrl(env.SVC_REDIS_URL),
    redisPrefix: readRedisPrefix(env.SVC_REDIS_PREFIX),
    redisSentinels: readRedisSentinels(env),
    redisMinReplicas: count(env, 'SVC_REDIS_MIN_REPLICAS', 0, 16),
    redisWaitMs: milliseconds(env, 'SVC_REDIS_WAIT_MS', 250, 1, 1_000),
    drainMs: milliseconds(env, 'SVC_DRAIN_MS', 10_000, 100, 120_000),
    fixturesPath: resolve(cwd, env.SVC_FIXTURES || 'fixtures/partners.json'),
    providerFixturesPath: resolve(cwd, env.SVC_PROVIDER_FIXTURES || 'fixtures/providers.json'),
    partnerPort: port(env, 'PARTNER_PORT', 8788),
    requestTtlMs,
    providerMaxAgeSeconds,
    nullifierKey,
    masterKey,
    previousMasterKeys,
    logLevel: readLogLevel(env),
    distDir: resolve(cwd, env.SVC_DIST_DIR || 'dist'),
    trustProxy: readTrustProxy(env.SVC_TRUST_PROXY),
    longPollPerAddress: count(env, 'SVC_LONG_POLL_PER_ADDRESS', 100, 1_000_000),
    longPollMax: count(env, 'SVC_LONG_POLL_MAX', 20_000, 1_000_000),
    walletTrustPath: env.SVC_WALLET_TRUST ? resolve(cwd, env.SVC_WALLET_TRUST) : null,
    ...readTimeouts(env),
    walletTrustAllowTest: flag(env, 'SVC_WALLET_TRUST_ALLOW_TEST'),
    metricsPort: env.SVC_METRICS_PORT ? port(env, 'SVC_METRICS_PORT', 0) : null,
    metricsHost: env.SVC_METRICS_HOST || '127.0.0.1',
    walletStatus: readWalletStatus(env.SVC_WALLET_STATUS),
    walletFormats: readWalletFormats(env.SVC_WALLET_FORMATS),
    ...readAccessPaths(env, cwd),
  });
  if (mode === 'production') checkProductionConfig(config);
  return config;
}
