import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWalletFixtures } from './make-wallet-fixtures.ts';

describe('make-wallet-fixtures', () => {
  it('writes a sandbox IACA, a DS certificate it issued and the DS key, and replaces them only with --force', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-wallet-fixtures-'));
    await makeWalletFixtures(dir, false);
    const iaca = new X509Certificate(readFileSync(join(dir, 'sandbox-iaca.pem')));
    const ds = new X509Certificate(readFileSync(join(dir, 'sandbox-ds.pem')));
    const key = JSON.parse(readFileSync(join(dir, 'sandbox-ds.key.json'), 'utf8')) as Record<string, string>;
    expect(iaca.ca).toBe(true);
    expect(ds.ca).toBe(false);
    expect(ds.checkIssued(iaca) && ds.verify(iaca.publicKey)).toBe(true);
    expect(ds.keyUsage).toEqual(['1.0.18013.5.1.2']);
    expect(ds.publicKey.export({ format: 'jwk' })).toMatchObject({ crv: 'P-256', x: key.x, y: key.y });
    await expect(makeWalletFixtures(dir, false)).rejects.toThrow(/--force/);
    await makeWalletFixtures(dir, true);
    expect(new X509Certificate(readFileSync(join(dir, 'sandbox-iaca.pem'))).fingerprint256).not.toBe(
      iaca.fingerprint256,
    );
  });
});
