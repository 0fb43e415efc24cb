import { digest, ES256 } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { createPublicKey } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import openid4vpB3 from '../../../fixtures/sd-jwt/openid4vp-b3.json' with { type: 'json' };
import rfc9901 from '../../../fixtures/sd-jwt/rfc9901-example.json' with { type: 'json' };
import { createIssuerCertificates, type SandboxIssuer } from '../../sandbox/wallet/sandbox-issuer.ts';
import {
  issuePidSdJwt,
  type PidClaims,
  personaPidClaims,
  presentPidSdJwt,
} from '../../sandbox/wallet/sandbox-sd-jwt.ts';
import { createStatusListToken } from '../../sandbox/wallet/sandbox-status-list.ts';
import { KeyUsageFlags, readCertificate, spkiSha256 } from '../trust/certificates.ts';
import { checkDisclosureReferences } from './sd-jwt-disclosures.ts';
import { createEcJwk, type EcJwk, toPublicEcJwk } from '../keys.ts';
import { type AskedFacts, verifyPidSdJwt, verifySdJwtPresentation } from './sd-jwt.ts';
import { MINUTE_MS, NOW, ORIGIN, persona, sandboxIssuer, sandboxTrust } from '../test-helpers.ts';
import { evaluateIssuerChain } from '../trust/chain.ts';

const anchors = sandboxTrust.anchors.map((anchor) => anchor.certificate);
const CLIENT_ID = 'redirect_uri:http://localhost:8787/oid4vp/response/req-1';
const NONCE = 'n-0S6_WzA2Mj';
const BOTH: AskedFacts = { age: true, nationality: true };
const STATUS = { idx: 7, uri: 'https://issuer.example/status/1' };
const ADULT: PidClaims = { birthdate: '2000-05-17', nationalities: ['FR'], given_name: 'Camille' };

const holderKey: Required<EcJwk> = createEcJwk();
const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const sdHash = (text: string): string => Buffer.from(digest(text, 'sha-256')).toString('base64url');

