/**
 * Environment → frozen Config (design.md §1). Every variable the service reads is one row of
 * SETTINGS below: its name, default, parser (with the values it allows), the rules it shares with
 * another row, and the line docs/operations.md shows (`npm run docs:settings` writes that table).
 * The `Config` type, loading and the unknown-variable warning all come from it. A bad environment
 * fails at boot with one line naming the variable, what is wrong and what is allowed; a secret's
 * value is never in it.
 */
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { parseMasterKey } from './crypto/master-key.ts';
import { ConfigError } from './errors.ts';
import { nearestName } from './rules/nearest-name.ts';
import { isSecureOrLoopbackUrl } from './rules/urls.ts';
import { tooWideProxyRanges } from './limits/proxy-ranges.ts';

/** pino's levels: what SVC_LOG_LEVEL may name. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** How one variable's text becomes its value. */
export interface Parser<T> {
  /** the values it takes, as the docs table's "values" column shows them (Markdown) */
  readonly allowed: string;
  /**
   * `raw` is never empty (unset and "" mean the default). Throws SettingProblem for a bad value
   * (the loader names the variable and, unless secret, the value), or a ConfigError of one line.
   */
  parse(raw: string, context: { readonly name: string; readonly cwd: string }): T;
}

/** A bad value's problem, said after the variable's name: "must be a port number (0-65535)". */
export class SettingProblem extends Error {
  override name = 'SettingProblem';
}

/** The settings read above one being loaded, by Config field (its default or rule may use them). */
type Loaded = Readonly<Record<string, unknown>>;

/** One environment variable the service reads. */
export interface Setting {
  /** the variable */
  readonly env: string;
  readonly parse: Parser<unknown>;
  /**
   * Used when the variable is unset or "": text the parser reads as it reads the environment's,
   * or made from the settings above; null: the value is null.
   */
  readonly default: string | null | ((loaded: Loaded, env: NodeJS.ProcessEnv) => string);
  /** the docs table's default when it is not the plain text of `default` (Markdown) */
  readonly defaultDoc?: string;
  /** a rule shared with settings above: `doc` for the values column, `check` throws ConfigError */
  readonly rule?: { readonly doc: string; check(value: unknown, loaded: Loaded): void };
  /** a secret: a bad value's line never repeats it */
  readonly secret?: true;
  /** read in sandbox mode only */
  readonly sandboxOnly?: true;
  /** what it does, one line (Markdown): the docs table's "meaning" */
  readonly doc: string;
}

/**
 * Every variable the service reads, by its Config field, in the order they load (a default or a
 * rule may use the rows above it). docs/operations.md#running-the-service shows this table;
 * scripts/settings-doc.test.ts fails when the two differ.
 */
