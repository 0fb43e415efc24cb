import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyAttestation } from '../sdk/attestation.ts';
import type { Store } from '../store/store.ts';
import { makeTestDeps, type FakeClock } from '../test/helpers.ts';
import type { BlindCrypto } from './blind.ts';
import { KEY_RELOAD_INTERVAL_MS, originHash } from './blind.ts';
import { ANNOUNCE_BEFORE_PROMOTION_MS, RETIRED_KEY_LIFETIME_MS, listKeySummaries, rotateKeys } from './keys.ts';

const ORIGIN = 'https://shop.example';
const HOUR = 3_600_000;

let store: Store;
let clock: FakeClock;
let blind: BlindCrypto;

beforeEach(async () => {
  ({
    store,
    clock,
    deps: { blind },
  } = await makeTestDeps());
});
afterEach(() => store.close());

async function states(): Promise<string[]> {
  return (await store.listKeys('attestation')).map((k) => k.state).sort();
}

function kidOf(jws: string): string {
  return JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString('utf8')).kid;
}

/** Lets this instance's key cache expire, as it does on its own every few seconds. */
function afterReload(): void {
  clock.advance(KEY_RELOAD_INTERVAL_MS);
}

function attest(): Promise<string> {
  return blind.signAttestation({ appId: 'app_a', originHash: originHash(ORIGIN), scopeMask: 1, nullifier: '0x01' });
}

describe('rotateKeys', () => {
  it('keeps a retired key for the attestation lifetime plus the key-set cache hour', () => {
    expect(RETIRED_KEY_LIFETIME_MS).toBe((300 + 3600) * 1000);
    expect(ANNOUNCE_BEFORE_PROMOTION_MS).toBe(HOUR);
  });

  it('announces a next key first, published second', async () => {
    const signing = (await blind.jwks()).keys[0]!.kid;
    const result = await rotateKeys(store, 'attestation', clock.now());
    expect(result).toEqual({ action: 'announced', kid: expect.any(String), promotableAt: clock.now() + HOUR });
    afterReload();
    expect((await blind.jwks()).keys.map((k) => k.kid)).toEqual([signing, result.kid]);
    expect(await states()).toEqual(['current', 'next']);
  });

  it('refuses to promote before the next key has been published for an hour, unless forced', async () => {
    const announced = await rotateKeys(store, 'attestation', clock.now());
    clock.advance(HOUR - 1);
    expect(await rotateKeys(store, 'attestation', clock.now())).toEqual({
      action: 'waiting',
      kid: announced.kid,
      promotableAt: clock.now() + 1,
    });
    expect(await states()).toEqual(['current', 'next']);
    expect(await rotateKeys(store, 'attestation', clock.now(), { force: true })).toMatchObject({
      action: 'promoted',
      kid: announced.kid,
    });
  });

  it('promotes the next key and retires the old one in one step, never leaving zero or two current keys', async () => {
    const oldKid = (await blind.jwks()).keys[0]!.kid;
    const announced = await rotateKeys(store, 'attestation', clock.now());
    clock.advance(HOUR);
    const promoted = await rotateKeys(store, 'attestation', clock.now());
    expect(promoted).toEqual({
      action: 'promoted',
      kid: announced.kid,
      retiredKid: oldKid,
      dropAfter: clock.now() + RETIRED_KEY_LIFETIME_MS,
    });
    expect(await states()).toEqual(['current', 'retired']);
    const retired = (await store.listKeys('attestation')).find((k) => k.kid === oldKid)!;
    expect(retired.dropAfter).toBe(clock.now() + RETIRED_KEY_LIFETIME_MS);
  });

  it('creates a current key directly when there is none at all', async () => {
    await store.updateKeys({ drop: (await store.listKeys('attestation')).map((k) => k.kid) });
    expect(await rotateKeys(store, 'attestation', clock.now())).toMatchObject({ action: 'created' });
    expect(await states()).toEqual(['current']);
  });

  it('lists kid, purpose and state but never key material', async () => {
    await rotateKeys(store, 'attestation', clock.now());
    const summaries = await listKeySummaries(store, clock.now());
    expect(summaries.map((s) => [s.purpose, s.state])).toEqual([
      ['attestation', 'current'],
      ['attestation', 'next'],
      ['session', 'current'],
    ]);
    const text = JSON.stringify(summaries);
    for (const key of [...(await store.listKeys('attestation')), ...(await store.listKeys('session'))]) {
      expect(text).not.toContain(JSON.parse(key.privateJwk).d);
    }
    expect(text).not.toContain('"d"');
  });
});

describe('a full rotation seen by a partner', () => {
  it('keeps old attestations verifiable while their key is published and signs with the new key after promotion', async () => {
    const verifyWith = async (jws: string) =>
      verifyAttestation(jws, { appId: 'app_a', origin: ORIGIN, keys: await blind.jwks(), now: clock.now() });

    const before = await attest();
    const oldKid = kidOf(before);
    expect((await blind.jwks()).keys[0]!.kid).toBe(oldKid);

    // Announce: the old key still signs and stays first.
    const { kid: newKid } = await rotateKeys(store, 'attestation', clock.now());
    afterReload();
    expect(kidOf(await attest())).toBe(oldKid);
    expect((await blind.jwks()).keys.map((k) => k.kid)).toEqual([oldKid, newKid]);

    // An hour later: promote. The last attestation of the old key is signed just before.
    clock.advance(HOUR);
    const lastOld = await attest();
    expect(kidOf(lastOld)).toBe(oldKid);
    await rotateKeys(store, 'attestation', clock.now());
    afterReload();

    const after = await attest();
    expect(kidOf(after)).toBe(newKid);
    const { keys } = await blind.jwks();
    expect(keys.map((k) => k.kid)).toEqual([newKid, oldKid]);
    expect(keys[0]!.kid).toBe(kidOf(after)); // keys[0] is always the signing key
    await expect(verifyWith(lastOld)).resolves.toMatchObject({ adult: true });
    await expect(verifyWith(after)).resolves.toMatchObject({ adult: true });

    // Just before dropAfter the retired key is still published; from dropAfter on it is gone.
    clock.advance(RETIRED_KEY_LIFETIME_MS - KEY_RELOAD_INTERVAL_MS - 1);
    expect((await blind.jwks()).keys.map((k) => k.kid)).toEqual([newKid, oldKid]);
    clock.advance(1);
    expect((await blind.jwks()).keys.map((k) => k.kid)).toEqual([newKid]);
    clock.advance(KEY_RELOAD_INTERVAL_MS);
    expect((await blind.jwks()).keys.map((k) => k.kid)).toEqual([newKid]);
    expect((await store.listKeys('attestation')).map((k) => k.kid)).toEqual([newKid]);
  });
});
