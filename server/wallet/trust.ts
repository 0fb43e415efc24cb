/**
 * Which IACA roots the verifier trusts (DESIGN §11). Production: only the PEM bundle named by
 * `SVC_WALLET_TRUST` (the path is off without it). Sandbox: the sandbox issuer's root and the EU
 * age-verification reference CA from `fixtures/wallet/`, plus `SVC_WALLET_TRUST` when set.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Mode } from '../config.ts';
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

/**
 * The trust anchors for a mode. `trustPath` is SVC_WALLET_TRUST (unset: undefined or '').
 *
 * @example const trust = loadWalletTrust({ mode: config.mode, trustPath: process.env.SVC_WALLET_TRUST })
 */
export function loadWalletTrust(input: {
  mode: Mode;
  trustPath?: string | undefined;
  fixturesDir?: string;
}): WalletTrust {
  const anchors: TrustAnchor[] = [];
  if (input.mode === 'sandbox') {
    const dir = input.fixturesDir ?? DEFAULT_WALLET_FIXTURES;
    for (const file of SANDBOX_TRUST_FILES) anchors.push(...readBundle(join(dir, file)));
  }
  if (input.trustPath) anchors.push(...readBundle(input.trustPath));
  const unique = anchors.filter((anchor, index) => anchors.findIndex((a) => a.sha256 === anchor.sha256) === index);
  return { enabled: input.mode === 'sandbox' || Boolean(input.trustPath), anchors: unique };
}
