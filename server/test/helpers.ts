/**
 * Shared helpers for server tests: deps on a fake clock and an in-memory SQLite store, an app
 * built from them, signed requests, and grants put straight into the store.
 *
 * The API is stable: other surfaces' tests import it. Add to it; do not change what is here.
 *
 * @example
 * const t = await makeTestApp();
 * const code = await putTestGrant(t.deps, { scopes: ['isAdult'] });
 * const res = await signedInject(t, { url: '/v1/exchange', body: { grant_code: code } });
 * t.clock.advance(5 * 60_000);
 * await t.close();
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Attributes, Method, ScopeAttributes } from '../../src/protocol/wire.ts';
import { LIMITS } from '../../src/protocol/wire.ts';
import { SCOPE_FIELD, type Scope } from '../../src/protocol/scopes.ts';
import { createApp } from '../app.ts';
import { buildDeps, openServiceStore } from '../boot.ts';
import { ensureCurrentKey } from '../crypto/keys.ts';
import { loadPartnerFixtures } from '../domain/index.ts';
import { createFakeClock, type Clock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import type { AppDeps } from '../deps.ts';
import { digestToken, newToken } from '../crypto/tokens.ts';
import { signRequest } from '../sdk/signing.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { GrantRecord, Store } from '../store/store.ts';
import { createIssuerCertificates, type IssuerCertificates } from '../sandbox/wallet/sandbox-issuer.ts';

/** The repository root, so fixtures resolve wherever vitest was started from. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Fixture partners (fixtures/partners.json) tests sign as. */
export const PARTNERS = {
  /** standard rail, http://localhost:8788 */
  demo: { id: 'pk_test_demo', secret: 'BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=' },
  /** standard rail, http://127.0.0.1:8788 */
  other: { id: 'pk_test_other', secret: 'b3tZCksVMt7Z4CWJdvEHer8iumW6V8ACBq9mgMcFPfQ=' },
  /** standard rail, allowed_scopes ["isAdult"] */
  adultOnly: { id: 'pk_test_adult_only', secret: 'Ag9GJqp/9mVCt66ko9AtzGLxzSpMCXqQJSr+bHZeYmY=' },
  /** adult_blind rail, blind_app_id app_blind_shop */
  blindShop: { id: 'pk_test_blind_shop', secret: 'F0CTKDdy5l48zr/uBDz2tVa/MjtmHtFc6QvO0i4deng=' },
  /** adult_blind rail, blind_app_id app_blind_club, http://127.0.0.1:8788 */
  blindClub: { id: 'pk_test_blind_club', secret: 'Jwto2Od2m+VwyHxNjRkxoNGmqqZXzVX9F+e2jC0mecs=' },
  /** adult_blind rail without a blind_app_id */
  blindNoApp: { id: 'pk_test_blind_noapp', secret: 'waJ5EHRDe4KcuDadurMUsAdYtteSMteJEu9kgCr02G8=' },
  /** adult_blind rail, allowed_scopes ["isAdult"] */
  blindAdultOnly: { id: 'pk_test_blind_adult_only', secret: '8CAe460TdhMtFeizFYlIu5ZOtkrU4y+GwsT1/kdcPBY=' },
  /** adult_blind rail, blind_app_id app_blind_private, attestation private (docs/adult-blind.md#private-attestations) */
  blindPrivate: { id: 'pk_test_blind_private', secret: 'Z75ZBOAw6CpKswR1k0LfVx4nQzgZdPZUOrgsUHwvuHo=' },
} as const;

/** The master key test deps seal with (SVC_MASTER_KEY), unless a test sets its own. */
export const TEST_MASTER_KEY = Buffer.alloc(32, 0x5e).toString('base64');

export interface TestPartner {
  readonly id: string;
  readonly secret: string;
}

export type FakeClock = ReturnType<typeof createFakeClock>;

export interface TestDeps {
  deps: AppDeps;
  clock: FakeClock;
  store: Store;
}

export interface MakeTestDepsOptions {
  /** extra environment for loadConfig (SVC_MODE, SVC_REQUEST_TTL_MS, …); NODE_ENV is 'test' */
  env?: Record<string, string>;
  /** defaults to a fake clock at 2026-01-01T00:00:00Z */
  clock?: FakeClock;
  /** defaults to a fresh in-memory SQLite store */
  store?: Store;
}

/**
 * Real deps (sandbox mode, fixture partners and personas) on a fake clock and an in-memory store.
 *
 * @example const { deps, clock, store } = await makeTestDeps();
 */
