/**
 * The conformance twin (design.md §19, docs/wallets.md#conformance-the-openid-foundations-verifier-plans):
 * the OpenID Foundation's `oid4vp-1final-verifier-test-plan` and `…-haip-test-plan` (suite
 * release-v5.2.3, snapshot 12f2a4d) replayed by a mock wallet written here from the specifications
 * with jose and node:crypto only: it shares no code with the verifier (server/wallet/) nor with the
 * sandbox wallet (server/sandbox/). One test per module × variant, named by the suite's module id
 * and the variant (`npm run conformance` tabulates them), and the suite's checks on every request.
 * One service for the file, listening on loopback; SVC_WALLET_FORMATS=dc+sd-jwt, as a plan run for
 * the `sd_jwt_vc` format needs.
 */
import { createECDH, createHash, randomBytes, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AddressInfo, createServer } from 'node:net';
import {
  calculateJwkThumbprint,
  CompactEncrypt,
  compactVerify,
  decodeProtectedHeader,
  importJWK,
  importX509,
  type JWK,
  SignJWT,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../clock.ts';
import { makeTestApp, PARTNERS, REPO_ROOT, type TestApp } from '../helpers.ts';
import { pollStatus, postVerifyRequest } from '../verify-flow.ts';

const FIXTURES = join(REPO_ROOT, 'fixtures/wallet');
const ACCESS_ENV = {
  SVC_WALLET_ACCESS_CERT: join(FIXTURES, 'sandbox-access.pem'),
  SVC_WALLET_ACCESS_KEY: join(FIXTURES, 'sandbox-access.key.pem'),
};
const DAY_S = 86_400;
const b64u = (bytes: Buffer | Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (text: string) => createHash('sha256').update(text).digest();

// ---- the mock wallet: an SD-JWT VC PID issuer and holder, from the fixtures' document signer ----

const issuerJwk = JSON.parse(readFileSync(join(FIXTURES, 'sandbox-ds.key.json'), 'utf8')) as JWK;
const issuerX5c = [new X509Certificate(readFileSync(join(FIXTURES, 'sandbox-ds.pem'))).raw.toString('base64')];

/** A P-256 key from random bytes (node:crypto's ECDH gives the public point). */
function holderKey(): JWK {
  const ecdh = createECDH('prime256v1');
  const d = randomBytes(32);
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  return { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)), d: b64u(d) };
}

type Forgery =
  | 'invalid-kb-jwt-signature'
  | 'invalid-credential-signature'
  | 'invalid-sd-hash'
  | 'invalid-kb-jwt-nonce'
  | 'invalid-kb-jwt-aud'
  | 'kb-jwt-iat-in-past'
  | 'kb-jwt-iat-in-future';

/** `<issuer JWT>~<disclosures>~<KB-JWT>` for a PID of an adult French national, bound to `aud` and `nonce`. */
async function presentPid(input: { aud: string; nonce: string; now: number; forgery?: Forgery; minimalCnf?: boolean }) {
  const holder = holderKey();
  const disclose = (value: unknown[]) => {
    const text = b64u(JSON.stringify([b64u(randomBytes(16)), ...value]));
    return { text, digest: b64u(sha256(text)) };
  };
  const age = disclose(['18', true]);
  const nat = disclose(['nationalities', ['FR']]);
  const iat = Math.floor(input.now / 1000);
  const { x, y, kty, crv } = holder;
  const cnf = input.minimalCnf ? { kty, crv, x, y } : { kty, crv, x, y, use: 'sig', alg: 'ES256', kid: 'holder' };
  const issuerKey = input.forgery === 'invalid-credential-signature' ? holderKey() : issuerJwk;
  const issued = await new SignJWT({
    iss: 'https://issuer.twin.example',
    vct: 'urn:eudi:pid:1',
    iat,
    exp: iat + 90 * DAY_S,
    _sd_alg: 'sha-256',
    _sd: [nat.digest],
    age_equal_or_over: { _sd: [age.digest] },
    cnf: { jwk: cnf },
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'dc+sd-jwt', x5c: issuerX5c })
    .sign(await importJWK(issuerKey, 'ES256'));
  const presented = `${issued}~${age.text}~${nat.text}~`;
  const kbIat =
    input.forgery === 'kb-jwt-iat-in-past'
      ? iat - 365 * DAY_S
      : input.forgery === 'kb-jwt-iat-in-future'
        ? iat + 365 * DAY_S
        : iat;
  const kb = await new SignJWT({
    iat: kbIat,
    aud: input.forgery === 'invalid-kb-jwt-aud' ? 'redirect_uri:https://elsewhere.example/cb' : input.aud,
    nonce: input.forgery === 'invalid-kb-jwt-nonce' ? b64u(randomBytes(32)) : input.nonce,
    sd_hash: b64u(sha256(input.forgery === 'invalid-sd-hash' ? `${issued}~${age.text}~` : presented)),
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'kb+jwt' })
    .sign(await importJWK(input.forgery === 'invalid-kb-jwt-signature' ? holderKey() : holder, 'ES256'));
  return presented + kb;
}

