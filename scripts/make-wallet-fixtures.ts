/**
 * Writes the sandbox mdoc issuer under fixtures/wallet/ (design.md §11): an IACA root the
 * verifier trusts in sandbox mode only, a document signer certificate it issued, and that DS
 * certificate's private key, with which the sandbox wallet issues proof-of-age mdocs.
 *
 *   npx tsx scripts/make-wallet-fixtures.ts [--force] [--out <dir>]
 *   npx tsx scripts/make-wallet-fixtures.ts --access [--force] [--out <dir>]
 *
 * `--access` writes the sandbox access certificate for signed wallet requests instead (docs/design.md
 * §16): an access CA, a leaf for `sandbox.svc.localhost` and the leaf's PKCS#8 key, all committed;
 * production refuses that key (server/wallet/trust/anchors.ts, PUBLIC_KEYS).
 *
 * The key is test data, committed on purpose: anyone can issue "sandbox" credentials, which is
 * why production never trusts this root. av_issuer_ca01.pem (the EU reference CA) is not made
 * here; fixtures/wallet/README.md says where it comes from.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createAccessCertificates, SANDBOX_ACCESS_FILES } from '../server/sandbox/wallet/sandbox-access.ts';
import { createIssuerCertificates, SANDBOX_ISSUER_FILES } from '../server/sandbox/wallet/sandbox-issuer.ts';
import { DEFAULT_WALLET_FIXTURES } from '../server/wallet/index.ts';

export async function makeWalletFixtures(outDir: string, force: boolean): Promise<string[]> {
  const paths = Object.values(SANDBOX_ISSUER_FILES).map((file) => join(outDir, file));
  const existing = paths.filter((path) => existsSync(path));
  if (existing.length > 0 && !force)
    throw new Error(`${existing.join(', ')} exist; pass --force to replace the sandbox issuer`);
  const issuer = await createIssuerCertificates({
    name: 'SVC Sandbox',
    country: 'XX',
    notBefore: new Date('2025-01-01T00:00:00Z'),
    notAfter: new Date('2045-01-01T00:00:00Z'),
    dsNotAfter: new Date('2040-01-01T00:00:00Z'),
  });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, SANDBOX_ISSUER_FILES.iaca), issuer.iaca.toString('pem') + '\n');
  writeFileSync(join(outDir, SANDBOX_ISSUER_FILES.ds), issuer.ds.toString('pem') + '\n');
  writeFileSync(join(outDir, SANDBOX_ISSUER_FILES.dsKey), JSON.stringify(issuer.dsKey, null, 2) + '\n');
  return paths;
}

export async function makeAccessFixtures(outDir: string, force: boolean): Promise<string[]> {
  const paths = Object.values(SANDBOX_ACCESS_FILES).map((file) => join(outDir, file));
  const existing = paths.filter((path) => existsSync(path));
  if (existing.length > 0 && !force)
    throw new Error(`${existing.join(', ')} exist; pass --force to replace the sandbox access certificate`);
  const access = await createAccessCertificates({
    name: 'SVC Sandbox',
    dns: 'sandbox.svc.localhost',
    notBefore: new Date('2025-01-01T00:00:00Z'),
    notAfter: new Date('2045-01-01T00:00:00Z'),
    leafNotAfter: new Date('2040-01-01T00:00:00Z'),
  });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, SANDBOX_ACCESS_FILES.ca), access.ca.toString('pem') + '\n');
  writeFileSync(join(outDir, SANDBOX_ACCESS_FILES.leaf), access.chainPem);
  writeFileSync(join(outDir, SANDBOX_ACCESS_FILES.key), access.keyPem);
  return paths;
}

async function main(args: string[]): Promise<void> {
  const outIndex = args.indexOf('--out');
  const outDir = outIndex >= 0 && args[outIndex + 1] ? resolve(args[outIndex + 1]!) : DEFAULT_WALLET_FIXTURES;
  const make = args.includes('--access') ? makeAccessFixtures : makeWalletFixtures;
  const written = await make(outDir, args.includes('--force'));
  for (const path of written) console.log(`wrote ${path}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
