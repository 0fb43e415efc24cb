/**
 * Sandbox issuer (test support): an IACA root and a document signer (DS) certificate per
 * ISO/IEC 18013-5 Annex B, made with @peculiar/x509. `scripts/make-wallet-fixtures.ts` uses it to
 * write the committed sandbox issuer under fixtures/wallet/; tests use it for unrelated issuers,
 * and for ones that break the DS profile on purpose (`signer`, `intermediates`, `iacaPathLength`).
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
import { createEcJwk, type EcJwk, toPublicEcJwk } from '../../wallet/keys.ts';
import { MDL_DS_EKU } from '../../wallet/trust/chain.ts';
import { DEFAULT_WALLET_FIXTURES } from '../../wallet/trust/anchors.ts';

/** What signs mdocs: the DS private key and the x5chain that goes into `issuerAuth`. */
export interface SandboxIssuer {
  dsKey: EcJwk;
  /** DER, DS certificate first, then any intermediate CA (nearest the DS first) */
  x5chain: Uint8Array[];
}

/** A whole issuer, root included (the root goes into a trust bundle, never into x5chain). */
export interface IssuerCertificates extends SandboxIssuer {
  iacaKey: EcJwk;
  iaca: X509Certificate;
  ds: X509Certificate;
}

/**
 * How the DS certificate departs from ISO/IEC 18013-5 Annex B, for the verifier's negative tests;
 * every field left out keeps the profile.
 */
export interface SignerProfileOptions {
  /** keyUsage flags (KeyUsageFlags); null: no keyUsage extension. Default digitalSignature */
  keyUsage?: number | null;
  /** true: basicConstraints CA:TRUE on the DS certificate */
  ca?: boolean;
  /** extendedKeyUsage OIDs; null: no extendedKeyUsage extension. Default [MDL_DS_EKU] */
  extendedKeyUsage?: string[] | null;
  /** the DS subject's country (C). Default the IACA's */
  country?: string;
}

const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
/** The signature of every sandbox certificate: ECDSA with SHA-256. */
export const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
// @peculiar/x509 types its provider as the DOM Crypto; node's webcrypto is that object.
export const CRYPTO = webcrypto as unknown as Parameters<typeof X509CertificateGenerator.create>[1];

/** A P-256 private JWK as the WebCrypto pair @peculiar/x509 signs and names keys with. */
export async function importPair(jwk: EcJwk): Promise<webcrypto.CryptoKeyPair> {
  const subtle = webcrypto.subtle;
  const privateKey = await subtle.importKey('jwk', { ...jwk }, ECDSA_P256, true, ['sign']);
  const publicKey = await subtle.importKey('jwk', toPublicEcJwk(jwk), ECDSA_P256, true, ['verify']);
  return { privateKey, publicKey };
}

/** A random positive 128-bit certificate serial number, in hex. */
export function serial(): string {
  const bytes = randomBytes(16);
  bytes[0]! &= 0x7f; // a positive INTEGER
  return bytes.toString('hex');
}

/** A CA's basicConstraints: `pathLength` null for no pathLenConstraint. */
function caConstraints(pathLength: number | null): BasicConstraintsExtension {
  return new BasicConstraintsExtension(true, pathLength ?? undefined, true);
}

/**
 * A fresh IACA root and DS certificate, both ECDSA P-256, the DS profile as Annex B has it unless
 * `signer` says otherwise. `intermediates` puts CA certificates between them (top first), which go
 * into x5chain after the DS certificate.
 *
 * @example const issuer = await createIssuerCertificates({ name: 'Test', country: 'XX', notBefore, notAfter })
 * @example const noEku = await createIssuerCertificates({ ...input, signer: { extendedKeyUsage: null } })
 */
