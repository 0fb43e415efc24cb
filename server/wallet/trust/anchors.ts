/**
 * Which IACA roots the verifier trusts (design.md §11). Production: only the PEM bundle named by
 * `SVC_WALLET_TRUST` (the path is off without it), never a root whose keys the world has (below).
 * Sandbox: the sandbox issuer's root and the EU age-verification reference CA from
 * `fixtures/wallet/`, plus `SVC_WALLET_TRUST` when set.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mode } from '../../config.ts';
import { ConfigError } from '../../errors.ts';
import { PROJECT_ROOT } from '../../paths.ts';
import { readCertificate, spkiSha256, type X509Certificate } from './certificates.ts';

export interface TrustAnchor {
  certificate: X509Certificate;
  der: Uint8Array;
  /** where it came from: a file name and the certificate's position in it */
  source: string;
  subject: string;
  /** SHA-256 fingerprint of the whole certificate, lowercase hex */
  sha256: string;
  /** SHA-256 of its SubjectPublicKeyInfo (DER), lowercase hex: what PUBLIC_KEYS knows it by */
  spkiSha256: string;
}

export interface WalletTrust {
  /** false in production without SVC_WALLET_TRUST: the wallet path is not offered */
  enabled: boolean;
  anchors: readonly TrustAnchor[];
  /**
   * SPKI digests (PUBLIC_KEYS) no certificate on a credential's path may carry: in production
   * every key whose private half is public, the EU test CA's unless SVC_WALLET_TRUST_ALLOW_TEST=1;
   * none in sandbox.
   */
  refusedKeys: readonly string[];
}

/** One key production refuses, whatever certificate carries it. */
export interface PublicKey {
  /** SHA-256 of the SubjectPublicKeyInfo (DER), lowercase hex */
  spkiSha256: string;
  name: string;
  /** why, as the end of the boot line that refuses it */
  why: string;
  /** `never`: not even with SVC_WALLET_TRUST_ALLOW_TEST=1; `test`: let in by it (pilots) */
  refused: 'never' | 'test';
}

/**
 * Keys production refuses, known by their public key (SPKI SHA-256 digest), not by the
 * certificate's bytes: a certificate is re-encoded, re-signed or re-issued without changing its
 * key (an ECDSA signature's s → n − s is as valid), so a fingerprint of the whole certificate
 * misses copies. Refused at boot in SVC_WALLET_TRUST and, in production, on any certificate of a
 * credential's path (chain.ts), so a credential signed with a committed key never verifies
 * there whatever chain it brings.
 *
 * - the sandbox IACA and its document signer: the DS private key is committed in fixtures/wallet/
 *   (anyone can sign a proof of age, a PID or an mDL with it);
 * - the EU age-verification reference *test* CA, whose test credentials anyone can obtain: only
 *   with SVC_WALLET_TRUST_ALLOW_TEST=1 (pilots), and logged at boot;
 * - the sandbox access certificate for signed wallet requests and its access CA (docs/design.md
 *   §16): the leaf's private key is committed; access-certificate.ts refuses both at boot through
 *   findPublicKey (a chain carrying either key).
 *
 * A test checks these against the files in fixtures/wallet/; a regenerated sandbox issuer adds its
 * keys here (the old ones stay public in git history).
 */
