/**
 * The access certificate at boot (docs/design.md §16): what a wallet would refuse, or production
 * must, stops the service with one line naming the input and what to do.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../errors.ts';
import {
  createAccessCertificates,
  loadSandboxAccess,
  type AccessCertificates,
} from '../../sandbox/wallet/sandbox-access.ts';
import { ACCESS_SECRETS, IMPORTED_NAMES, loadAccessCertificate, readAccessCertificate } from './access-certificate.ts';
import { reencodeSignature, NOW } from '../test-helpers.ts';

const DAY_MS = 86_400_000;
let operator: AccessCertificates;

beforeAll(async () => {
  operator = await createAccessCertificates({
    name: 'Operator',
    dns: 'verifier.example',
    notBefore: new Date(NOW - 30 * DAY_MS),
    notAfter: new Date(NOW + 365 * DAY_MS),
  });
});

/** The one line a refusal says, or 'accepted'. */
async function refusal(input: Partial<Parameters<typeof readAccessCertificate>[0]>): Promise<string> {
  try {
    await readAccessCertificate({
      certPem: operator.chainPem,
      keyPem: operator.keyPem,
      mode: 'production',
      now: NOW,
      ...input,
    });
    return 'accepted';
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const line = (error as Error).message;
    expect(line.split('\n')).toHaveLength(1);
    return line;
  }
}