// ---- the suite's checks on every request (reference §4) ----

/** Shannon entropy of the string's characters, times its length, in bits. */
function entropyBits(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / text.length) * Math.log2(n / text.length);
  return perChar * text.length;
}

function checkRequestParameters(params: Record<string, unknown>) {
  const nonce = params.nonce as string;
  expect(nonce, 'CheckForInvalidCharsInNonce').toMatch(/^[A-Za-z0-9._~-]+$/);
  expect(nonce.length, 'CheckNonceMinimumLength / MaximumLength').toBeGreaterThanOrEqual(16);
  expect(nonce.length).toBeLessThanOrEqual(43);
  expect(entropyBits(nonce), 'VP1FinalEnsureMinimumNonceEntropy').toBeGreaterThan(96);
  expect(params.response_type).toBe('vp_token');
  for (const absent of ['client_id_scheme', 'scope', 'redirect_uri', 'presentation_definition', 'transaction_data'])
    expect(params[absent], absent).toBeUndefined();
  const query = params.dcql_query as { credentials: { id: string; format: string }[]; credential_sets?: unknown };
  expect(query.credentials, 'exactly one credential requested').toHaveLength(1);
  expect(query.credentials[0]).toMatchObject({ id: 'pid_sd', format: 'dc+sd-jwt' });
  expect(query.credential_sets).toBeUndefined();
  const formats = (params.client_metadata as { vp_formats_supported?: Record<string, unknown> } | undefined)
    ?.vp_formats_supported;
  expect(formats, 'vp_formats_supported valid').toEqual({
    'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
  });
}

// ---- variants ----

interface Variant {
  plan: 'plain' | 'haip';
  label: string;
  signed: boolean;
}
const VARIANTS: Variant[] = [
  { plan: 'plain', label: 'sd_jwt_vc redirect_uri url_query direct_post', signed: false },
  { plan: 'plain', label: 'sd_jwt_vc x509_hash request_uri_signed direct_post.jwt', signed: true },
  { plan: 'haip', label: 'HAIP sd_jwt_vc x509_hash request_uri_signed direct_post.jwt', signed: true },
];