export const PUBLIC_KEYS: readonly PublicKey[] = [
  {
    spkiSha256: '5a949371d7b4eff79a80ac23ca13f62c0e68d9c8a2b01e3f9d36aedab344dad0',
    name: 'the sandbox IACA (fixtures/wallet/sandbox-iaca.pem)',
    why:
      "its document signer's private key is public in fixtures/wallet/, " +
      'so anyone could sign a proof of age, a PID or an mDL under it; production never trusts it',
    refused: 'never',
  },
  {
    spkiSha256: '3d393703ed66c8346f7f0522d5e2e1fc1d1ec2aec35830f65f4202671a6750c3',
    name: 'the sandbox document signer (fixtures/wallet/sandbox-ds.pem)',
    why:
      'its private key is public in fixtures/wallet/sandbox-ds.key.json, ' +
      'so anyone could sign a proof of age, a PID or an mDL with it; production never trusts it',
    refused: 'never',
  },
  {
    spkiSha256: 'a39abb843abd777e6ee268ee873816249239b2fea2c506269d1111d544e03a08',
    name: 'the EU age-verification reference test CA (Age Verification Issuer CA 01)',
    why: 'its test credentials are public, so production refuses it unless SVC_WALLET_TRUST_ALLOW_TEST=1 (pilots only)',
    refused: 'test',
  },
  {
    spkiSha256: '1baa9111dea569cfbf26e2e3f01d3e44d80bc8e0a2fe468a959e5fee0cefcd7c',
    name: 'the sandbox access certificate (fixtures/wallet/sandbox-access.pem)',
    why:
      'its private key is public in fixtures/wallet/sandbox-access.key.pem, so anyone could sign requests ' +
      'in your name; ask an access CA, Google or Apple for your own (docs/wallets.md)',
    refused: 'never',
  },
  {
    spkiSha256: 'f38e327012bd617e2bd1d7379c3e2461f16ae4b04b70e08990bc26d91686f974',
    name: 'the sandbox access CA (fixtures/wallet/sandbox-access-ca.pem)',
    why: 'it issued the sandbox access certificate, whose private key is public; production never signs under it',
    refused: 'never',
  },
];

/**
 * The entry of PUBLIC_KEYS whose key this certificate carries, if any.
 *
 * @example if (findPublicKey(leaf)?.refused === 'never') throw new ConfigError('…')
 */
export function findPublicKey(certificate: X509Certificate): PublicKey | undefined {
  const digest = spkiSha256(certificate);
  return PUBLIC_KEYS.find((key) => key.spkiSha256 === digest);
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
    return {
      certificate,
      der: new Uint8Array(certificate.raw),
      source: where,
      subject,
      sha256,
      spkiSha256: spkiSha256(certificate),
    };
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

/** A key PUBLIC_KEYS knows, refused in production unless it is a test key and `allowTestRoots`. */
function isRefused(key: PublicKey | undefined, allowTestRoots: boolean): key is PublicKey {
  return key !== undefined && !(key.refused === 'test' && allowTestRoots);
}

/**
 * Production's check of SVC_WALLET_TRUST: throws ConfigError with one line naming the variable,
 * the certificate and why, for a certificate carrying a key of PUBLIC_KEYS it may not trust,
 * whatever its bytes, file or subject.
 */
function refusePublicKeys(anchors: readonly TrustAnchor[], allowTestRoots: boolean): void {
  for (const anchor of anchors) {
    const known = PUBLIC_KEYS.find((key) => key.spkiSha256 === anchor.spkiSha256);
    if (!isRefused(known, allowTestRoots)) continue;
    throw new ConfigError(
      `SVC_WALLET_TRUST holds ${known.name} (${anchor.source}, SHA-256 ${colonHex(anchor.sha256)}, ` +
        `known by its public key, SPKI SHA-256 ${colonHex(anchor.spkiSha256)}): ${known.why}`,
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
    const known = PUBLIC_KEYS.find((key) => key.spkiSha256 === anchor.spkiSha256);
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
 * `allowTestRoots` is SVC_WALLET_TRUST_ALLOW_TEST. In production a bundle holding a key of
 * PUBLIC_KEYS is refused with a ConfigError (the test CA: unless `allowTestRoots`), and those keys
 * are refused on every credential's path (`refusedKeys`).
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
  const allowTestRoots = input.allowTestRoots ?? false;
  if (input.mode === 'production') refusePublicKeys(anchors, allowTestRoots);
  const unique = anchors.filter((anchor, index) => anchors.findIndex((a) => a.sha256 === anchor.sha256) === index);
  const refusedKeys =
    input.mode === 'production'
      ? PUBLIC_KEYS.filter((key) => isRefused(key, allowTestRoots)).map((key) => key.spkiSha256)
      : [];
  return { enabled: input.mode === 'sandbox' || Boolean(input.trustPath), anchors: unique, refusedKeys };
}
