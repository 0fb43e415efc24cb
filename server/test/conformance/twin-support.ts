/**
 * What the conformance twins share (design.md §19, docs/wallets.md#conformance-the-openid-foundations-verifier-plans):
 * the service on a loopback port, reading a request as a wallet does (by value, or fetched by GET
 * or POST and verified against its `x5c`) with the suite's checks on every request, posting an
 * answer, and the verdicts. Written from the specifications with jose and node:crypto only: no
 * code of the verifier (server/wallet/) nor of the sandbox wallet (server/sandbox/).
 */
import { createECDH, createHash, randomBytes, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompactEncrypt, compactVerify, decodeProtectedHeader, importJWK, importX509, type JWK } from 'jose';
import { expect } from 'vitest';
import { createFakeClock } from '../../clock.ts';
import { makeTestApp, PARTNERS, REPO_ROOT, type TestApp } from '../helpers.ts';
import { pollStatus, postVerifyRequest } from '../verify-flow.ts';
import { freePort } from '../free-port.ts';

export const FIXTURES = join(REPO_ROOT, 'fixtures/wallet');
export const ACCESS_ENV = {
  SVC_WALLET_ACCESS_CERT: join(FIXTURES, 'sandbox-access.pem'),
  SVC_WALLET_ACCESS_KEY: join(FIXTURES, 'sandbox-access.key.pem'),
};
export const DAY_S = 86_400;
export const b64u = (bytes: Buffer | Uint8Array | string) => Buffer.from(bytes).toString('base64url');
export const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest();

/** A P-256 key from random bytes (node:crypto's ECDH gives the public point). */
export function holderKey(): JWK {
  const ecdh = createECDH('prime256v1');
  const d = randomBytes(32);
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  return { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)), d: b64u(d) };
}

/** Shannon entropy of the string's characters, times its length, in bits. */
function entropyBits(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / text.length) * Math.log2(n / text.length);
  return perChar * text.length;
}

/** What a twin checks of its own format in a request: its DCQL and `vp_formats_supported`. */
export type FormatCheck = (query: DcqlQuery, formats: Record<string, unknown> | undefined) => void;
export interface DcqlQuery {
  credentials: { id: string; format: string; meta?: Record<string, unknown> }[];
  credential_sets?: { options: string[][] }[];
}

/** The suite's checks on every request (reference §4), the format's own by `checkFormat`. */
export function checkRequestParameters(params: Record<string, unknown>, checkFormat: FormatCheck) {
  const nonce = params.nonce as string;
  expect(nonce, 'CheckForInvalidCharsInNonce').toMatch(/^[A-Za-z0-9._~-]+$/);
  expect(nonce.length, 'CheckNonceMinimumLength / MaximumLength').toBeGreaterThanOrEqual(16);
  expect(nonce.length).toBeLessThanOrEqual(43);
  expect(entropyBits(nonce), 'VP1FinalEnsureMinimumNonceEntropy').toBeGreaterThan(96);
  expect(params.response_type).toBe('vp_token');
  for (const absent of ['client_id_scheme', 'scope', 'redirect_uri', 'presentation_definition', 'transaction_data'])
    expect(params[absent], absent).toBeUndefined();
  checkFormat(
    params.dcql_query as DcqlQuery,
    (params.client_metadata as { vp_formats_supported?: Record<string, unknown> } | undefined)?.vp_formats_supported,
  );
}

// ---- variants and the service ----

export interface Variant {
  plan: 'plain' | 'haip';
  label: string;
  signed: boolean;
}

