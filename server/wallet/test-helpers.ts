/**
 * Shared set-up for the wallet tests (not a test file): a fixed clock, sandbox trust and issuer,
 * personas, and the EU profile's example credential rebuilt from fixtures/wallet/.
 */
import { cborEncode, DataItem, IssuerSigned } from '@owf/mdoc';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Persona } from '../../src/protocol/api.ts';
import personas from '../../fixtures/personas.json' with { type: 'json' };
import { AV_NAMESPACE } from './profile.ts';
import { loadSandboxIssuer, type SandboxIssuer } from '../sandbox/wallet/sandbox-issuer.ts';
import { DEFAULT_WALLET_FIXTURES, loadWalletTrust, parseTrustBundle, type WalletTrust } from './trust.ts';
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

/** Trust in exactly these PEM roots. */
export function trustOf(...pems: string[]): WalletTrust {
  return { enabled: true, anchors: pems.flatMap((pem, index) => parseTrustBundle(pem, `test root ${index + 1}`)) };
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
