import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/protocol/scopes.ts';
import { ConfigError } from '../errors.ts';
import { isSealed } from '../crypto/master-key.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import { REPO_ROOT, makeProductionTestDeps, makeTempDir, makeTestDeps } from '../test/helpers.ts';
import {
  issuerProblem,
  loadProviderFixtures,
  nameProblem,
  newProviderId,
  privateKeyJwkFromPem,
  readClientSecret,
  readProves,
} from './provider-registry.ts';

const FIXTURES = join(REPO_ROOT, 'fixtures', 'providers.json');

let dir: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => dir.remove());

describe('provider ids', () => {
  it('are idp_ and 16 random bytes in base64url', () => {
    const ids = Array.from({ length: 20 }, newProviderId);
    for (const id of ids) expect(id).toMatch(/^idp_[A-Za-z0-9_-]{22}$/);
    expect(new Set(ids).size).toBe(20);
  });
});

describe('the registry rules', () => {
  it('keeps an issuer exactly as given, with or without a trailing slash, and refuses query, fragment and credentials', () => {
    expect(issuerProblem('https://tenant.example/')).toBeNull();
    expect(issuerProblem('https://id.example/realms/svc')).toBeNull();
    expect(issuerProblem('https://id.example?x=1')).toMatch(/no query or fragment/);
    expect(issuerProblem('https://id.example#top')).toMatch(/no query or fragment/);
    expect(issuerProblem('https://id.example?')).toMatch(/no query or fragment/);
    expect(issuerProblem('https://user:pw@id.example')).toMatch(/user name or password/);
    expect(issuerProblem(' https://id.example')).toMatch(/must be an https:\/\/ URL/);
    expect(issuerProblem('http://id.example')).toMatch(/http:\/\/ only on localhost, 127\.0\.0\.0\/8 or ::1/);
  });

  it('takes names of 1 to 80 printable characters, accents included', () => {
    expect(nameProblem('France Identité')).toBeNull();
    expect(nameProblem('é'.repeat(80))).toBeNull();
    for (const bad of ['', 'x'.repeat(81), 'a\nb', 'tab\there', ' padded', 'bell\u0007', 'rtl\u202e'])
      expect(nameProblem(bad), JSON.stringify(bad)).toMatch(/1 to 80 printable characters/);
  });

  it('reads a scope list: known scopes, at least one, none twice', () => {
    expect(readProves('isAdult, isFrench')).toEqual(['isAdult', 'isFrench']);
    expect(readProves('')).toMatch(/at least one scope/);
    expect(readProves('isAdult,')).toMatch(/at least one scope/);
    expect(readProves('isAdult,isOld')).toMatch(/unknown scope "isOld"/);
    expect(readProves('isEU,isEU')).toMatch(/twice/);
  });

  it('drops the trailing newline of a secret file, and refuses an empty or multi-line one', () => {
    expect(readClientSecret('s3cret\n')).toBe('s3cret');
    expect(readClientSecret('s3cret\r\n')).toBe('s3cret');
    expect(readClientSecret('with space')).toBe('with space');
    expect(readClientSecret('\n')).toEqual({ problem: 'is empty' });
    expect(readClientSecret('one\ntwo\n')).toMatchObject({ problem: expect.stringMatching(/one line/) });
  });

  it('turns an EC P-256 or RSA PEM into a private JWK with its thumbprint as kid, and refuses other keys in one line', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    for (const pem of [
      ec.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string,
      ec.privateKey.export({ format: 'pem', type: 'sec1' }) as string,
    ]) {
      const jwk = JSON.parse((await privateKeyJwkFromPem(pem)) as string);
      expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', d: expect.any(String) });
      expect(jwk.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // What the relying party does with it: a usable private key again.
      expect(createPrivateKey({ key: jwk, format: 'jwk' }).asymmetricKeyType).toBe('ec');
    }
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rsaJwk = JSON.parse(
      (await privateKeyJwkFromPem(rsa.privateKey.export({ format: 'pem', type: 'pkcs1' }) as string)) as string,
    );
    expect(rsaJwk).toMatchObject({ kty: 'RSA', alg: 'RS256', d: expect.any(String) });

    const refusals: [string, RegExp][] = [
      [
        generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({
          format: 'pem',
          type: 'pkcs8',
        }) as string,
        /EC key on secp384r1/,
      ],
      [generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string, /ed25519 key/],
      [
        generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
          format: 'pem',
          type: 'pkcs8',
        }) as string,
        /1024-bit RSA key/,
      ],
      [ec.publicKey.export({ format: 'pem', type: 'spki' }) as string, /not a PEM private key/],
      [
        ec.privateKey.export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: 'pw' }) as string,
        /not a PEM private key/,
      ],
      ['not a key', /not a PEM private key/],
    ];
    for (const [pem, message] of refusals) {
      const result = await privateKeyJwkFromPem(pem);
      expect(result).toMatchObject({ problem: expect.stringMatching(message) });
      expect((result as { problem: string }).problem).not.toContain('\n');
    }
  });
});

