import { describe, expect, it } from 'vitest';
import { computeNullifier } from './nullifier.ts';

// 32 bytes of 0x07; the expected value was computed with
// `printf 'fr-adult-m|pk_test_demo' | openssl dgst -sha256 -hmac "$(printf '\x07%.0s' {1..32})"`.
const KEY = Buffer.alloc(32, 7);

describe('computeNullifier', () => {
  it('matches the known-answer vector computed with openssl', () => {
    expect(computeNullifier(KEY, 'fr-adult-m', 'pk_test_demo')).toBe('0x21e924f695392a3ea764a41123b24425ffc7367fbb557b3181c2e36b3a21b5d1');
  });

  it('gives the same person the same value for one audience and another value for another', () => {
    const shop = computeNullifier(KEY, 'fr-adult-m', 'app_blind_shop');
    expect(computeNullifier(KEY, 'fr-adult-m', 'app_blind_shop')).toBe(shop);
    expect(computeNullifier(KEY, 'fr-adult-m', 'app_blind_club')).not.toBe(shop);
    expect(computeNullifier(KEY, 'fr-adult-f', 'app_blind_shop')).not.toBe(shop);
  });

  it('depends on the service key', () => {
    expect(computeNullifier(Buffer.alloc(32, 8), 'fr-adult-m', 'pk_test_demo')).not.toBe(computeNullifier(KEY, 'fr-adult-m', 'pk_test_demo'));
  });
});