export const SETTINGS = {
  mode: {
    env: 'SVC_MODE',
    parse: oneOf(['sandbox', 'production']),
    default: 'sandbox',
    defaultDoc: "`sandbox`, or the store's mode",
    doc:
      '`sandbox` loads fixtures, serves the sandbox phone and the demo; `production` refuses to start without ' +
      'partners in the store, `SVC_NULLIFIER_KEY`, `SVC_MASTER_KEY` and a current attestation key, never loads ' +
      'fixtures, and answers 404 on every sandbox route. The store records the mode it was made in: opening it ' +
      'in the other mode stops the boot, and with `SVC_MODE` unset a production store boots as production ' +
      '(or refuses), never as sandbox',
  },
  port: { env: 'SVC_PORT', parse: port(), default: '8787', doc: 'port of the service' },
  host: {
    env: 'SVC_HOST',
    parse: text('an address of this machine'),
    default: '127.0.0.1',
    doc: 'interface it listens on',
  },
  publicUrl: {
    env: 'SVC_PUBLIC_URL',
    parse: httpUrl(),
    default: (loaded) => `http://localhost:${loaded.port}`,
    defaultDoc: '`http://localhost:8787` (its port: `SVC_PORT`)',
    doc:
      'base of `{api_url}`, `{app_url}` and `{widget_url}` unless these are set; `https://` in production ' +
      '(`http://` only on `localhost`, `127.0.0.0/8` or `::1`, for local trials: wallets refuse an `http://` `response_uri`)',
  },
  apiUrl: {
    env: 'SVC_API_URL',
    parse: httpUrl(),
    default: (loaded) => String(loaded.publicUrl),
    defaultDoc: '`SVC_PUBLIC_URL`',
    doc: "`{api_url}`, base of `/v1/…`, when the spec's three bases are split across hosts; `https://` in production, as above",
  },
  appUrl: {
    env: 'SVC_APP_URL',
    parse: httpUrl(),
    default: (loaded) => String(loaded.publicUrl),
    defaultDoc: '`SVC_PUBLIC_URL`',
    doc: '`{app_url}`, base of `/api/billing/…`, the phone page `/m/v/…` and deep links; `https://` in production, as above',
  },
  widgetUrl: {
    env: 'SVC_WIDGET_URL',
    parse: httpUrl(),
    default: (loaded) => String(loaded.publicUrl),
    defaultDoc: '`SVC_PUBLIC_URL`',
    doc: '`{widget_url}`, serves `/v4/loader.min.js`; `https://` in production, as above',
  },
  dataDir: {
    env: 'SVC_DATA_DIR',
    parse: path(),
    default: './data',
    doc: 'where the SQLite store lives (`svc.sqlite`, WAL mode) and, in sandbox, `master.key`; made 0700, its files 0600',
  },
  redisUrl: {
    env: 'SVC_REDIS_URL',
    parse: redisUrl(),
    default: null,
    secret: true,
    doc:
      'the Redis store, for several instances ([below](#several-instances-redis)); credentials in the URL never ' +
      'reach a log line; unset, SQLite in `SVC_DATA_DIR`',
  },
  redisPrefix: {
    env: 'SVC_REDIS_PREFIX',
    parse: printableName(),
    default: 'svc:',
    doc: 'namespaces every Redis key and the change channel, so two deployments can share one Redis',
  },
  redisSentinels: {
    env: 'SVC_REDIS_SENTINELS',
    parse: hostPorts(),
    default: null,
    doc:
      'instead of `SVC_REDIS_URL`: the sentinels watching the primary ' +
      '([Redis high availability](#redis-high-availability), design.md §17)',
  },
  redisMasterName: {
    env: 'SVC_REDIS_MASTER_NAME',
    parse: printableName(),
    default: null,
    rule: {
      doc: 'with `SVC_REDIS_SENTINELS`, both or neither; never beside `SVC_REDIS_URL`',
      check(masterName, loaded) {
        if ((loaded.redisSentinels === null) !== (masterName === null))
          throw new ConfigError('SVC_REDIS_SENTINELS and SVC_REDIS_MASTER_NAME go together: set both, or neither');
        if (masterName !== null && loaded.redisUrl !== null)
          throw new ConfigError('set SVC_REDIS_URL or SVC_REDIS_SENTINELS, not both: Sentinel names the primary');
      },
    },
    doc: 'the name of the primary the sentinels watch',
  },
  redisMinReplicas: {
    env: 'SVC_REDIS_MIN_REPLICAS',
    parse: wholeNumber(16),
    default: '0',
    doc:
      'replicas that must acknowledge every single-use write and every status change (`WAIT`) before the ' +
      'service answers; fewer: 503. Set it to the number of replicas ([why](#redis-high-availability))',
  },
  redisWaitMs: {
    env: 'SVC_REDIS_WAIT_MS',
    parse: milliseconds(1, 1_000),
    default: '250',
    doc: 'how long that `WAIT` waits',
  },
  drainMs: {
    env: 'SVC_DRAIN_MS',
    parse: milliseconds(100, 120_000),
    default: '10000',
    doc:
      'on SIGTERM, how long in-flight calls may take to finish and the proxy to close the connections it keeps ' +
      "alive, before they are cut; open long polls are answered at once; keep the proxy's idle timeout towards " +
      'the instances below it ([Rolling restarts](#rolling-restarts), design.md §23)',
  },
  fixturesPath: {
    env: 'SVC_FIXTURES',
    parse: path(),
    default: 'fixtures/partners.json',
    sandboxOnly: true,
    doc: 'partners loaded in sandbox mode',
  },
  providerFixturesPath: {
    env: 'SVC_PROVIDER_FIXTURES',
    parse: path(),
    default: 'fixtures/providers.json',
    sandboxOnly: true,
    doc:
      'identity providers loaded in sandbox mode (the example provider `idp_example` on http://localhost:8789, ' +
      'design.md §12); never in production',
  },
  requestTtlMs: {
    env: 'SVC_REQUEST_TTL_MS',
    parse: integerBetween(1_000, 300_000, 'ms'),
    default: '300000',
    doc: 'life of a pending verification request (design.md §3); shorter only to test renewal',
  },
  nullifierKey: {
    env: 'SVC_NULLIFIER_KEY',
    parse: base64Bytes(32),
    default: null,
    defaultDoc: 'generated once, kept in the store (sandbox)',
    secret: true,
    doc: 'the HMAC key of nullifiers; required in production',
  },
  masterKey: {
    env: 'SVC_MASTER_KEY',
    parse: masterKey(),
    default: null,
    defaultDoc: 'generated once into `SVC_DATA_DIR/master.key` (sandbox)',
    secret: true,
    doc:
      "seals partner secrets, private signing keys, service secrets and identity providers' credentials at rest " +
      '(`server/crypto/master-key.ts`); required in production; keep it out of the data folder (a secret manager)',
  },
  previousMasterKeys: {
    env: 'SVC_MASTER_KEY_PREVIOUS',
    parse: masterKeys(),
    default: null,
    secret: true,
    doc: 'during a master-key rotation: the old key(s), which still open values until `svc master-key rotate` re-seals them',
  },
  logLevel: {
    env: 'SVC_LOG_LEVEL',
    parse: oneOf(LOG_LEVELS),
    default: (_, env) => (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    defaultDoc: '`info` (`silent` under `NODE_ENV=test`)',
    doc: "pino level of the service's log",
  },
  distDir: { env: 'SVC_DIST_DIR', parse: path(), default: 'dist', doc: 'where the built widget is served from' },
  trustProxy: {
    env: 'SVC_TRUST_PROXY',
    parse: proxyList(),
    default: 'false',
    defaultDoc: 'unset',
    doc:
      'behind a reverse proxy: the proxies (e.g. `10.0.0.5,10.0.1.0/24`), so per-address limits see the visitor from ' +
      '`X-Forwarded-For`. `true`, catch-alls (`0.0.0.0/0`, `::/0`) and lists too wide for proxies ' +
      '([Client addresses](#client-addresses-and-proxies)) stop the boot: any client in them could pick its own rate-limit key',
  },
  longPollPerAddress: {
    env: 'SVC_LONG_POLL_PER_ADDRESS',
    parse: wholeNumber(1_000_000),
    default: '100',
    doc:
      'concurrent long polls one client address (IPv6: its /64) may hold, across all instances; past it a poll is ' +
      'answered at once, as `wait=0` (many visitors share one address behind carrier-grade NAT)',
  },
  longPollMax: {
    env: 'SVC_LONG_POLL_MAX',
    parse: wholeNumber(1_000_000),
    default: '20000',
    doc: 'concurrent long polls this instance holds in all (its own sockets and memory); past it, the same',
  },
  walletTrustPath: {
    env: 'SVC_WALLET_TRUST',
    parse: path(),
    default: null,
    doc:
      'PEM bundle of the IACA roots EUDI wallet credentials must chain to ' +
      '([below](#eudi-wallets-which-issuers-to-trust-svc_wallet_trust), design.md §11); in production the wallet ' +
      'path is off without it. Production refuses the sandbox IACA in it, recognised by its public key',
  },
  walletTrustAllowTest: {
    env: 'SVC_WALLET_TRUST_ALLOW_TEST',
    parse: flag(),
    default: '0',
    defaultDoc: 'unset',
    doc:
      '`1`: production may trust the EU age-verification reference *test* CA in `SVC_WALLET_TRUST` (pilots; the ' +
      'boot logs a warning naming it). Unset, it stops the boot',
  },
  walletStatus: {
    env: 'SVC_WALLET_STATUS',
    parse: oneOf(['prefer', 'require', 'off']),
    default: 'prefer',
    doc:
      "what a wallet credential's status list decides ([below](#credential-status-svc_wallet_status), design.md §15): " +
      '`prefer` (a list that cannot be fetched → accepted, one log line), `require` (→ refused, "status unavailable"), ' +
      '`off` (never fetched). A revoked or suspended credential is refused unless `off`',
  },
  walletFormats: {
    env: 'SVC_WALLET_FORMATS',
    parse: oneOf(['all', 'mso_mdoc', 'dc+sd-jwt']),
    default: 'all',
    doc:
      'the wallet credential formats requests ask (design.md §19): `all` (the mdoc PID, mDL and proof of age and the ' +
      'SD-JWT VC PID), `mso_mdoc` (the mdocs alone) or `dc+sd-jwt` (the SD-JWT VC PID alone: an `[isAdult]` request ' +
      "then gets an `openid4vp://` link, not `av://`). A partner's `wallet_formats` (`svc partners update " +
      '--wallet-formats`) narrows it; a request with no format left is refused (400 `NO_METHOD`)',
  },
  walletAccessCertPath: {
    env: 'SVC_WALLET_ACCESS_CERT',
    parse: path(),
    default: null,
    doc:
      'file: the access certificate chain (PEM, leaf first, no root) with which the verifier signs its wallet ' +
      'requests ([docs/wallets.md](wallets.md), design.md §16). Unset: the one `svc wallet access-cert import` stored, ' +
      "else requests stay unsigned. The boot refuses a self-signed leaf, an expired one, a key that is not the leaf's, " +
      'and in production the sandbox access certificate (known by its public key)',
  },
  walletAccessKeyPath: {
    env: 'SVC_WALLET_ACCESS_KEY',
    parse: path(),
    default: null,
    rule: {
      doc: 'with `SVC_WALLET_ACCESS_CERT`, both or neither',
      check(key, loaded) {
        const together = 'the access certificate and its key go together';
        if (key !== null && loaded.walletAccessCertPath === null)
          throw new ConfigError(`SVC_WALLET_ACCESS_KEY is set without SVC_WALLET_ACCESS_CERT: ${together}`);
        if (key === null && loaded.walletAccessCertPath !== null)
          throw new ConfigError(`SVC_WALLET_ACCESS_CERT is set without SVC_WALLET_ACCESS_KEY: ${together}`);
      },
    },
    doc: "file: the leaf's private key, PKCS#8 P-256 PEM (`svc wallet access-cert csr` writes one)",
  },
  requestTimeoutMs: {
    env: 'SVC_REQUEST_TIMEOUT_MS',
    parse: milliseconds(1_000, 600_000),
    default: '30000',
    doc:
      'time a client has to send a whole request, headers and body, from its first byte; past it the connection ' +
      'is answered `408` and closed (Timeouts, below). A long poll is not cut: its request is received at ' +
      'once, and the wait for the answer is not counted',
  },
  headersTimeoutMs: {
    env: 'SVC_HEADERS_TIMEOUT_MS',
    parse: milliseconds(1_000, 600_000),
    default: (loaded) => String(Math.min(10_000, Number(loaded.requestTimeoutMs))),
    defaultDoc: '`10000` (or `SVC_REQUEST_TIMEOUT_MS` when lower)',
    rule: {
      doc: 'at most `SVC_REQUEST_TIMEOUT_MS`',
      check(headers, loaded) {
        if (Number(headers) > Number(loaded.requestTimeoutMs))
          throw new ConfigError(
            `SVC_HEADERS_TIMEOUT_MS (${headers}) must not exceed SVC_REQUEST_TIMEOUT_MS (${loaded.requestTimeoutMs}): ` +
              'the headers are part of the request',
          );
      },
    },
    doc: 'time to send the request line and headers, and to start a request on a new connection; past it, `408` and closed',
  },
  keepAliveTimeoutMs: {
    env: 'SVC_KEEP_ALIVE_TIMEOUT_MS',
    parse: milliseconds(1_000, 600_000),
    default: '72000',
    doc:
      'how long an idle kept-alive connection stays open between two requests (Node closes it a second after ' +
      "that); keep it above the proxy's upstream `keepalive_timeout` (nginx: 4 s) so that the proxy never reuses " +
      'a connection the instance is closing',
  },
  providerMaxAgeSeconds: {
    env: 'SVC_PROVIDER_MAX_AGE_S',
    parse: wholeSeconds(3_600),
    default: '300',
    doc:
      '`max_age` sent to identity providers: an ID token without `auth_time`, or whose sign-in is older (5 minutes ' +
      'of clock skew allowed), is refused ([providers](providers.md#a-fresh-check))',
  },
  metricsPort: {
    env: 'SVC_METRICS_PORT',
    parse: port(),
    default: null,
    defaultDoc: 'unset (`npm start`: `9464`)',
    doc:
      "port of the Prometheus listener (`GET /metrics`, design.md §17), a second listener, never the service's " +
      'port; unset, no metrics are kept ([Metrics](#metrics))',
  },
  metricsHost: {
    env: 'SVC_METRICS_HOST',
    parse: text('an address of this machine'),
    default: '127.0.0.1',
    doc: "interface the metrics listener binds; `0.0.0.0` only on a network the public cannot reach (the compose file's internal one)",
  },
  partnerPort: {
    env: 'PARTNER_PORT',
    parse: port(),
    default: '8788',
    sandboxOnly: true,
    doc: 'port of the example partner, which the demo page links to (it reads the same variable)',
  },
} as const satisfies Readonly<Record<string, Setting>>;

/**
 * Variables the tools beside the service read from the same environment (`npm start`,
 * `npm run start:cluster`, the example partner and identity provider, tracing, the e2e set-up), and
 * the partner credentials the docs' examples name. docs/operations.md lists them under the
 * settings; an `SVC_*` one set is no typo.
 */
export const TOOL_VARIABLES: Readonly<Record<string, { readBy: string; default: string; doc: string }>> = {
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    readBy: 'the service',
    default: 'unset',
    doc:
      'an OTLP/http collector (e.g. `http://otel-collector:4318`): turns traces on ([Traces](#traces)); the other ' +
      'standard `OTEL_EXPORTER_OTLP_*` variables (headers, timeout) apply, `OTEL_SERVICE_NAME` names the service (`svc`)',
  },
  SVC_LOG_FORMAT: {
    readBy: '`npm start`, `npm run start:cluster`',
    default: 'unset',
    doc: '`json`: print the JSON log lines as written instead of the readable ones `npm start` prints through its development printer',
  },
  SVC_CLUSTER_DIR: {
    readBy: '`npm run start:cluster`, `svc --cluster`',
    default: '`./data/cluster`',
    doc: "the local cluster's folder: Redis's AOF, the instances' master key, nginx's configuration",
  },
  SVC_CLUSTER_REDIS_PORT: {
    readBy: '`npm run start:cluster`, `svc --cluster`',
    default: '`6380`',
    doc: "port of the local cluster's Redis",
  },
  SVC_CLUSTER_INSTANCE_PORTS: {
    readBy: '`npm run start:cluster`',
    default: '`8791,8792`',
    doc: "ports of the local cluster's instances, two or more",
  },
  SVC_EXAMPLE_IDP_HOST: {
    readBy: 'the example identity provider',
    default: '`127.0.0.1`',
    doc: 'interface the example identity provider listens on',
  },
  PARTNER_HOST: {
    readBy: 'the example partner',
    default: '`127.0.0.1`',
    doc: 'interface the example partner listens on (its port: `PARTNER_PORT`)',
  },
  PARTNER_ID: {
    readBy: 'the example partner',
    default: '`pk_test_demo`',
    doc: "the example partner's STANDARD partner; with `PARTNER_SECRET` (default: its secret in `SVC_FIXTURES`)",
  },
  PARTNER_SECRET: {
    readBy: 'the example partner',
    default: 'its secret in `SVC_FIXTURES`',
    doc: "the example partner's STANDARD partner secret",
  },
  PARTNER_COOKIE_SECRET: {
    readBy: 'the example partner',
    default: 'random at each start',
    doc: "the example partner's session-cookie HMAC key (at least 32 characters); set it to keep sessions across restarts",
  },
  PARTNER_BLIND_ID: {
    readBy: 'the example partner',
    default: '`pk_test_blind_shop`',
    doc: "the example partner's ADULT_BLIND partner (its secret and blind app id come from `SVC_FIXTURES`)",
  },
  SVC_PARTNER_ID: {
    readBy: 'your backend',
    default: '—',
    doc: 'the partner ID in the [partner API](partner-api.md) examples; the service never reads it',
  },
  SVC_PARTNER_SECRET: {
    readBy: 'your backend',
    default: '—',
    doc: 'the partner secret in the [partner API](partner-api.md) examples; the service never reads it',
  },
  CHROMIUM_PATH: {
    readBy: 'Playwright, the benchmarks',
    default: '`/usr/bin/chromium`',
    doc: 'the browser Playwright and the benchmarks drive',
  },
  SVC_E2E_DATA_DIR: {
    readBy: 'the journeys (`playwright.config.ts`)',
    default: 'a fresh temporary folder',
    doc: "the journeys' service data folder",
  },
  SVC_E2E_CLUSTER_DIR: {
    readBy: 'the cluster journeys',
    default: 'a fresh temporary folder',
    doc: "the cluster journeys' `SVC_CLUSTER_DIR`",
  },
  SVC_SCREENSHOTS: {
    readBy: 'the journeys (`npm run screenshots` sets it)',
    default: 'unset',
    doc: '`1`: the journeys also rewrite `docs/screenshots/*.png`',
  },
};