describe('the sandbox fixture provider', () => {
  it('is the example provider on http://localhost:8789, proving every scope', () => {
    const [example, ...others] = loadProviderFixtures(FIXTURES, 5);
    expect(others).toEqual([]);
    expect(example).toMatchObject({
      id: 'idp_example',
      issuer: 'http://localhost:8789',
      clientId: 'svc-sandbox',
      clientAuth: 'client_secret_basic',
      name: 'Example ID',
      method: 'face_check',
      proves: [...SCOPES],
      enabled: true,
      createdAt: 5,
    });
    expect(Buffer.from(example!.credential, 'base64url')).toHaveLength(32);
  });

  it('is loaded at sandbox boot, its secret sealed at rest', async () => {
    const raw = openSqliteStore(':memory:');
    const { store } = await makeTestDeps({ store: raw });
    try {
      const [fixture] = loadProviderFixtures(FIXTURES, 0);
      expect(await store.getProvider('idp_example')).toMatchObject({ ...fixture, createdAt: expect.any(Number) });
      expect(isSealed((await raw.getProvider('idp_example'))!.credential)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('comes from SVC_PROVIDER_FIXTURES when it is set, and a bad file stops the boot with one line', async () => {
    const path = join(dir.path, 'providers.json');
    writeFileSync(
      path,
      JSON.stringify([
        {
          id: 'idp_local',
          issuer: 'https://id.example/',
          client_id: 'local',
          client_secret: 'local-secret',
          client_auth: 'client_secret_post',
          name: 'Local ID',
          method: 'bank_id',
          proves: ['isAdult'],
        },
      ]),
    );
    const { store } = await makeTestDeps({ env: { SVC_PROVIDER_FIXTURES: path } });
    try {
      expect((await store.listProviders()).map((p) => [p.id, p.clientAuth, p.credential])).toEqual([
        ['idp_local', 'client_secret_post', 'local-secret'],
      ]);
    } finally {
      await store.close();
    }

    const bad: [unknown, RegExp][] = [
      [{ id: 'idp_x', issuer: 'http://id.example' }, /provider "idp_x": issuer must be an https:\/\/ URL/],
      [{ id: 'x' }, /provider "x": id must match/],
      [[], /must hold a JSON array/],
    ];
    for (const [content, message] of bad) {
      writeFileSync(path, JSON.stringify(Array.isArray(content) ? {} : [content]));
      const booting = makeTestDeps({ env: { SVC_PROVIDER_FIXTURES: path } });
      await expect(booting).rejects.toThrow(ConfigError);
      await expect(booting).rejects.toThrow(message);
    }
    await expect(makeTestDeps({ env: { SVC_PROVIDER_FIXTURES: join(dir.path, 'none.json') } })).rejects.toThrow(
      /^SVC_PROVIDER_FIXTURES: cannot read providers from/,
    );
  });

  it('is never loaded in production', async () => {
    const { store } = await makeProductionTestDeps();
    try {
      expect(await store.listProviders()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
