import { spawnSync } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createResultLock, lockResult, newX25519KeyPair, openResult } from './result-box.ts';
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

describe('X25519 keys', () => {
  it('are derived from d alone: the placeholder x given to the JWK import is ignored (RFC 7748 §6.1 vector)', () => {
    const alice = {
      d: Buffer.from('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a', 'hex').toString('base64url'),
      x: Buffer.from('8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a', 'hex').toString('base64url'),
    };
    const imported = createPrivateKey({
      key: { kty: 'OKP', crv: 'X25519', d: alice.d, x: 'A'.repeat(43) },
      format: 'jwk',
    });
    expect(createPublicKey(imported).export({ format: 'jwk' }).x).toBe(alice.x);
    const { d, x } = newX25519KeyPair();
    expect(
      createPublicKey(createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d, x }, format: 'jwk' })).export({
        format: 'jwk',
      }).x,
    ).toBe(x);
  });

  it('survive 30,000 locks and boxes under allocation pressure without deadlocking the process', () => {
    // In a child process: a deadlock blocks its thread for good, so only a timeout can see it.
    // generateKeyPairSync + JWK export (the first version) deadlocked here within 6,000-19,000.
    const script = [
      `const { createResultLock, lockResult } = await import(${JSON.stringify(new URL('./result-box.ts', import.meta.url).href)});`,
      'let junk = [];',
      "for (let i = 0; i < 30000; i++) { const lock = createResultLock('pt_x'); lockResult(lock.publicKey, 'hello');",
      "  junk.push('x'.repeat(100) + i); if (junk.length > 10000) junk = []; }",
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      timeout: 60_000,
      encoding: 'utf8',
    });
    expect(run.error).toBeUndefined();
    expect(run.status, run.stderr).toBe(0);
  }, 70_000);
});