/** A setting's value: what its parser makes, or null when it has no default. */
type ValueOf<S> = S extends { readonly parse: Parser<infer T>; readonly default: infer D }
  ? null extends D
    ? T | null
    : T
  : never;

/** The loaded configuration: one field per row of SETTINGS, and whether SVC_MODE was set. */
export type Config = { readonly [Field in keyof typeof SETTINGS]: ValueOf<(typeof SETTINGS)[Field]> } & {
  /**
   * true when SVC_MODE set the mode: unset, `mode` is only a default and the store's own mode wins
   * at boot (server/mode.ts), so a production data folder never boots as sandbox.
   */
  readonly modeFromEnv: boolean;
};

/** `sandbox` or `production` (SVC_MODE). */
export type Mode = Config['mode'];

/** Every variable the project knows; an `SVC_*` one set in the environment and not here is most likely a typo. */
export const KNOWN_VARIABLES: readonly string[] = [
  ...Object.values(SETTINGS).map((setting) => setting.env),
  ...Object.keys(TOOL_VARIABLES),
];

/**
 * One warning line per SVC_* variable in `env` that nothing reads, naming the nearest known one:
 * a typo such as SVC_PUBLC_URL would otherwise boot silently on the default.
 *
 * @example unknownVariableWarnings({ SVC_PUBLC_URL: 'https://svc.example' })
 * // ['SVC_PUBLC_URL is not a variable this service reads (did you mean SVC_PUBLIC_URL?); it is ignored']
 */
