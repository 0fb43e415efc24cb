import { createPrivateKey, createPublicKey, constants, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { publicVerif, TOKEN_TYPES } from '@cloudflare/privacypass-ts';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../paths.ts';
import {
  blindSign,
  createPrivateAttestationRecord,
  maskSigningKey,
  parseTokenRequest,
  PRIVATE_SCOPE_MASKS,
  publicKeysOf,
} from './private-attestation.ts';

const FIXTURES = join(PROJECT_ROOT, 'fixtures', 'private-attestation');
const rfc9474 = JSON.parse(readFileSync(join(FIXTURES, 'rfc9474.json'), 'utf8')) as Array<Record<string, string>>;
const rfc9578 = JSON.parse(readFileSync(join(FIXTURES, 'rfc9578-type2.json'), 'utf8')) as Array<Record<string, string>>;

/** The vectors write numbers as 0x… and byte strings as plain hex. */
const hex = (s: string) => Buffer.from(s.replace(/^0x/, ''), 'hex');
const b64 = (n: bigint) =>
  Buffer.from(n.toString(16).padStart(2 * Math.ceil(n.toString(16).length / 2), '0'), 'hex').toString('base64url');
const big = (s: string) => BigInt(`0x${s.replace(/^0x/, '')}`);

/** An RSA private key from the vector's n, e, d, p, q (CRT members computed). */
function keyFromVector(v: Record<string, string>) {
  const [n, e, d, p, q] = [v.n!, v.e!, v.d!, v.p!, v.q!].map(big) as [bigint, bigint, bigint, bigint, bigint];
  const modInverse = (a: bigint, m: bigint): bigint => {
    let [r0, r1, s0, s1] = [a % m, m, 1n, 0n];
    while (r1 !== 0n) {
      const quotient = r0 / r1;
      [r0, r1] = [r1, r0 - quotient * r1];
      [s0, s1] = [s1, s0 - quotient * s1];
    }
    return ((s0 % m) + m) % m;
  };
  const jwk = {
    kty: 'RSA',
    n: b64(n),
    e: b64(e),
    d: b64(d),
    p: b64(p),
    q: b64(q),
    dp: b64(d % (p - 1n)),
    dq: b64(d % (q - 1n)),
    qi: b64(modInverse(q, p)),
  };
  return createPrivateKey({ key: jwk, format: 'jwk' });
}

describe('blind signing (RFC 9474 §4.3 BlindSign)', () => {
  it.each(rfc9474.map((v) => [v.name!, v] as const))('reproduces the RFC 9474 vector %s', (_name, v) => {
    const key = keyFromVector(v);
    expect(blindSign(key, hex(v.blinded_msg!)).toString('hex')).toBe(hex(v.blind_sig!).toString('hex'));
    // and the vector's final signature is an ordinary RSASSA-PSS signature over the prepared message
    expect(
      verify(
        'sha384',
        hex(v.input_msg!),
        { key: createPublicKey(key), padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(v.sLen) },
        hex(v.sig!),
      ),
    ).toBe(true);
  });

  it.each(rfc9578.map((v, i) => [i, v] as const))(
    'answers the RFC 9578 type 0x0002 token request of vector %i with its token response',
    (_i, v) => {
      const key = createPrivateKey(hex(v.skS!).toString('utf8'));
      const parsed = parseTokenRequest(hex(v.token_request!));
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      expect(blindSign(key, parsed.blindedMsg).toString('hex')).toBe(hex(v.token_response!).toString('hex'));
    },
  );

  it('refuses a message not below the modulus, and one of the wrong size', () => {
    const key = keyFromVector(rfc9474[2]!); // RSA-4096
    expect(() => blindSign(key, Buffer.alloc(512, 0xff))).toThrow();
    expect(() => blindSign(key, Buffer.alloc(256, 1))).toThrow('512 bytes');
  });
});

describe('parseTokenRequest', () => {
  it('reads type 0x0002 requests of 259 bytes only', () => {
    const good = Buffer.concat([Buffer.from([0, 2, 7]), Buffer.alloc(256, 1)]);
    expect(parseTokenRequest(good)).toMatchObject({ ok: true, truncatedTokenKeyId: 7 });
    expect(parseTokenRequest(good.subarray(1))).toEqual({ ok: false, cause: 'length 258' });
    const other = Buffer.from(good);
    other.writeUInt16BE(0xda7a, 0);
    expect(parseTokenRequest(other)).toEqual({ ok: false, cause: `token_type ${0xda7a}` });
  });
});

describe('a private-attestation key set', () => {
  it('holds one RSA-2048 key per scope mask, signs as the library’s Issuer does, and publishes no private part', async () => {
    const record = await createPrivateAttestationRecord('current', Date.UTC(2026, 10, 27, 12));
    expect(record.purpose).toBe('private-attestation');
    const published = publicKeysOf(record);
    expect(published.map((k) => k.scope_mask)).toEqual([...PRIVATE_SCOPE_MASKS]);
    expect(new Set(published.map((k) => k.token_key_id)).size).toBe(PRIVATE_SCOPE_MASKS.length);
    for (const key of published) {
      expect(Object.keys(key).sort()).toEqual(['epoch', 'public_key', 'scope_mask', 'token_key_id', 'token_type']);
      expect(key.epoch).toBe('2026-11-27');
      expect(key.token_type).toBe(2);
    }
    expect(record.publicJwk).not.toContain('pkcs8');

    // The library's issuer, over the same key, gives the same signature (RSA is deterministic).
    const mask3 = maskSigningKey(record, 3)!;
    const { pkcs8 } = (JSON.parse(record.privateJwk) as { keys: { scope_mask: number; pkcs8: string }[] }).keys.find(
      (k) => k.scope_mask === 3,
    )!;
    const privateKey = await crypto.subtle.importKey(
      'pkcs8',
      Buffer.from(pkcs8, 'base64url'),
      { name: 'RSA-PSS', hash: 'SHA-384' },
      true,
      ['sign'],
    );
    const publicKey = await crypto.subtle.importKey(
      'spki',
      createPublicKey(createPrivateKey({ key: Buffer.from(pkcs8, 'base64url'), format: 'der', type: 'pkcs8' })).export({
        type: 'spki',
        format: 'der',
      }),
      { name: 'RSA-PSS', hash: 'SHA-384' },
      true,
      ['verify'],
    );
    const issuer = new publicVerif.Issuer(publicVerif.BlindRSAMode.PSS, 'svc.example', privateKey, publicKey);
    const blinded = Buffer.alloc(256, 0);
    blinded[255] = 5;
    blinded[1] = 0x42;
    const request = new publicVerif.TokenRequest(
      mask3.truncatedTokenKeyId,
      new Uint8Array(blinded),
      TOKEN_TYPES.BLIND_RSA,
    );
    const theirs = await issuer.issue(request);
    expect(mask3.sign(blinded).toString('hex')).toBe(Buffer.from(theirs.blindSig).toString('hex'));
    expect(maskSigningKey(record, 16)).toBeNull();
  }, 30_000);
});