/** The service on a real loopback port (the wallet fetches and posts over HTTP), asking `formats` only. */
export async function listening(formats: string, env: Record<string, string>): Promise<TestApp> {
  const port = await freePort();
  const t = await makeTestApp({
    clock: createFakeClock(Date.now()),
    env: { SVC_WALLET_FORMATS: formats, SVC_API_URL: `http://127.0.0.1:${port}`, ...env },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  return t;
}

export interface Session {
  t: TestApp;
  flow: { requestId: string; pollToken: string };
  params: Record<string, unknown>;
  clientId: string;
  /** the loader's creation answer (dc_requests for the Digital Credentials API) */
  created: Record<string, unknown>;
}

/** Creates a client-proof `[isAdult, isFrench]` request as the loader does (from the partner's origin). */
export async function createRequest(t: TestApp) {
  const res = await postVerifyRequest(t, {
    partner_id: PARTNERS.demo.id,
    scopes: ['isAdult', 'isFrench'],
    client_proof_mode: true,
  });
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json() as { request_id: string; poll_token: string; wallet_link: string };
  return { created, flow: { requestId: created.request_id, pollToken: created.poll_token } };
}

/** Creates a request, then reads it as a wallet: by value, or fetched and verified by reference. */
export async function start(
  t: TestApp,
  variant: Variant,
  checkFormat: FormatCheck,
  how: { post?: boolean; twice?: boolean } = {},
): Promise<Session> {
  const { created, flow } = await createRequest(t);
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
    checkRequestParameters(params, checkFormat);
    return { t, flow, params, clientId: params.client_id as string, created };
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
    const params = await verifyRequestObject(await response.text(), t);
    expect(params.client_id).toBe(clientId);
    if (how.post) expect(params.wallet_nonce, 'wallet_nonce echoed').toBe(walletNonce);
    else expect(params.wallet_nonce, 'no wallet_nonce unless POST').toBeUndefined();
    expect(params.response_mode).toBe('direct_post.jwt');
    checkRequestParameters(params, checkFormat);
    return params;
  };
  const params = await fetchObject();
  if (how.twice) {
    const again = await fetchObject();
    expect(again.nonce).toBe(params.nonce);
  }
  return { t, flow, params, clientId, created };
}

/**
 * A signed request object as a wallet verifies it: `typ`, ES256, the `x5c` chain up to the access
 * CA the wallet trusts, the signature by the leaf, `client_id` the leaf's `x509_hash`, `iat`, one
 * encryption key without its private part. Returns its parameters.
 */
export async function verifyRequestObject(jws: string, t: TestApp): Promise<Record<string, unknown>> {
  const header = decodeProtectedHeader(jws);
  expect(header.typ, 'typ').toBe('oauth-authz-req+jwt');
  expect(header.alg).toBe('ES256');
  const chain = header.x5c!.map((der) => new X509Certificate(Buffer.from(der, 'base64')));
  const anchor = new X509Certificate(readFileSync(join(FIXTURES, 'sandbox-access-ca.pem')));
  [...chain.slice(1), anchor].forEach((issuer, i) =>
    expect(chain[i]!.verify(issuer.publicKey), 'x5c chain').toBe(true),
  );
  const verified = await compactVerify(jws, await importX509(chain[0]!.toString(), 'ES256'));
  const params = JSON.parse(new TextDecoder().decode(verified.payload)) as Record<string, unknown>;
  expect(params.client_id, 'x509_hash recomputed from the leaf').toBe(`x509_hash:${b64u(sha256(chain[0]!.raw))}`);
  const now = Math.floor(t.clock.now() / 1000);
  expect(params.iat, 'iat').toBeGreaterThanOrEqual(now - 300);
  expect(params.iat).toBeLessThanOrEqual(now + 5);
  const jwks = (params.client_metadata as { jwks: { keys: JWK[] } }).jwks.keys;
  expect(jwks, 'kid in client_metadata.jwks').toHaveLength(1);
  expect(jwks[0]).toMatchObject({ kty: 'EC', crv: 'P-256', use: 'enc', alg: 'ECDH-ES' });
  expect(jwks[0]!.d).toBeUndefined();
  return params;
}

/** The request's answer key (signed requests), or null. */
export function answerKeyOf(params: Record<string, unknown>): JWK | null {
  return (params.client_metadata as { jwks?: { keys: JWK[] } } | undefined)?.jwks?.keys[0] ?? null;
}

/** A JWE (ECDH-ES, A128GCM) of `payload` to `key`, as OpenID4VP 1.0 §8.3 has the wallet encrypt. */
export async function encryptTo(key: JWK, payload: unknown): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', kid: key.kid! })
    .encrypt(await importJWK(key, 'ECDH-ES'));
}

export interface Answered {
  status: number;
  json: Record<string, unknown>;
}

/** Posts `vpToken` as the wallet does: direct_post by value, or direct_post.jwt encrypted to the request's key. */
export async function postAnswer(session: Session, vpToken: Record<string, string[]>): Promise<Answered> {
  const { params } = session;
  const body =
    params.response_mode === 'direct_post.jwt'
      ? `response=${await encryptTo(answerKeyOf(params)!, { vp_token: vpToken, state: params.state })}`
      : `vp_token=${encodeURIComponent(JSON.stringify(vpToken))}&state=${encodeURIComponent(params.state as string)}`;
  const response = await fetch(params.response_uri as string, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/**
 * A valid post: 200, the request completed; a wallet's post (not the page's, over the Digital
 * Credentials API) gets the done view's `redirect_uri` (VP1FinalEnsureDirectPostResponseHasRedirectUriForHaip).
 */
export async function expectCompleted(
  session: Pick<Session, 't' | 'flow'>,
  answered: Answered,
  from: 'wallet' | 'page' = 'wallet',
) {
  expect(answered.status, JSON.stringify(answered.json)).toBe(200);
  if (from === 'wallet')
    expect(answered.json.redirect_uri).toMatch(
      new RegExp(`^http://[^/]+/m/v/${session.flow.requestId}/done#response_code=[A-Za-z0-9_-]{43}$`),
    );
  expect((await pollStatus(session.t, session.flow)).status).toBe('completed');
}

/** A negative module's verdict: a 4xx without `redirect_uri` (its `error_description` matching `because`), the request still waiting. */
export async function expectRefused(session: Pick<Session, 't' | 'flow'>, refused: Answered, because?: RegExp) {
  if (because) expect(refused.json.error_description).toMatch(because);
  expect(refused.status, JSON.stringify(refused.json)).toBeGreaterThanOrEqual(400);
  expect(refused.status).toBeLessThan(500);
  expect(refused.json.redirect_uri).toBeUndefined();
  expect((await pollStatus(session.t, session.flow)).status).toBe('pending');
}
