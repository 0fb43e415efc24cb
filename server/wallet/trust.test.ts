import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.ts';
import { createIssuerCertificates } from '../sandbox/wallet/sandbox-issuer.ts';
import { DEFAULT_WALLET_FIXTURES, loadWalletTrust, PUBLIC_ROOTS, walletTrustNotices } from './trust.ts';
import { evaluateIssuerChain } from './trust-chain.ts';
import { NOW, sandboxIssuer } from './test-helpers.ts';

const EU_CA_SHA256 = '4f37ea439ebc094cdd6a8ce8830559b4805c16448f44282c634e92646f70ec25';

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
    expect(loadWalletTrust({ mode: 'production' })).toEqual({ enabled: false, anchors: [] });
    expect(loadWalletTrust({ mode: 'production', trustPath: '' })).toEqual({ enabled: false, anchors: [] });
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

  it('knows the sandbox IACA and the EU test CA by the fingerprints of the committed files', () => {
    const fingerprint = (file: string) =>
      new X509Certificate(readFileSync(join(DEFAULT_WALLET_FIXTURES, file))).fingerprint256
        .replaceAll(':', '')
        .toLowerCase();
    expect(PUBLIC_ROOTS.map((root) => [root.sha256, root.refused])).toEqual(
      expect.arrayContaining([
        [fingerprint('sandbox-iaca.pem'), 'never'],
        [fingerprint('av_issuer_ca01.pem'), 'test'],
      ]),
    );
    expect(fingerprint('av_issuer_ca01.pem')).toBe(EU_CA_SHA256);
  });

  it('refuses the sandbox IACA in production by its fingerprint, whatever the file, even with the test override', async () => {
    const sandboxRoot = readFileSync(join(DEFAULT_WALLET_FIXTURES, 'sandbox-iaca.pem'), 'utf8');
    const path = tempFile('operator-roots.pem', `${await otherRoot()}\n${sandboxRoot}`);
    for (const allowTestRoots of [false, true]) {
      const load = () => loadWalletTrust({ mode: 'production', trustPath: path, allowTestRoots });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(
        /^SVC_WALLET_TRUST holds the sandbox IACA \(.*operator-roots\.pem certificate 2, SHA-256 99:3E:51:[0-9A-F:]+\): its document signer's private key is public in fixtures\/wallet\/.*production never trusts it$/,
      );
    }
    // Sandbox mode trusts it, as always.
    expect(loadWalletTrust({ mode: 'sandbox', trustPath: path }).anchors).toHaveLength(3);
  });

  it('refuses the EU test CA in production unless SVC_WALLET_TRUST_ALLOW_TEST, and names it in the boot notices then', () => {
    const path = tempFile('pilot.pem', readFileSync(join(DEFAULT_WALLET_FIXTURES, 'av_issuer_ca01.pem'), 'utf8'));
    expect(() => loadWalletTrust({ mode: 'production', trustPath: path })).toThrow(
      /^SVC_WALLET_TRUST holds the EU age-verification reference test CA \(Age Verification Issuer CA 01\) \(.*pilot\.pem certificate 1, SHA-256 4F:37:EA:43:9E:BC:09:4C:DD:6A:8C:E8:83:05:59:B4:80:5C:16:44:8F:44:28:2C:63:4E:92:64:6F:70:EC:25\): .*unless SVC_WALLET_TRUST_ALLOW_TEST=1 \(pilots only\)$/,
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