export async function makeTestDeps(options: MakeTestDepsOptions = {}): Promise<TestDeps> {
  const clock = options.clock ?? createFakeClock();
  const store = options.store ?? openSqliteStore(':memory:');
  const env = {
    NODE_ENV: 'test',
    SVC_DATA_DIR: join(tmpdir(), 'svc-test-unused'),
    SVC_MASTER_KEY: TEST_MASTER_KEY,
    ...options.env,
  };
  const config = loadConfig(env, REPO_ROOT);
  const deps = await buildDeps(config, { store, clock });
  return { deps, clock, store: deps.store };
}

export interface TestApp extends TestDeps {
  app: FastifyInstance;
  /** closes the app and the store */
  close(): Promise<void>;
}

/**
 * `createApp` over `makeTestDeps`; use `app.inject()` or `signedInject(t, …)`. Given `log`, every
 * log line (JSON, at `log.level`, info by default) is pushed onto `log.lines`.
 *
 * @example const t = await makeTestApp(); afterEach(() => t.close());
 * @example const t = await makeTestApp({ log: { lines, level: 'debug' } }); // lines: string[]
 */
export async function makeTestApp(
  options: MakeTestDepsOptions & { deps?: AppDeps; log?: { lines: string[]; level?: string } } = {},
): Promise<TestApp> {
  const base = options.deps
    ? { deps: options.deps, clock: options.deps.clock as FakeClock, store: options.deps.store }
    : await makeTestDeps(options);
  const { log } = options;
  const app = await createApp(
    base.deps,
    log && { logger: { level: log.level ?? 'info', stream: { write: (line: string) => void log.lines.push(line) } } },
  );
  await app.ready();
  return {
    ...base,
    app,
    async close() {
      await app.close();
      await base.store.close();
    },
  };
}

/** A fresh nonce in the recommended shape (UUID v4, docs/partner-api.md#errors-of-the-partner-api). */
export function newNonce(): string {
  return randomUUID();
}

export interface SignedRequest {
  url: string;
  /** POST by default; a GET signs the empty body */
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** a string is sent byte for byte; anything else is JSON.stringify'd once */
  body?: unknown;
  /** defaults to PARTNERS.demo */
  partner?: TestPartner;
  /** Unix seconds; defaults to the clock's now */
  timestamp?: number;
  nonce?: string;
  /** added after signing (e.g. Idempotency-Key, Origin); a value of undefined removes a header */
  headers?: Record<string, string | undefined>;
}

/** Serialises a body exactly once, as the SDK does. */
export function bodyText(body: unknown): string {
  if (body === undefined) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/**
 * The inject options of a correctly signed request (before `headers` overrides), for tests
 * that want to tamper with them first.
 *
 * @example const opts = signedInjectOptions(clock, { url: '/v1/introspect', body: { pass_token } });
 */
export function signedInjectOptions(clock: Clock, request: SignedRequest): InjectOptions {
  const method = request.method ?? 'POST';
  const partner = request.partner ?? PARTNERS.demo;
  const payload = method === 'GET' ? '' : bodyText(request.body);
  const signed = signRequest({
    partnerId: partner.id,
    secret: partner.secret,
    body: payload,
    timestamp: request.timestamp ?? Math.floor(clock.now() / 1000),
    nonce: request.nonce ?? newNonce(),
  });
  const headers: Record<string, string> = { ...signed };
  if (method === 'GET') delete (headers as Partial<typeof signed>)['Content-Type'];
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    for (const existing of Object.keys(headers))
      if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
    if (value !== undefined) headers[name] = value;
  }
  const options: InjectOptions = { method, url: request.url, headers };
  if (method !== 'GET') options.payload = payload;
  return options;
}

/**
 * Sends a request signed for the app's (fake) clock.
 *
 * @example
 * const res = await signedInject(t, { url: '/v1/exchange', body: { grant_code }, headers: { 'Idempotency-Key': 'k1' } });
 * expect(res.statusCode).toBe(200);
 */
export function signedInject(
  target: { app: FastifyInstance; clock: Clock },
  request: SignedRequest,
): Promise<LightMyRequestResponse> {
  return target.app.inject(signedInjectOptions(target.clock, request));
}

export interface TestGrantInput {
  /** defaults to PARTNERS.demo.id */
  partnerId?: string;
  /** defaults to ['isAdult'] */
  scopes?: Scope[];
  /** defaults to the attribute of each scope for an adult French man */
  attributes?: Attributes;
  method?: Method;
  requestId?: string;
  /** defaults to now */
  verifiedAt?: number;
  generationTimeMs?: number;
  /** defaults to now + 5 minutes */
  expiresAt?: number;
}

const DEFAULT_ATTRIBUTES: Required<ScopeAttributes> = {
  age_over_18: true,
  is_male: true,
  is_female: false,
  is_french: true,
  is_eu: true,
  nationality: 'FRA',
  birth_year: 1992,
  nullifier: `0x${'ab'.repeat(32)}`,
};

