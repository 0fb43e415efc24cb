/**
 * The verifier's access certificate (docs/design.md §16): the chain it puts in `x5c` and the key it
 * signs requests with, from SVC_WALLET_ACCESS_CERT / SVC_WALLET_ACCESS_KEY or from what
 * `svc wallet access-cert import` sealed into the store. Read once at boot; anything a wallet
 * would refuse, or production must, stops the boot with one line:
 *
 *   no certificate, an unreadable one, a chain out of order or holding its trust anchor, a
 *   self-signed leaf, a leaf not (or no longer) valid now, a key that is not PKCS#8 P-256 or not
 *   the leaf's, and in production a chain carrying a key whose private half is public (the sandbox
 *   access certificate and CA, trust/anchors.ts PUBLIC_KEYS).
 *
 * `client_id` is `x509_hash:<base64url SHA-256 of the leaf's DER>` (OpenID4VP 1.0 §5.9.3).
 */
import { createHash, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Mode } from '../../config.ts';
import { ConfigError } from '../../errors.ts';
import { readCertificate, spkiSha256, validityOf, type X509Certificate } from '../trust/certificates.ts';
import type { EcJwk } from '../keys.ts';
import { findPublicKey } from '../trust/anchors.ts';

export const X509_HASH_PREFIX = 'x509_hash:';

export interface AccessCertificate {
  /** DER, leaf first, no trust anchor */
  chain: readonly Uint8Array[];
  /** the JWS `x5c` header: standard base64 of each DER (RFC 7515 §4.1.6) */
  x5c: readonly string[];
  /** `x509_hash:<base64url sha256(leaf DER)>` */
  clientId: string;
  /** the leaf's private key (secret: never logged) */
  privateJwk: Required<EcJwk>;
  leaf: X509Certificate;
}

/** What the boot lines call the two inputs: the variables, or the store's imported copy. */
export interface AccessCertificateNames {
  cert: string;
  key: string;
}

export const ENV_NAMES: AccessCertificateNames = { cert: 'SVC_WALLET_ACCESS_CERT', key: 'SVC_WALLET_ACCESS_KEY' };

/** `x509_hash:` and the base64url SHA-256 of a certificate's DER. */
export function x509HashClientId(leafDer: Uint8Array): string {
  return X509_HASH_PREFIX + createHash('sha256').update(leafDer).digest('base64url');
}

function subjectOf(certificate: X509Certificate): string {
  return certificate.subject.replaceAll('\n', ', ');
}

/** Signed by its own key, whatever its names say (OpenSSL's checkIssued also wants keyCertSign). */
function isSelfSigned(certificate: X509Certificate): boolean {
  return certificate.verify(certificate.publicKey);
}

function readChain(pem: string, name: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new ConfigError(`${name}: no PEM certificate found`);
  return blocks.map((block, index) => {
    const certificate = readCertificate(block);
    if (!certificate) throw new ConfigError(`${name} certificate ${index + 1}: not a readable X.509 certificate`);
    return certificate;
  });
}

/** The private key's JWK and its public key's SPKI DER, through Web Crypto (keys.ts: no KeyObject JWK export). */
async function readPrivateKey(pem: string, name: string): Promise<{ jwk: Required<EcJwk>; spki: Buffer }> {
  const match = /-----BEGIN PRIVATE KEY-----([\s\S]*?)-----END PRIVATE KEY-----/.exec(pem);
  const problem = `${name} must be a P-256 private key in PKCS#8 PEM ("BEGIN PRIVATE KEY")`;
  if (!match) throw new ConfigError(problem);
  try {
    const subtle = webcrypto.subtle;
    const der = Buffer.from(match[1]!.replace(/\s+/g, ''), 'base64');
    const key = await subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']);
    const jwk = (await subtle.exportKey('jwk', key)) as Required<EcJwk>;
    const publicKey = await subtle.importKey(
      'jwk',
      { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y },
      { name: 'ECDSA', namedCurve: 'P-256' },
      true,
      ['verify'],
    );
    const spki = Buffer.from(await subtle.exportKey('spki', publicKey));
    return { jwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d }, spki };
  } catch {
    throw new ConfigError(problem);
  }
}

/**
 * A private EC JWK as PKCS#8 PEM (Web Crypto's export: no KeyObject JWK export, see keys.ts).
 *
 * @example writeFileSync('access.key', await pkcs8PemOf(createEcJwk()), { mode: 0o600 })
 */
