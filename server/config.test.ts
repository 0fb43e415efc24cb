import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KNOWN_VARIABLES, loadConfig, SETTINGS, TOOL_VARIABLES, unknownVariableWarnings } from './config.ts';
import { REPO_ROOT } from './test/helpers.ts';
import { ConfigError } from './errors.ts';

describe('loadConfig', () => {
  it('defaults to sandbox on localhost:8787 with SQLite in ./data', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      mode: 'sandbox',
      port: 8787,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:8787',
      apiUrl: 'http://localhost:8787',
      appUrl: 'http://localhost:8787',
      widgetUrl: 'http://localhost:8787',
      dataDir: '/srv/app/data',
      redisUrl: null,
      partnerPort: 8788,
      requestTtlMs: 300_000,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('selects Redis with SVC_REDIS_URL under SVC_REDIS_PREFIX (default svc:), and names neither a bad URL nor its password', () => {
    expect(loadConfig({}).redisPrefix).toBe('svc:');
    const config = loadConfig({ SVC_REDIS_URL: 'rediss://:pw@redis.internal:6380/2', SVC_REDIS_PREFIX: 'shop-a:' });
    expect(config).toMatchObject({ redisUrl: 'rediss://:pw@redis.internal:6380/2', redisPrefix: 'shop-a:' });
    for (const bad of ['http://:secret@redis', 'secret-host:6379']) {
      expect(() => loadConfig({ SVC_REDIS_URL: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ SVC_REDIS_URL: bad })).not.toThrow(/secret/);
    }
    expect(() => loadConfig({ SVC_REDIS_URL: 'redis://x', SVC_REDIS_PREFIX: 'has space' })).toThrow(/SVC_REDIS_PREFIX/);
  });

  it('selects Sentinel with SVC_REDIS_SENTINELS and SVC_REDIS_MASTER_NAME, both or neither, never beside SVC_REDIS_URL', () => {
    expect(loadConfig({})).toMatchObject({ redisSentinels: null, redisMinReplicas: 0, redisWaitMs: 250 });
    const config = loadConfig({
      SVC_REDIS_SENTINELS: 'sentinel-1:26379, 10.0.0.2:26380,[::1]:26381',
      SVC_REDIS_MASTER_NAME: 'svc',
      SVC_REDIS_MIN_REPLICAS: '1',
      SVC_REDIS_WAIT_MS: '100',
    });
    expect(config).toMatchObject({
      redisUrl: null,
      redisSentinels: [
        { host: 'sentinel-1', port: 26379 },
        { host: '10.0.0.2', port: 26380 },
        { host: '::1', port: 26381 },
      ],
      redisMasterName: 'svc',
      redisMinReplicas: 1,
      redisWaitMs: 100,
    });
    expect(() => loadConfig({ SVC_REDIS_SENTINELS: 'a:26379' })).toThrow(/go together/);
    expect(() => loadConfig({ SVC_REDIS_MASTER_NAME: 'svc' })).toThrow(/go together/);
    const both = { SVC_REDIS_SENTINELS: 'a:26379', SVC_REDIS_MASTER_NAME: 'svc', SVC_REDIS_URL: 'redis://x' };
    expect(() => loadConfig(both)).toThrow(/not both/);
    for (const bad of ['a', 'a:0', 'a:26379,', 'a:99999'])
      expect(() => loadConfig({ SVC_REDIS_SENTINELS: bad, SVC_REDIS_MASTER_NAME: 'svc' })).toThrow(/host:port/);
    expect(() => loadConfig({ SVC_REDIS_MIN_REPLICAS: 'one' })).toThrow(/SVC_REDIS_MIN_REPLICAS/);
    expect(() => loadConfig({ SVC_REDIS_WAIT_MS: '0' })).toThrow(/SVC_REDIS_WAIT_MS/);
  });

  it('reads the edge timeouts: 30 s for a whole request, 10 s for its headers, 72 s for an idle kept-alive connection', () => {
    expect(loadConfig({})).toMatchObject({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
    });
    expect(
      loadConfig({
        SVC_REQUEST_TIMEOUT_MS: '5000',
        SVC_HEADERS_TIMEOUT_MS: '2000',
        SVC_KEEP_ALIVE_TIMEOUT_MS: '65000',
      }),
    ).toMatchObject({ requestTimeoutMs: 5_000, headersTimeoutMs: 2_000, keepAliveTimeoutMs: 65_000 });
    // a request timeout under 10 s brings the headers' default down with it
    expect(loadConfig({ SVC_REQUEST_TIMEOUT_MS: '4000' }).headersTimeoutMs).toBe(4_000);
  });

  it('reads SVC_PROVIDER_MAX_AGE_S: 300 by default, whole seconds 0 to 3600, anything else stops the boot', () => {
    expect(loadConfig({}).providerMaxAgeSeconds).toBe(300);
    expect(loadConfig({ SVC_PROVIDER_MAX_AGE_S: '0' }).providerMaxAgeSeconds).toBe(0);
    expect(loadConfig({ SVC_PROVIDER_MAX_AGE_S: '3600' }).providerMaxAgeSeconds).toBe(3600);
    for (const raw of ['3601', '-1', '1.5', 'five', ' 60'])
      expect(() => loadConfig({ SVC_PROVIDER_MAX_AGE_S: raw }), raw).toThrow(/SVC_PROVIDER_MAX_AGE_S/);
  });

  it('derives the three base URLs from SVC_PUBLIC_URL unless each is set', () => {
    const config = loadConfig({ SVC_PUBLIC_URL: 'https://svc.example/', SVC_API_URL: 'https://api.svc.example' });
    expect(config.publicUrl).toBe('https://svc.example');
    expect(config.apiUrl).toBe('https://api.svc.example');
    expect(config.appUrl).toBe('https://svc.example');
  });

  it.each([
    [undefined, false],
    ['false', false],
    ['10.0.0.0/8, 127.0.0.1', '10.0.0.0/8,127.0.0.1'],
    ['loopback,::1', 'loopback,::1'],
    ['2001:db8::/32,uniquelocal', '2001:db8::/32,uniquelocal'],
  ])('reads SVC_TRUST_PROXY=%j as %j', (raw, expected) => {
    expect(loadConfig(raw === undefined ? {} : { SVC_TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });

  it.each([
    [{ SVC_MODE: 'staging' }, /SVC_MODE/],
    [{ SVC_PORT: 'eighty' }, /SVC_PORT/],
    [{ SVC_PUBLIC_URL: 'ftp://x' }, /SVC_PUBLIC_URL/],
    [{ SVC_REQUEST_TTL_MS: '10' }, /SVC_REQUEST_TTL_MS/],
    [{ SVC_MODE: 'production' }, /SVC_NULLIFIER_KEY/],
    [{ SVC_NULLIFIER_KEY: 'c2hvcnQ=' }, /SVC_NULLIFIER_KEY/],
    [{ SVC_TRUST_PROXY: 'everyone' }, /SVC_TRUST_PROXY/],
    [{ SVC_TRUST_PROXY: '1' }, /SVC_TRUST_PROXY/],
    [{ SVC_TRUST_PROXY: 'true' }, /SVC_TRUST_PROXY.*catch-all/],
    [{ SVC_TRUST_PROXY: '0.0.0.0/0' }, /SVC_TRUST_PROXY/],
    [{ SVC_TRUST_PROXY: '::/0' }, /SVC_TRUST_PROXY/],
    [{ SVC_TRUST_PROXY: '127.0.0.1,::/0' }, /SVC_TRUST_PROXY/],
    [{ SVC_TRUST_PROXY: '10.0.0.0/33' }, /SVC_TRUST_PROXY/],
    [{ SVC_TRUST_PROXY: '10.0.0.0/8/8' }, /SVC_TRUST_PROXY/],
    [{ SVC_LONG_POLL_PER_ADDRESS: '-1' }, /SVC_LONG_POLL_PER_ADDRESS must be a whole number/],
    [{ SVC_LONG_POLL_MAX: '1e3' }, /SVC_LONG_POLL_MAX must be a whole number/],
    [{ SVC_MASTER_KEY: 'c2hvcnQ=' }, /SVC_MASTER_KEY must be base64 of exactly 32/],
    [
      { SVC_REQUEST_TIMEOUT_MS: '0' },
      /SVC_REQUEST_TIMEOUT_MS must be a whole number of milliseconds from 1000 to 600000/,
    ],
    [{ SVC_REQUEST_TIMEOUT_MS: '30s' }, /SVC_REQUEST_TIMEOUT_MS must be a whole number/],
    [{ SVC_REQUEST_TIMEOUT_MS: '600001' }, /SVC_REQUEST_TIMEOUT_MS/],
    [{ SVC_HEADERS_TIMEOUT_MS: '1e4' }, /SVC_HEADERS_TIMEOUT_MS must be a whole number/],
    [{ SVC_HEADERS_TIMEOUT_MS: '999' }, /SVC_HEADERS_TIMEOUT_MS/],
    [
      { SVC_REQUEST_TIMEOUT_MS: '5000', SVC_HEADERS_TIMEOUT_MS: '6000' },
      /SVC_HEADERS_TIMEOUT_MS \(6000\) must not exceed SVC_REQUEST_TIMEOUT_MS \(5000\)/,
    ],
    [{ SVC_KEEP_ALIVE_TIMEOUT_MS: '-5' }, /SVC_KEEP_ALIVE_TIMEOUT_MS must be a whole number/],
    [{ SVC_MASTER_KEY_PREVIOUS: 'c2hvcnQ=' }, /SVC_MASTER_KEY_PREVIOUS/],
    [{ SVC_LOG_LEVEL: 'verbose' }, /^SVC_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/],
  ])('fails at boot with one clear line for %j', (env, message) => {
    expect(() => loadConfig(env)).toThrowError(ConfigError);
    expect(() => loadConfig(env)).toThrowError(message);
  });
});

/** The line loadConfig(env) stops on, or null when it loads. */
function bootLine(env: NodeJS.ProcessEnv): string | null {
  try {
    loadConfig(env, '/srv/app');
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

const KEY = Buffer.alloc(32, 7).toString('base64');

describe('SETTINGS, the one table', () => {
  it('loads an empty environment exactly as the hand-written loader did before it', () => {
    expect(loadConfig({}, '/srv/app')).toStrictEqual({
      mode: 'sandbox',
      modeFromEnv: false,
      port: 8787,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:8787',
      apiUrl: 'http://localhost:8787',
      appUrl: 'http://localhost:8787',
      widgetUrl: 'http://localhost:8787',
      dataDir: '/srv/app/data',
      redisUrl: null,
      redisPrefix: 'svc:',
      redisSentinels: null,
      redisMasterName: null,
      redisMinReplicas: 0,
      redisWaitMs: 250,
      drainMs: 10_000,
      fixturesPath: '/srv/app/fixtures/partners.json',
      providerFixturesPath: '/srv/app/fixtures/providers.json',
      partnerPort: 8788,
      requestTtlMs: 300_000,
      providerMaxAgeSeconds: 300,
      nullifierKey: null,
      masterKey: null,
      previousMasterKeys: null,
      logLevel: 'info',
      distDir: '/srv/app/dist',
      trustProxy: false,
      longPollPerAddress: 100,
      longPollMax: 20_000,
      walletTrustPath: null,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
      walletTrustAllowTest: false,
      metricsPort: null,
      metricsHost: '127.0.0.1',
      walletStatus: 'prefer',
      walletFormats: 'all',
      walletAccessCertPath: null,
      walletAccessKeyPath: null,
    });
    expect(loadConfig({ NODE_ENV: 'test' }).logLevel).toBe('silent');
  });

  it('reads an empty variable as unset, and a set one through the same parser as its default', () => {
    const empty = Object.fromEntries(Object.values(SETTINGS).map((setting) => [setting.env, '']));
    expect(loadConfig(empty, '/srv/app')).toStrictEqual(loadConfig({}, '/srv/app'));
    expect(loadConfig({ SVC_PUBLIC_URL: 'https://svc.example//', SVC_PORT: '9000' }).appUrl).toBe(
      'https://svc.example',
    );
    expect(loadConfig({ SVC_DATA_DIR: 'var/svc' }, '/srv/app').dataDir).toBe('/srv/app/var/svc');
    expect(loadConfig({ SVC_WALLET_TRUST_ALLOW_TEST: '1', SVC_WALLET_FORMATS: 'dc+sd-jwt' })).toMatchObject({
      walletTrustAllowTest: true,
      walletFormats: 'dc+sd-jwt',
    });
  });

  it('declares each variable once, and the Config has a field for each and no other but modeFromEnv', () => {
    const names = [...Object.values(SETTINGS).map((setting) => setting.env), ...Object.keys(TOOL_VARIABLES)];
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(loadConfig({})).sort()).toEqual([...Object.keys(SETTINGS), 'modeFromEnv'].sort());
  });

  // One case or more per kind of parser and per shared rule: the whole line, as the operator reads it.
  it.each([
    [{ SVC_MODE: 'staging' }, 'SVC_MODE must be "sandbox" or "production", got "staging"'],
    [{ SVC_WALLET_STATUS: 'maybe' }, 'SVC_WALLET_STATUS must be one of prefer, require, off, got "maybe"'],
    [{ SVC_WALLET_FORMATS: 'jwt' }, 'SVC_WALLET_FORMATS must be one of all, mso_mdoc, dc+sd-jwt, got "jwt"'],
    [{ SVC_PORT: '70000' }, 'SVC_PORT must be a port number (0-65535), got "70000"'],
    [{ SVC_METRICS_PORT: '1.5' }, 'SVC_METRICS_PORT must be a port number (0-65535), got "1.5"'],
    [{ PARTNER_PORT: 'x' }, 'PARTNER_PORT must be a port number (0-65535), got "x"'],
    [{ SVC_APP_URL: 'svc.example' }, 'SVC_APP_URL must be an absolute http(s) URL, got "svc.example"'],
    [{ SVC_WIDGET_URL: 'ftp://svc.example' }, 'SVC_WIDGET_URL must be http(s), got "ftp://svc.example"'],
    [{ SVC_WALLET_TRUST_ALLOW_TEST: 'yes' }, 'SVC_WALLET_TRUST_ALLOW_TEST must be 1 or unset, got "yes"'],
    [{ SVC_REDIS_MIN_REPLICAS: '17' }, 'SVC_REDIS_MIN_REPLICAS must be a whole number from 0 to 16, got "17"'],
    [{ SVC_DRAIN_MS: '99' }, 'SVC_DRAIN_MS must be a whole number of milliseconds from 100 to 120000, got "99"'],
    [
      { SVC_DRAIN_MS: '120001' },
      'SVC_DRAIN_MS must be a whole number of milliseconds from 100 to 120000, got "120001"',
    ],
    [{ SVC_DRAIN_MS: '5s' }, 'SVC_DRAIN_MS must be a whole number of milliseconds from 100 to 120000, got "5s"'],
    [
      { SVC_REDIS_WAIT_MS: '1001' },
      'SVC_REDIS_WAIT_MS must be a whole number of milliseconds from 1 to 1000, got "1001"',
    ],
    [{ SVC_PROVIDER_MAX_AGE_S: '3601' }, 'SVC_PROVIDER_MAX_AGE_S must be whole seconds between 0 and 3600, got "3601"'],
    [{ SVC_REQUEST_TTL_MS: 'abc' }, 'SVC_REQUEST_TTL_MS must be an integer between 1000 and 300000, got "abc"'],
    [{ SVC_REDIS_PREFIX: 'a b' }, 'SVC_REDIS_PREFIX must be 1-64 printable characters without spaces, got "a b"'],
    [
      { SVC_REDIS_SENTINELS: 'a:1', SVC_REDIS_MASTER_NAME: 'm'.repeat(65) },
      `SVC_REDIS_MASTER_NAME must be 1-64 printable characters without spaces, got "${'m'.repeat(65)}"`,
    ],
    [
      { SVC_REDIS_SENTINELS: 'a:1,b', SVC_REDIS_MASTER_NAME: 'svc' },
      'SVC_REDIS_SENTINELS must be host:port entries separated by commas, got "a:1,b"',
    ],
    [
      { SVC_LOG_LEVEL: 'verbose' },
      'SVC_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    ],
    [
      { SVC_TRUST_PROXY: 'everyone' },
      "SVC_TRUST_PROXY must list the proxies' addresses or CIDRs (or loopback, linklocal, uniquelocal); " +
        '"true" and catch-alls such as 0.0.0.0/0 would trust any client\'s X-Forwarded-For, got "everyone"',
    ],
    [{ SVC_REDIS_URL: 'http://redis' }, 'SVC_REDIS_URL must be a redis:// or rediss:// URL'],
    [{ SVC_NULLIFIER_KEY: 'c2hvcnQ=' }, 'SVC_NULLIFIER_KEY must be base64 of at least 32 bytes'],
    [
      { SVC_MASTER_KEY: 'c2hvcnQ=' },
      'SVC_MASTER_KEY must be base64 of exactly 32 random bytes (e.g. openssl rand -base64 32)',
    ],
    [
      { SVC_MASTER_KEY_PREVIOUS: `${KEY},c2hvcnQ=` },
      'SVC_MASTER_KEY_PREVIOUS (key 2) must be base64 of exactly 32 random bytes (e.g. openssl rand -base64 32)',
    ],
    [
      { SVC_REDIS_MASTER_NAME: 'svc' },
      'SVC_REDIS_SENTINELS and SVC_REDIS_MASTER_NAME go together: set both, or neither',
    ],
    [
      { SVC_REDIS_SENTINELS: 'a:1', SVC_REDIS_MASTER_NAME: 'svc', SVC_REDIS_URL: 'redis://x' },
      'set SVC_REDIS_URL or SVC_REDIS_SENTINELS, not both: Sentinel names the primary',
    ],
    [
      { SVC_WALLET_ACCESS_KEY: 'key.pem' },
      'SVC_WALLET_ACCESS_KEY is set without SVC_WALLET_ACCESS_CERT: the access certificate and its key go together',
    ],
    [
      { SVC_WALLET_ACCESS_CERT: 'cert.pem' },
      'SVC_WALLET_ACCESS_CERT is set without SVC_WALLET_ACCESS_KEY: the access certificate and its key go together',
    ],
    [
      { SVC_REQUEST_TIMEOUT_MS: '5000', SVC_HEADERS_TIMEOUT_MS: '6000' },
      'SVC_HEADERS_TIMEOUT_MS (6000) must not exceed SVC_REQUEST_TIMEOUT_MS (5000): the headers are part of the request',
    ],
    [
      { SVC_MODE: 'production', SVC_NULLIFIER_KEY: KEY, SVC_MASTER_KEY: KEY, SVC_PUBLIC_URL: 'http://svc.example' },
      'SVC_MODE=production requires SVC_PUBLIC_URL to be https:// (http:// only on localhost, 127.0.0.0/8 or ::1), got "http://svc.example"',
    ],
  ])('stops at %j with the one line %j', (env, line) => {
    expect(bootLine(env)).toBe(line);
  });

  it('never repeats a secret in its line, whichever secret and however it is wrong', () => {
    const secrets = Object.values(SETTINGS).filter((setting) => 'secret' in setting && setting.secret);
    expect(secrets.map((setting) => setting.env)).toEqual([
      'SVC_REDIS_URL',
      'SVC_NULLIFIER_KEY',
      'SVC_MASTER_KEY',
      'SVC_MASTER_KEY_PREVIOUS',
    ]);
    for (const { env } of secrets) {
      for (const value of ['hunter2', 'http://:hunter2@redis', 'hunter2 ']) {
        const line = bootLine({ [env]: value });
        expect(line, `${env}=${value}`).toMatch(new RegExp(`^${env}`));
        expect(line, `${env}=${value}`).not.toContain('hunter2');
      }
    }
  });
});

describe('unknown SVC_* variables', () => {
  it('gives one warning line for each, naming the nearest known variable', () => {
    expect(
      unknownVariableWarnings({
        SVC_PUBLC_URL: 'https://svc.example',
        SVC_MASTERKEY: 'x',
        SVC_TRUST_PROXIES: 'loopback',
        SVC_PORT: '8787',
        PORT: '1',
        svc_mode: 'production',
      }),
    ).toEqual([
      'SVC_MASTERKEY is not a variable this service reads (did you mean SVC_MASTER_KEY?); it is ignored',
      'SVC_PUBLC_URL is not a variable this service reads (did you mean SVC_PUBLIC_URL?); it is ignored',
      'SVC_TRUST_PROXIES is not a variable this service reads (did you mean SVC_TRUST_PROXY?); it is ignored',
    ]);
  });

  it('warns of none the project itself reads: every SVC_* name in its sources, scripts and docs is known', () => {
    const files = (dir: string): string[] =>
      readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(path);
        return /\.(ts|md|json)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
      });
    const sources = [...files('server'), ...files('scripts'), ...files('docs'), 'README.md', 'playwright.config.ts'];
    const named = new Set(
      sources.flatMap((file) => readFileSync(join(REPO_ROOT, file), 'utf8').match(/\bSVC_[A-Z0-9_]*[A-Z0-9]\b/g) ?? []),
    );
    named.delete('SVC_HEADERS'); // the SDK's header names, a constant
    named.delete('SVC_PUBLC_URL'); // the typo the warning's own example shows
    expect([...named].filter((name) => !KNOWN_VARIABLES.includes(name)).sort()).toEqual([]);
    expect(unknownVariableWarnings(Object.fromEntries([...named].map((name) => [name, '1'])))).toEqual([]);
  });
});
