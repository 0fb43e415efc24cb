import { describe, expect, it } from 'vitest';
import { createResultLock, lockResult, openResult } from './result-box.ts';
import { newToken } from './tokens.ts';

describe('result box', () => {
  it('opens with the reader secret the lock was made for', () => {
    const pollToken = newToken('poll');
    const lock = createResultLock(pollToken);
    const box = lockResult(lock.publicKey, '{"grant_code":"g_x"}');
    expect(openResult(lock.sealedPrivateKey, pollToken, box)).toBe('{"grant_code":"g_x"}');
  });

  it('does not open with another secret, another lock or a tampered box', () => {
    const pollToken = newToken('poll');
    const lock = createResultLock(pollToken);
    const other = createResultLock(pollToken);
    const box = lockResult(lock.publicKey, 'secret result');
    expect(openResult(lock.sealedPrivateKey, newToken('poll'), box)).toBeNull();
    expect(openResult(other.sealedPrivateKey, pollToken, box)).toBeNull();
    const parts = box.split('.');
    const last = parts.at(-1)!;
    parts[parts.length - 1] = (last[0] === 'A' ? 'B' : 'A') + last.slice(1);
    expect(openResult(lock.sealedPrivateKey, pollToken, parts.join('.'))).toBeNull();
    expect(openResult(lock.sealedPrivateKey, pollToken, 'x1.garbage')).toBeNull();
    expect(openResult(lock.sealedPrivateKey, pollToken, '')).toBeNull();
  });

  it('keeps the plaintext and the reader secret out of what is stored', () => {
    const pollToken = newToken('poll');
    const lock = createResultLock(pollToken);
    const box = lockResult(lock.publicKey, 'g_plaintext_grant');
    for (const stored of [lock.publicKey, lock.sealedPrivateKey, box]) {
      expect(stored).not.toContain('g_plaintext_grant');
      expect(stored).not.toContain(pollToken);
    }
  });

  it('seals each result differently, even the same one twice', () => {
    const lock = createResultLock('reader');
    expect(lockResult(lock.publicKey, 'same')).not.toBe(lockResult(lock.publicKey, 'same'));
  });
});