export async function pkcs8PemOf(jwk: EcJwk): Promise<string> {
  const key = await webcrypto.subtle.importKey('jwk', { ...jwk }, { name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
  ]);
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  const body = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\n`;
}

/** "2026-01-01" of a Date, for the boot line. */
const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Reads and checks an access certificate chain and its key. Throws ConfigError with one line
 * naming the input (`names`) and what to do.
 *
 * @example const access = await readAccessCertificate({ certPem, keyPem, mode: config.mode, now: clock.now() })
 */
export async function readAccessCertificate(input: {
  certPem: string;
  keyPem: string;
  mode: Mode;
  /** ms since the epoch */
  now: number;
  names?: AccessCertificateNames;
}): Promise<AccessCertificate> {
  const names = input.names ?? ENV_NAMES;
  const chain = readChain(input.certPem, names.cert);
  const leaf = chain[0]!;
  if (input.mode === 'production') {
    for (const [index, certificate] of chain.entries()) {
      const known = findPublicKey(certificate);
      if (known?.refused !== 'never') continue;
      throw new ConfigError(
        `SVC_MODE=production refuses ${names.cert}: certificate ${index + 1} is ${known.name}, ` +
          `known by its public key (SPKI SHA-256 ${spkiSha256(certificate)}): ${known.why}`,
      );
    }
  }
  if (isSelfSigned(leaf)) {
    throw new ConfigError(
      `${names.cert}: the leaf (${subjectOf(leaf)}) is self-signed; wallets accept only a certificate ` +
        'an access CA, Google or Apple issued for your key (docs/wallets.md)',
    );
  }
  for (let index = 1; index < chain.length; index++) {
    const certificate = chain[index]!;
    const child = chain[index - 1]!;
    if (!child.checkIssued(certificate) || !child.verify(certificate.publicKey)) {
      throw new ConfigError(
        `${names.cert}: certificate ${index + 1} (${subjectOf(certificate)}) did not issue certificate ${index}; ` +
          'list the chain leaf first, each certificate followed by its issuer',
      );
    }
    if (isSelfSigned(certificate)) {
      throw new ConfigError(
        `${names.cert}: certificate ${index + 1} (${subjectOf(certificate)}) is a self-signed root; ` +
          'leave the trust anchor out of the chain (wallets hold it)',
      );
    }
  }
  const { notBefore, notAfter } = validityOf(leaf);
  if (input.now > notAfter.getTime()) {
    throw new ConfigError(
      `${names.cert}: the leaf (${subjectOf(leaf)}) expired on ${day(notAfter)}; install a renewed certificate`,
    );
  }
  if (input.now < notBefore.getTime()) {
    throw new ConfigError(`${names.cert}: the leaf (${subjectOf(leaf)}) is not valid before ${day(notBefore)}`);
  }
  const details = leaf.publicKey.asymmetricKeyDetails;
  if (leaf.publicKey.asymmetricKeyType !== 'ec' || details?.namedCurve !== 'prime256v1') {
    throw new ConfigError(`${names.cert}: the leaf's key must be EC P-256 (requests are signed ES256)`);
  }
  const key = await readPrivateKey(input.keyPem, names.key);
  if (!key.spki.equals(leaf.publicKey.export({ type: 'spki', format: 'der' }))) {
    throw new ConfigError(
      `${names.key} does not match the leaf of ${names.cert} (${subjectOf(leaf)}): ` +
        'install the key the certificate was issued for',
    );
  }
  const der = chain.map((certificate) => new Uint8Array(certificate.raw));
  return {
    chain: der,
    x5c: der.map((bytes) => Buffer.from(bytes).toString('base64')),
    clientId: x509HashClientId(der[0]!),
    privateJwk: key.jwk,
    leaf,
  };
}

/** Service secrets (sealed at rest) where `svc wallet access-cert import` keeps the chain and the key. */
export const ACCESS_SECRETS = { cert: 'wallet_access_cert', key: 'wallet_access_key' } as const;

/** How the boot lines name an imported access certificate. */
export const IMPORTED_NAMES: AccessCertificateNames = {
  cert: 'the access certificate imported with `svc wallet access-cert import`',
  key: 'the key imported with `svc wallet access-cert import`',
};

function readFile(path: string, name: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new ConfigError(`${name}: cannot read ${path}`);
  }
}

/**
 * The access certificate the service signs with: SVC_WALLET_ACCESS_CERT / SVC_WALLET_ACCESS_KEY
 * when set (files), else the one imported into the store, else none (requests stay unsigned,
 * docs/design.md §11, §13).
 *
 * @example const access = await loadAccessCertificate(config, store, clock.now())
 */
export async function loadAccessCertificate(
  config: { mode: Mode; walletAccessCertPath: string | null; walletAccessKeyPath: string | null },
  store: { listSecrets(): Promise<Record<string, string>> },
  now: number,
): Promise<AccessCertificate | null> {
  if (config.walletAccessCertPath !== null && config.walletAccessKeyPath !== null) {
    return readAccessCertificate({
      certPem: readFile(config.walletAccessCertPath, ENV_NAMES.cert),
      keyPem: readFile(config.walletAccessKeyPath, ENV_NAMES.key),
      mode: config.mode,
      now,
    });
  }
  const secrets = await store.listSecrets();
  const certPem = secrets[ACCESS_SECRETS.cert];
  const keyPem = secrets[ACCESS_SECRETS.key];
  if (certPem === undefined || keyPem === undefined) return null;
  return readAccessCertificate({ certPem, keyPem, mode: config.mode, now, names: IMPORTED_NAMES });
}