export function unknownVariableWarnings(env: NodeJS.ProcessEnv): string[] {
  const known = KNOWN_VARIABLES.filter((name) => name.startsWith('SVC_'));
  return Object.keys(env)
    .filter((name) => name.startsWith('SVC_') && !known.includes(name))
    .sort()
    .map(
      (name) =>
        `${name} is not a variable this service reads (did you mean ${nearestName(name, known)}?); it is ignored`,
    );
}

/**
 * Reads SETTINGS from `env`, row by row; paths resolve from `cwd`. Throws ConfigError with one
 * line for the first bad value, then checks what production needs.
 *
 * @example const config = loadConfig(process.env)
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const loaded: Record<string, unknown> = {};
  for (const [field, setting] of Object.entries(SETTINGS) as [string, Setting][]) {
    loaded[field] = readSetting(setting, env, loaded, cwd);
    setting.rule?.check(loaded[field], loaded);
  }
  const config = Object.freeze({ ...loaded, modeFromEnv: Boolean(env.SVC_MODE) }) as Config;
  if (config.mode === 'production') checkProductionConfig(config);
  return config;
}

function readSetting(setting: Setting, env: NodeJS.ProcessEnv, loaded: Loaded, cwd: string): unknown {
  const given = env[setting.env];
  const raw = given || (typeof setting.default === 'function' ? setting.default(loaded, env) : setting.default);
  if (raw === null) return null;
  try {
    return setting.parse.parse(raw, { name: setting.env, cwd });
  } catch (error) {
    if (!(error instanceof SettingProblem)) throw error;
    // A secret's value stays out of the line: it goes to terminals and logs.
    throw new ConfigError(`${setting.env} ${error.message}${setting.secret ? '' : `, got "${raw}"`}`);
  }
}

/**
 * The public URLs, each with the variable that sets it (the last three default to the first).
 * Production takes https:// only, or http:// on a loopback host for local trials (design.md §1):
 * wallets refuse an http:// response_uri, and an http:// page hands tokens to whoever is on the path.
 */
