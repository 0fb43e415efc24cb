import { describe, expect, it } from 'vitest';
import { computeNullifier } from './nullifier.ts';

// 32 bytes of 0x07; the expected value was computed with
// `printf 'fr-adult-m|partner:pk_test_demo' | openssl dgst -sha256 -hmac "$(printf '\x07%.0s' {1..32})"`.
const KEY = Buffer.alloc(32, 7);

describe('computeNullifier', () => {
  it('matches the known-answer vector computed with openssl', () => {
    expect(computeNullifier(KEY, 'fr-adult-m', 'partner:pk_test_demo')).toBe(
      '0xb4fa0cbb079c0aa3290954542b03b9fed915a5f1578beaeaad25f9e6e6a98eae',
    );
  });

  it('gives the same person the same value for one audience and another value for another', () => {
    const shop = computeNullifier(KEY, 'fr-adult-m', 'app:app_blind_shop');
    expect(computeNullifier(KEY, 'fr-adult-m', 'app:app_blind_shop')).toBe(shop);
    expect(computeNullifier(KEY, 'fr-adult-m', 'app:app_blind_club')).not.toBe(shop);
    expect(computeNullifier(KEY, 'fr-adult-f', 'app:app_blind_shop')).not.toBe(shop);
  });

  it('keeps the rails apart: a partner ID and a blind app id of the same value get different nullifiers', () => {
    expect(computeNullifier(KEY, 'fr-adult-m', 'partner:same_id')).not.toBe(
      computeNullifier(KEY, 'fr-adult-m', 'app:same_id'),
    );
  });

  it('depends on the service key', () => {
    expect(computeNullifier(Buffer.alloc(32, 8), 'fr-adult-m', 'partner:pk_test_demo')).not.toBe(
      computeNullifier(KEY, 'fr-adult-m', 'partner:pk_test_demo'),
    );
  });
});
