/**
 * The conformance twin (design.md §19, docs/wallets.md#conformance-the-openid-foundations-verifier-plans):
 * the OpenID Foundation's `oid4vp-1final-verifier-test-plan` and `…-haip-test-plan` (suite
 * release-v5.2.3, snapshot 12f2a4d) replayed by a mock wallet written here from the specifications
 * with jose and node:crypto only: it shares no code with the verifier (server/wallet/) nor with the
 * sandbox wallet (server/sandbox/). One test per module × variant, named by the suite's module id
 * and the variant (`npm run conformance` tabulates them), and the suite's checks on every request
 * (twin-support.ts). One service per plan for the file, listening on loopback;
 * SVC_WALLET_FORMATS=dc+sd-jwt, as a plan run for the `sd_jwt_vc` format needs. The `iso_mdl`
 * format and the Digital Credentials API: oid4vp-verifier-mdoc.twin.test.ts.
 */
import { randomBytes, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint, importJWK, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers.ts';
import {
  ACCESS_ENV,
  b64u,
  DAY_S,
  expectCompleted,
  expectRefused,
  FIXTURES,
  type FormatCheck,
  holderKey,
  listening,
  postAnswer,
  type Session,
  sha256,
  start as startRequest,
  type Variant,
} from './twin-support.ts';

// ---- the mock wallet: an SD-JWT VC PID issuer and holder, from the fixtures' document signer ----

const issuerJwk = JSON.parse(readFileSync(join(FIXTURES, 'sandbox-ds.key.json'), 'utf8')) as JWK;
const issuerX5c = [new X509Certificate(readFileSync(join(FIXTURES, 'sandbox-ds.pem'))).raw.toString('base64')];

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

// ---- variants ----

const VARIANTS: Variant[] = [
  { plan: 'plain', label: 'sd_jwt_vc redirect_uri url_query direct_post', signed: false },
  { plan: 'plain', label: 'sd_jwt_vc x509_hash request_uri_signed direct_post.jwt', signed: true },
  { plan: 'haip', label: 'HAIP sd_jwt_vc x509_hash request_uri_signed direct_post.jwt', signed: true },
];

let plain: TestApp;
let haip: TestApp;
const appOf = (variant: Variant) => (variant.signed ? haip : plain);

beforeAll(async () => {
  plain = await listening('dc+sd-jwt', {});
  haip = await listening('dc+sd-jwt', ACCESS_ENV);
});
afterAll(async () => {
  await plain?.close();
  await haip?.close();
});

/** The sd_jwt_vc plan's request: exactly one credential, the SD-JWT VC PID, and its formats only. */
const checkSdJwt: FormatCheck = (query, formats) => {
  expect(query.credentials, 'exactly one credential requested').toHaveLength(1);
  expect(query.credentials[0]).toMatchObject({ id: 'pid_sd', format: 'dc+sd-jwt' });
  expect(query.credential_sets).toBeUndefined();
  expect(formats, 'vp_formats_supported valid').toEqual({
    'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
  });
};

const start = (variant: Variant, how: { post?: boolean; twice?: boolean } = {}) =>
  startRequest(appOf(variant), variant, checkSdJwt, how);

/** Answers with the PID, genuine or with the module's forgery. */
async function answer(session: Session, options: { forgery?: Forgery; minimalCnf?: boolean } = {}) {
  const sdJwt = await presentPid({
    aud: session.clientId,
    nonce: session.params.nonce as string,
    now: session.t.clock.now(),
    ...options,
  });
  return postAnswer(session, { pid_sd: [sdJwt] });
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
        await expectRefused(session, await answer(session, { forgery }));
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
