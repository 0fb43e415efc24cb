import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { createIssuerCertificates } from './sandbox-issuer.ts';
import { DEFAULT_WALLET_FIXTURES, loadWalletTrust } from './trust.ts';
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
    });
    expect(trust.enabled).toBe(true);
    expect(trust.anchors.map((a) => a.sha256)).toEqual([EU_CA_SHA256, expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect(trust.anchors.map((a) => a.subject)).not.toContain('CN=SVC Sandbox IACA, O=SVC Sandbox, C=XX');
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
