/**
 * The document signer profile of ISO/IEC 18013-5 Annex B (design.md §11): each defect sent
 * as a whole presentation, signed by a DS certificate made for the test under a fresh IACA that
 * the verifier trusts, and refused by trust_chain with the defect named.
 */
import { KeyUsageFlags } from '@peculiar/x509';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCertificate } from './certificates.ts';
import { createWalletRequest } from '../request/wallet-request.ts';
import {
  createIssuerCertificates,
  type SandboxIssuer,
  type SignerProfileOptions,
} from '../../sandbox/wallet/sandbox-issuer.ts';
import { createDirectPost } from '../../sandbox/wallet/sandbox-wallet.ts';
import {
  API_URL,
  euProfileExample,
  NOW,
  persona,
  reencodeSignature,
  sandboxIssuer,
  sandboxTrust,
  trustOf,
  waiting,
} from '../test-helpers.ts';
import { EU_REFERENCE_DS_EKU, evaluateIssuerChain, MDL_DS_EKU, type ChainProblem } from './chain.ts';
import { DEFAULT_WALLET_FIXTURES, loadWalletTrust, parseTrustBundle, type WalletTrust } from './anchors.ts';
import { verifyWalletResponse } from '../verify.ts';
import { WALLET_CHECKS, type WalletVerdict } from '../answer/verdict.ts';

const DAY_MS = 86_400_000;
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';

type IssuerShape = Omit<Parameters<typeof createIssuerCertificates>[0], 'name' | 'notBefore' | 'notAfter' | 'country'>;

function issuerOf(shape: IssuerShape) {
  return createIssuerCertificates({
    name: 'Profile Test',
    country: 'FR',
    notBefore: new Date(NOW - 30 * DAY_MS),
    notAfter: new Date(NOW + 365 * DAY_MS),
    ...shape,
  });
}

/** A presentation signed by `issuer`, checked with `trust`. */
async function verdictUnder(issuer: SandboxIssuer, trust: WalletTrust): Promise<WalletVerdict> {
  const request = await createWalletRequest({ requestId: 'vr_profile', apiUrl: API_URL });
  const { body } = await createDirectPost({
    link: request.walletLink,
    issuer,
    persona: persona('fr-adult-m'),
    now: NOW,
  });
  return verifyWalletResponse({ body, material: request.material, trust, request: waiting(), now: NOW });
}

/** A production trust bundle of these PEM roots, read as the boot reads SVC_WALLET_TRUST. */
function productionTrustOf(pem: string): WalletTrust {
  const path = join(mkdtempSync(join(tmpdir(), 'svc-chain-')), 'roots.pem');
  writeFileSync(path, pem);
  return loadWalletTrust({ mode: 'production', trustPath: path });
}

/** A presentation signed under an issuer of this shape, checked with its IACA trusted. */
async function verdictFor(shape: IssuerShape): Promise<WalletVerdict> {
  const issuer = await issuerOf(shape);
  const request = await createWalletRequest({ requestId: 'vr_profile', apiUrl: API_URL });
  const { body } = await createDirectPost({
    link: request.walletLink,
    issuer,
    persona: persona('fr-adult-m'),
    now: NOW,
  });
  return verifyWalletResponse({
    body,
    material: request.material,
    trust: trustOf(issuer.iaca.toString('pem')),
    request: waiting(),
    now: NOW,
  });
}

function refusedWith(verdict: WalletVerdict, detail: ChainProblem): void {
  expect(verdict).toEqual({ status: 'refused', check: 'trust_chain', description: WALLET_CHECKS.trust_chain, detail });
}

const signer = (options: SignerProfileOptions): IssuerShape => ({ signer: options });

describe('the DS certificate profile (ISO/IEC 18013-5 Annex B)', () => {
  it('accepts a DS certificate with the Annex B profile: digitalSignature, mdlDS, the IACA country', async () => {
    expect(await verdictFor({})).toEqual({ status: 'verified', credential: 'av', facts: { isAdult: true } });
  });

  it('refuses a DS certificate whose keyUsage is keyCertSign only: trust_chain', async () => {
    refusedWith(
      await verdictFor(signer({ keyUsage: KeyUsageFlags.keyCertSign })),
      'the DS certificate keyUsage lacks digitalSignature',
    );
  });

  it('refuses a DS certificate whose keyUsage is keyAgreement only: trust_chain', async () => {
    refusedWith(
      await verdictFor(signer({ keyUsage: KeyUsageFlags.keyAgreement })),
      'the DS certificate keyUsage lacks digitalSignature',
    );
  });

  it('refuses a DS certificate with no keyUsage at all: trust_chain', async () => {
    refusedWith(await verdictFor(signer({ keyUsage: null })), 'the DS certificate has no keyUsage');
  });

  it('refuses a DS certificate that may also sign certificates (digitalSignature + keyCertSign): trust_chain', async () => {
    refusedWith(
      await verdictFor(signer({ keyUsage: KeyUsageFlags.digitalSignature | KeyUsageFlags.keyCertSign })),
      'the DS certificate keyUsage has keyCertSign or cRLSign',
    );
  });

  it('refuses a DS certificate that is itself a CA (basicConstraints CA:TRUE): trust_chain', async () => {
    refusedWith(await verdictFor(signer({ ca: true })), 'the DS certificate is a CA');
  });

  it('refuses a DS certificate whose country is not the IACA country: trust_chain', async () => {
    refusedWith(await verdictFor(signer({ country: 'DE' })), 'the DS certificate country is not its IACA country');
  });

  it('refuses a DS certificate with the TLS serverAuth EKU instead of mdlDS: trust_chain', async () => {
    refusedWith(
      await verdictFor(signer({ extendedKeyUsage: [SERVER_AUTH] })),
      'the DS certificate extendedKeyUsage is not exactly mdlDS',
    );
  });

  it('refuses a DS certificate with mdlDS and serverAuth, or with no EKU: trust_chain', async () => {
    for (const extendedKeyUsage of [[MDL_DS_EKU, SERVER_AUTH], null]) {
      refusedWith(
        await verdictFor(signer({ extendedKeyUsage })),
        'the DS certificate extendedKeyUsage is not exactly mdlDS',
      );
    }
  });

  it("accepts the EU reference issuer's mis-encoded mdlDS EKU 1.3.130.2.0.0.1.2, by name", async () => {
    expect(EU_REFERENCE_DS_EKU).toBe('1.3.130.2.0.0.1.2');
    expect(await verdictFor(signer({ extendedKeyUsage: [EU_REFERENCE_DS_EKU] }))).toEqual({
      status: 'verified',
      credential: 'av',
      facts: { isAdult: true },
    });
  });
});

