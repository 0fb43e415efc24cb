/**
 * `svc wallet access-cert csr|import|show`: the verifier's access certificate, with which it signs
 * wallet requests (docs/design.md §16, docs/wallets.md).
 *
 *   csr --dns <host> [--org <name>] [--out <dir>]   a fresh P-256 key (access.key, 0600) and a
 *       PKCS#10 request for it (access.csr.pem) to send to Google, Apple or an access CA; no store
 *   import --cert <chain.pem> --key <key.pem>       checks them as the boot does, then stores both
 *       as service secrets, the key sealed at rest under the master key like every other secret
 *   show                                            the imported certificate's client_id and dates
 *
 * SVC_WALLET_ACCESS_CERT / SVC_WALLET_ACCESS_KEY, when set, win over the imported one.
 */
import { Pkcs10CertificateRequestGenerator, SubjectAlternativeNameExtension } from '@peculiar/x509';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { webcrypto } from 'node:crypto';
import { quote } from '../rules/printable.ts';
import { ConfigError } from '../errors.ts';
import {
  validityOf,
  ACCESS_SECRETS,
  type AccessCertificate,
  IMPORTED_NAMES,
  pkcs8PemOf,
  readAccessCertificate,
  createEcJwk,
  toPublicEcJwk,
} from '../wallet/index.ts';
import { parseFlags } from './args.ts';
import type { CliIo, CommandContext } from './dispatch.ts';
import { usageHint } from './usage-hint.ts';

export const ACCESS_CERT_USAGE = `Usage:
  svc wallet access-cert csr --dns <host> [--org <name>] [--out <dir>]
      writes a new P-256 key (access.key) and a certificate request for it (access.csr.pem)
  svc wallet access-cert import --cert <chain.pem> --key <key.pem>
      checks the chain (leaf first, no root) and its key, then stores both, the key sealed
  svc wallet access-cert show
      the imported certificate: client_id, subject, validity

SVC_WALLET_ACCESS_CERT and SVC_WALLET_ACCESS_KEY, when set, win over the imported certificate.
docs/wallets.md says which wallet needs which certificate and how to get it.`;

const DNS_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/**
 * `svc wallet access-cert csr`: needs no store.
 *
 * @example process.exitCode = await runAccessCertCsr(['--dns', 'verify.example.com'], io)
 */
