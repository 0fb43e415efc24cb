/**
 * Shared set-up for the wallet tests (not a test file): a fixed clock, sandbox trust and issuer,
 * personas, and the EU profile's example credential rebuilt from fixtures/wallet/.
 */
import { cborEncode, DataItem, IssuerSigned } from '@owf/mdoc';
import {
  AsnConvert,
  AsnIntegerArrayBufferConverter,
  AsnProp,
  AsnPropTypes,
  AsnType,
  AsnTypeTypes,
} from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Persona } from '../../src/protocol/sandbox.ts';
import personas from '../../fixtures/personas.json' with { type: 'json' };
import { AV_NAMESPACE } from './profile.ts';
import { loadSandboxIssuer, type SandboxIssuer } from '../sandbox/wallet/sandbox-issuer.ts';
import { DEFAULT_WALLET_FIXTURES, loadWalletTrust, parseTrustBundle, type WalletTrust } from './trust/anchors.ts';
import type { RequestView } from './verify.ts';

/** The tests' clock: 2026-01-01T12:00Z, inside every sandbox certificate's validity. */
export const NOW = Date.UTC(2026, 0, 1, 12);
export const API_URL = 'http://localhost:8787';
export const ORIGIN = 'https://shop.example';
export const MINUTE_MS = 60_000;

export const sandboxTrust: WalletTrust = loadWalletTrust({ mode: 'sandbox' });
export const sandboxIssuer: SandboxIssuer = loadSandboxIssuer();

export function persona(id: string): Persona {
  const found = (personas as Persona[]).find((p) => p.id === id);
  if (!found) throw new Error(`no persona ${id}`);
  return found;
}

/** A request that is waiting and lives five more minutes. */
export function waiting(now = NOW): RequestView {
  return { waiting: true, expiresAt: now + 5 * MINUTE_MS };
}

/** Trust in exactly these PEM roots, no key refused (as sandbox). */
export function trustOf(...pems: string[]): WalletTrust {
  return {
    enabled: true,
    anchors: pems.flatMap((pem, index) => parseTrustBundle(pem, `test root ${index + 1}`)),
    refusedKeys: [],
  };
}

/** ECDSA-Sig-Value (RFC 3279 §2.2.3): SEQUENCE { r INTEGER, s INTEGER }, the schema set without decorators. */
class EcdsaSigValue {
  r = new ArrayBuffer(0);
  s = new ArrayBuffer(0);
}
AsnType({ type: AsnTypeTypes.Sequence })(EcdsaSigValue);
for (const field of ['r', 's'] as const)
  AsnProp({ type: AsnPropTypes.Integer, converter: AsnIntegerArrayBufferConverter })(EcdsaSigValue.prototype, field);

/** The order n of P-256 (SEC 2 §2.4.2): for an ECDSA signature (r, s), (r, n − s) verifies too. */
const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/**
 * The same certificate with its ECDSA signature re-encoded, s → n − s: other bytes, another
 * fingerprint, the same subject, key and extensions, and still a valid signature. What an attacker
 * makes of a public root to get past a check on the certificate's bytes (P-256 only).
 *
 * @example const copy = reencodeSignature(readFileSync('fixtures/wallet/sandbox-iaca.pem', 'utf8'))
 */
export function reencodeSignature(pem: string): string {
  const original = new X509Certificate(pem);
  if (original.publicKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error('P-256 only');
  const certificate = AsnConvert.parse(original.raw, Certificate);
  const signature = AsnConvert.parse(certificate.signatureValue, EcdsaSigValue);
  const s = BigInt(`0x${Buffer.from(signature.s).toString('hex')}`);
  let hex = (P256_ORDER - s).toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  if (Number.parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`; // a positive INTEGER
  signature.s = new Uint8Array(Buffer.from(hex, 'hex')).buffer;
  certificate.signatureValue = AsnConvert.serialize(signature);
  return new X509Certificate(Buffer.from(AsnConvert.serialize(certificate))).toString();
}

interface EuProfileExample {
  issuerAuth: {
    protectedHeader: string;
    x5chain: string;
    mso: {
      docType: string;
      version: string;
      validityInfo: { signed: string; validFrom: string; validUntil: string };
      valueDigests: Record<string, Record<string, string>>;
      deviceKey: { x: string; y: string };
      digestAlgorithm: string;
    };
    signature: string;
  };
  nameSpaces: Record<string, { random: string; digestID: number; elementValue: unknown; elementIdentifier: string }[]>;
  dcApiRequest: { deviceRequest: string; encryptionInfo: string };
}

export const euProfileExample = JSON.parse(
  readFileSync(join(DEFAULT_WALLET_FIXTURES, 'eu-profile-example.json'), 'utf8'),
) as EuProfileExample;

const hex = (value: string) => new Uint8Array(Buffer.from(value, 'hex'));

/**
 * The EU profile's example proof-of-age credential (Annex A §A.10) as the bytes its diagnostic
 * notation stands for: map keys in the printed order, tdate as tag 0, items as tag 24.
 */
export function euProfileIssuerSigned(): IssuerSigned {
  const { issuerAuth, nameSpaces } = euProfileExample;
  const { mso } = issuerAuth;
  const msoMap = new Map<string, unknown>([
    ['docType', mso.docType],
    ['version', mso.version],
    ['validityInfo', new Map(Object.entries(mso.validityInfo).map(([key, value]) => [key, new Date(value)]))],
    [
      'valueDigests',
      new Map(
        Object.entries(mso.valueDigests).map(([ns, digests]) => [
          ns,
          new Map(Object.entries(digests).map(([id, d]) => [Number(id), hex(d)])),
        ]),
      ),
    ],
    [
      'deviceKeyInfo',
      new Map([
        [
          'deviceKey',
          new Map<number, unknown>([
            [1, 2],
            [-1, 1],
            [-2, hex(mso.deviceKey.x)],
            [-3, hex(mso.deviceKey.y)],
          ]),
        ],
      ]),
    ],
    ['digestAlgorithm', mso.digestAlgorithm],
  ]);
  const payload = cborEncode(DataItem.fromBuffer(cborEncode(msoMap)));
  const items = (nameSpaces[AV_NAMESPACE] ?? []).map((item) =>
    DataItem.fromData(
      new Map<string, unknown>([
        ['random', hex(item.random)],
        ['digestID', item.digestID],
        ['elementValue', item.elementValue],
        ['elementIdentifier', item.elementIdentifier],
      ]),
    ),
  );
  const structure = new Map<string, unknown>([
    [
      'issuerAuth',
      [hex(issuerAuth.protectedHeader), new Map([[33, hex(issuerAuth.x5chain)]]), payload, hex(issuerAuth.signature)],
    ],
    ['nameSpaces', new Map([[AV_NAMESPACE, items]])],
  ]);
  return IssuerSigned.decode(cborEncode(structure));
}
