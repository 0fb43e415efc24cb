/**
 * The sealing store and its keyring: values sealed under the master key, bound to their field,
 * opened by the current or a previous key, and a store made before sealing sealed on open.
 */
import { describe, expect, it } from 'vitest';
import { createKeyring, isSealed, parseMasterKey, SealError } from '../crypto/master-key.ts';
import { resealStore, sealedKeyIds, sealedStore } from './sealed.ts';
import { openSqliteStore } from './sqlite.ts';
import type { PartnerRecord, ProviderRecord } from './store.ts';

const keyOne = Buffer.alloc(32, 1);
const keyTwo = Buffer.alloc(32, 2);

const partner = (id: string, secret = Buffer.alloc(32, 7).toString('base64')): PartnerRecord => ({
  id,
  secret,
  name: 'Shop',
  domain: 'https://shop.example',
  rail: 'standard',
  blindAppId: null,
  allowedScopes: null,
  createdAt: 0,
  previousSecret: null,
  previousSecretUntil: null,
  disabledAt: null,
  attestation: null,
});

const provider = (id: string, credential = 'client-secret'): ProviderRecord => ({
  id,
  issuer: 'https://id.example',
  clientId: 'svc',
  clientAuth: 'client_secret_basic',
  credential,
  name: 'Example ID',
  method: 'face_check',
  proves: ['isAdult'],
  enabled: true,
  createdAt: 0,
});

describe('the keyring', () => {
  it('opens what it sealed, in the same field only', () => {
    const ring = createKeyring([keyOne]);
    const sealed = ring.seal('partner/pk_a/secret', 'the secret');
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain('the secret');
    expect(ring.open('partner/pk_a/secret', sealed)).toBe('the secret');
    expect(() => ring.open('partner/pk_b/secret', sealed)).toThrow(/altered, or moved from another record/);
  });

  it('opens values of a previous key, seals with the current one, and names a key it lacks', () => {
    const old = createKeyring([keyOne]).seal('f', 'v');
    const ring = createKeyring([keyTwo, keyOne]);
    expect(ring.open('f', old)).toBe('v');
    expect(ring.seal('f', 'v')).toContain(`:${ring.currentId}:`);
    expect(() => createKeyring([keyTwo]).open('f', old)).toThrow(SealError);
    expect(() => createKeyring([keyTwo]).open('f', old)).toThrow(/not in this process's keyring/);
  });

  it.each(['', 'c2hvcnQ=', Buffer.alloc(31).toString('base64'), `${Buffer.alloc(32).toString('base64')}!`])(
    'refuses %j as a master key',
    (text) =>
      expect(() => parseMasterKey(text, 'SVC_MASTER_KEY')).toThrow(/SVC_MASTER_KEY must be base64 of exactly 32/),
  );
});

describe('the sealing store', () => {
  it('stores partner secrets, previous secrets, private keys and secrets sealed, and reads them back plain', async () => {
    const raw = openSqliteStore(':memory:');
    const store = sealedStore(raw, createKeyring([keyOne]));
    const rotated = { ...partner('pk_a'), previousSecret: 'b2xk', previousSecretUntil: 5 };
    await store.putPartner(rotated);
    await store.putKey({
      kid: 'k1',
      purpose: 'attestation',
      state: 'current',
      privateJwk: '{"d":"x"}',
      publicJwk: '{}',
      createdAt: 0,
      dropAfter: null,
    });
    expect(await store.getOrCreateSecret('nullifier_key', 'bnVsbA==')).toBe('bnVsbA==');
    expect(await store.getOrCreateSecret('store_mode', 'sandbox')).toBe('sandbox');

    expect(await store.getPartner('pk_a')).toEqual({ ...rotated, walletFormats: null });
    expect((await store.listKeys('attestation'))[0]!.privateJwk).toBe('{"d":"x"}');
    const stored = await raw.getPartner('pk_a');
    expect([stored!.secret, stored!.previousSecret].every((v) => isSealed(v!))).toBe(true);
    expect(isSealed((await raw.listKeys('attestation'))[0]!.privateJwk)).toBe(true);
    expect(isSealed((await raw.listSecrets()).nullifier_key!)).toBe(true);
    expect((await raw.listSecrets()).store_mode).toBe('sandbox');
    await store.close();
  });

  it("binds a provider's credential and a login state's values to their record: moved, they do not open", async () => {
    const raw = openSqliteStore(':memory:');
    const store = sealedStore(raw, createKeyring([keyOne]));
    await store.putProvider(provider('idp_a', 'secret-a'));
    await store.putProvider(provider('idp_b', 'secret-b'));
    const a = await raw.getProvider('idp_a');
    await raw.putProvider({ ...(await raw.getProvider('idp_b'))!, credential: a!.credential });
    await expect(store.getProvider('idp_b')).rejects.toThrow(SealError);

    const state = {
      digest: 'd1',
      requestId: 'vr_1',
      providerId: 'idp_a',
      codeVerifier: 'v',
      nonce: 'n',
      browserDigest: 'b',
      expiresAt: 10,
    };
    await store.putLoginState(state, 0);
    const sealed = (await raw.takeLoginState('d1', 0))!;
    await raw.putLoginState({ ...sealed, digest: 'd2', nonce: sealed.codeVerifier }, 0);
    await expect(store.takeLoginState('d2', 0)).rejects.toThrow(SealError);
    await store.close();
  });

  it('seals the plain values of a store made before sealing, and re-seals old-key values on rotation', async () => {
    const raw = openSqliteStore(':memory:');
    await raw.putPartner(partner('pk_plain'));
    await raw.getOrCreateSecret('nullifier_key', 'cGxhaW4=');
    await raw.putProvider(provider('idp_plain'));
    const one = createKeyring([keyOne]);
    expect(await sealedKeyIds(raw, one)).toEqual({ plain: 3 });

    expect(await resealStore(raw, one, { plainOnly: true })).toEqual({ resealed: 3, current: 0 });
    expect(await sealedKeyIds(raw, one)).toEqual({ [one.currentId]: 3 });

    const two = createKeyring([keyTwo, keyOne]);
    expect(await resealStore(raw, two, { plainOnly: true })).toEqual({ resealed: 0, current: 3 });
    expect(await resealStore(raw, two)).toEqual({ resealed: 3, current: 0 });
    expect(await sealedKeyIds(raw, two)).toEqual({ [two.currentId]: 3 });
    const reopened = sealedStore(raw, createKeyring([keyTwo]));
    expect((await reopened.getPartner('pk_plain'))!.secret).toBe(partner('pk_plain').secret);
    expect(await reopened.getProvider('idp_plain')).toEqual(provider('idp_plain'));
    await raw.close();
  });
});