const PUBLIC_URLS = ['publicUrl', 'apiUrl', 'appUrl', 'widgetUrl'] as const;

/** What production needs from the environment; throws ConfigError naming what is missing or wrong. */
export function checkProductionConfig(
  config: Pick<Config, 'nullifierKey' | 'masterKey' | (typeof PUBLIC_URLS)[number]>,
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
  for (const field of PUBLIC_URLS) {
    if (!isSecureOrLoopbackUrl(config[field])) {
      throw new ConfigError(
        `SVC_MODE=production requires ${SETTINGS[field].env} to be https:// (http:// only on localhost, 127.0.0.0/8 or ::1), got "${config[field]}"`,
      );
    }
  }
}

// The parsers: each says what it allows, and refuses anything else rather than guess.

/** One of `values`, exactly. */
function oneOf<const T extends string>(values: readonly T[]): Parser<T> {
  const list = values.length === 2 ? `"${values[0]}" or "${values[1]}"` : `one of ${values.join(', ')}`;
  return {
    allowed: values.map((value) => `\`${value}\``).join(', '),
    parse(raw) {
      if (!(values as readonly string[]).includes(raw)) throw new SettingProblem(`must be ${list}`);
      return raw as T;
    },
  };
}

/** Any text; `allowed` says what it should be. */
function text(allowed: string): Parser<string> {
  return { allowed, parse: (raw) => raw };
}