describe('the path to the IACA: path length constraints', () => {
  it('refuses a DS certificate issued by an intermediate CA under an IACA with pathlen:0: trust_chain', async () => {
    refusedWith(
      await verdictFor({ iacaPathLength: 0, intermediates: [{ pathLength: null }] }),
      'the IACA certificate allows fewer intermediate CAs below it (pathLenConstraint)',
    );
  });

  it('accepts the same intermediate under an IACA with pathlen:1', async () => {
    expect(await verdictFor({ iacaPathLength: 1, intermediates: [{ pathLength: 0 }] })).toEqual({
      status: 'verified',
      credential: 'av',
      facts: { isAdult: true },
    });
  });

  it('refuses a second intermediate under an intermediate with pathlen:0, whatever the IACA allows: trust_chain', async () => {
    refusedWith(
      await verdictFor({ iacaPathLength: null, intermediates: [{ pathLength: 0 }, { pathLength: null }] }),
      'the intermediate certificate allows fewer intermediate CAs below it (pathLenConstraint)',
    );
  });
});

describe('keys whose private half is public (production)', () => {
  const PUBLIC_KEY = 'a certificate on the path carries a key whose private half is public';

  it("refuses a credential signed with the committed sandbox DS key under an operator's own trusted IACA", async () => {
    const issuer = await issuerOf({ dsKey: sandboxIssuer.dsKey });
    refusedWith(await verdictUnder(issuer, productionTrustOf(issuer.iaca.toString('pem'))), PUBLIC_KEY);
    // The same chain with a key of its own verifies: it is the key that is refused.
    const own = await issuerOf({});
    expect(await verdictUnder(own, productionTrustOf(own.iaca.toString('pem')))).toMatchObject({ status: 'verified' });
  });

  it("refuses the sandbox issuer's credentials under a re-encoded sandbox IACA that got into the trust anyway", async () => {
    const copy = reencodeSignature(readFileSync(join(DEFAULT_WALLET_FIXTURES, 'sandbox-iaca.pem'), 'utf8'));
    const production = productionTrustOf((await issuerOf({})).iaca.toString('pem'));
    const anchors = parseTrustBundle(copy, 'smuggled.pem');
    refusedWith(await verdictUnder(sandboxIssuer, { ...production, anchors }), PUBLIC_KEY);
    // The copy is a working root: without the refused keys (sandbox) the same credential verifies.
    expect(await verdictUnder(sandboxIssuer, { ...production, anchors, refusedKeys: [] })).toMatchObject({
      status: 'verified',
    });
  });
});

describe('the committed issuers keep the profile', () => {
  it('accepts the committed sandbox DS certificate (fixtures/wallet/sandbox-ds.pem) under the sandbox IACA', () => {
    const anchors = sandboxTrust.anchors.map((anchor) => anchor.certificate);
    expect(evaluateIssuerChain(sandboxIssuer.x5chain, anchors, new Date(NOW))).toMatchObject({ ok: true });
  });

  it("accepts the EU reference DS certificate of the profile's example under av_issuer_ca01.pem while it is valid", () => {
    const euTrust = loadWalletTrust({
      mode: 'production',
      trustPath: join(DEFAULT_WALLET_FIXTURES, 'av_issuer_ca01.pem'),
      allowTestRoots: true,
    });
    const ds = new Uint8Array(Buffer.from(euProfileExample.issuerAuth.x5chain, 'hex'));
    expect(readCertificate(ds)?.subject).toContain('Age Verification DS - 001');
    const result = evaluateIssuerChain(
      [ds],
      euTrust.anchors.map((anchor) => anchor.certificate),
      new Date('2025-07-01T00:00:00Z'),
    );
    expect(result).toMatchObject({ ok: true, path: [{ role: 'DS' }, { role: 'IACA' }] });
  });
});
