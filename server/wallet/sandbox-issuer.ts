/**
 * Sandbox issuer (test support): an IACA root and a document signer (DS) certificate per
 * ISO/IEC 18013-5 Annex B, made with @peculiar/x509. `scripts/make-wallet-fixtures.ts` uses it to
 * write the committed sandbox issuer under fixtures/wallet/; tests use it for unrelated issuers.
 * The verifier trusts the sandbox root in sandbox mode only.
 */
import {
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  ExtendedKeyUsageExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  PemConverter,
  SubjectKeyIdentifierExtension,
  X509Certificate,
  X509CertificateGenerator,
} from '@peculiar/x509';
import { randomBytes, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEcJwk, type EcJwk, toPublicEcJwk } from './keys.ts';
import { DEFAULT_WALLET_FIXTURES } from './trust.ts';

/** ISO/IEC 18013-5 Annex B: extended key usage of a document signer certificate. */
export const MDL_DS_EKU = '1.0.18013.5.1.2';

/** What signs mdocs: the DS private key and the x5chain that goes into `issuerAuth`. */
export interface SandboxIssuer {
  dsKey: EcJwk;
  /** DER, DS certificate first */
  x5chain: Uint8Array[];
}

/** A whole issuer, root included (the root goes into a trust bundle, never into x5chain). */
export interface IssuerCertificates extends SandboxIssuer {
  iacaKey: EcJwk;
  iaca: X509Certificate;
  ds: X509Certificate;
}

const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;

async function importPair(jwk: EcJwk): Promise<webcrypto.CryptoKeyPair> {
  const subtle = webcrypto.subtle;
  const privateKey = await subtle.importKey('jwk', { ...jwk }, ECDSA_P256, true, ['sign']);
  const publicKey = await subtle.importKey('jwk', toPublicEcJwk(jwk), ECDSA_P256, true, ['verify']);
  return { privateKey, publicKey };
}

function serial(): string {
  const bytes = randomBytes(16);
  bytes[0]! &= 0x7f; // a positive INTEGER
  return bytes.toString('hex');
}

/**
 * A fresh IACA root and DS certificate, both ECDSA P-256.
 *
 * @example const issuer = await createIssuerCertificates({ name: 'Test', country: 'XX', notBefore, notAfter })
 */
export async function createIssuerCertificates(input: {
  name: string;
  country: string;
  notBefore: Date;
  notAfter: Date;
  /** DS validity; defaults to the IACA's */
  dsNotBefore?: Date;
  dsNotAfter?: Date;
}): Promise<IssuerCertificates> {
  // @peculiar/x509 types its provider as the DOM Crypto; node's webcrypto is that object.
  const crypto = webcrypto as unknown as Parameters<typeof X509CertificateGenerator.create>[1];
  const iacaKey = createEcJwk();
  const dsKey = createEcJwk();
  const iacaPair = await importPair(iacaKey);
  const dsPair = await importPair(dsKey);
  const iacaName = `CN=${input.name} IACA, O=${input.name}, C=${input.country}`;
  const iaca = await X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serial(),
      name: iacaName,
      notBefore: input.notBefore,
      notAfter: input.notAfter,
      keys: iacaPair,
      signingAlgorithm: SIGNING,
      extensions: [
        new BasicConstraintsExtension(true, 0, true),
        new KeyUsagesExtension(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign, true),
        await SubjectKeyIdentifierExtension.create(iacaPair.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  const ds = await X509CertificateGenerator.create(
    {
      serialNumber: serial(),
      subject: `CN=${input.name} DS, O=${input.name}, C=${input.country}`,
      issuer: iaca.subject,
      notBefore: input.dsNotBefore ?? input.notBefore,
      notAfter: input.dsNotAfter ?? input.notAfter,
      publicKey: dsPair.publicKey,
      signingKey: iacaPair.privateKey,
      signingAlgorithm: SIGNING,
      extensions: [
        new KeyUsagesExtension(KeyUsageFlags.digitalSignature, true),
        new ExtendedKeyUsageExtension([MDL_DS_EKU], true),
        await AuthorityKeyIdentifierExtension.create(iacaPair.publicKey, false, crypto),
        await SubjectKeyIdentifierExtension.create(dsPair.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  return { iacaKey, iaca, dsKey, ds, x5chain: [new Uint8Array(ds.rawData)] };
}

/** Files of the committed sandbox issuer in fixtures/wallet/. */
export const SANDBOX_ISSUER_FILES = {
  iaca: 'sandbox-iaca.pem',
  ds: 'sandbox-ds.pem',
  dsKey: 'sandbox-ds.key.json',
} as const;

/**
 * The committed sandbox issuer (its DS key and certificate).
 *
 * @example const issuer = loadSandboxIssuer()
 */
export function loadSandboxIssuer(fixturesDir: string = DEFAULT_WALLET_FIXTURES): SandboxIssuer {
  const ds = PemConverter.decodeFirst(readFileSync(join(fixturesDir, SANDBOX_ISSUER_FILES.ds), 'utf8'));
  const dsKey = JSON.parse(readFileSync(join(fixturesDir, SANDBOX_ISSUER_FILES.dsKey), 'utf8')) as EcJwk;
  return { dsKey, x5chain: [new Uint8Array(ds)] };
}