let plain: TestApp;
let haip: TestApp;
const appOf = (variant: Variant) => (variant.signed ? haip : plain);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The service on a real loopback port: the wallet fetches and posts over HTTP. */
async function listening(env: Record<string, string>): Promise<TestApp> {
  const port = await freePort();
  const t = await makeTestApp({
    clock: createFakeClock(Date.now()),
    env: { SVC_WALLET_FORMATS: 'dc+sd-jwt', SVC_API_URL: `http://127.0.0.1:${port}`, ...env },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  return t;
}

beforeAll(async () => {
  plain = await listening({});
  haip = await listening(ACCESS_ENV);
});
afterAll(async () => {
  await plain?.close();
  await haip?.close();
});

interface Session {
  t: TestApp;
  flow: { requestId: string; pollToken: string };
  params: Record<string, unknown>;
  clientId: string;
  fetchedTwice?: boolean;
}

/** Creates a request as the loader does, then reads it as a wallet: by value, or fetched and verified by reference. */
async function start(variant: Variant, how: { post?: boolean; twice?: boolean } = {}): Promise<Session> {
  const t = appOf(variant);
  const res = await postVerifyRequest(t, {
    partner_id: PARTNERS.demo.id,
    scopes: ['isAdult', 'isFrench'],
    client_proof_mode: true,
  });
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json() as { request_id: string; poll_token: string; wallet_link: string };
  const flow = { requestId: created.request_id, pollToken: created.poll_token };
  const link = new URL(created.wallet_link.replace(/^openid4vp:\/\//, 'https://wallet.invalid/'));
  const one = (name: string) => {
    const values = link.searchParams.getAll(name);
    expect(values, name).toHaveLength(1);
    return values[0]!;
  };
  if (!variant.signed) {
    const params: Record<string, unknown> = Object.fromEntries(link.searchParams);
    for (const name of ['dcql_query', 'client_metadata']) params[name] = JSON.parse(one(name));
    expect(params.client_id, 'redirect_uri → client_id equals response_uri').toBe(
      `redirect_uri:${params.response_uri}`,
    );
    expect(params.response_mode).toBe('direct_post');
    checkRequestParameters(params);
    return { t, flow, params, clientId: params.client_id as string };
  }
  const clientId = one('client_id');
  const requestUri = one('request_uri');
  expect(one('request_uri_method'), 'request_uri_method validity').toBe('post');
  expect(new URL(requestUri).hash, 'request_uri without fragment').toBe('');
  const fetchObject = async () => {
    const walletNonce = b64u(randomBytes(16));
    const response = how.post
      ? await fetch(requestUri, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `wallet_nonce=${walletNonce}&wallet_metadata=${encodeURIComponent('{"vp_formats_supported":{}}')}`,
        })
      : await fetch(requestUri);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/oauth-authz-req+jwt');
    const jws = await response.text();
    const header = decodeProtectedHeader(jws);
    expect(header.typ, 'typ').toBe('oauth-authz-req+jwt');
    expect(header.alg).toBe('ES256');
    const [leaf, ...rest] = header.x5c!;
    // the x5c chain: each certificate signed by the next, the last by the access CA the wallet trusts
    const chain = [leaf!, ...rest].map((der) => new X509Certificate(Buffer.from(der, 'base64')));
    const anchor = new X509Certificate(readFileSync(join(FIXTURES, 'sandbox-access-ca.pem')));
    [...chain.slice(1), anchor].forEach((issuer, i) =>
      expect(chain[i]!.verify(issuer.publicKey), 'x5c chain').toBe(true),
    );
    const verified = await compactVerify(jws, await importX509(chain[0]!.toString(), 'ES256'));
    const params = JSON.parse(new TextDecoder().decode(verified.payload)) as Record<string, unknown>;
    expect(clientId, 'x509_hash recomputed from the leaf').toBe(`x509_hash:${b64u(sha256Buf(chain[0]!.raw))}`);
    expect(params.client_id).toBe(clientId);
    const now = Math.floor(t.clock.now() / 1000);
    expect(params.iat, 'iat').toBeGreaterThanOrEqual(now - 300);
    expect(params.iat).toBeLessThanOrEqual(now + 5);
    expect(params.aud).toBe('https://self-issued.me/v2');
    if (how.post) expect(params.wallet_nonce, 'wallet_nonce echoed').toBe(walletNonce);
    else expect(params.wallet_nonce, 'no wallet_nonce unless POST').toBeUndefined();
    expect(params.response_mode).toBe('direct_post.jwt');
    checkRequestParameters(params);
    const jwks = (params.client_metadata as { jwks: { keys: JWK[] } }).jwks.keys;
    expect(jwks, 'kid in client_metadata.jwks').toHaveLength(1);
    expect(jwks[0]).toMatchObject({ kty: 'EC', crv: 'P-256', use: 'enc', alg: 'ECDH-ES' });
    expect(jwks[0]!.d).toBeUndefined();
    return params;
  };
  const params = await fetchObject();
  if (how.twice) {
    const again = await fetchObject();
    expect(again.nonce).toBe(params.nonce);
  }
  return { t, flow, params, clientId };
}

function sha256Buf(bytes: Buffer): Buffer {
  return createHash('sha256').update(bytes).digest();
}

/** Answers as the wallet does: direct_post by value, or a JWE (ECDH-ES, A128GCM) of {vp_token, state}. */
async function answer(session: Session, options: { forgery?: Forgery; minimalCnf?: boolean } = {}) {
  const { params, t } = session;
  const sdJwt = await presentPid({
    aud: session.clientId,
    nonce: params.nonce as string,
    now: t.clock.now(),
    ...options,
  });
  const vpToken = { pid_sd: [sdJwt] };
  let body: string;
  if (params.response_mode === 'direct_post.jwt') {
    const key = (params.client_metadata as { jwks: { keys: JWK[] } }).jwks.keys[0]!;
    const jwe = await new CompactEncrypt(
      new TextEncoder().encode(JSON.stringify({ vp_token: vpToken, state: params.state })),
    )
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', kid: key.kid! })
      .encrypt(await importJWK(key, 'ECDH-ES'));
    body = `response=${jwe}`;
  } else {
    body = `vp_token=${encodeURIComponent(JSON.stringify(vpToken))}&state=${encodeURIComponent(params.state as string)}`;
  }
  const response = await fetch(params.response_uri as string, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function expectCompleted(session: Session, answered: { status: number; json: Record<string, unknown> }) {
  expect(answered.status).toBe(200);
  // VP1FinalEnsureDirectPostResponseHasRedirectUriForHaip
  expect(answered.json.redirect_uri).toMatch(
    new RegExp(`^http://[^/]+/m/v/${session.flow.requestId}/done#response_code=[A-Za-z0-9_-]{43}$`),
  );
  expect((await pollStatus(session.t, session.flow)).status).toBe('completed');
}

const POSITIVE = ['happy-flow', 'minimal-cnf-jwk', 'request-uri-method-post', 'request-uri-fetched-twice'] as const;
const NEGATIVE: Forgery[] = [
  'invalid-kb-jwt-signature',
  'invalid-credential-signature',
  'invalid-sd-hash',
  'invalid-kb-jwt-nonce',
  'invalid-kb-jwt-aud',
  'kb-jwt-iat-in-past',
  'kb-jwt-iat-in-future',
];

for (const variant of VARIANTS) {
  describe(variant.label, () => {
    for (const module of POSITIVE) {
      // request_uri modules need a request by reference (the suite skips them for url_query)
      if (module.startsWith('request-uri') && !variant.signed) continue;
      it(`oid4vp-1final-verifier-${module} [${variant.label}]`, async () => {
        const session = await start(variant, {
          post: module === 'request-uri-method-post',
          twice: module === 'request-uri-fetched-twice',
        });
        await expectCompleted(session, await answer(session, { minimalCnf: module === 'minimal-cnf-jwk' }));
      });
    }
    for (const forgery of NEGATIVE) {
      it(`oid4vp-1final-verifier-${forgery} [${variant.label}]`, async () => {
        const session = await start(variant);
        const refused = await answer(session, { forgery });
        expect(refused.status).toBeGreaterThanOrEqual(400);
        expect(refused.status).toBeLessThan(500);
        expect(refused.json.redirect_uri).toBeUndefined();
        expect((await pollStatus(session.t, session.flow)).status).toBe('pending');
        // …and the request still takes the genuine answer
        await expectCompleted(session, await answer(session));
      });
    }
  });
}

describe('the suite’s checks across requests', () => {
  it('gives every signed request a fresh answer key (HAIP: never reused across requests)', async () => {
    const variant = VARIANTS[2]!;
    const kids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const { params } = await start(variant);
      const key = (params.client_metadata as { jwks: { keys: JWK[] } }).jwks.keys[0]!;
      expect(key.kid).toBe(await calculateJwkThumbprint(key));
      kids.add(key.kid!);
    }
    expect(kids.size).toBe(3);
  });

  it('echoes each POST’s own wallet_nonce (the mock wallet checks it): two requests’ objects carry their own', async () => {
    const variant = VARIANTS[2]!;
    const a = await start(variant, { post: true });
    const b = await start(variant, { post: true });
    expect(a.params.wallet_nonce).not.toBe(b.params.wallet_nonce);
    expect(a.params.nonce).not.toBe(b.params.nonce);
  });
});
