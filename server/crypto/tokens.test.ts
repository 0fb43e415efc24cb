import { describe, expect, it } from 'vitest';
import { digestToken, isTokenShaped, newRequestId, newToken } from './tokens.ts';

describe('tokens', () => {
  it('are their prefix and 32 random bytes in base64url', () => {
    const grant = newToken('grant');
    expect(grant).toMatch(/^g_[A-Za-z0-9_-]{43}$/);
    expect(newToken('pass')).toMatch(/^p_[A-Za-z0-9_-]{43}$/);
    expect(newToken('grant')).not.toBe(grant);
    expect(newRequestId()).toMatch(/^vr_[A-Za-z0-9_-]{22}$/);
  });

  it('are stored as a SHA-256 digest that does not contain them', () => {
    const token = newToken('poll');
    expect(digestToken(token)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(digestToken(token)).toBe(digestToken(token));
    expect(digestToken(token)).not.toContain(token.slice(3, 13));
  });

  it('are shape-checked before any lookup', () => {
    expect(isTokenShaped(newToken('grant'), 'grant')).toBe(true);
    expect(isTokenShaped(newToken('grant'), 'pass')).toBe(false);
    expect(isTokenShaped('g_short', 'grant')).toBe(false);
    expect(isTokenShaped(`g_${'a'.repeat(42)}=`, 'grant')).toBe(false);
    expect(isTokenShaped(42, 'grant')).toBe(false);
  });
});