export async function runAccessCertCsr(args: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  const parsed = parseFlags(args, { dns: true, org: true, out: true });
  if (!parsed.ok) {
    io.err(`svc wallet access-cert csr: ${parsed.problem}\n${usageHint('wallet access-cert')}`);
    return 2;
  }
  const dns = parsed.flags.get('dns');
  if (typeof dns !== 'string' || !DNS_NAME.test(dns)) {
    io.err(`svc wallet access-cert csr: --dns must be the service's host name, e.g. verify.example.com`);
    return 2;
  }
  const org = parsed.flags.get('org');
  const outDir = resolve(cwd, typeof parsed.flags.get('out') === 'string' ? (parsed.flags.get('out') as string) : '.');
  const keyPath = join(outDir, 'access.key');
  const csrPath = join(outDir, 'access.csr.pem');
  const existing = [keyPath, csrPath].filter((path) => existsSync(path));
  if (existing.length > 0) {
    io.err(`svc wallet access-cert csr: ${existing.join(', ')} exist; move them away or pass another --out`);
    return 1;
  }
  const jwk = createEcJwk();
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256' } as const;
  const keys = {
    privateKey: await webcrypto.subtle.importKey('jwk', { ...jwk }, algorithm, false, ['sign']),
    publicKey: await webcrypto.subtle.importKey('jwk', toPublicEcJwk(jwk), algorithm, true, ['verify']),
  };
  const name = `CN=${dns}${typeof org === 'string' ? `, O=${org.replaceAll(/[,+="\\<>;#]/g, ' ')}` : ''}`;
  const csr = await Pkcs10CertificateRequestGenerator.create(
    {
      name,
      keys,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      extensions: [new SubjectAlternativeNameExtension([{ type: 'dns', value: dns }], false)],
    },
    webcrypto as unknown as Parameters<typeof Pkcs10CertificateRequestGenerator.create>[1],
  );
  mkdirSync(outDir, { recursive: true });
  writeFileSync(keyPath, await pkcs8PemOf(jwk), { mode: 0o600 });
  writeFileSync(csrPath, csr.toString('pem') + '\n');
  io.out(`wrote ${keyPath} (the private key: keep it, mode 0600) and ${csrPath} (${name}, SAN DNS:${dns})`);
  io.out('Send the .csr.pem to Google, Apple or your access CA (docs/wallets.md); then:');
  io.out(`  svc wallet access-cert import --cert <the chain they return> --key ${keyPath}`);
  return 0;
}

function describe(access: AccessCertificate): string[] {
  const { notBefore, notAfter } = validityOf(access.leaf);
  return [
    `client_id: ${access.clientId}`,
    `subject: ${access.leaf.subject.replaceAll('\n', ', ')}`,
    `issuer: ${access.leaf.issuer.replaceAll('\n', ', ')}`,
    `valid: ${notBefore.toISOString()} to ${notAfter.toISOString()}`,
    `chain: ${access.chain.length} certificate${access.chain.length === 1 ? '' : 's'}`,
  ];
}

function readInput(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new ConfigError(`--${flag}: cannot read ${path}`);
  }
}

/**
 * `svc wallet access-cert import|show` on the store.
 *
 * @example await runAccessCertCommand(['import', '--cert', 'chain.pem', '--key', 'access.key'], context)
 */
export async function runAccessCertCommand(args: string[], context: CommandContext): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'show' && rest.length === 0) {
    const secrets = await context.store.listSecrets();
    const certPem = secrets[ACCESS_SECRETS.cert];
    const keyPem = secrets[ACCESS_SECRETS.key];
    if (certPem === undefined || keyPem === undefined) {
      context.out('no access certificate imported: wallet requests are unsigned unless SVC_WALLET_ACCESS_CERT is set');
      return 0;
    }
    try {
      const access = await readAccessCertificate({
        certPem,
        keyPem,
        mode: context.config.mode,
        now: context.clock.now(),
        names: IMPORTED_NAMES,
      });
      for (const line of describe(access)) context.out(line);
      return 0;
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      context.err(`svc wallet access-cert show: ${error.message}`);
      return 1;
    }
  }
  if (sub !== 'import') {
    context.err(`svc wallet access-cert: unknown subcommand ${quote(sub ?? '')}\n${usageHint('wallet access-cert')}`);
    return 2;
  }
  const parsed = parseFlags(rest, { cert: true, key: true });
  const cert = parsed.ok ? parsed.flags.get('cert') : undefined;
  const key = parsed.ok ? parsed.flags.get('key') : undefined;
  if (!parsed.ok || typeof cert !== 'string' || typeof key !== 'string') {
    const problem = parsed.ok ? '--cert and --key are both needed' : parsed.problem;
    context.err(`svc wallet access-cert import: ${problem}\n${usageHint('wallet access-cert')}`);
    return 2;
  }
  let access: AccessCertificate;
  let certPem: string;
  let keyPem: string;
  try {
    certPem = readInput(cert, 'cert');
    keyPem = readInput(key, 'key');
    access = await readAccessCertificate({
      certPem,
      keyPem,
      mode: context.config.mode,
      now: context.clock.now(),
      names: { cert: '--cert', key: '--key' },
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    context.err(`svc wallet access-cert import: ${error.message}`);
    return 1;
  }
  const existing = await context.store.listSecrets();
  for (const [name, value] of [
    [ACCESS_SECRETS.cert, certPem],
    [ACCESS_SECRETS.key, keyPem],
  ] as const) {
    if (Object.hasOwn(existing, name)) await context.store.replaceSecret(name, value);
    else await context.store.getOrCreateSecret(name, value);
  }
  context.out('imported the access certificate; its key is sealed at rest under the master key');
  for (const line of describe(access)) context.out(line);
  context.out('Restart the service to sign with it.');
  return 0;
}
