/**
 * `svc wallet access-cert` (docs/design.md §16): a CSR OpenSSL accepts, for a key of its own; the
 * certificate an access CA returns for it imported, its key sealed at rest, and the service
 * booting on it; a bad pair refused with one line and nothing stored.
 */
import { X509CertificateGenerator, Pkcs10CertificateRequest, KeyUsagesExtension, KeyUsageFlags } from '@peculiar/x509';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDeps } from '../boot.ts';
import { createFakeClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { createAccessCertificates } from '../sandbox/wallet/sandbox-access.ts';
import { makeTempDir, REPO_ROOT } from '../test/helpers.ts';
import { runAccessCertCommand, runAccessCertCsr } from './access-cert.ts';
import { runCli } from './dispatch.ts';

const clock = createFakeClock();
let dir: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => dir.remove());

const env = (): NodeJS.ProcessEnv => ({ NODE_ENV: 'test', SVC_DATA_DIR: join(dir.path, 'data') });

async function svc(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli({ 'access-cert': { summary: '', run: runAccessCertCommand } }, ['access-cert', ...args], {
    env: env(),
    cwd: REPO_ROOT,
    clock,
    io: { out: (l) => out.push(l), err: (l) => err.push(l) },
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** What an access CA does with the CSR: a leaf for the CSR's key, under its own CA. */
async function issueFor(csrPem: string): Promise<string> {
  const csr = new Pkcs10CertificateRequest(csrPem);
  expect(await csr.verify()).toBe(true);
  const now = clock.now();
  const ca = await createAccessCertificates({
    name: 'Access CA',
    dns: 'unused.example',
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + 365 * 86_400_000),
  });
  const caKey = await webcrypto.subtle.importKey(
    'jwk',
    { ...ca.caKey },
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['sign'],
  );
  const crypto = webcrypto as unknown as Parameters<typeof X509CertificateGenerator.create>[1];
  const leaf = await X509CertificateGenerator.create(
    {
      serialNumber: randomBytes(8).toString('hex').replace(/^./, '1'),
      subject: csr.subject,
      issuer: ca.ca.subject,
      notBefore: new Date(now - 60_000),
      notAfter: new Date(now + 90 * 86_400_000),
      publicKey: await csr.publicKey.export(crypto),
      signingKey: caKey,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      extensions: [new KeyUsagesExtension(KeyUsageFlags.digitalSignature, true)],
    },
    crypto,
  );
  return leaf.toString('pem') + '\n';
}

describe('svc wallet access-cert', () => {
  it('csr writes a 0600 PKCS#8 P-256 key and a request for it that OpenSSL verifies, naming the host', async () => {
    const out: string[] = [];
    const code = await runAccessCertCsr(['--dns', 'verify.example.com', '--out', dir.path], {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
    });
    expect(code).toBe(0);
    const keyPath = join(dir.path, 'access.key');
    expect(statSync(keyPath).mode & 0o777).toBe(0o600);
    const key = execFileSync('openssl', ['pkey', '-in', keyPath, '-noout', '-text'], { encoding: 'utf8' });
    expect(key).toContain('NIST CURVE: P-256');
    const csr = execFileSync(
      'openssl',
      ['req', '-in', join(dir.path, 'access.csr.pem'), '-verify', '-noout', '-subject', '-text'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(csr).toMatch(/subject=CN\s?=\s?verify\.example\.com/);
    expect(csr).toContain('DNS:verify.example.com');
    // A second run does not overwrite the key.
    expect(await runAccessCertCsr(['--dns', 'verify.example.com', '--out', dir.path], { out() {}, err() {} })).toBe(1);
    expect(await runAccessCertCsr(['--dns', 'not a host'], { out() {}, err() {} })).toBe(2);
  });

  it('import stores the issued chain and seals its key; show and the booted service read it back', async () => {
    await runAccessCertCsr(['--dns', 'verify.example.com', '--out', dir.path], { out() {}, err() {} });
    const chain = join(dir.path, 'chain.pem');
    writeFileSync(chain, await issueFor(readFileSync(join(dir.path, 'access.csr.pem'), 'utf8')));
    const imported = await svc(['import', '--cert', chain, '--key', join(dir.path, 'access.key')]);
    expect(imported.err).toBe('');
    expect(imported.code).toBe(0);
    const der = new X509Certificate(readFileSync(chain)).raw;
    const clientId = `x509_hash:${createHash('sha256').update(der).digest('base64url')}`;
    expect(imported.out).toContain(`client_id: ${clientId}`);
    expect((await svc(['show'])).out).toContain(`client_id: ${clientId}`);

    // Nothing in the data folder holds the key's PEM body.
    const keyBody = readFileSync(join(dir.path, 'access.key'), 'utf8').split('\n')[1]!;
    for (const file of readdirSync(join(dir.path, 'data'))) {
      const path = join(dir.path, 'data', file);
      if (statSync(path).isFile()) expect(readFileSync(path).includes(keyBody)).toBe(false);
    }
    const deps = await buildDeps(loadConfig(env(), REPO_ROOT), { clock });
    try {
      expect(deps.wallet.access?.clientId).toBe(clientId);
    } finally {
      await deps.store.close();
    }
  });

  it('import refuses a key that is not the certificate’s with one line, and stores nothing', async () => {
    const now = clock.now();
    const made = () =>
      createAccessCertificates({
        name: 'Operator',
        dns: 'verifier.example',
        notBefore: new Date(now - 86_400_000),
        notAfter: new Date(now + 86_400_000),
      });
    const [access, other] = await Promise.all([made(), made()]);
    writeFileSync(join(dir.path, 'chain.pem'), access.chainPem);
    writeFileSync(join(dir.path, 'other.key'), other.keyPem);
    const run = await svc(['import', '--cert', join(dir.path, 'chain.pem'), '--key', join(dir.path, 'other.key')]);
    expect(run.code).toBe(1);
    expect(run.err).toBe(
      'svc wallet access-cert import: --key does not match the leaf of --cert (CN=verifier.example, O=Operator, C=XX): ' +
        'install the key the certificate was issued for',
    );
    expect((await svc(['show'])).out).toMatch(/^no access certificate imported/);
  });
});
