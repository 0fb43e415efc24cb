/**
 * Signed requests and encrypted answers (docs/design.md §16), checked by code we did not write:
 * jose verifies the request object against its x5c leaf, @openid4vc/openid4vp resolves it from its
 * request_uri as a wallet does (x509_hash client id, typ, signature), the x509_hash value is
 * recomputed from the DER; answers are encrypted by jose as an independent wallet would.
 */
import { resolveOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import { CompactEncrypt, CompactSign, compactVerify, decodeProtectedHeader, importJWK, importX509 } from 'jose';
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSandboxAccess } from '../../sandbox/wallet/sandbox-access.ts';
import { type AccessCertificate, readAccessCertificate } from './access-certificate.ts';
import { dcqlQueryFor } from '../formats/credentials.ts';
import { createEcJwk } from '../keys.ts';
import { jwkThumbprintBytes, createOid4VpSessionTranscript } from '../formats/session-transcript.ts';
import { createSignedRequest, requestUriOf, signedWalletLink, type SignedRequestMaterial } from './request-object.ts';
import { openSignedRequestAnswer } from '../answer/jwe.ts';
import { NOW } from '../test-helpers.ts';
import { DEFAULT_WALLET_FIXTURES } from '../trust/anchors.ts';

const RESPONSE_URI = 'https://verifier.example/oid4vp/response/vr_test';
const REQUEST_URI = 'https://verifier.example/oid4vp/request/vr_test';
const params = {
  responseUri: RESPONSE_URI,
  nonce: 'n'.repeat(43),
  state: 's'.repeat(43),
  dcqlQuery: dcqlQueryFor(['pid', 'mdl'], ['isAdult', 'isFrench']),
};
let access: AccessCertificate;
let signed: SignedRequestMaterial;

beforeAll(async () => {
  const { chainPem, keyPem } = loadSandboxAccess();
  access = await readAccessCertificate({ certPem: chainPem, keyPem, mode: 'sandbox', now: NOW });
  signed = await createSignedRequest(access, params, NOW);
});

const pemOf = (base64: string) => `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----`;

/** A wallet's callbacks for @openid4vc/openid4vp: fetch answers `requestObject`, JWS verified by jose against x5c[0]. */
function walletCallbacks(requestObject: string, fetched: string[] = []) {
  return {
    fetch: (async (url: string) => {
      fetched.push(url);
      return new Response(requestObject, { headers: { 'content-type': 'application/oauth-authz-req+jwt' } });
    }) as never,
    hash: (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest()),
    verifyJwt: async (signer: { method: string; x5c?: string[] }, jwt: { compact: string }) => {
      if (signer.method !== 'x5c' || !signer.x5c?.[0]) return { verified: false as const };
      try {
        await compactVerify(jwt.compact, await importX509(pemOf(signer.x5c[0]), 'ES256'));
        return { verified: true as const, signerJwk: signed.publicJwk };
      } catch {
        return { verified: false as const };
      }
    },
    decryptJwe: () => Promise.reject(new Error('the request object is not encrypted')),
    getX509CertificateMetadata: () => ({ sanDnsNames: [], sanUriNames: [] }),
  } as never;
}

/** What an independent wallet sends: jose's CompactEncrypt to the request's key. */
async function encryptTo(jwk: object, payload: unknown, enc: 'A128GCM' | 'A256GCM' = 'A128GCM'): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ECDH-ES', enc })
    .encrypt(await importJWK({ ...jwk, use: undefined, alg: undefined, kid: undefined } as never, 'ECDH-ES'));
}

