/**
 * Reading X.509 certificates on the verifier side: node:crypto (OpenSSL) for the certificate, its
 * names, dates and signature; @peculiar/asn1-x509 for the extensions Node 20 does not expose
 * (keyUsage bits, pathLenConstraint, extended key usage), each decoded on its own.
 *
 * Not @peculiar/x509: 1.14.3 throws while parsing the EU age-verification reference CA and its DS
 * certificates, whose non-critical IssuerAltName holds a whole Extension instead of GeneralNames
 * (gap 6, below). OpenSSL skips that extension, as `openssl verify` does; the
 * asn1-x509 schema keeps every extension value as an OCTET STRING, so only the three we read are
 * decoded and a malformed one we do not read stays harmless.
 *
 * Where the libraries stop (docs/wallets.md#where-the-libraries-stop), the gaps this file covers:
 *
 * 6. @peculiar/x509 1.14.3 (the X.509 library of mdoc-ts's test context) cannot parse the EU
 *    reference CA or its DS certificates (malformed non-critical IssuerAltName) → the verifier
 *    reads certificates with node:crypto (certificates.ts); @peculiar/x509 only makes test ones.
 */
import { AsnConvert } from '@peculiar/asn1-schema';
import {
  BasicConstraints,
  Certificate,
  ExtendedKeyUsage,
  id_ce_basicConstraints,
  id_ce_extKeyUsage,
  id_ce_keyUsage,
  KeyUsage,
} from '@peculiar/asn1-x509';
import { createHash, X509Certificate } from 'node:crypto';

export { X509Certificate };
export { KeyUsageFlags } from '@peculiar/asn1-x509';

/** Reads DER or PEM; null when it is not a certificate. */
export function readCertificate(data: Uint8Array | string): X509Certificate | null {
  try {
    return new X509Certificate(typeof data === 'string' ? data : Buffer.from(data));
  } catch {
    return null;
  }
}

/**
 * The SHA-256 of a certificate's SubjectPublicKeyInfo (DER), lowercase hex: the same for every
 * certificate of one key, however each is encoded or signed.
 *
 * @example spkiSha256(new X509Certificate(pem)) // '5a9493…'
 */
export function spkiSha256(certificate: X509Certificate): string {
  return createHash('sha256')
    .update(certificate.publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/** notBefore / notAfter as Dates (Node 20 has only the OpenSSL strings). */
export function validityOf(certificate: X509Certificate): { notBefore: Date; notAfter: Date } {
  return { notBefore: new Date(certificate.validFrom), notAfter: new Date(certificate.validTo) };
}

/**
 * The values of one attribute of a distinguished name as Node prints it (`CN=…\nO=…\nC=AV`).
 *
 * @example nameField(certificate.issuer, 'C') // ['AV']
 */
export function nameField(name: string, field: string): string[] {
  const values: string[] = [];
  for (const line of name.split('\n')) {
    for (const part of line.split(' + ')) {
      const at = part.indexOf('=');
      if (at > 0 && part.slice(0, at) === field) values.push(part.slice(at + 1));
    }
  }
  return values;
}

/** The extensions a certificate profile speaks of (RFC 5280 §4.2.1); null where it has none. */
export interface ProfileExtensions {
  /** keyUsage bits as KeyUsageFlags (digitalSignature = 1, keyCertSign = 32, …) */
  keyUsage: number | null;
  /** pathLength null: no pathLenConstraint */
  basicConstraints: { ca: boolean; pathLength: number | null } | null;
  /** the KeyPurposeId OIDs, dotted */
  extendedKeyUsage: string[] | null;
}

/**
 * keyUsage, basicConstraints and extendedKeyUsage of a certificate. Null when the certificate's
 * extensions do not decode, one of these three does not, or an extension appears twice (RFC 5280
 * §4.2 allows one instance of each): the caller refuses it.
 *
 * @example readProfileExtensions(ds)?.extendedKeyUsage // ['1.0.18013.5.1.2']
 */
export function readProfileExtensions(certificate: X509Certificate): ProfileExtensions | null {
  try {
    const extensions = AsnConvert.parse(certificate.raw, Certificate).tbsCertificate.extensions ?? [];
    const ids = extensions.map((extension) => extension.extnID);
    if (new Set(ids).size !== ids.length) return null;
    const valueOf = (id: string) => extensions.find((extension) => extension.extnID === id)?.extnValue.buffer;
    const keyUsage = valueOf(id_ce_keyUsage);
    const basicConstraints = valueOf(id_ce_basicConstraints);
    const extendedKeyUsage = valueOf(id_ce_extKeyUsage);
    const constraints = basicConstraints && AsnConvert.parse(basicConstraints, BasicConstraints);
    return {
      keyUsage: keyUsage ? AsnConvert.parse(keyUsage, KeyUsage).toNumber() : null,
      basicConstraints: constraints ? { ca: constraints.cA, pathLength: constraints.pathLenConstraint ?? null } : null,
      extendedKeyUsage: extendedKeyUsage ? [...AsnConvert.parse(extendedKeyUsage, ExtendedKeyUsage)] : null,
    };
  } catch {
    return null;
  }
}