describe('readAccessCertificate', () => {
  it("accepts an operator's leaf with its key; client_id is x509_hash: and the base64url SHA-256 of the leaf's DER", async () => {
    const access = await readAccessCertificate({
      certPem: operator.chainPem,
      keyPem: operator.keyPem,
      mode: 'production',
      now: NOW,
    });
    const der = new X509Certificate(operator.chainPem).raw;
    expect(access.clientId).toBe(`x509_hash:${createHash('sha256').update(der).digest('base64url')}`);
    expect(access.x5c).toEqual([der.toString('base64')]);
    expect(access.privateJwk).toMatchObject({ kty: 'EC', crv: 'P-256', x: operator.leafKey.x, d: operator.leafKey.d });
  });

  it('refuses a chain out of order or holding its root (the wallets hold the trust anchor)', async () => {
    const intermediate = operator.ca.toString('pem');
    // The CA is self-signed: as the second certificate it is a trust anchor, which the chain must leave out.
    expect(await refusal({ certPem: operator.chainPem + intermediate })).toMatch(
      /^SVC_WALLET_ACCESS_CERT: certificate 2 \(CN=Operator Access CA, O=Operator, C=XX\) is a self-signed root; leave the trust anchor out/,
    );
    expect(await refusal({ certPem: intermediate + operator.chainPem })).toMatch(
      /the leaf \(CN=Operator Access CA.*self-signed/,
    );
    const other = await createAccessCertificates({
      name: 'Other',
      dns: 'x.example',
      notBefore: new Date(NOW - DAY_MS),
      notAfter: new Date(NOW + DAY_MS),
    });
    expect(await refusal({ certPem: operator.chainPem + other.leaf.toString('pem') })).toMatch(
      /^SVC_WALLET_ACCESS_CERT: certificate 2 \(CN=x\.example.*\) did not issue certificate 1; list the chain leaf first/,
    );
  });

  it('refuses a self-signed leaf', async () => {
    const selfSigned = await createAccessCertificates({
      name: 'Self',
      dns: 'self.example',
      notBefore: new Date(NOW - DAY_MS),
      notAfter: new Date(NOW + DAY_MS),
      selfSigned: true,
    });
    expect(await refusal({ certPem: selfSigned.chainPem, keyPem: selfSigned.keyPem })).toBe(
      'SVC_WALLET_ACCESS_CERT: the leaf (CN=self.example, O=Self, C=XX) is self-signed; wallets accept only a certificate ' +
        'an access CA, Google or Apple issued for your key (docs/wallets.md)',
    );
  });

  it('refuses a key that is not the leaf’s, and one that is not a PKCS#8 P-256 key', async () => {
    const other = await createAccessCertificates({
      name: 'Other',
      dns: 'x.example',
      notBefore: new Date(NOW - DAY_MS),
      notAfter: new Date(NOW + DAY_MS),
    });
    expect(await refusal({ keyPem: other.keyPem })).toBe(
      'SVC_WALLET_ACCESS_KEY does not match the leaf of SVC_WALLET_ACCESS_CERT (CN=verifier.example, O=Operator, C=XX): ' +
        'install the key the certificate was issued for',
    );
    expect(await refusal({ keyPem: operator.chainPem })).toBe(
      'SVC_WALLET_ACCESS_KEY must be a P-256 private key in PKCS#8 PEM ("BEGIN PRIVATE KEY")',
    );
    expect(await refusal({ keyPem: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' })).toMatch(
      /^SVC_WALLET_ACCESS_KEY must be a P-256 private key/,
    );
  });

  it('refuses an expired leaf and one not valid yet, naming the day', async () => {
    expect(await refusal({ now: NOW + 400 * DAY_MS })).toMatch(
      /^SVC_WALLET_ACCESS_CERT: the leaf \(CN=verifier\.example, O=Operator, C=XX\) expired on \d{4}-\d\d-\d\d; install a renewed certificate$/,
    );
    expect(await refusal({ now: NOW - 31 * DAY_MS })).toMatch(/is not valid before \d{4}-\d\d-\d\d$/);
  });

  it('refuses no certificate and an unreadable one', async () => {
    expect(await refusal({ certPem: '' })).toBe('SVC_WALLET_ACCESS_CERT: no PEM certificate found');
    expect(await refusal({ certPem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' })).toBe(
      'SVC_WALLET_ACCESS_CERT certificate 1: not a readable X.509 certificate',
    );
  });

  it('refuses the sandbox access certificate in production by its public key, even re-encoded; sandbox uses it', async () => {
    const sandbox = loadSandboxAccess();
    const line = await refusal({ certPem: sandbox.chainPem, keyPem: sandbox.keyPem });
    expect(line).toMatch(
      /^SVC_MODE=production refuses SVC_WALLET_ACCESS_CERT: certificate 1 is the sandbox access certificate \(fixtures\/wallet\/sandbox-access\.pem\), known by its public key \(SPKI SHA-256 1baa9111[0-9a-f]+\): its private key is public/,
    );
    expect(await refusal({ certPem: reencodeSignature(sandbox.chainPem), keyPem: sandbox.keyPem })).toBe(line);
    expect(await refusal({ certPem: sandbox.chainPem, keyPem: sandbox.keyPem, mode: 'sandbox' })).toBe('accepted');
  });
});

describe('loadAccessCertificate', () => {
  const config = { mode: 'sandbox' as const, walletAccessCertPath: null, walletAccessKeyPath: null };

  it('is null without variables or an imported certificate: requests stay unsigned', async () => {
    expect(await loadAccessCertificate(config, { listSecrets: async () => ({}) }, NOW)).toBeNull();
  });

  it('reads the imported one from the store, naming it so in its refusals', async () => {
    const secrets = { [ACCESS_SECRETS.cert]: operator.chainPem, [ACCESS_SECRETS.key]: operator.keyPem };
    const access = await loadAccessCertificate(config, { listSecrets: async () => secrets }, NOW);
    expect(access?.leaf.subject).toContain('CN=verifier.example');
    await expect(
      loadAccessCertificate(config, { listSecrets: async () => secrets }, NOW + 400 * DAY_MS),
    ).rejects.toThrow(`${IMPORTED_NAMES.cert}: the leaf (CN=verifier.example, O=Operator, C=XX) expired on`);
  });

  it('names the file it cannot read', async () => {
    await expect(
      loadAccessCertificate(
        { ...config, walletAccessCertPath: '/nonexistent/chain.pem', walletAccessKeyPath: '/nonexistent/key.pem' },
        { listSecrets: async () => ({}) },
        NOW,
      ),
    ).rejects.toThrow('SVC_WALLET_ACCESS_CERT: cannot read /nonexistent/chain.pem');
  });
});
