/**
 * Which IACA roots the verifier trusts (design.md §11). Production: only the PEM bundle named by
 * `SVC_WALLET_TRUST` (the path is off without it), never a root whose keys the world has (below).
 * Sandbox: the sandbox issuer's root and the EU age-verification reference CA from
 * `fixtures/wallet/`, plus `SVC_WALLET_TRUST` when set.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mode } from '../config.ts';
import { ConfigError } from '../errors.ts';
import { PROJECT_ROOT } from '../paths.ts';
import { readCertificate, type X509Certificate } from './certificates.ts';

export interface TrustAnchor {
  certificate: X509Certificate;
  der: Uint8Array;
  /** where it came from: a file name and the certificate's position in it */
  source: string;
  subject: string;
  /** SHA-256 fingerprint, lowercase hex */
  sha256: string;
}

export interface WalletTrust {
  /** false in production without SVC_WALLET_TRUST: the wallet path is not offered */
  enabled: boolean;
  anchors: readonly TrustAnchor[];
}

/**
 * Roots production refuses, known by SHA-256 fingerprint whatever their file or subject says
 * (issue 16). `never`: the sandbox IACA, whose document signer's private key is committed in
 * fixtures/wallet/ (anyone can sign a proof of age, a PID or an mDL under it). `test`: the EU age-verification
 * reference *test* CA, whose test credentials anyone can obtain; only with
 * SVC_WALLET_TRUST_ALLOW_TEST=1 (pilots), and logged at boot. A test checks these against the
 * files in fixtures/wallet/; a regenerated sandbox IACA adds its fingerprint here (the old key
 * stays public in git history).
 */
export const PUBLIC_ROOTS: ReadonlyArray<{ sha256: string; name: string; refused: 'never' | 'test' }> = [
  {
    sha256: '993e51b725b41aa39a3a8c2c2ad5c8fd068f76571a229439a5307f9a6291a026',
    name: 'the sandbox IACA (fixtures/wallet/sandbox-iaca.pem)',
    refused: 'never',
  },
  {
    sha256: '4f37ea439ebc094cdd6a8ce8830559b4805c16448f44282c634e92646f70ec25',
    name: 'the EU age-verification reference test CA (Age Verification Issuer CA 01)',
    refused: 'test',
  },
];

/** The sandbox roots, committed under fixtures/wallet/ (see its README). */
export const SANDBOX_TRUST_FILES = ['sandbox-iaca.pem', 'av_issuer_ca01.pem'] as const;

export const DEFAULT_WALLET_FIXTURES = join(PROJECT_ROOT, 'fixtures', 'wallet');

/**
 * Every certificate of a PEM bundle, each checked to be a CA certificate. Throws ConfigError with
 * one line naming the file and the certificate when one is not.
 *
 * @example const anchors = parseTrustBundle(readFileSync(path, 'utf8'), path)
 */
export function parseTrustBundle(pem: string, source: string): TrustAnchor[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new ConfigError(`${source}: no PEM certificate found`);
  return blocks.map((block, index) => {
    const where = `${source} certificate ${index + 1}`;
    const certificate = readCertificate(block);
    if (!certificate) throw new ConfigError(`${where}: not a readable X.509 certificate`);
    const subject = certificate.subject.replaceAll('\n', ', ');
    if (!certificate.ca)
      throw new ConfigError(`${where} (${subject}) is not a CA certificate; SVC_WALLET_TRUST takes IACA roots`);
    const sha256 = certificate.fingerprint256.replaceAll(':', '').toLowerCase();
    return { certificate, der: new Uint8Array(certificate.raw), source: where, subject, sha256 };
  });
}

function readBundle(path: string): TrustAnchor[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new ConfigError(`SVC_WALLET_TRUST: cannot read ${path}`);
  }
  return parseTrustBundle(text, path);
}

/** A fingerprint as OpenSSL prints it: `4F:37:EA:…`. */
function colonHex(sha256: string): string {
  return sha256.toUpperCase().replace(/(..)(?!$)/g, '$1:');
}

/**
 * Production's check of SVC_WALLET_TRUST: throws ConfigError with one line naming the variable,
 * the certificate and why, for a root of PUBLIC_ROOTS it may not trust.
 */
function refusePublicRoots(anchors: readonly TrustAnchor[], allowTestRoots: boolean): void {
  for (const anchor of anchors) {
    const known = PUBLIC_ROOTS.find((root) => root.sha256 === anchor.sha256);
    if (!known || (known.refused === 'test' && allowTestRoots)) continue;
    const which = `${known.name} (${anchor.source}, SHA-256 ${colonHex(anchor.sha256)})`;
    throw new ConfigError(
      known.refused === 'never'
        ? `SVC_WALLET_TRUST holds ${which}: its document signer's private key is public in fixtures/wallet/, ` +
            'so anyone could sign a proof of age, a PID or an mDL under it; production never trusts it'
        : `SVC_WALLET_TRUST holds ${which}: its test credentials are public, ` +
            'so production refuses it unless SVC_WALLET_TRUST_ALLOW_TEST=1 (pilots only)',
    );
  }
}

/**
 * What the boot log says about the roots production trusts: one line for each public test root
 * let in by SVC_WALLET_TRUST_ALLOW_TEST=1; nothing in sandbox, where they are expected.
 *
 * @example for (const line of walletTrustNotices(deps.wallet.trust, config.mode)) app.log.warn(line)
 */
export function walletTrustNotices(trust: WalletTrust, mode: Mode): string[] {
  if (mode !== 'production') return [];
  return trust.anchors.flatMap((anchor) => {
    const known = PUBLIC_ROOTS.find((root) => root.sha256 === anchor.sha256);
    return known
      ? [
          `SVC_WALLET_TRUST_ALLOW_TEST=1: trusting ${known.name}, SHA-256 ${colonHex(anchor.sha256)}; ` +
            'its test credentials are public, for pilots only',
        ]
      : [];
  });
}

/**
 * The trust anchors for a mode. `trustPath` is SVC_WALLET_TRUST (unset: undefined or '');
 * `allowTestRoots` is SVC_WALLET_TRUST_ALLOW_TEST. In production a bundle holding a root of
 * PUBLIC_ROOTS is refused with a ConfigError (the test CA: unless `allowTestRoots`).
 *
 * @example const trust = loadWalletTrust({ mode: config.mode, trustPath: config.walletTrustPath ?? undefined })
 */
export function loadWalletTrust(input: {
  mode: Mode;
  trustPath?: string | undefined;
  allowTestRoots?: boolean;
  fixturesDir?: string;
}): WalletTrust {
  const anchors: TrustAnchor[] = [];
  if (input.mode === 'sandbox') {
    const dir = input.fixturesDir ?? DEFAULT_WALLET_FIXTURES;
    for (const file of SANDBOX_TRUST_FILES) anchors.push(...readBundle(join(dir, file)));
  }
  if (input.trustPath) anchors.push(...readBundle(input.trustPath));
  if (input.mode === 'production') refusePublicRoots(anchors, input.allowTestRoots ?? false);
  const unique = anchors.filter((anchor, index) => anchors.findIndex((a) => a.sha256 === anchor.sha256) === index);
  return { enabled: input.mode === 'sandbox' || Boolean(input.trustPath), anchors: unique };
}