describe('the request object', () => {
  it('verifies with jose against its x5c leaf: ES256, typ oauth-authz-req+jwt, every parameter', async () => {
    const header = decodeProtectedHeader(signed.requestObject);
    expect(header).toEqual({ alg: 'ES256', typ: 'oauth-authz-req+jwt', x5c: access.x5c });
    const leaf = await importX509(pemOf(header.x5c![0]!), 'ES256');
    const { payload } = await compactVerify(signed.requestObject, leaf);
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({
      aud: 'https://self-issued.me/v2',
      iat: NOW / 1000,
      response_type: 'vp_token',
      response_mode: 'direct_post.jwt',
      client_id: access.clientId,
      response_uri: RESPONSE_URI,
      dcql_query: params.dcqlQuery,
      nonce: params.nonce,
      state: params.state,
      client_metadata: {
        jwks: { keys: [signed.publicJwk] },
        encrypted_response_enc_values_supported: ['A128GCM', 'A256GCM'],
        // the PID is asked as an mdoc and as an SD-JWT VC (design.md §15), with the algorithms of §19
        vp_formats_supported: {
          mso_mdoc: { issuerauth_alg_values: [-7], deviceauth_alg_values: [-7] },
          'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] },
        },
      },
    });
    expect(signed.publicJwk).toMatchObject({ kty: 'EC', crv: 'P-256', use: 'enc', alg: 'ECDH-ES' });
    expect(signed.publicJwk).not.toHaveProperty('d');
  });

  it("names the verifier x509_hash: and the base64url SHA-256 of the leaf's DER, as recomputed from the PEM file", () => {
    const der = new X509Certificate(loadSandboxAccess().chainPem).raw;
    expect(signed.clientId).toBe(`x509_hash:${createHash('sha256').update(der).digest('base64url')}`);
    expect(Buffer.from(access.x5c[0]!, 'base64').equals(der)).toBe(true);
  });

  it('gets a fresh answer key per request', async () => {
    const other = await createSignedRequest(access, params, NOW);
    expect(other.publicJwk.x).not.toBe(signed.publicJwk.x);
  });

  it('is resolved by @openid4vc/openid4vp from the link as a wallet does: x509_hash client, signature, typ', async () => {
    const link = new URL(signedWalletLink(signed.clientId, REQUEST_URI));
    expect(link.protocol).toBe('openid4vp:');
    expect([...link.searchParams.keys()]).toEqual(['client_id', 'request_uri', 'request_uri_method']);
    expect(link.searchParams.get('request_uri_method')).toBe('post');
    const fetched: string[] = [];
    const resolved = await resolveOpenid4vpAuthorizationRequest({
      authorizationRequestPayload: {
        client_id: link.searchParams.get('client_id')!,
        request_uri: link.searchParams.get('request_uri')!,
      },
      callbacks: walletCallbacks(signed.requestObject, fetched),
    });
    expect(fetched).toEqual([REQUEST_URI]);
    expect(resolved.client).toMatchObject({
      prefix: 'x509_hash',
      identifier: signed.clientId.slice('x509_hash:'.length),
    });
    expect(resolved.authorizationRequestPayload).toMatchObject({
      response_mode: 'direct_post.jwt',
      nonce: params.nonce,
    });
    expect(resolved.dcql?.query).toEqual(params.dcqlQuery);
  });

  it('is refused by the library when its signature is not the leaf’s', async () => {
    const [header, payload] = signed.requestObject.split('.');
    const forged = await new CompactSign(Buffer.from(payload!, 'base64url'))
      .setProtectedHeader({ ...JSON.parse(Buffer.from(header!, 'base64url').toString()) })
      .sign(await importJWK(createEcJwk(), 'ES256'));
    await expect(
      resolveOpenid4vpAuthorizationRequest({
        authorizationRequestPayload: { client_id: signed.clientId, request_uri: REQUEST_URI },
        callbacks: walletCallbacks(forged),
      }),
    ).rejects.toThrow(/verif/i);
  });

  it('lives beside the response_uri', () => {
    expect(requestUriOf(RESPONSE_URI)).toBe(REQUEST_URI);
  });
});

describe('the encrypted answer', () => {
  const answer = { vp_token: { pid: ['AAAA'] }, state: params.state };

  it('opens when an independent client encrypts it to the request key, with A128GCM or A256GCM', async () => {
    expect(await openSignedRequestAnswer(signed, await encryptTo(signed.publicJwk, answer))).toEqual(answer);
    expect(await openSignedRequestAnswer(signed, await encryptTo(signed.publicJwk, answer, 'A256GCM'))).toEqual(answer);
  });

  it('does not open when encrypted to another key, or to the key of another request', async () => {
    const { kty, crv, x, y } = createEcJwk();
    const stranger = { kty, crv, x, y };
    expect(await openSignedRequestAnswer(signed, await encryptTo(stranger, answer))).toBeNull();
    const otherRequest = await createSignedRequest(access, params, NOW);
    expect(await openSignedRequestAnswer(signed, await encryptTo(otherRequest.publicJwk, answer))).toBeNull();
  });

  it('does not open with another key management or content encryption, or when it is not a JSON object', async () => {
    const key = await importJWK(
      { ...signed.publicJwk, use: undefined, alg: undefined, kid: undefined } as never,
      'ECDH-ES+A128KW',
    );
    const wrapped = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(answer)))
      .setProtectedHeader({ alg: 'ECDH-ES+A128KW', enc: 'A128GCM' })
      .encrypt(key);
    expect(await openSignedRequestAnswer(signed, wrapped)).toBeNull();
    const cbc = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(answer)))
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128CBC-HS256' })
      .encrypt(
        await importJWK({ ...signed.publicJwk, use: undefined, alg: undefined, kid: undefined } as never, 'ECDH-ES'),
      );
    expect(await openSignedRequestAnswer(signed, cbc)).toBeNull();
    expect(
      await openSignedRequestAnswer(signed, await encryptTo(signed.publicJwk, ['not', 'an', 'object'])),
    ).toBeNull();
    expect(await openSignedRequestAnswer(signed, 'not.a.jwe.at.all')).toBeNull();
  });
});

describe("the answer's SessionTranscript (OpenID4VP 1.0 Appendix B.2.6.1 known-answer vector)", () => {
  const vector = JSON.parse(readFileSync(join(DEFAULT_WALLET_FIXTURES, 'oid4vp-handover.json'), 'utf8')) as {
    clientId: string;
    nonce: string;
    responseUri: string;
    jwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string };
    sessionTranscriptHex: string;
  };

  it('is the OpenID4VPHandover over client_id, nonce, the key thumbprint and response_uri, byte for byte', async () => {
    const transcript = await createOid4VpSessionTranscript({
      clientId: vector.clientId,
      nonce: vector.nonce,
      responseUri: vector.responseUri,
      jwkThumbprint: await jwkThumbprintBytes(vector.jwk),
    });
    expect(Buffer.from(transcript.encode()).toString('hex')).toBe(vector.sessionTranscriptHex);
    const withoutThumbprint = await createOid4VpSessionTranscript({
      clientId: vector.clientId,
      nonce: vector.nonce,
      responseUri: vector.responseUri,
    });
    expect(Buffer.from(withoutThumbprint.encode()).toString('hex')).not.toBe(vector.sessionTranscriptHex);
  });
});
