import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/protocol/scopes.ts';
import { openServiceStore } from '../boot.ts';
import { createFakeClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { isSealed } from '../crypto/master-key.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import { REPO_ROOT, TEST_MASTER_KEY, makeTempDir } from '../test/helpers.ts';
import { runCli } from './dispatch.ts';
import { runProvidersCommand } from './providers.ts';
import { startProvider } from '../test/providers.ts';

/**
 * A discovery server: `<base>/<name>` is an issuer whose document is `documents[name]` (a good one
 * by default); a few names answer something else (too big, not JSON, never, …).
 */
let discovery: Server;
let base = '';
const issuer = (name: string) => `${base}/${name}`;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A document as a provider would answer it for the issuer `<base>/<name>`. */
function documentFor(name: string, changes: Record<string, unknown> = {}) {
  const at = issuer(name);
  return {
    issuer: at,
    authorization_endpoint: `${at}/auth`,
    token_endpoint: `${at}/token`,
    jwks_uri: `${at}/jwks`,
    userinfo_endpoint: `${at}/me`,
    response_types_supported: ['code'],
    ...changes,
  };
}

const ANSWERS: Record<string, (res: ServerResponse) => void> = {
  good: (res) => json(res, documentFor('good')),
  'trailing-slash': (res) => json(res, documentFor('trailing-slash', { issuer: `${issuer('trailing-slash')}/` })),
  'another-issuer': (res) => json(res, documentFor('another-issuer', { issuer: 'https://elsewhere.example' })),
  'no-jwks': (res) => json(res, documentFor('no-jwks', { jwks_uri: undefined })),
  'no-token-endpoint': (res) => json(res, documentFor('no-token-endpoint', { token_endpoint: undefined })),
  'no-authorization-endpoint': (res) =>
    json(res, documentFor('no-authorization-endpoint', { authorization_endpoint: 7 })),
  'http-endpoint': (res) => json(res, documentFor('http-endpoint', { token_endpoint: 'http://id.example/token' })),
  'huge-declared': (res) => json(res, documentFor('huge-declared', { padding: 'x'.repeat(2 * 1_048_576) })),
  'huge-streamed': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = 'x'.repeat(65_536);
    res.write(`{"issuer":"${issuer('huge-streamed')}","padding":"`);
    for (let i = 0; i < 40; i++) res.write(chunk);
    res.end('"}');
  },
  html: (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Welcome</h1>'),
  'not-json': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"issuer": '),
  array: (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'),
  'not-found': (res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('no'),
  redirect: (res) => res.writeHead(302, { location: `${issuer('good')}/.well-known/openid-configuration` }).end(),
  silent: () => undefined,
  trickle: (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"issuer":');
  },
};

function json(res: ServerResponse, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

beforeAll(async () => {
  discovery = createServer((req, res) => {
    // One request per connection, as the CLI makes: no idle socket the server may close under a reused fetch.
    res.setHeader('connection', 'close');
    const match = /^\/([a-z-]+)\/?\.well-known\/openid-configuration$/.exec(req.url ?? '');
    const answer = match ? ANSWERS[match[1]!] : undefined;
    if (answer) answer(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => discovery.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(discovery.address() as AddressInfo).port}`;
});
afterAll(async () => {
  discovery.closeAllConnections();
  await new Promise((done) => discovery.close(done));
});

let dir: ReturnType<typeof makeTempDir>;
let out: string[];
let err: string[];
const clock = createFakeClock();
const NULLIFIER_KEY = Buffer.alloc(32, 9).toString('base64');
const SECRET = 'provider-client-secret-4f1c9a';

beforeEach(() => {
  dir = makeTempDir();
  out = [];
  err = [];
});
afterEach(() => dir.remove());

function env(mode: 'sandbox' | 'production'): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    SVC_DATA_DIR: join(dir.path, 'data'),
    SVC_MODE: mode,
    ...(mode === 'production' ? { SVC_NULLIFIER_KEY: NULLIFIER_KEY, SVC_MASTER_KEY: TEST_MASTER_KEY } : {}),
  };
}

/** `svc providers …` as the operator runs it: the environment picks the store. */
function svc(args: string[], mode: 'sandbox' | 'production' = 'production', discoveryTimeoutMs = 5_000) {
  const argv = args.map((a) => (a === SECRET_FILE ? secretFile() : a === ISSUER ? issuer('good') : a));
  const run: typeof runProvidersCommand = (a, c) =>
    runProvidersCommand(a, c, { discovery: { timeoutMs: discoveryTimeoutMs } });
  return runCli({ providers: { summary: '', run } }, ['providers', ...argv], {
    env: env(mode),
    cwd: REPO_ROOT,
    clock,
    io: { out: (l) => out.push(l), err: (l) => err.push(l) },
  });
}

/** What the service reads back: the store opened as the service opens it (mode, master key). */
async function storedProviders(mode: 'sandbox' | 'production' = 'production') {
  const { store } = await openServiceStore(loadConfig(env(mode), REPO_ROOT));
  try {
    return await store.listProviders();
  } finally {
    await store.close();
  }
}

function file(name: string, content: string): string {
  const path = join(dir.path, name);
  writeFileSync(path, content);
  return path;
}

const secretFile = () => file('client-secret', `${SECRET}\n`);
/** Stands for the issuer of the test's discovery server that answers a good document. */
const ISSUER = '<issuer>';
/** Stands for the secret file's path in argument lists built before a test's folder exists. */
const SECRET_FILE = '<client-secret-file>';

/** A valid `add` with a secret file; `extra` flags are appended. */
const addArgs = (...extra: string[]) => [
  'add',
  '--issuer',
  ISSUER,
  '--client-id',
  'svc-prod',
  '--client-secret-file',
  SECRET_FILE,
  '--name',
  'France Identité',
  '--method',
  'face_check',
  '--proves',
  'isAdult,isFrench',
  ...extra,
];

/** `add` with one flag's value replaced (or the flag dropped, when `value` is null). */
function addWith(flag: string, value: string | null, ...extra: string[]): string[] {
  const args = addArgs(...extra);
  const at = args.indexOf(flag);
  if (value === null) args.splice(at, 2);
  else args[at + 1] = value;
  return args;
}

describe('svc providers add', () => {
  it('prints only the new idp_ id, and stores the provider with its secret sealed at rest', async () => {
    expect(await svc(addArgs())).toBe(0);
    expect(err).toEqual([]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^idp_[A-Za-z0-9_-]{22}$/);
    const [provider] = await storedProviders();
    expect(provider).toEqual({
      id: out[0],
      issuer: issuer('good'),
      clientId: 'svc-prod',
      clientAuth: 'client_secret_basic',
      credential: SECRET,
      name: 'France Identité',
      method: 'face_check',
      proves: ['isAdult', 'isFrench'],
      enabled: true,
      createdAt: clock.now(),
    });
    const raw = openSqliteStore(join(dir.path, 'data', 'svc.sqlite'));
    try {
      const stored = await raw.getProvider(out[0]!);
      expect(isSealed(stored!.credential)).toBe(true);
      expect(JSON.stringify(stored)).not.toContain(SECRET);
    } finally {
      await raw.close();
    }
  });

  it('prints exactly id, issuer, client_id, name, method and proves with --json, never the secret', async () => {
    expect(await svc(addArgs('--json', '--client-auth', 'client_secret_post'))).toBe(0);
    const printed = JSON.parse(out[0]!);
    expect(Object.keys(printed)).toEqual(['id', 'issuer', 'client_id', 'name', 'method', 'proves']);
    expect(printed).toMatchObject({
      issuer: issuer('good'),
      client_id: 'svc-prod',
      name: 'France Identité',
      method: 'face_check',
      proves: ['isAdult', 'isFrench'],
    });
    expect(out.join('\n')).not.toContain(SECRET);
    expect((await storedProviders())[0]).toMatchObject({ id: printed.id, clientAuth: 'client_secret_post' });
  });

  it('stores a PEM private key as a sealed private JWK and defaults to private_key_jwt', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    const d = (privateKey.export({ format: 'jwk' }) as { d: string }).d;
    const args = addArgs().map((a) => (a === '--client-secret-file' ? '--private-key-file' : a));
    args[args.indexOf('--private-key-file') + 1] = file('client-key.pem', pem);
    expect(await svc([...args, '--json'])).toBe(0);
    expect(out.join('\n')).not.toContain(d);
    const [provider] = await storedProviders();
    expect(provider!.clientAuth).toBe('private_key_jwt');
    expect(JSON.parse(provider!.credential)).toMatchObject({ kty: 'EC', crv: 'P-256', d, alg: 'ES256' });
    const raw = openSqliteStore(join(dir.path, 'data', 'svc.sqlite'));
    try {
      expect(JSON.stringify(await raw.listProviders())).not.toContain(d);
    } finally {
      await raw.close();
    }
  });

  it('works in sandbox mode too, with an http:// issuer on a loopback host and every scope', async () => {
    const args = addArgs('--skip-check');
    args[args.indexOf('--issuer') + 1] = 'http://127.0.0.1:9000';
    args[args.indexOf('--proves') + 1] = SCOPES.join(',');
    expect(await svc(args, 'sandbox')).toBe(0);
    expect((await storedProviders('sandbox')).find((p) => p.id === out[0])).toMatchObject({
      issuer: 'http://127.0.0.1:9000',
      proves: [...SCOPES],
    });
  });

  it.each([
    [addWith('--issuer', null), /--issuer is required/],
    [addWith('--client-id', null), /--client-id is required/],
    [addWith('--name', null), /--name is required/],
    [addWith('--method', null), /--method is required/],
    [addWith('--proves', null), /--proves is required/],
    [addWith('--client-secret-file', null), /exactly one of --client-secret-file and --private-key-file/],
    [addArgs('--private-key-file', '/k.pem'), /exactly one of --client-secret-file and --private-key-file/],
    [addWith('--issuer', 'http://id.example'), /--issuer must be an https:\/\/ URL \(http:\/\/ only on localhost/],
    [addWith('--issuer', 'id.example'), /--issuer must be an https:\/\/ URL/],
    [addWith('--issuer', 'https://id.example/?tenant=1'), /--issuer must have no query or fragment/],
    [addWith('--client-id', ''), /--client-id must be 1 to 255 printable characters/],
    [addWith('--name', ''), /--name must be 1 to 80 printable characters/],
    [addWith('--name', 'x'.repeat(81)), /--name must be 1 to 80/],
    [addWith('--name', 'two\nlines'), /--name must not hold control characters \(ESC, newline, …\), got "two\\nlines"/],
    [addWith('--name', 'A\u001b[31mRED'), /--name must not hold control characters .*, got "A\\u001b\[31mRED"/],
    [addWith('--name', 'csi\u009b31m'), /--name must not hold control characters .*, got "csi\\u009b31m"/],
    [addWith('--name', 'rtl\u202eexe'), /--name must be 1 to 80 printable/],
    [addWith('--client-id', 'svc\u007f'), /--client-id must not hold control characters/],
    [addWith('--issuer', 'https://id.example/\u001b[2J'), /--issuer must not hold control characters/],
    [addWith('--method', 'Face-Check'), /--method must match \[a-z0-9_\]\{1,40\}/],
    [addWith('--method', 'x'.repeat(41)), /--method must match/],
    [addWith('--method', 'eudi_wallet'), /--method is reserved for the EUDI wallet path \(eudi_wallet\)/],
    [addWith('--proves', ''), /--proves must list at least one scope/],
    [addWith('--proves', 'isAdult,isOld'), /--proves has an unknown scope "isOld"/],
    [addWith('--proves', 'isAdult,isAdult'), /--proves lists a scope twice/],
    [addArgs('--client-auth', 'none'), /--client-auth must be one of client_secret_basic, client_secret_post/],
    [addArgs('--client-auth', 'private_key_jwt'), /private_key_jwt needs --private-key-file/],
    [addArgs('--colour', 'red'), /unknown flag --colour/],
    [addArgs('--issuer', 'https://b.example'), /--issuer given twice/],
    [[...addArgs(), 'extra'], /unexpected argument "extra"/],
  ])('refuses %j with exit code 2 and a clear first line, storing nothing', async (args, message) => {
    expect(await svc(args)).toBe(2);
    expect(err[0]!.split('\n')[0]).toMatch(/^svc providers add: /);
    expect(err[0]!.split('\n')[0]).toMatch(message);
    expect(out).toEqual([]);
    expect(err.join('\n')).not.toContain(SECRET);
    expect(await storedProviders()).toEqual([]);
  });

  it('refuses a key with a client-secret auth, and files it cannot use, in one line with exit code 1', async () => {
    const ed = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
      format: 'pem',
      type: 'pkcs8',
    }) as string;
    const withKey = (path: string, ...extra: string[]) => {
      const args = addArgs(...extra).map((a) => (a === '--client-secret-file' ? '--private-key-file' : a));
      args[args.indexOf('--private-key-file') + 1] = path;
      return args;
    };
    expect(await svc(withKey(file('ec.pem', ec), '--client-auth', 'client_secret_basic'))).toBe(2);
    expect(err.pop()).toMatch(/--client-auth client_secret_basic needs --client-secret-file/);

    const cases: [string[], RegExp][] = [
      [withKey(file('ed.pem', ed)), /--private-key-file holds a ed25519 key; private_key_jwt needs EC P-256 or RSA/],
      [withKey(file('junk.pem', 'junk')), /--private-key-file is not a PEM private key/],
      [withKey(join(dir.path, 'missing.pem')), /--private-key-file: cannot read ".*missing\.pem" \(ENOENT\)/],
      [addWith('--client-secret-file', file('empty', '\n')), /--client-secret-file is empty/],
      [
        addWith('--client-secret-file', file('lines', `${SECRET}\nsecond\n`)),
        /--client-secret-file must hold the secret on one line/,
      ],
    ];
    for (const [args, message] of cases) {
      err = [];
      expect(await svc(args)).toBe(1);
      expect(err).toHaveLength(1);
      expect(err[0]).not.toContain('\n');
      expect(err[0]).toMatch(message);
      expect(err[0]).not.toContain(SECRET);
    }
    expect(out).toEqual([]);
    expect(await storedProviders()).toEqual([]);
  });
});

describe('svc providers add: the discovery check', () => {
  it.each([
    [
      'trailing-slash',
      issuer,
      /names the issuer "http:\/\/127\.0\.0\.1:\d+\/trailing-slash\/", not "http:\/\/127\.0\.0\.1:\d+\/trailing-slash": give --issuer exactly/,
    ],
    [
      'good',
      (n: string) => `${issuer(n)}/`,
      /names the issuer "http:\/\/127\.0\.0\.1:\d+\/good", not "http:\/\/127\.0\.0\.1:\d+\/good\/"/,
    ],
    ['another-issuer', issuer, /names the issuer "https:\/\/elsewhere\.example", not/],
    ['no-jwks', issuer, /has no jwks_uri/],
    ['no-token-endpoint', issuer, /has no token_endpoint/],
    ['no-authorization-endpoint', issuer, /has no authorization_endpoint/],
    ['http-endpoint', issuer, /gives token_endpoint "http:\/\/id\.example\/token": it must be an https:\/\/ URL/],
    ['huge-declared', issuer, /answered more than 1 MB/],
    ['huge-streamed', issuer, /answered more than 1 MB/],
    ['html', issuer, /did not answer with application\/json/],
    ['not-json', issuer, /did not answer a JSON object/],
    ['array', issuer, /did not answer/],
    ['not-found', issuer, /answered HTTP 404, not 200 with a discovery document/],
    ['redirect', issuer, /answered HTTP 302, not 200 with a discovery document \(redirects are not followed\)/],
    ['silent', issuer, /did not answer within 0\.3 s/],
    ['trickle', issuer, /did not answer within 0\.3 s/],
  ])('refuses an issuer whose document is %s (exit code 1, one line, nothing written)', async (name, at, message) => {
    const given = (at as (n: string) => string)(name);
    const started = Date.now();
    // The servers that never finish answering are given 0.3 s; the others all the time they need.
    const timeoutMs = name === 'silent' || name === 'trickle' ? 300 : 5_000;
    expect(await svc(addWith('--issuer', given), 'production', timeoutMs)).toBe(1);
    expect(Date.now() - started).toBeLessThan(timeoutMs + 4_000);
    expect(err).toHaveLength(1);
    expect(err[0]).not.toContain('\n');
    expect(err[0]).toMatch(
      /^svc providers add: http:\/\/127\.0\.0\.1:\d+\/[a-z-]+\/\.well-known\/openid-configuration /,
    );
    expect(err[0]).toMatch(message as RegExp);
    expect(err[0]).toMatch(/Nothing was written \(--skip-check registers it unchecked\)\.$/);
    expect(err[0]).not.toContain(SECRET);
    expect(out).toEqual([]);
    expect(await storedProviders()).toEqual([]);
  });

  it('refuses a host-only issuer that its document spells with a trailing "/" (URLs compare equal, strings do not)', async () => {
    const origin = createServer((req, res) => {
      const at = `http://${req.headers.host}`;
      json(res, {
        ...documentFor(''),
        issuer: `${at}/`,
        authorization_endpoint: `${at}/auth`,
        token_endpoint: `${at}/token`,
        jwks_uri: `${at}/jwks`,
      });
    });
    await new Promise<void>((done) => origin.listen(0, '127.0.0.1', done));
    const bare = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    try {
      expect(await svc(addWith('--issuer', bare))).toBe(1);
      expect(err).toEqual([
        `svc providers add: ${bare}/.well-known/openid-configuration names the issuer "${bare}/", not "${bare}": give ` +
          '--issuer exactly as the provider spells it (character for character, a trailing "/" included). Nothing was ' +
          'written (--skip-check registers it unchecked).',
      ]);
      expect(await storedProviders()).toEqual([]);
      // Spelled as the document spells it, it is accepted.
      err = [];
      expect(await svc(addWith('--issuer', `${bare}/`))).toBe(0);
      expect(err).toEqual([]);
      expect(await storedProviders()).toMatchObject([{ issuer: `${bare}/` }]);
    } finally {
      origin.closeAllConnections();
      await new Promise((done) => origin.close(done));
    }
  });

  it('refuses an issuer where nothing listens, and registers it unchecked with --skip-check', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const nowhere = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((done) => closed.close(done));
    expect(await svc(addWith('--issuer', nowhere))).toBe(1);
    expect(err).toEqual([
      `svc providers add: ${nowhere}/.well-known/openid-configuration could not be reached (ECONNREFUSED). ` +
        'Nothing was written (--skip-check registers it unchecked).',
    ]);
    expect(await storedProviders()).toEqual([]);

    err = [];
    expect(await svc(addWith('--issuer', nowhere, '--skip-check'))).toBe(0);
    expect(err).toEqual([`svc providers add: --skip-check: ${nowhere} was not asked for its discovery document`]);
    expect(await storedProviders()).toMatchObject([{ id: out[0], issuer: nowhere }]);
  });

  it('accepts the example identity provider (node-oidc-provider) as it is', async () => {
    const idp = await startProvider();
    try {
      expect(await svc(addWith('--issuer', idp.issuer))).toBe(0);
      expect(err).toEqual([]);
      expect(await storedProviders()).toMatchObject([{ id: out[0], issuer: idp.issuer }]);
    } finally {
      await idp.close();
    }
  });
});

describe('svc providers add: one name per provider', () => {
  it('refuses a name another provider already has, case and Unicode form aside, storing nothing', async () => {
    expect(await svc(addArgs())).toBe(0);
    const first = out.pop()!;
    for (const name of ['France Identité', 'FRANCE IDENTITÉ', 'France Identite\u0301']) {
      err = [];
      expect(await svc(addWith('--name', name))).toBe(2);
      expect(err[0]!.split('\n')[0]).toMatch(
        new RegExp(
          `^svc providers add: --name ".*" is already the name of ${first}; visitors could not tell them apart$`,
        ),
      );
    }
    expect(await storedProviders()).toHaveLength(1);
    expect(await svc(addWith('--name', 'France Identité 2'))).toBe(0);
    expect(await storedProviders()).toHaveLength(2);
  });
});

describe('svc providers list', () => {
  it('lists providers in a table and as JSON, never with a secret or key', async () => {
    expect(await svc(addArgs())).toBe(0);
    const first = out.pop()!;
    clock.advance(1_000);
    const other = addWith('--name', 'Bank ID');
    other[other.indexOf('--proves') + 1] = 'isAdult';
    expect(await svc(other)).toBe(0);
    const second = out.pop()!;
    expect(await svc(['disable', second])).toBe(0);
    out = [];

    expect(await svc(['list'])).toBe(0);
    expect(out[0]).toMatch(/^PROVIDER ID\s+NAME\s+ISSUER\s+METHOD\s+PROVES\s+ENABLED$/);
    expect(out[1]).toMatch(
      new RegExp(
        `^${first}\\s+France Identité\\s+${escapeRegExp(issuer('good'))}\\s+face_check\\s+isAdult,isFrench\\s+yes$`,
      ),
    );
    expect(out[2]).toMatch(
      new RegExp(`^${second}\\s+Bank ID\\s+${escapeRegExp(issuer('good'))}\\s+face_check\\s+isAdult\\s+no$`),
    );
    // Columns line up.
    for (const row of out.slice(1)) expect(row.indexOf('http')).toBe(out[0]!.indexOf('ISSUER'));
    expect(out.join('\n')).not.toContain(SECRET);

    out = [];
    expect(await svc(['list', '--json'])).toBe(0);
    const listed = JSON.parse(out[0]!) as Record<string, unknown>[];
    expect(listed).toEqual([
      {
        id: first,
        issuer: issuer('good'),
        client_id: 'svc-prod',
        client_auth: 'client_secret_basic',
        name: 'France Identité',
        method: 'face_check',
        proves: ['isAdult', 'isFrench'],
        enabled: true,
        created_at: new Date(clock.now() - 1_000).toISOString(),
      },
      expect.objectContaining({ id: second, enabled: false }),
    ]);
    expect(out[0]).not.toContain(SECRET);
  });

  it('escapes control characters of a provider row written around the CLI, in the table and in JSON', async () => {
    const { store } = await openServiceStore(loadConfig(env('production'), REPO_ROOT));
    try {
      await store.putProvider({
        id: 'idp_forged',
        issuer: 'https://id.example/\u001b]8;;https://evil.example\u0007',
        clientId: 'svc\nprod',
        clientAuth: 'client_secret_basic',
        credential: SECRET,
        name: 'A\u001b[31mRED\u009b2J',
        method: 'face_check',
        proves: ['isAdult'],
        enabled: true,
        createdAt: clock.now(),
      });
    } finally {
      await store.close();
    }
    expect(await svc(['list'])).toBe(0);
    expect(out).toHaveLength(2);
    for (const line of out) expect(line).not.toMatch(/\p{Cc}/u);
    expect(out[1]).toContain('A\\u001b[31mRED\\u009b2J');
    out = [];
    expect(await svc(['list', '--json'])).toBe(0);
    expect(out[0]).not.toMatch(/\p{Cc}/u);
    expect(JSON.parse(out[0]!)[0]).toMatchObject({ name: 'A\u001b[31mRED\u009b2J', client_id: 'svc\nprod' });
  });

  it('says how to add one when there are none, and refuses flags it does not know', async () => {
    expect(await svc(['list'])).toBe(0);
    expect(out.join('\n')).toMatch(/no identity providers yet/);
    expect(await svc(['list', '--all'])).toBe(2);
    expect(err[0]).toMatch(/^svc providers list: unknown flag --all/);
  });

  it('shows the fixture provider in sandbox once the service has booted there', async () => {
    const { buildDeps } = await import('../boot.ts');
    await (await buildDeps(loadConfig(env('sandbox'), REPO_ROOT), { clock })).store.close();
    expect(await svc(['list', '--json'], 'sandbox')).toBe(0);
    const [example] = JSON.parse(out[0]!) as Record<string, unknown>[];
    expect(example).toMatchObject({ id: 'idp_example', issuer: 'http://localhost:8789', client_id: 'svc-sandbox' });
    const secret = (
      JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures', 'providers.json'), 'utf8')) as { client_secret: string }[]
    )[0]!.client_secret;
    expect(out[0]).not.toContain(secret);
  });
});

describe('svc providers disable, enable and remove', () => {
  it('disables and enables a provider, and removes it', async () => {
    expect(await svc(addArgs())).toBe(0);
    const id = out.pop()!;
    expect(await svc(['disable', id])).toBe(0);
    expect(out.pop()).toBe(`${id} is disabled: it is no longer offered to visitors.`);
    expect((await storedProviders())[0]).toMatchObject({ id, enabled: false, credential: SECRET });
    expect(await svc(['enable', id])).toBe(0);
    expect(out.pop()).toBe(`${id} is enabled.`);
    expect((await storedProviders())[0]).toMatchObject({ id, enabled: true });
    expect(await svc(['remove', id])).toBe(0);
    expect(out.pop()).toBe(`${id} is removed.`);
    expect(await storedProviders()).toEqual([]);
  });

  it('refuses an unknown id with exit code 1, and a missing or extra argument with exit code 2', async () => {
    for (const sub of ['disable', 'enable', 'remove']) {
      err = [];
      expect(await svc([sub, 'idp_nobody'])).toBe(1);
      expect(err).toEqual([`svc providers ${sub}: no provider "idp_nobody"`]);
      expect(await svc([sub])).toBe(2);
      expect(await svc([sub, 'idp_a', 'idp_b'])).toBe(2);
      expect(await svc([sub, '--force'])).toBe(2);
    }
    expect(out).toEqual([]);
  });

  it('notes in sandbox that the fixture provider comes back at the next boot', async () => {
    const { buildDeps } = await import('../boot.ts');
    await (await buildDeps(loadConfig(env('sandbox'), REPO_ROOT), { clock })).store.close();
    expect(await svc(['disable', 'idp_example'], 'sandbox')).toBe(0);
    expect(out.pop()).toMatch(/fixture providers are reloaded from fixtures\/providers\.json at every sandbox boot/);
    expect(await svc(['remove', 'idp_example'], 'sandbox')).toBe(0);
    await (await buildDeps(loadConfig(env('sandbox'), REPO_ROOT), { clock })).store.close();
    expect((await storedProviders('sandbox')).map((p) => [p.id, p.enabled])).toEqual([['idp_example', true]]);
  });

  it('prints its usage for help, and refuses an unknown subcommand', async () => {
    expect(await svc([])).toBe(0);
    expect(out.join('\n')).toMatch(/^Usage:\n {2}svc providers add --issuer/);
    expect(await svc(['rename', 'idp_x'])).toBe(2);
    expect(err[0]).toMatch(/^svc providers: unknown subcommand "rename"/);
  });
});