export async function createIssuerCertificates(input: {
  name: string;
  country: string;
  notBefore: Date;
  notAfter: Date;
  /** DS validity; defaults to the IACA's */
  dsNotBefore?: Date;
  dsNotAfter?: Date;
  signer?: SignerProfileOptions;
  /** the IACA's pathLenConstraint, null for none. Default 0 (Annex B) */
  iacaPathLength?: number | null;
  /** intermediate CAs, the one the IACA issues first, each with its pathLenConstraint (null: none) */
  intermediates?: readonly { pathLength: number | null }[];
  /** the DS key pair (a private JWK); default a fresh one */
  dsKey?: EcJwk;
}): Promise<IssuerCertificates> {
  const iacaKey = createEcJwk();
  const dsKey = input.dsKey ?? createEcJwk();
  const iacaPair = await importPair(iacaKey);
  const dsPair = await importPair(dsKey);
  const iaca = await X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serial(),
      name: `CN=${input.name} IACA, O=${input.name}, C=${input.country}`,
      notBefore: input.notBefore,
      notAfter: input.notAfter,
      keys: iacaPair,
      signingAlgorithm: SIGNING,
      extensions: [
        caConstraints(input.iacaPathLength === undefined ? 0 : input.iacaPathLength),
        new KeyUsagesExtension(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign, true),
        await SubjectKeyIdentifierExtension.create(iacaPair.publicKey, false, CRYPTO),
      ],
    },
    CRYPTO,
  );

  let issuer = { certificate: iaca, keys: iacaPair };
  const intermediates: X509Certificate[] = [];
  for (const [index, { pathLength }] of (input.intermediates ?? []).entries()) {
    const keys = await importPair(createEcJwk());
    const certificate = await X509CertificateGenerator.create(
      {
        serialNumber: serial(),
        subject: `CN=${input.name} Intermediate ${index + 1}, O=${input.name}, C=${input.country}`,
        issuer: issuer.certificate.subject,
        notBefore: input.notBefore,
        notAfter: input.notAfter,
        publicKey: keys.publicKey,
        signingKey: issuer.keys.privateKey,
        signingAlgorithm: SIGNING,
        extensions: [
          caConstraints(pathLength),
          new KeyUsagesExtension(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign, true),
          await AuthorityKeyIdentifierExtension.create(issuer.keys.publicKey, false, CRYPTO),
          await SubjectKeyIdentifierExtension.create(keys.publicKey, false, CRYPTO),
        ],
      },
      CRYPTO,
    );
    intermediates.unshift(certificate);
    issuer = { certificate, keys };
  }

  const signer = input.signer ?? {};
  const keyUsage = signer.keyUsage === undefined ? KeyUsageFlags.digitalSignature : signer.keyUsage;
  const extendedKeyUsage = signer.extendedKeyUsage === undefined ? [MDL_DS_EKU] : signer.extendedKeyUsage;
  const ds = await X509CertificateGenerator.create(
    {
      serialNumber: serial(),
      subject: `CN=${input.name} DS, O=${input.name}, C=${signer.country ?? input.country}`,
      issuer: issuer.certificate.subject,
      notBefore: input.dsNotBefore ?? input.notBefore,
      notAfter: input.dsNotAfter ?? input.notAfter,
      publicKey: dsPair.publicKey,
      signingKey: issuer.keys.privateKey,
      signingAlgorithm: SIGNING,
      extensions: [
        ...(keyUsage === null ? [] : [new KeyUsagesExtension(keyUsage, true)]),
        ...(signer.ca ? [caConstraints(null)] : []),
        ...(extendedKeyUsage === null ? [] : [new ExtendedKeyUsageExtension(extendedKeyUsage, true)]),
        await AuthorityKeyIdentifierExtension.create(issuer.keys.publicKey, false, CRYPTO),
        await SubjectKeyIdentifierExtension.create(dsPair.publicKey, false, CRYPTO),
      ],
    },
    CRYPTO,
  );
  const x5chain = [ds, ...intermediates].map((certificate) => new Uint8Array(certificate.rawData));
  return { iacaKey, iaca, dsKey, ds, x5chain };
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
