/**
 * The `MdocContext` @owf/mdoc needs (it brings no crypto of its own): hashes, randomness and
 * ECDSA on node:crypto's Web Crypto, certificates on node:crypto's X509Certificate (certificates.ts
 * says why not @peculiar/x509, which mdoc-ts's tests use), the chain check on trust/chain.ts.
 */
import { type MdocContext, SignatureAlgorithm } from '@owf/mdoc';
import { createHash, webcrypto } from 'node:crypto';
import { nameField, readCertificate, validityOf, type X509Certificate } from '../trust/certificates.ts';
import { type EcdsaAlgorithm, isEcdsaAlgorithm, signEcdsa, verifyEcdsa } from '../keys.ts';
import { coseKeyToEcJwk, ecJwkToCoseKey } from './cose-keys.ts';
import { evaluateIssuerChain } from '../trust/chain.ts';

const DIGESTS = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' } as const;

const ALGORITHM_NAMES: Partial<Record<number, EcdsaAlgorithm>> = {
  [SignatureAlgorithm.ES256]: 'ES256',
  [SignatureAlgorithm.ES384]: 'ES384',
  [SignatureAlgorithm.ES512]: 'ES512',
};

const CURVE_ALGORITHMS: Record<string, EcdsaAlgorithm> = { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' };

function certificateOf(der: Uint8Array): X509Certificate {
  const certificate = readCertificate(der);
  if (!certificate) throw new Error('not an X.509 certificate');
  return certificate;
}

function notUsed(): never {
  // OpenID4VP and the DC API have no reader key, so an mdoc can only authenticate with a
  // device signature; a device MAC fails in the library before it gets here.
  throw new Error('device MAC authentication is not used on this path');
}

/** The context passed to every @owf/mdoc call. */
export const mdocContext: MdocContext = {
  crypto: {
    random: (length) => webcrypto.getRandomValues(new Uint8Array(length)),
    digest: ({ digestAlgorithm, bytes }) => {
      const name = DIGESTS[digestAlgorithm as keyof typeof DIGESTS];
      if (!name) throw new Error('unsupported digest algorithm');
      return new Uint8Array(createHash(name).update(bytes).digest());
    },
    calculateEphemeralMacKey: notUsed,
  },
  cose: {
    sign1: {
      sign: async ({ toBeSigned, key, algorithm }) => {
        const jwk = coseKeyToEcJwk(key, true);
        const name = algorithm === undefined ? CURVE_ALGORITHMS[jwk.crv] : ALGORITHM_NAMES[algorithm];
        if (!name) throw new Error('unsupported signature algorithm');
        return signEcdsa(name, jwk, toBeSigned);
      },
      verify: async ({ key, sign1 }) => {
        const name = sign1.signatureAlgorithmName;
        if (!isEcdsaAlgorithm(name)) return false;
        return verifyEcdsa(name, coseKeyToEcJwk(key, false), sign1.toBeSigned, sign1.signature);
      },
    },
    mac0: { sign: notUsed, verify: notUsed },
  },
  x509: {
    getIssuerNameField: ({ certificate, field }) => nameField(certificateOf(certificate).issuer, field),
    getPublicKey: ({ certificate }) => {
      const jwk = certificateOf(certificate).publicKey.export({ format: 'jwk' });
      if (jwk.kty !== 'EC' || (jwk.crv !== 'P-256' && jwk.crv !== 'P-384' && jwk.crv !== 'P-521') || !jwk.x || !jwk.y) {
        throw new Error('the DS certificate key is not an EC key on P-256, P-384 or P-521');
      }
      return ecJwkToCoseKey({ kty: 'EC', crv: jwk.crv, x: jwk.x, y: jwk.y });
    },
    verifyCertificateChain: ({ trustedCertificates, x5chain, now }) => {
      const anchors = trustedCertificates.map(certificateOf);
      const result = evaluateIssuerChain(x5chain, anchors, now ?? new Date());
      if (!result.ok) throw new Error(result.detail);
    },
    getCertificateData: ({ certificate }) => {
      const parsed = certificateOf(certificate);
      return {
        issuerName: parsed.issuer,
        subjectName: parsed.subject,
        serialNumber: parsed.serialNumber,
        thumbprint: createHash('sha256').update(certificate).digest('hex'),
        ...validityOf(parsed),
        pem: parsed.toString(),
      };
    },
  },
};