/** The attributes the phone route would compute for these scopes (an adult French man). */
export function attributesFor(scopes: readonly Scope[]): Attributes {
  const attributes: Record<string, unknown> = {};
  for (const scope of scopes) attributes[SCOPE_FIELD[scope]] = DEFAULT_ATTRIBUTES[SCOPE_FIELD[scope]];
  return attributes as Attributes;
}

/**
 * Puts a grant straight into the store, as the phone route does on approval; returns the grant
 * code (the store keeps only its digest).
 *
 * @example const grantCode = await putTestGrant(deps, { scopes: ['isAdult', 'isFrench'] });
 */
export async function putTestGrant(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  input: TestGrantInput = {},
): Promise<string> {
  const now = deps.clock.now();
  const grantCode = newToken('grant');
  const scopes = input.scopes ?? ['isAdult'];
  const record: GrantRecord = {
    digest: digestToken(grantCode),
    partnerId: input.partnerId ?? PARTNERS.demo.id,
    requestId: input.requestId ?? `vr_test${randomUUID().replaceAll('-', '').slice(0, 16)}`,
    scopes,
    attributes: input.attributes ?? attributesFor(scopes),
    method: input.method ?? 'face_check',
    verifiedAt: input.verifiedAt ?? now,
    generationTimeMs: input.generationTimeMs ?? 1200,
    expiresAt: input.expiresAt ?? now + LIMITS.grantTtlMs,
  };
  await deps.store.putGrant(record);
  return grantCode;
}

/**
 * A temporary directory removed by the returned `remove()`.
 *
 * @example const dir = makeTempDir(); afterAll(() => dir.remove());
 */
export function makeTempDir(prefix = 'svc-test-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The nullifier key production test deps use (SVC_NULLIFIER_KEY). */
export const TEST_NULLIFIER_KEY = Buffer.alloc(32, 0x09).toString('base64');

/** A fixture partner's ID as production knows it: `pk_test_demo` → `pk_live_demo`. */
export function liveIdOf(id: string): string {
  return id.replace(/^pk_test_/, 'pk_live_');
}

/**
 * Real deps in production mode, as an operator would have set the store up with the CLI: the
 * fixture partners under `pk_live_` IDs (`svc partners add`; same secrets and domains) and
 * current signing keys (`svc keys rotate`), then boot. The service itself loads no fixtures.
 *
 * @example const { deps } = await makeProductionTestDeps({ env: { SVC_WALLET_TRUST: bundlePath } });
 */
export async function makeProductionTestDeps(options: MakeTestDepsOptions = {}): Promise<TestDeps> {
  const clock = options.clock ?? createFakeClock();
  const raw = options.store ?? openSqliteStore(':memory:');
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      SVC_MODE: 'production',
      SVC_DATA_DIR: join(tmpdir(), 'svc-test-unused'),
      SVC_MASTER_KEY: TEST_MASTER_KEY,
      SVC_NULLIFIER_KEY: TEST_NULLIFIER_KEY,
      ...options.env,
    },
    REPO_ROOT,
  );
  const { store } = await openServiceStore(config, { store: raw });
  for (const partner of loadPartnerFixtures(join(REPO_ROOT, 'fixtures', 'partners.json'), clock.now()))
    await store.putPartner({ ...partner, id: liveIdOf(partner.id) });
  for (const purpose of ['attestation', 'session'] as const) await ensureCurrentKey(store, purpose, clock.now());
  const deps = await buildDeps(config, { store: raw, clock });
  return { deps, clock, store: deps.store };
}

/**
 * A production deployment's own wallet trust: a fresh IACA root written as a PEM bundle for
 * SVC_WALLET_TRUST (production never trusts the sandbox root), and its issuer, to present
 * credentials under it. The file lives in a temporary directory the caller may remove.
 *
 * @example const trust = await makeProductionWalletTrust(); await makeProductionTestDeps({ env: { SVC_WALLET_TRUST: trust.path } })
 */
export async function makeProductionWalletTrust(
  name = 'Production Test',
): Promise<{ path: string; issuer: IssuerCertificates }> {
  const issuer = await createIssuerCertificates({
    name,
    country: 'FR',
    notBefore: new Date(Date.UTC(2025, 0, 1)),
    notAfter: new Date(Date.UTC(2035, 0, 1)),
  });
  const path = join(mkdtempSync(join(tmpdir(), 'svc-trust-')), 'iaca.pem');
  writeFileSync(path, issuer.iaca.toString('pem') + '\n');
  return { path, issuer };
}