/** A JWS signed with an EC private JWK by @sd-jwt/crypto-nodejs's signer. */
async function signJws(header: object, payload: object, key: EcJwk): Promise<string> {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${await (await ES256.getSigner({ ...key }))(input)}`;
}

/** `sdJwt` (ending in `~`) with a KB-JWT over it; every field overridable for the forgeries. */
async function bind(
  sdJwt: string,
  options: { key?: EcJwk; nonce?: string; aud?: string; iat?: number; typ?: string; sd_hash?: string } = {},
): Promise<string> {
  const payload = {
    nonce: options.nonce ?? NONCE,
    aud: options.aud ?? CLIENT_ID,
    iat: options.iat ?? Math.floor(NOW / 1000),
    sd_hash: options.sd_hash ?? sdHash(sdJwt),
  };
  return sdJwt + (await signJws({ alg: 'ES256', typ: options.typ ?? 'kb+jwt' }, payload, options.key ?? holderKey));
}

const x5c = (issuer: SandboxIssuer): string[] => issuer.x5chain.map((der) => Buffer.from(der).toString('base64'));

/** An issuer JWT signed by the sandbox DS with exactly this payload (cnf and vct added). */
function issuerJwt(payload: object, header: object = {}): Promise<string> {
  return signJws(
    { alg: 'ES256', typ: 'dc+sd-jwt', x5c: x5c(sandboxIssuer), ...header },
    { vct: 'urn:eudi:pid:1', iat: Math.floor(NOW / 1000), cnf: { jwk: toPublicEcJwk(holderKey) }, ...payload },
    sandboxIssuer.dsKey,
  );
}

const disclosure = (value: unknown[]): { encoded: string; digest: string } => {
  const encoded = b64(value);
  return { encoded, digest: sdHash(encoded) };
};

function verify(presentation: string, overrides: { audience?: string; now?: number; asked?: AskedFacts } = {}) {
  return verifyPidSdJwt(presentation, {
    anchors,
    nonce: NONCE,
    audience: overrides.audience ?? CLIENT_ID,
    now: overrides.now ?? NOW,
    asked: overrides.asked ?? BOTH,
  });
}

async function sandboxPresentation(
  claims: PidClaims = ADULT,
  options: { disclose?: (keyof PidClaims)[]; audience?: string; issueAt?: number } = {},
): Promise<string> {
  const credential = await issuePidSdJwt({
    issuer: sandboxIssuer,
    holderKey,
    claims,
    now: options.issueAt ?? NOW - 24 * 60 * MINUTE_MS,
    status: STATUS,
  });
  return presentPidSdJwt({
    credential,
    holderKey,
    disclose: options.disclose ?? ['birthdate', 'nationalities'],
    nonce: NONCE,
    audience: options.audience ?? CLIENT_ID,
    now: NOW,
  });
}

/** The library's own SD-JWT verify, without status (what the gaps compare with). */
async function libraryVerify(presentation: string): Promise<Record<string, unknown>> {
  const instance = new SDJwtVcInstance({
    hasher: digest,
    verifier: await ES256.getVerifier(toPublicEcJwk(sandboxIssuer.dsKey)),
    kbVerifier: await ES256.getVerifier(toPublicEcJwk(holderKey)),
  });
  const core = (Object.getPrototypeOf(SDJwtVcInstance.prototype) as SDJwtVcInstance).verify;
  const result = await core.call(instance, presentation, {
    keyBindingNonce: NONCE,
    currentDate: Math.floor(NOW / 1000),
  });
  return result.payload as Record<string, unknown>;
}

describe('RFC 9901 §5 (known answers)', () => {
  const rfcKey = createPublicKey({ key: rfc9901.issuer_public_jwk, format: 'jwk' });
  const rfcCheck = {
    resolveIssuerKey: () => ({ key: rfcKey }),
    nonce: rfc9901.key_binding.nonce,
    audience: rfc9901.key_binding.aud,
    now: rfc9901.key_binding.iat * 1000,
  };

  it('digests every §5.1 disclosure to the SHA-256 value the RFC lists', () => {
    for (const { disclosure: encoded, digest: expected } of rfc9901.disclosures)
      expect(Buffer.from(digest(encoded, 'sha-256')).toString('base64url')).toBe(expected);
  });

  it('computes the §5.2 sd_hash over the presentation up to its last ~', () => {
    const { presentation } = rfc9901;
    expect(sdHash(presentation.slice(0, presentation.lastIndexOf('~') + 1))).toBe(rfc9901.key_binding.sd_hash);
  });

  it('verifies the §5.2 SD-JWT+KB under the Appendix A.5 key into the RFC’s Processed SD-JWT Payload', async () => {
    const result = await verifySdJwtPresentation(rfc9901.presentation, rfcCheck);
    expect(result).toEqual({
      ok: true,
      header: { alg: 'ES256', typ: 'example+sd-jwt' },
      payload: rfc9901.processed_payload,
    });
  });

  it('refuses the §5.2 presentation for another nonce, another audience, or 6 minutes after its KB-JWT', async () => {
    expect(await verifySdJwtPresentation(rfc9901.presentation, { ...rfcCheck, nonce: '1234567891' })).toMatchObject({
      detail: 'the key binding JWT is for another nonce',
    });
    expect(
      await verifySdJwtPresentation(rfc9901.presentation, { ...rfcCheck, audience: 'https://other.example.org' }),
    ).toMatchObject({ detail: 'the key binding JWT is for another audience' });
    expect(
      await verifySdJwtPresentation(rfc9901.presentation, { ...rfcCheck, now: rfcCheck.now + 6 * MINUTE_MS }),
    ).toMatchObject({ detail: 'the key binding JWT iat is not within 5 minutes of now' });
  });

  it('refuses the §5.2 presentation with one more §5.1 disclosure: the KB-JWT sd_hash no longer matches', async () => {
    const parts = rfc9901.presentation.split('~');
    const email = rfc9901.disclosures.find((d) => d.claim === 'email')!.disclosure;
    const tampered = [...parts.slice(0, -1), email, parts.at(-1)].join('~');
    expect(await verifySdJwtPresentation(tampered, rfcCheck)).toMatchObject({
      check: 'key_binding',
      detail: 'the key binding JWT sd_hash does not match the presentation',
    });
  });

  it('refuses the §5.2 presentation under another issuer key', async () => {
    const other = createPublicKey({ key: { ...toPublicEcJwk(createEcJwk()) }, format: 'jwk' });
    expect(
      await verifySdJwtPresentation(rfc9901.presentation, { ...rfcCheck, resolveIssuerKey: () => ({ key: other }) }),
    ).toMatchObject({ check: 'issuer_signature', detail: 'the issuer signature does not verify' });
  });
});

describe('OpenID4VP 1.0 Appendix B.3 (known answers)', () => {
  const views = openid4vpB3.disclosures.map(({ disclosure: encoded }) => {
    const [, name, value] = JSON.parse(Buffer.from(encoded, 'base64url').toString()) as [string, string, unknown];
    return { digest: sdHash(encoded), name, value };
  });

  it('digests the three disclosures to the values the specification lists', () => {
    expect(views.map((v) => v.digest)).toEqual(openid4vpB3.disclosures.map((d) => d.digest));
  });

  it('finds each disclosure referenced once by the example credential, and refuses one it does not list', () => {
    expect(checkDisclosureReferences(openid4vpB3.credential_payload, views)).toBeNull();
    const stranger = {
      digest: sdHash(b64(['salt', 'birthdate', '2010-01-01'])),
      name: 'birthdate',
      value: '2010-01-01',
    };
    expect(checkDisclosureReferences(openid4vpB3.credential_payload, [...views, stranger])).toBe(
      'a disclosure is not referenced by the issuer JWT',
    );
  });

  it('binds the KB-JWT to the nonce and the client id as the example does (aud x509_san_dns:…)', () => {
    expect(openid4vpB3.kb_jwt_payload).toMatchObject({ nonce: 'n-0S6_WzA2Mj', aud: 'x509_san_dns:client.example.org' });
  });
});

describe('verifyPidSdJwt: the sandbox PID', () => {
  it('returns age_over_18 from the birth date and the nationalities, never the birth date', async () => {
    const verdict = await verify(await sandboxPresentation());
    expect(verdict).toEqual({ ok: true, facts: { age_over_18: true, nationalities: ['FR'] }, status: STATUS });
    expect(JSON.stringify(verdict)).not.toContain('2000');
  });

  it('never says a minor is over 18, the day before the 18th birthday included', async () => {
    const eve = new Date(NOW);
    const birthdate = `${eve.getUTCFullYear() - 18}-01-02`; // NOW is 1 January
    const verdict = await verify(await sandboxPresentation({ ...ADULT, birthdate }));
    expect(verdict).toMatchObject({ ok: true, facts: { age_over_18: false } });
    const birthday = await verify(
      await sandboxPresentation({ ...ADULT, birthdate: `${eve.getUTCFullYear() - 18}-01-01` }),
    );
    expect(birthday).toMatchObject({ ok: true, facts: { age_over_18: true } });
  });

  it('proves the personas’ age from their birth date: the minor and turns-18-tomorrow never over 18', async () => {
    const expected = { 'fr-adult-f': true, 'turns-18-today': true, 'turns-18-tomorrow': false, 'fr-minor': false };
    for (const [id, adult] of Object.entries(expected)) {
      const verdict = await verify(await sandboxPresentation(personaPidClaims(persona(id), NOW)));
      expect(verdict, id).toMatchObject({ ok: true, facts: { age_over_18: adult, nationalities: ['FR'] } });
    }
  });

  it('takes age_equal_or_over.18 when disclosed, the birth date otherwise', async () => {
    const claims: PidClaims = { ...ADULT, birthdate: '2015-01-01', age_equal_or_over: { '18': true, '65': false } };
    const withAge = await verify(
      await sandboxPresentation(claims, { disclose: ['age_equal_or_over', 'nationalities'] }),
    );
    expect(withAge).toMatchObject({ ok: true, facts: { age_over_18: true } });
    const both = await verify(
      await sandboxPresentation(claims, { disclose: ['age_equal_or_over', 'birthdate', 'nationalities'] }),
    );
    expect(both).toMatchObject({ check: 'elements', detail: 'age_equal_or_over.18 contradicts the birthdate' });
  });

  it('returns only the facts asked and ignores the claims not asked', async () => {
    const presentation = await sandboxPresentation(ADULT, { disclose: ['birthdate', 'nationalities', 'given_name'] });
    expect(await verify(presentation, { asked: { age: false, nationality: true } })).toEqual({
      ok: true,
      facts: { nationalities: ['FR'] },
      status: STATUS,
    });
  });

  it('refuses a presentation without the claims asked', async () => {
    const noBirthdate = await sandboxPresentation(ADULT, { disclose: ['nationalities'] });
    expect(await verify(noBirthdate)).toMatchObject({
      check: 'elements',
      detail: 'neither age_equal_or_over.18 nor birthdate is disclosed',
    });
    const noNationality = await sandboxPresentation(ADULT, { disclose: ['birthdate'] });
    expect(await verify(noNationality)).toMatchObject({ detail: 'nationalities is not disclosed' });
  });

  it('accepts over the Digital Credentials API for origin:<page origin> and refuses another origin', async () => {
    const presentation = await sandboxPresentation(ADULT, { audience: `origin:${ORIGIN}` });
    expect(await verify(presentation, { audience: `origin:${ORIGIN}` })).toMatchObject({ ok: true });
    expect(await verify(presentation, { audience: 'origin:https://evil.example' })).toMatchObject({
      check: 'key_binding',
      detail: 'the key binding JWT is for another audience',
    });
    expect(await verify(presentation)).toMatchObject({ detail: 'the key binding JWT is for another audience' });
  });

  it('accepts a domestic vct under urn:eudi:pid: and refuses another type', async () => {
    const issue = (vct: string) =>
      issuePidSdJwt({ issuer: sandboxIssuer, holderKey, claims: ADULT, now: NOW, vct }).then((credential) =>
        presentPidSdJwt({
          credential,
          holderKey,
          disclose: ['birthdate', 'nationalities'],
          nonce: NONCE,
          audience: CLIENT_ID,
          now: NOW,
        }),
      );
    expect(await verify(await issue('urn:eudi:pid:de:1'))).toMatchObject({ ok: true });
    expect(await verify(await issue('urn:eudi:pid:'))).toMatchObject({ detail: 'the vct is not the EU PID' });
    expect(await verify(await issue('urn:eu.europa.ec.eudi:pid:1'))).toMatchObject({
      check: 'credential_type',
      detail: 'the vct is not the EU PID',
    });
  });
});

describe('interoperability with @sd-jwt/sd-jwt-vc', () => {
  it('accepts an SD-JWT VC issued and presented by @sd-jwt’s own issuer, nationalities disclosed per element', async () => {
    const issuer = new SDJwtVcInstance({
      hasher: digest,
      saltGenerator: () => 'c2FsdC1mb3ItdGhlLXRlc3Q',
      signer: await ES256.getSigner({ ...sandboxIssuer.dsKey }),
      signAlg: 'ES256',
      kbSigner: await ES256.getSigner({ ...holderKey }),
      kbSignAlg: 'ES256',
    });
    const iat = Math.floor(NOW / 1000);
    const credential = await issuer.issue(
      {
        iss: 'https://pid.example',
        vct: 'urn:eudi:pid:1',
        iat,
        exp: iat + 3600,
        cnf: { jwk: toPublicEcJwk(holderKey) },
        birthdate: '1990-02-28',
        nationalities: ['FR', 'DE'],
      },
      { _sd: ['birthdate'], nationalities: { _sd: [0, 1] } },
      { header: { x5c: x5c(sandboxIssuer) } },
    );
    const presentation = await issuer.present(
      credential,
      { birthdate: true, nationalities: { 0: true, 1: true } },
      { kb: { payload: { iat, aud: CLIENT_ID, nonce: NONCE } } },
    );
    expect(await verify(presentation)).toEqual({
      ok: true,
      facts: { age_over_18: true, nationalities: ['FR', 'DE'] },
      status: null,
    });
  });

  it('has ours (the sandbox issuer and holder, the sandbox status list) accepted by @sd-jwt’s verifier', async () => {
    const statusUri = 'https://issuer.example/status/1';
    const statusToken = await createStatusListToken({ issuer: sandboxIssuer, uri: statusUri, now: NOW });
    const library = async (idx: number) => {
      const credential = await issuePidSdJwt({
        issuer: sandboxIssuer,
        holderKey,
        claims: ADULT,
        now: NOW,
        status: { idx, uri: statusUri },
      });
      const presentation = await presentPidSdJwt({
        credential,
        holderKey,
        disclose: ['birthdate'],
        nonce: NONCE,
        audience: CLIENT_ID,
        now: NOW,
      });
      const verifier = new SDJwtVcInstance({
        hasher: digest,
        verifier: await ES256.getVerifier(toPublicEcJwk(sandboxIssuer.dsKey)),
        kbVerifier: await ES256.getVerifier(toPublicEcJwk(holderKey)),
        statusListFetcher: (uri: string) => Promise.resolve(uri === statusUri ? statusToken : ''),
      });
      return verifier.verify(presentation, { keyBindingNonce: NONCE, currentDate: Math.floor(NOW / 1000) });
    };
    const verified = await library(0);
    expect(verified.payload).toMatchObject({ vct: 'urn:eudi:pid:1', birthdate: '2000-05-17' });
    expect(verified.kb?.payload).toMatchObject({ aud: CLIENT_ID, nonce: NONCE });
    await expect(library(1)).rejects.toThrow('Status is not valid'); // index 1: revoked
  });
});

describe('forged presentations, each refused with its reason', () => {
  let genuine: string;
  beforeAll(async () => {
    genuine = await sandboxPresentation();
  });

  it('refuses a disclosure changed by the holder (re-bound): the library alone drops it silently (gap 17)', async () => {
    const parts = genuine.split('~');
    const index = parts.findIndex(
      (part, i) => i > 0 && Buffer.from(part, 'base64url').toString().includes('birthdate'),
    );
    const [salt] = JSON.parse(Buffer.from(parts[index]!, 'base64url').toString()) as [string];
    parts[index] = b64([salt, 'birthdate', '1990-01-01']);
    const forged = await bind(parts.slice(0, -1).join('~') + '~');
    expect(await libraryVerify(forged)).not.toHaveProperty('birthdate');
    expect(await verify(forged)).toEqual({
      ok: false,
      check: 'digests',
      detail: 'a disclosure is not referenced by the issuer JWT',
    });
  });

  it('refuses a disclosure whose digest the issuer listed twice (gap 18)', async () => {
    const birth = disclosure(['salt-1', 'birthdate', '2000-05-17']);
    const jwt = await issuerJwt({ _sd: [birth.digest, birth.digest], nationalities: ['FR'] });
    const forged = await bind(`${jwt}~${birth.encoded}~`);
    expect(await libraryVerify(forged)).toMatchObject({ birthdate: '2000-05-17' });
    expect(await verify(forged)).toMatchObject({ check: 'digests', detail: 'a digest appears more than once' });
  });

  it('refuses the same disclosure sent twice', async () => {
    const birth = disclosure(['salt-1', 'birthdate', '2000-05-17']);
    const jwt = await issuerJwt({ _sd: [birth.digest], nationalities: ['FR'] });
    const forged = await bind(`${jwt}~${birth.encoded}~${birth.encoded}~`);
    expect(await verify(forged)).toMatchObject({ detail: 'a disclosure is sent twice' });
  });

  it('refuses a disclosed claim that would overwrite a plain one (gap 19)', async () => {
    const nationality = disclosure(['salt-2', 'nationalities', ['DE']]);
    const birth = disclosure(['salt-1', 'birthdate', '2000-05-17']);
    const jwt = await issuerJwt({ _sd: [birth.digest, nationality.digest], nationalities: ['FR'] });
    const forged = await bind(`${jwt}~${birth.encoded}~${nationality.encoded}~`);
    expect(await libraryVerify(forged)).toMatchObject({ nationalities: ['DE'] });
    expect(await verify(forged)).toMatchObject({ detail: 'a disclosed claim name already exists at its level' });
  });

  it('refuses an array-element disclosure referenced from _sd, and a claim named _sd', async () => {
    const element = disclosure(['salt-3', 'FR']);
    const named = disclosure(['salt-4', '_sd', ['x']]);
    const birth = disclosure(['salt-1', 'birthdate', '2000-05-17']);
    const wrongPlace = await issuerJwt({ _sd: [birth.digest, element.digest] });
    expect(await verify(await bind(`${wrongPlace}~${birth.encoded}~${element.encoded}~`))).toMatchObject({
      detail: 'a disclosure is referenced from the wrong place',
    });
    const reserved = await issuerJwt({ _sd: [birth.digest, named.digest] });
    expect(await verify(await bind(`${reserved}~${birth.encoded}~${named.encoded}~`))).toMatchObject({
      detail: 'a disclosure claim name is _sd or ...',
    });
  });

  it('refuses KB-JWTs over another nonce, for another audience, with a stale iat, or signed by another key', async () => {
    const sdJwt = genuine.slice(0, genuine.lastIndexOf('~') + 1);
    expect(await verify(await bind(sdJwt, { nonce: 'another-nonce' }))).toMatchObject({
      check: 'key_binding',
      detail: 'the key binding JWT is for another nonce',
    });
    expect(await verify(await bind(sdJwt, { aud: 'redirect_uri:https://attacker.example/cb' }))).toMatchObject({
      detail: 'the key binding JWT is for another audience',
    });
    expect(await verify(await bind(sdJwt, { iat: Math.floor(NOW / 1000) - 301 }))).toMatchObject({
      detail: 'the key binding JWT iat is not within 5 minutes of now',
    });
    expect(await verify(await bind(sdJwt, { iat: Math.floor(NOW / 1000) + 301 }))).toMatchObject({
      detail: 'the key binding JWT iat is not within 5 minutes of now',
    });
    expect(await verify(await bind(sdJwt, { key: createEcJwk() }))).toMatchObject({
      detail: 'the key binding JWT is not signed by the cnf key',
    });
    expect(await verify(await bind(sdJwt, { typ: 'JWT' }))).toMatchObject({
      detail: 'the key binding JWT typ is not kb+jwt',
    });
    expect(await verify(await bind(sdJwt, { sd_hash: sdHash('another presentation~') }))).toMatchObject({
      detail: 'the key binding JWT sd_hash does not match the presentation',
    });
  });

  it('refuses a presentation without a KB-JWT', async () => {
    const sdJwt = genuine.slice(0, genuine.lastIndexOf('~') + 1);
    expect(await verify(sdJwt)).toEqual({ ok: false, check: 'key_binding', detail: 'the key binding JWT is missing' });
  });

  it('refuses an issuer JWT under a key that does not chain to the trust bundle', async () => {
    const stranger = await createIssuerCertificates({
      name: 'Stranger',
      country: 'XX',
      notBefore: new Date(NOW - 24 * 60 * MINUTE_MS),
      notAfter: new Date(NOW + 24 * 60 * MINUTE_MS),
    });
    const credential = await issuePidSdJwt({ issuer: stranger, holderKey, claims: ADULT, now: NOW });
    const presentation = await presentPidSdJwt({
      credential,
      holderKey,
      disclose: ['birthdate', 'nationalities'],
      nonce: NONCE,
      audience: CLIENT_ID,
      now: NOW,
    });
    expect(await verify(presentation)).toEqual({
      ok: false,
      check: 'trust_chain',
      detail: 'the DS certificate does not chain to a trusted IACA',
    });
  });

  it('refuses in production a PID signed by a key whose private half is public (the sandbox DS)', async () => {
    const presentation = await sandboxPresentation();
    const refusedKeys = [spkiSha256(readCertificate(sandboxIssuer.x5chain[0]!)!)];
    expect(
      await verifyPidSdJwt(presentation, {
        anchors,
        refusedKeys,
        nonce: NONCE,
        audience: CLIENT_ID,
        now: NOW,
        asked: BOTH,
      }),
    ).toEqual({
      ok: false,
      check: 'trust_chain',
      detail: 'a certificate on the path carries a key whose private half is public',
    });
  });

  it('refuses the sandbox x5c over a signature by another key', async () => {
    const jwt = await signJws(
      { alg: 'ES256', typ: 'dc+sd-jwt', x5c: x5c(sandboxIssuer) },
      { vct: 'urn:eudi:pid:1', cnf: { jwk: toPublicEcJwk(holderKey) }, birthdate: '2000-05-17', nationalities: ['FR'] },
      createEcJwk(),
    );
    expect(await verify(await bind(`${jwt}~`))).toMatchObject({
      check: 'issuer_signature',
      detail: 'the issuer signature does not verify',
    });
  });

  it('refuses alg none and HS256 issuer JWTs', async () => {
    const header = { typ: 'dc+sd-jwt', x5c: x5c(sandboxIssuer) };
    const payload = b64({ vct: 'urn:eudi:pid:1', cnf: { jwk: toPublicEcJwk(holderKey) }, birthdate: '2000-05-17' });
    const none = await bind(`${b64({ ...header, alg: 'none' })}.${payload}.~`);
    expect(await verify(none)).toEqual({
      ok: false,
      check: 'issuer_signature',
      detail: 'the issuer JWT is not signed with ES256',
    });
    const hs256 = await bind(`${b64({ ...header, alg: 'HS256' })}.${payload}.c2lnbmF0dXJl~`);
    expect(await verify(hs256)).toMatchObject({ detail: 'the issuer JWT is not signed with ES256' });
  });

  it('refuses an expired issuer JWT, one not valid yet, and a non-numeric exp (gap 16)', async () => {
    const year = 365 * 24 * 60 * MINUTE_MS;
    expect(await verify(await sandboxPresentation(ADULT, { issueAt: NOW - 2 * year }))).toEqual({
      ok: false,
      check: 'credential_validity',
      detail: 'the issuer JWT has expired',
    });
    expect(await verify(await sandboxPresentation(ADULT, { issueAt: NOW + 6 * MINUTE_MS }))).toMatchObject({
      detail: 'the issuer JWT is not valid yet',
    });
    const birth = disclosure(['salt-1', 'birthdate', '2000-05-17']);
    const jwt = await issuerJwt({ _sd: [birth.digest], nationalities: ['FR'], exp: 'never' });
    expect(await verify(await bind(`${jwt}~${birth.encoded}~`))).toMatchObject({
      detail: 'the issuer JWT iat, nbf or exp is not a number',
    });
  });

  it('refuses an issuer JWT whose typ is not dc+sd-jwt (gap 22)', async () => {
    const birth = disclosure(['salt-1', 'birthdate', '2000-05-17']);
    const jwt = await issuerJwt({ _sd: [birth.digest], nationalities: ['FR'] }, { typ: 'vc+sd-jwt' });
    expect(await verify(await bind(`${jwt}~${birth.encoded}~`))).toEqual({
      ok: false,
      check: 'credential_type',
      detail: 'the issuer JWT typ is not dc+sd-jwt',
    });
  });

  it('refuses a malformed status claim and garbage input without throwing', async () => {
    const birth = disclosure(['salt-1', 'birthdate', '2000-05-17']);
    const jwt = await issuerJwt({ _sd: [birth.digest], nationalities: ['FR'], status: { status_list: { idx: -1 } } });
    expect(await verify(await bind(`${jwt}~${birth.encoded}~`))).toMatchObject({
      detail: 'the status claim is malformed',
    });
    for (const garbage of ['', '~', 'a.b.c', 'a.b.c~d~e.f.g', `${'x'.repeat(70_000)}~`])
      expect(await verify(garbage)).toMatchObject({ ok: false });
  });
});

describe('what @sd-jwt leaves to us (docs/wallets.md#where-the-libraries-stop), the library alone on each forgery', () => {
  let genuine: string;
  beforeAll(async () => {
    genuine = await sandboxPresentation();
  });

  it('gap 15: hands the verifier callback an alg none JWT like any other', async () => {
    const algs: unknown[] = [];
    const instance = new SDJwtVcInstance({
      hasher: digest,
      verifier: (data: string) => {
        algs.push((JSON.parse(Buffer.from(data.split('.')[0]!, 'base64url').toString()) as { alg: unknown }).alg);
        return true;
      },
    });
    const none = `${b64({ alg: 'none', typ: 'dc+sd-jwt' })}.${b64({ vct: 'urn:eudi:pid:1' })}.x~`;
    await instance.verify(none, { currentDate: Math.floor(NOW / 1000) });
    expect(algs).toEqual(['none']);
  });

  it('gap 16: accepts a string exp', async () => {
    const birth = disclosure(['salt-1', 'birthdate', '2000-05-17']);
    const jwt = await issuerJwt({ _sd: [birth.digest], exp: 'never' });
    expect(await libraryVerify(await bind(`${jwt}~${birth.encoded}~`))).toMatchObject({ exp: 'never' });
  });

  it('gap 20: SDJwtVcInstance.verify fetches the status list URI itself', async () => {
    const fetched: string[] = [];
    const instance = new SDJwtVcInstance({
      hasher: digest,
      verifier: await ES256.getVerifier(toPublicEcJwk(sandboxIssuer.dsKey)),
      statusListFetcher: (uri: string) => {
        fetched.push(uri);
        return Promise.reject(new Error('not here'));
      },
    });
    await expect(instance.verify(genuine, { currentDate: Math.floor(NOW / 1000) })).rejects.toThrow('not here');
    expect(fetched).toEqual([STATUS.uri]);
  });

  it('gap 21: accepts a KB-JWT for another audience and a day old, and none at all without a nonce', async () => {
    const sdJwt = genuine.slice(0, genuine.lastIndexOf('~') + 1);
    const stale = await bind(sdJwt, { aud: 'https://attacker.example', iat: Math.floor(NOW / 1000) - 86_400 });
    await expect(libraryVerify(stale)).resolves.toMatchObject({ vct: 'urn:eudi:pid:1' });
    const instance = new SDJwtVcInstance({
      hasher: digest,
      verifier: await ES256.getVerifier(toPublicEcJwk(sandboxIssuer.dsKey)),
    });
    const core = (Object.getPrototypeOf(SDJwtVcInstance.prototype) as SDJwtVcInstance).verify;
    await expect(core.call(instance, sdJwt, { currentDate: Math.floor(NOW / 1000) })).resolves.toBeTruthy();
  });

  it('gap 22: accepts another typ and another vct', async () => {
    const birth = disclosure(['salt-1', 'birthdate', '2000-05-17']);
    const jwt = await issuerJwt({ _sd: [birth.digest], vct: 'urn:example:other' }, { typ: 'JWT' });
    expect(await libraryVerify(await bind(`${jwt}~${birth.encoded}~`))).toMatchObject({ vct: 'urn:example:other' });
  });
});

describe('x5c: trust/chain.ts’s jwt signer profile', () => {
  const dates = { notBefore: new Date(NOW - 60 * MINUTE_MS), notAfter: new Date(NOW + 60 * MINUTE_MS) };
  const x5cDer = (issuer: SandboxIssuer) => issuer.x5chain;

  it('takes a signer without the mdoc DS extendedKeyUsage or country, which the mdoc profile refuses', async () => {
    const issuer = await createIssuerCertificates({
      name: 'PID',
      country: 'FR',
      ...dates,
      signer: { extendedKeyUsage: null, country: 'DE' },
    });
    const roots = [issuer.iaca.toString('pem')].map((pem) => readCertificate(pem)!);
    expect(evaluateIssuerChain(x5cDer(issuer), roots, new Date(NOW), [], 'jwt')).toMatchObject({ ok: true });
    expect(evaluateIssuerChain(x5cDer(issuer), roots, new Date(NOW))).toMatchObject({ ok: false });
  });

  it('refuses a signer that is a CA or lacks digitalSignature', async () => {
    for (const [signer, detail] of [
      [{ ca: true }, 'the DS certificate is a CA'],
      [{ keyUsage: KeyUsageFlags.keyCertSign }, 'the DS certificate keyUsage lacks digitalSignature'],
    ] as const) {
      const issuer = await createIssuerCertificates({ name: 'PID', country: 'FR', ...dates, signer });
      const roots = [readCertificate(issuer.iaca.toString('pem'))!];
      expect(evaluateIssuerChain(x5cDer(issuer), roots, new Date(NOW), [], 'jwt')).toMatchObject({ ok: false, detail });
    }
  });
});