/** A path, resolved from the working directory. */
function path(): Parser<string> {
  return { allowed: 'a path (relative: to the working directory)', parse: (raw, { cwd }) => resolve(cwd, raw) };
}

/** A TCP port; 0 lets the system choose. */
function port(): Parser<number> {
  return {
    allowed: '0–65535',
    parse(raw) {
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 0 || n > 65535) throw new SettingProblem('must be a port number (0-65535)');
      return n;
    },
  };
}

/** An absolute http(s) URL, without its trailing slashes. */
function httpUrl(): Parser<string> {
  return {
    allowed: '`http://` or `https://` URL',
    parse(raw) {
      let parsed: URL;
      try {
        parsed = new URL(raw);
      } catch {
        throw new SettingProblem('must be an absolute http(s) URL');
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new SettingProblem('must be http(s)');
      return raw.replace(/\/+$/, '');
    },
  };
}

/** A switch: "1" on, "0" off; anything else is refused rather than guessed. */
function flag(): Parser<boolean> {
  return {
    allowed: '`1` or unset',
    parse(raw) {
      if (raw !== '0' && raw !== '1') throw new SettingProblem('must be 1 or unset');
      return raw === '1';
    },
  };
}

/** Digits only, 0 to `max`. */
function wholeNumber(max: number): Parser<number> {
  return {
    allowed: `0–${max}`,
    parse(raw) {
      if (!/^\d+$/.test(raw) || Number(raw) > max) throw new SettingProblem(`must be a whole number from 0 to ${max}`);
      return Number(raw);
    },
  };
}

/** Digits only, `min` to `max` milliseconds. */
function milliseconds(min: number, max: number): Parser<number> {
  return {
    allowed: `${min}–${max} ms`,
    parse(raw) {
      const n = Number(raw);
      if (!/^\d+$/.test(raw) || n < min || n > max)
        throw new SettingProblem(`must be a whole number of milliseconds from ${min} to ${max}`);
      return n;
    },
  };
}

/** Up to four digits, 0 to `max` seconds. */
function wholeSeconds(max: number): Parser<number> {
  return {
    allowed: `0–${max} s`,
    parse(raw) {
      if (!/^\d{1,4}$/.test(raw) || Number(raw) > max)
        throw new SettingProblem(`must be whole seconds between 0 and ${max}`);
      return Number(raw);
    },
  };
}

/** Any number JavaScript reads as an integer from `min` to `max` (so `1e4` and ` 5000` too). */
function integerBetween(min: number, max: number, unit: string): Parser<number> {
  return {
    allowed: `${min}–${max} ${unit}`,
    parse(raw) {
      const n = Number(raw);
      if (!Number.isInteger(n) || n < min || n > max)
        throw new SettingProblem(`must be an integer between ${min} and ${max}`);
      return n;
    },
  };
}

/** A Redis key prefix or Sentinel master name: what Redis takes without quoting. */
function printableName(): Parser<string> {
  return {
    allowed: '1–64 printable characters, no spaces',
    parse(raw) {
      if (!/^[\x21-\x7e]{1,64}$/.test(raw))
        throw new SettingProblem('must be 1-64 printable characters without spaces');
      return raw;
    },
  };
}

/** A redis:// or rediss:// URL; kept whole, as it may carry a password. */
function redisUrl(): Parser<string> {
  return {
    allowed: '`redis://` or `rediss://` URL',
    parse(raw) {
      let protocol = '';
      try {
        protocol = new URL(raw).protocol;
      } catch {
        // reported below
      }
      if (protocol !== 'redis:' && protocol !== 'rediss:')
        throw new SettingProblem('must be a redis:// or rediss:// URL');
      return raw;
    },
  };
}

/** `host:port` entries separated by commas; an IPv6 host in brackets. */
function hostPorts(): Parser<readonly { host: string; port: number }[]> {
  return {
    allowed: '`host:port`, comma-separated',
    parse(raw) {
      return raw.split(',').map((entry) => {
        const match = /^\s*(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):(\d{1,5})\s*$/.exec(entry);
        const port = Number(match?.[2]);
        if (!match || port < 1 || port > 65535)
          throw new SettingProblem('must be host:port entries separated by commas');
        return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
      });
    },
  };
}

/** Base64 of at least `bytes` bytes, kept as written. */
function base64Bytes(bytes: number): Parser<string> {
  return {
    allowed: `base64 of at least ${bytes} bytes`,
    parse(raw) {
      if (Buffer.from(raw, 'base64').length < bytes)
        throw new SettingProblem(`must be base64 of at least ${bytes} bytes`);
      return raw;
    },
  };
}

/** A master key (crypto/master-key.ts), kept as written. */
function masterKey(): Parser<string> {
  return {
    allowed: 'base64 of exactly 32 bytes (`openssl rand -base64 32`)',
    parse(raw, { name }) {
      parseMasterKey(raw, name);
      return raw;
    },
  };
}

/** Master keys separated by commas, kept as written. */
function masterKeys(): Parser<string> {
  return {
    allowed: 'master keys, comma-separated',
    parse(raw, { name }) {
      for (const [i, key] of raw.split(',').filter(Boolean).entries()) parseMasterKey(key, `${name} (key ${i + 1})`);
      return raw;
    },
  };
}

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

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
 * proxy (docs/operations.md#client-addresses-and-proxies); `false` when none. Only an explicit
 * list: `true` or a catch-all would let any client choose its own rate-limit key by sending the
 * header, and so would a catch-all split in parts, or ranges wider than docs/operations.md allows
 * ("Client addresses", server/limits/proxy-ranges.ts).
 */
function proxyList(): Parser<false | string> {
  return {
    allowed: 'addresses, CIDRs, `loopback`, `linklocal`, `uniquelocal`, comma-separated',
    parse(raw) {
      if (raw === 'false') return false;
      const entries = raw.split(',').map((entry) => entry.trim());
      if (raw.trim() === 'true' || entries.some((entry) => readProxyEntry(entry) === null)) {
        throw new SettingProblem(
          `must list the proxies' addresses or CIDRs (or loopback, linklocal, uniquelocal); ` +
            `"true" and catch-alls such as 0.0.0.0/0 would trust any client's X-Forwarded-For`,
        );
      }
      const tooWide = tooWideProxyRanges(entries);
      if (tooWide !== null) {
        throw new SettingProblem(
          `must name the proxies, not the Internet: ${tooWide}, so those clients could pick their own rate-limit key`,
        );
      }
      return entries.join(',');
    },
  };
}
