/**
 * Access certificates for signed wallet requests (docs/design.md §16), test support: an access
 * CA and a verifier's leaf under it, made with @peculiar/x509 as the sandbox issuer is
 * (sandbox-issuer.ts). `scripts/make-wallet-fixtures.ts --access` writes the committed sandbox
 * access certificate under fixtures/wallet/; tests make unrelated, expired or self-signed ones.
 * Production refuses the committed one by its public key (server/wallet/trust/anchors.ts, PUBLIC_KEYS).
 */
import {
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  ExtendedKeyUsageExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  SubjectAlternativeNameExtension,
  SubjectKeyIdentifierExtension,
  X509Certificate,
  X509CertificateGenerator,
} from '@peculiar/x509';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pkcs8PemOf } from '../../wallet/request/access-certificate.ts';
import { createEcJwk, type EcJwk } from '../../wallet/keys.ts';
import { DEFAULT_WALLET_FIXTURES } from '../../wallet/trust/anchors.ts';
import { CRYPTO, importPair, serial, SIGNING } from './sandbox-issuer.ts';

/** ISO/IEC 18013-5 Annex B: extended key usage of an mdoc reader authentication certificate. */
export const MDL_READER_AUTH_EKU = '1.0.18013.5.1.6';

/** Files of the committed sandbox access certificate in fixtures/wallet/. */
export const SANDBOX_ACCESS_FILES = {
  ca: 'sandbox-access-ca.pem',
  leaf: 'sandbox-access.pem',
  key: 'sandbox-access.key.pem',
} as const;

export interface AccessCertificates {
  caKey: EcJwk;
  ca: X509Certificate;
  leafKey: EcJwk;
  leaf: X509Certificate;
  /** SVC_WALLET_ACCESS_CERT's content: the leaf alone (the CA is the wallets' trust anchor) */
  chainPem: string;
  /** SVC_WALLET_ACCESS_KEY's content: the leaf's private key, PKCS#8 PEM */
  keyPem: string;
}

/**
 * A fresh access CA and a leaf it issued for `dns` (keyUsage digitalSignature, EKU mdoc reader
 * authentication, SAN dNSName), both ECDSA P-256. `selfSigned` makes the leaf its own issuer (what
 * boot refuses); `leafKey` reuses a key.
 *
 * @example const access = await createAccessCertificates({ name: 'Test', dns: 'verifier.example', notBefore, notAfter })
 */
export async function createAccessCertificates(input: {
  name: string;
  dns: string;
  notBefore: Date;
  notAfter: Date;
  /** the leaf's validity; default the CA's */
  leafNotBefore?: Date;
  leafNotAfter?: Date;
  selfSigned?: boolean;
  leafKey?: EcJwk;
}): Promise<AccessCertificates> {
  const caKey = createEcJwk();
  const leafKey = input.leafKey ?? createEcJwk();
  const caPair = await importPair(caKey);
  const leafPair = await importPair(leafKey);
  const ca = await X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serial(),
      name: `CN=${input.name} Access CA, O=${input.name}, C=XX`,
      notBefore: input.notBefore,
      notAfter: input.notAfter,
      keys: caPair,
      signingAlgorithm: SIGNING,
      extensions: [
        new BasicConstraintsExtension(true, 0, true),
        new KeyUsagesExtension(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign, true),
        await SubjectKeyIdentifierExtension.create(caPair.publicKey, false, CRYPTO),
      ],
    },
    CRYPTO,
  );
  const subject = `CN=${input.dns}, O=${input.name}, C=XX`;
  const issuer = input.selfSigned ? { name: subject, keys: leafPair } : { name: ca.subject, keys: caPair };
  const leaf = await X509CertificateGenerator.create(
    {
      serialNumber: serial(),
      subject,
      issuer: issuer.name,
      notBefore: input.leafNotBefore ?? input.notBefore,
      notAfter: input.leafNotAfter ?? input.notAfter,
      publicKey: leafPair.publicKey,
      signingKey: issuer.keys.privateKey,
      signingAlgorithm: SIGNING,
      extensions: [
        new KeyUsagesExtension(KeyUsageFlags.digitalSignature, true),
        new ExtendedKeyUsageExtension([MDL_READER_AUTH_EKU], false),
        new SubjectAlternativeNameExtension([{ type: 'dns', value: input.dns }], false),
        await AuthorityKeyIdentifierExtension.create(issuer.keys.publicKey, false, CRYPTO),
        await SubjectKeyIdentifierExtension.create(leafPair.publicKey, false, CRYPTO),
      ],
    },
    CRYPTO,
  );
  return { caKey, ca, leafKey, leaf, chainPem: leaf.toString('pem') + '\n', keyPem: await pkcs8PemOf(leafKey) };
}

/**
 * The committed sandbox access certificate: the PEM texts SVC_WALLET_ACCESS_CERT and
 * SVC_WALLET_ACCESS_KEY would name, and the CA a wallet trusts for it.
 *
 * @example const { chainPem, keyPem } = loadSandboxAccess()
 */
export function loadSandboxAccess(fixturesDir: string = DEFAULT_WALLET_FIXTURES): {
  chainPem: string;
  keyPem: string;
  caPem: string;
} {
  const read = (file: string) => readFileSync(join(fixturesDir, file), 'utf8');
  return {
    chainPem: read(SANDBOX_ACCESS_FILES.leaf),
    keyPem: read(SANDBOX_ACCESS_FILES.key),
    caPem: read(SANDBOX_ACCESS_FILES.ca),
  };
}
