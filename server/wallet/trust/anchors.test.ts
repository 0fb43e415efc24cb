import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../errors.ts';
import { createIssuerCertificates } from '../../sandbox/wallet/sandbox-issuer.ts';
import { spkiSha256 } from './certificates.ts';
import { DEFAULT_WALLET_FIXTURES, findPublicKey, loadWalletTrust, PUBLIC_KEYS, walletTrustNotices } from './anchors.ts';
import { evaluateIssuerChain } from './chain.ts';
import { NOW, reencodeSignature, sandboxIssuer } from '../test-helpers.ts';

const EU_CA_SHA256 = '4f37ea439ebc094cdd6a8ce8830559b4805c16448f44282c634e92646f70ec25';

const fixture = (file: string) => new X509Certificate(readFileSync(join(DEFAULT_WALLET_FIXTURES, file)));

function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'svc-wallet-')), name);
  writeFileSync(path, text);
  return path;
}

async function otherRoot(): Promise<string> {
  const issuer = await createIssuerCertificates({
    name: 'Operator Added',
    country: 'XX',
    notBefore: new Date(NOW - 1e10),
    notAfter: new Date(NOW + 1e10),
  });
  return issuer.iaca.toString('pem');
}

describe('loadWalletTrust', () => {
  it('trusts the sandbox root and the EU reference CA in sandbox mode', () => {
    const trust = loadWalletTrust({ mode: 'sandbox' });
    expect(trust.enabled).toBe(true);
    expect(trust.anchors.map((a) => a.subject)).toEqual([
      'CN=SVC Sandbox IACA, O=SVC Sandbox, C=XX',
      'CN=Age Verification Issuer CA 01, O=Age Verification Reference Implementation, C=AV',
    ]);
    expect(trust.anchors[1]!.sha256).toBe(EU_CA_SHA256);
  });

  it('adds SVC_WALLET_TRUST to the sandbox roots', async () => {
    const path = tempFile('bundle.pem', await otherRoot());
    const trust = loadWalletTrust({ mode: 'sandbox', trustPath: path });
    expect(trust.anchors.map((a) => a.subject)).toContain('CN=Operator Added IACA, O=Operator Added, C=XX');
    expect(trust.anchors).toHaveLength(3);
  });

  it('is off in production without SVC_WALLET_TRUST, and never reads the fixtures there', () => {
    expect(loadWalletTrust({ mode: 'production' })).toMatchObject({ enabled: false, anchors: [] });
    expect(loadWalletTrust({ mode: 'production', trustPath: '' })).toMatchObject({ enabled: false, anchors: [] });
  });

  it('trusts exactly the SVC_WALLET_TRUST bundle in production, several roots per file, duplicates once', async () => {
    const eu = readFileSync(join(DEFAULT_WALLET_FIXTURES, 'av_issuer_ca01.pem'), 'utf8');
    const extra = await otherRoot();
    const trust = loadWalletTrust({
      mode: 'production',
      trustPath: tempFile('eu.pem', `# EU roots\n${eu}\n${extra}\n${eu}`),
      allowTestRoots: true,
    });
    expect(trust.enabled).toBe(true);
    expect(trust.anchors.map((a) => a.sha256)).toEqual([EU_CA_SHA256, expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect(trust.anchors.map((a) => a.subject)).not.toContain('CN=SVC Sandbox IACA, O=SVC Sandbox, C=XX');
  });

  it('knows the sandbox IACA and DS, the EU test CA, the sandbox access certificate and CA by their committed public keys', () => {
    const key = (file: string) => spkiSha256(new X509Certificate(readFileSync(join(DEFAULT_WALLET_FIXTURES, file))));
    expect(PUBLIC_KEYS.map((entry) => [entry.spkiSha256, entry.refused])).toEqual([
      [key('sandbox-iaca.pem'), 'never'],
      [key('sandbox-ds.pem'), 'never'],
      [key('av_issuer_ca01.pem'), 'test'],
      [key('sandbox-access.pem'), 'never'],
      [key('sandbox-access-ca.pem'), 'never'],
    ]);
    expect(fixture('av_issuer_ca01.pem').fingerprint256.replaceAll(':', '').toLowerCase()).toBe(EU_CA_SHA256);
  });

  it('makes a re-encoded copy (s → n − s) that is another certificate, still validly self-signed, with the same key', () => {
    for (const file of ['sandbox-iaca.pem', 'av_issuer_ca01.pem']) {
      const original = fixture(file);
      const copy = new X509Certificate(reencodeSignature(original.toString()));
      expect(copy.fingerprint256).not.toBe(original.fingerprint256);
      expect(copy.verify(copy.publicKey)).toBe(true);
      expect(copy.checkIssued(copy)).toBe(true);
      expect([copy.subject, copy.serialNumber, copy.validFrom, copy.validTo, copy.ca]).toEqual([
        original.subject,
        original.serialNumber,
        original.validFrom,
        original.validTo,
        true,
      ]);
      expect(spkiSha256(copy)).toBe(spkiSha256(original));
      expect(findPublicKey(copy)).toBe(findPublicKey(original));
    }
  });

  it('refuses the sandbox IACA in production by its public key, whatever the file, even with the test override', async () => {
    const sandboxRoot = readFileSync(join(DEFAULT_WALLET_FIXTURES, 'sandbox-iaca.pem'), 'utf8');
    const path = tempFile('operator-roots.pem', `${await otherRoot()}\n${sandboxRoot}`);
    for (const allowTestRoots of [false, true]) {
      const load = () => loadWalletTrust({ mode: 'production', trustPath: path, allowTestRoots });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(
        /^SVC_WALLET_TRUST holds the sandbox IACA \(fixtures\/wallet\/sandbox-iaca\.pem\) \(.*operator-roots\.pem certificate 2, SHA-256 99:3E:51:[0-9A-F:]+, known by its public key, SPKI SHA-256 5A:94:93:[0-9A-F:]+\): its document signer's private key is public in fixtures\/wallet\/.*production never trusts it$/,
      );
    }
    // Sandbox mode trusts it, as always.
    expect(loadWalletTrust({ mode: 'sandbox', trustPath: path }).anchors).toHaveLength(3);
  });

  it('refuses a re-encoded copy of the sandbox IACA in production: another fingerprint, the same key', () => {
    const copy = reencodeSignature(readFileSync(join(DEFAULT_WALLET_FIXTURES, 'sandbox-iaca.pem'), 'utf8'));
    const path = tempFile('issuers.pem', copy);
    const fingerprint = new X509Certificate(copy).fingerprint256;
    expect(fingerprint).not.toMatch(/^99:3E:51/);
    for (const allowTestRoots of [false, true])
      expect(() => loadWalletTrust({ mode: 'production', trustPath: path, allowTestRoots })).toThrow(
        `SVC_WALLET_TRUST holds the sandbox IACA (fixtures/wallet/sandbox-iaca.pem) (${path} certificate 1, ` +
          `SHA-256 ${fingerprint}, known by its public key, SPKI SHA-256 5A:94:93`,
      );
  });

  it('refuses a re-encoded copy of the EU test CA in production unless SVC_WALLET_TRUST_ALLOW_TEST, as the original', () => {
    const copy = reencodeSignature(readFileSync(join(DEFAULT_WALLET_FIXTURES, 'av_issuer_ca01.pem'), 'utf8'));
    const path = tempFile('pilot.pem', copy);
    expect(() => loadWalletTrust({ mode: 'production', trustPath: path })).toThrow(
      /^SVC_WALLET_TRUST holds the EU age-verification reference test CA .*known by its public key, SPKI SHA-256 A3:9A:BB:.*unless SVC_WALLET_TRUST_ALLOW_TEST=1 \(pilots only\)$/,
    );
    const trust = loadWalletTrust({ mode: 'production', trustPath: path, allowTestRoots: true });
    expect(walletTrustNotices(trust, 'production')).toEqual([
      expect.stringMatching(/^SVC_WALLET_TRUST_ALLOW_TEST=1: trusting the EU age-verification reference test CA/),
    ]);
  });

  it('refuses the public keys on every credential path in production, the EU test key without the override only', async () => {
    const path = tempFile('operator.pem', await otherRoot());
    const key = (file: string) => findPublicKey(fixture(file))!.spkiSha256;
    expect(loadWalletTrust({ mode: 'production', trustPath: path }).refusedKeys).toEqual([
      key('sandbox-iaca.pem'),
      key('sandbox-ds.pem'),
      key('av_issuer_ca01.pem'),
      key('sandbox-access.pem'),
      key('sandbox-access-ca.pem'),
    ]);
    expect(loadWalletTrust({ mode: 'production', trustPath: path, allowTestRoots: true }).refusedKeys).toEqual([
      key('sandbox-iaca.pem'),
      key('sandbox-ds.pem'),
      key('sandbox-access.pem'),
      key('sandbox-access-ca.pem'),
    ]);
    expect(loadWalletTrust({ mode: 'sandbox' }).refusedKeys).toEqual([]);
  });

  it('refuses the EU test CA in production unless SVC_WALLET_TRUST_ALLOW_TEST, and names it in the boot notices then', () => {
    const path = tempFile('pilot.pem', readFileSync(join(DEFAULT_WALLET_FIXTURES, 'av_issuer_ca01.pem'), 'utf8'));
    expect(() => loadWalletTrust({ mode: 'production', trustPath: path })).toThrow(
      /^SVC_WALLET_TRUST holds the EU age-verification reference test CA \(Age Verification Issuer CA 01\) \(.*pilot\.pem certificate 1, SHA-256 4F:37:EA:43:9E:BC:09:4C:DD:6A:8C:E8:83:05:59:B4:80:5C:16:44:8F:44:28:2C:63:4E:92:64:6F:70:EC:25, known by its public key, SPKI SHA-256 [0-9A-F:]+\): .*unless SVC_WALLET_TRUST_ALLOW_TEST=1 \(pilots only\)$/,
    );
    const trust = loadWalletTrust({ mode: 'production', trustPath: path, allowTestRoots: true });
    expect(trust.anchors.map((a) => a.sha256)).toEqual([EU_CA_SHA256]);
    expect(walletTrustNotices(trust, 'production')).toEqual([
      expect.stringMatching(
        /^SVC_WALLET_TRUST_ALLOW_TEST=1: trusting the EU age-verification reference test CA .*SHA-256 4F:37:EA:.*:EC:25; .*pilots only$/,
      ),
    ]);
    expect(walletTrustNotices(loadWalletTrust({ mode: 'sandbox' }), 'sandbox')).toEqual([]);
  });

  it('fails at boot with one line naming the file for a missing, empty or non-CA bundle', () => {
    const ds = readFileSync(join(DEFAULT_WALLET_FIXTURES, 'sandbox-ds.pem'), 'utf8');
    const cases: [string, RegExp][] = [
      ['/nonexistent/roots.pem', /cannot read \/nonexistent\/roots\.pem/],
      [tempFile('empty.pem', 'nothing here'), /no PEM certificate/],
      [tempFile('ds.pem', ds), /certificate 1 \(CN=SVC Sandbox DS.*\) is not a CA certificate/],
      [
        tempFile('broken.pem', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----'),
        /not a readable X\.509 certificate/,
      ],
    ];
    for (const [path, message] of cases) {
      expect(() => loadWalletTrust({ mode: 'production', trustPath: path })).toThrow(ConfigError);
      expect(() => loadWalletTrust({ mode: 'production', trustPath: path })).toThrow(message);
    }
  });

  it('chains the sandbox DS to the sandbox root only', () => {
    const [sandboxRoot, euRoot] = loadWalletTrust({ mode: 'sandbox' }).anchors;
    const now = new Date(NOW);
    expect(evaluateIssuerChain(sandboxIssuer.x5chain, [sandboxRoot!.certificate], now)).toMatchObject({ ok: true });
    expect(evaluateIssuerChain(sandboxIssuer.x5chain, [euRoot!.certificate], now)).toMatchObject({
      ok: false,
      check: 'trust_chain',
    });
  });

  it('refuses a DS certificate that is itself registered as a root', () => {
    const ds = new X509Certificate(readFileSync(join(DEFAULT_WALLET_FIXTURES, 'sandbox-ds.pem')));
    const result = evaluateIssuerChain([new Uint8Array(ds.raw)], [ds], new Date(NOW));
    expect(result).toMatchObject({ ok: false, check: 'trust_chain' });
  });
});
