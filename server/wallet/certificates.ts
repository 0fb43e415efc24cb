/**
 * Reading X.509 certificates on the verifier side, on node:crypto (OpenSSL).
 *
 * Not @peculiar/x509: 1.14.3 throws while parsing the EU age-verification reference CA and its DS
 * certificates, whose non-critical IssuerAltName holds a whole Extension instead of GeneralNames
 * (library-gaps.ts, gap 6). OpenSSL skips that extension, as `openssl verify` does.
 */
import { X509Certificate } from 'node:crypto';

export { X509Certificate };

/** Reads DER or PEM; null when it is not a certificate. */
export function readCertificate(data: Uint8Array | string): X509Certificate | null {
  try {
    return new X509Certificate(typeof data === 'string' ? data : Buffer.from(data));
  } catch {
    return null;
  }
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
