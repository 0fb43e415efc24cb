import { createPublicKey, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { publicVerif, Token, TOKEN_TYPES } from '@cloudflare/privacypass-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../paths.ts';
import { makeTestApp, type TestApp } from '../test/helpers.ts';
import { fetchPrivateKeySet, issuePrivateToken, type IssuedPrivateToken } from '../test/private-client.ts';
import { completeOnPhone, startBlindFlow } from '../test/verify-flow.ts';
import {
  PrivateAttestationError,
  serializeTokenChallenge,
  verifyPrivateAttestation,
  type PrivateAttestationKeySet,
} from './private-attestation.ts';

const rfc9578 = JSON.parse(
  readFileSync(join(PROJECT_ROOT, 'fixtures', 'private-attestation', 'rfc9578-type2.json'), 'utf8'),
) as Array<Record<string, string>>;
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const metadataPart = (value: unknown) => b64url(Buffer.from(JSON.stringify(value)));

async function refusal(attestation: string, options: Parameters<typeof verifyPrivateAttestation>[1]) {
  try {
    await verifyPrivateAttestation(attestation, options);
  } catch (error) {
    if (error instanceof PrivateAttestationError) return error.code;
    throw error;
  }
  return 'accepted';
}

/** The check docs/adult-blind.md shows with @cloudflare/privacypass-ts alone, as written there. */
async function checkWithLibraryAlone(
  attestation: string,
  keys: PrivateAttestationKeySet,
  redemptionContext: Uint8Array,
) {
  const { BlindRSAMode, Origin, convertRSASSAPSSToEnc } = publicVerif;
  const [tokenPart, metadataPart] = attestation.split('.') as [string, string];
  const token = Token.deserialize(TOKEN_TYPES.BLIND_RSA, new Uint8Array(Buffer.from(tokenPart, 'base64url')));
  const metadata = JSON.parse(Buffer.from(metadataPart, 'base64url').toString('utf8'));
  const keyId = Buffer.from(token.authInput.tokenKeyId).toString('base64url');
  const key = keys.keys.find((k) => k.token_key_id === keyId);
  if (!key || key.scope_mask !== metadata.scope_mask || key.epoch !== metadata.epoch)
    throw new Error('wrong key or metadata');
  const origin = new Origin(BlindRSAMode.PSS);
  const challenge = origin.createTokenChallenge(keys.issuer_name, redemptionContext);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', challenge.serialize()));
  if (Buffer.compare(Buffer.from(digest), Buffer.from(token.authInput.challengeDigest)) !== 0)
    throw new Error('other context');
  const publicKey = await crypto.subtle.importKey(
    'spki',
    convertRSASSAPSSToEnc(new Uint8Array(Buffer.from(key.public_key, 'base64url'))),
    { name: 'RSA-PSS', hash: 'SHA-384' },
    true,
    ['verify'],
  );
  if (!(await origin.verify(token, publicKey))) throw new Error('bad signature');
  return (metadata.scope_mask & 1) === 1;
}

describe('verifyPrivateAttestation on RFC 9578’s type 0x0002 vector', () => {
  it('accepts the vector’s token for its issuer and redemption context, given the key it names', async () => {
    const v = rfc9578[4]!; // issuer.example, a 32-byte context, no origin info
    const challenge = Buffer.from(v.token_challenge!, 'hex');
    const context = challenge.subarray(2 + 2 + 14 + 1, 2 + 2 + 14 + 1 + 32);
    expect(serializeTokenChallenge('issuer.example', context)).toEqual(challenge);
    const publicKey = Buffer.from(v.pkS!, 'hex');
    const token = Buffer.from(v.token!, 'hex');
    const keys = {
      issuer_name: 'issuer.example',
      keys: [
        {
          token_type: 2,
          token_key_id: b64url(token.subarray(66, 98)),
          public_key: b64url(publicKey),
          scope_mask: 1,
          epoch: '2024-06-01',
        },
      ],
    };
    const attestation = `${b64url(token)}.${metadataPart({ scope_mask: 1, epoch: '2024-06-01' })}`;
    await expect(verifyPrivateAttestation(attestation, { redemptionContext: context, keys })).resolves.toMatchObject({
      adult: true,
    });
    expect(await refusal(attestation, { redemptionContext: randomBytes(32), keys })).toBe('WRONG_CONTEXT');
    expect(createPublicKey({ key: publicKey, format: 'der', type: 'spki' }).asymmetricKeyType).toBe('rsa-pss');
  });

  it('reproduces the challenges of the vectors without origin info', () => {
    for (const v of rfc9578.filter((x) => x.token_challenge!.endsWith('0000'))) {
      const challenge = Buffer.from(v.token_challenge!, 'hex');
      const contextLength = challenge[18]!;
      expect(serializeTokenChallenge('issuer.example', challenge.subarray(19, 19 + contextLength))).toEqual(challenge);
    }
  });
});

describe('verifyPrivateAttestation on tokens the service issued', () => {
  let t: TestApp;
  let other: TestApp;
  let issued: IssuedPrivateToken;
  let foreign: IssuedPrivateToken;
  beforeAll(async () => {
    [t, other] = await Promise.all([makeTestApp(), makeTestApp()]);
    const issue = async (app: TestApp) => {
      const flow = await startBlindFlow(app, { attestation: 'private' });
      await completeOnPhone(app, flow);
      return issuePrivateToken(app, flow, { keySet: await fetchPrivateKeySet(app) });
    };
    [issued, foreign] = await Promise.all([issue(t), issue(other)]);
  }, 60_000);
  afterAll(() => Promise.all([t.close(), other.close()]));

  const options = () => ({ redemptionContext: issued.redemptionContext, keys: issued.keySet });

  it('accepts the real one, and so does the check docs/adult-blind.md shows with the library alone', async () => {
    await expect(verifyPrivateAttestation(issued.attestation, options())).resolves.toMatchObject({
      adult: true,
      scopeMask: 1,
    });
    expect(await checkWithLibraryAlone(issued.attestation, issued.keySet, issued.redemptionContext)).toBe(true);
    await expect(
      checkWithLibraryAlone(issued.attestation, issued.keySet, new Uint8Array(randomBytes(32))),
    ).rejects.toThrow('other context');
  });

  it('refuses a token signed by another service’s key (UNKNOWN_KEY), even with that key’s context', async () => {
    expect(await refusal(foreign.attestation, options())).toBe('UNKNOWN_KEY');
    expect(await refusal(foreign.attestation, { ...options(), redemptionContext: foreign.redemptionContext })).toBe(
      'UNKNOWN_KEY',
    );
  });

  it('refuses another redemption context (WRONG_CONTEXT)', async () => {
    expect(await refusal(issued.attestation, { ...options(), redemptionContext: randomBytes(32) })).toBe(
      'WRONG_CONTEXT',
    );
  });

  it('refuses altered metadata (WRONG_METADATA): another scope mask, another epoch, or malformed (MALFORMED)', async () => {
    const [tokenPart, metadata] = issued.attestation.split('.') as [string, string];
    const epoch = (JSON.parse(Buffer.from(metadata, 'base64url').toString()) as { epoch: string }).epoch;
    expect(await refusal(`${tokenPart}.${metadataPart({ scope_mask: 3, epoch })}`, options())).toBe('WRONG_METADATA');
    expect(await refusal(`${tokenPart}.${metadataPart({ scope_mask: 1, epoch: '2020-01-01' })}`, options())).toBe(
      'WRONG_METADATA',
    );
    for (const bad of [{ scope_mask: 1, epoch, extra: 1 }, { scope_mask: '1', epoch }, [1]])
      expect(await refusal(`${tokenPart}.${metadataPart(bad)}`, options())).toBe('MALFORMED');
    expect(await refusal(tokenPart, options())).toBe('MALFORMED');
    expect(await refusal(`${tokenPart}.${metadata}.x`, options())).toBe('MALFORMED');
  });

  it('refuses a token whose key id was switched to the key of another mask, or whose signature was touched (BAD_SIGNATURE)', async () => {
    const [tokenPart, metadata] = issued.attestation.split('.') as [string, string];
    const token = Buffer.from(tokenPart, 'base64url');
    const mask3 = issued.keySet.keys.find((k) => k.state === 'current' && k.scope_mask === 3)!;
    const switched = Buffer.from(token);
    Buffer.from(mask3.token_key_id, 'base64url').copy(switched, 66);
    expect(await refusal(`${b64url(switched)}.${metadataPart({ scope_mask: 3, epoch: mask3.epoch })}`, options())).toBe(
      'BAD_SIGNATURE',
    );
    const touched = Buffer.from(token);
    touched[token.length - 1]! ^= 1;
    expect(await refusal(`${b64url(touched)}.${metadata}`, options())).toBe('BAD_SIGNATURE');
  });

  it('refuses a reused token when the partner records its contexts (REUSED), after every other check', async () => {
    const used = new Set<string>();
    const consumeContext = (context: string) => !used.has(context) && Boolean(used.add(context));
    await expect(verifyPrivateAttestation(issued.attestation, { ...options(), consumeContext })).resolves.toMatchObject(
      {
        adult: true,
      },
    );
    expect(await refusal(issued.attestation, { ...options(), consumeContext })).toBe('REUSED');
    // a forged token never uses the context up
    const fresh = new Set<string>();
    const consumeFresh = (context: string) => !fresh.has(context) && Boolean(fresh.add(context));
    expect(await refusal(foreign.attestation, { ...options(), consumeContext: consumeFresh })).toBe('UNKNOWN_KEY');
    expect(fresh.size).toBe(0);
  });
});
