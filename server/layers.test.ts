/**
 * The server's rooms and what each may import (docs/development.md, "The house"), read from every source file
 * (tests and test support aside) with the TypeScript compiler's own parser: value, type-only and
 * dynamic imports, and re-exports, alike. Every room states its rule as data, below; an import
 * outside its room's list is an arrow up the house and fails, and so does a file in a room no rule
 * names. On top of the lists:
 * - routes/ parse and answer: from store/ at most the interface's types, and no store call of their
 *   own (`deps.store.getX(…)`): use cases do that, in domain/;
 * - every room reaches domain/ through its face, domain/index.ts, never a file beside it (the HTTP
 *   edge, sandbox/, cli/, boot.ts alike);
 * - a package that is one room's job is imported there only: the telemetry API by telemetry/, the QR
 *   encoder by rules/ (so domain/ holds use cases, not metrics, spans or QR codes);
 * - domain/ and http/ reach the store through its interface (store/store.ts) only, and outside
 *   store/ nothing names a store implementation (store/open.ts chooses one);
 * - sandbox/ is what production never runs: only the CLI and test support import it, and the app
 *   wiring (app.ts, boot.ts) loads it with `import()` in sandbox mode only;
 * - wallet/ has rooms of its own, by what a wallet answer goes through (WALLET_ROOMS), and one face:
 *   outside wallet/ only the sandbox wallet and issuer import past wallet/index.ts;
 * - no import cycle among files, type-only imports included.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SERVER_DIR = dirname(fileURLToPath(import.meta.url));

/** The wire contract the browser shares (src/protocol/), the one room outside server/ it may import. */
const PROTOCOL = 'protocol';

/**
 * Each room and the rooms it may import, bottom of the house first. A room is a folder of server/
 * or one of its top-level files.
 */
export const ROOMS: Readonly<Record<string, readonly string[]>> = {
  // the ground: the contract and what everything leans on
  [PROTOCOL]: [],
  'errors.ts': [PROTOCOL],
  'clock.ts': [],
  'paths.ts': [],
  // pure rules beneath everything: facts from claims, country codes, URLs, a request's status at a
  // time; and what an answer prints: printable text, nearest names, the loader's warnings, QR codes
  rules: [PROTOCOL],
  // the partner SDK ships alone: nothing of the service
  sdk: [],
  crypto: [PROTOCOL, 'errors.ts', 'clock.ts'],
  store: [PROTOCOL, 'errors.ts', 'clock.ts', 'rules', 'crypto'],
  limits: [PROTOCOL, 'errors.ts', 'clock.ts', 'store'],
  'config.ts': [PROTOCOL, 'errors.ts', 'paths.ts', 'rules', 'crypto', 'limits'],
  'mode.ts': ['errors.ts', 'config.ts', 'store'],
  telemetry: [PROTOCOL, 'errors.ts', 'clock.ts', 'rules', 'config.ts', 'store', 'limits'],
  // the two verifiers, side by side: neither imports the other
  // (wallet/ reads the store's types of the material it keeps, nothing else of it)
  wallet: [PROTOCOL, 'errors.ts', 'clock.ts', 'paths.ts', 'rules', 'crypto', 'store', 'config.ts', 'telemetry'],
  providers: [PROTOCOL, 'errors.ts', 'clock.ts', 'rules', 'crypto', 'config.ts', 'telemetry'],
  // what the composition root hands every use case
  'deps.ts': [PROTOCOL, 'clock.ts', 'config.ts', 'crypto', 'store', 'limits', 'telemetry', 'wallet', 'providers'],
  domain: [
    PROTOCOL,
    'errors.ts',
    'clock.ts',
    'rules',
    'crypto',
    'store',
    'limits',
    'config.ts',
    'telemetry',
    'wallet',
    'providers',
    'deps.ts',
  ],
  // the HTTP edge
  auth: [PROTOCOL, 'errors.ts', 'sdk', 'store', 'limits', 'deps.ts', 'domain'],
  http: [PROTOCOL, 'errors.ts', 'config.ts', 'store', 'limits', 'telemetry', 'deps.ts', 'domain'],
  routes: [
    PROTOCOL,
    'errors.ts',
    'paths.ts',
    'rules',
    'config.ts',
    'sdk',
    'store',
    'limits',
    'telemetry',
    'wallet',
    'deps.ts',
    'domain',
    'auth',
    'http',
  ],
  // composition: the app, its boot, what production never runs, the entry points
  'app.ts': [PROTOCOL, 'errors.ts', 'deps.ts', 'limits', 'telemetry', 'auth', 'http', 'routes', 'sandbox'],
  'boot.ts': [
    PROTOCOL,
    'errors.ts',
    'clock.ts',
    'rules',
    'crypto',
    'store',
    'limits',
    'config.ts',
    'mode.ts',
    'telemetry',
    'wallet',
    'providers',
    'deps.ts',
    'domain',
    'sandbox',
  ],
  sandbox: [
    PROTOCOL,
    'errors.ts',
    'clock.ts',
    'paths.ts',
    'rules',
    'crypto',
    'store',
    'config.ts',
    'telemetry',
    'wallet',
    'providers',
    'deps.ts',
    'domain',
    'http',
    'routes',
  ],
  'main.ts': [PROTOCOL, 'errors.ts', 'config.ts', 'store', 'telemetry', 'wallet', 'app.ts', 'boot.ts'],
  cli: [
    PROTOCOL,
    'errors.ts',
    'clock.ts',
    'rules',
    'crypto',
    'store',
    'config.ts',
    'providers',
    'wallet',
    'domain',
    'boot.ts',
    'sandbox',
  ],
  'cli.ts': ['cli', 'main.ts'],
  'example-partner': [PROTOCOL, 'sdk'],
};

/**
 * wallet/'s rooms, by what a wallet answer goes through (docs/development.md, "The wallet's rooms"), and the
 * rooms of wallet/ each may import, bottom first; what each may import outside wallet/ is wallet's rule
 * above. A room is a folder of wallet/ or one of its top-level files.
 */
export const WALLET_ROOMS: Readonly<Record<string, readonly string[]>> = {
  // the ground: base64url and EC keys, the profile's constants
  'keys.ts': [],
  'profile.ts': [],
  // trust anchors, certificates, issuer chains, JWT issuer keys, status lists
  trust: ['keys.ts', 'profile.ts'],
  // the credential formats: the credentials and their queries, mdoc, SD-JWT, the session transcripts
  formats: ['keys.ts', 'profile.ts', 'trust'],
  // the request: link, request object, DC API requests, signing with the access certificate
  request: ['keys.ts', 'profile.ts', 'trust', 'formats'],
  // the answer: one entry per path (direct_post, DC API), its opening (JWE, HPKE), its presentation checked
  answer: ['keys.ts', 'profile.ts', 'trust', 'formats', 'request'],
  // the two entries the routes call: the request's state, then the answer's path
  'verify.ts': ['answer'],
  // the face: what the rest of the server may use
  'index.ts': ['keys.ts', 'profile.ts', 'trust', 'formats', 'request', 'answer', 'verify.ts'],
};

const WALLET_FACE = 'wallet/index.ts';
/**
 * Outside wallet/, what may import past its face: the sandbox wallet and issuer, which play the other
 * side of the protocol with the verifier's own encoders (transcripts, HPKE and JWE sealing, keys).
 */
const PAST_WALLET_FACE = ['sandbox/wallet/'];

/** The room inside wallet/ of a path relative to server/: "wallet/answer/jwe.ts" → "answer". */
export function walletRoomOf(path: string): string {
  const inside = path.slice('wallet/'.length);
  return inside.includes('/') ? inside.slice(0, inside.indexOf('/')) : inside;
}

/** Code that only tests run, though it does not end in .test.ts: checked as tests are, not as its room. */
const TEST_SUPPORT = ['test/', 'wallet/test-helpers.ts', 'routes/openapi-client.calls.ts'];

interface SourceFile {
  /** relative to server/, with forward slashes: "routes/widget.ts" */
  path: string;
  source: string;
}

interface Import {
  /** relative to server/ for a relative specifier ("store/store.ts", "../src/…"), the package name otherwise */
  target: string;
  typeOnly: boolean;
  /** an `import('…')` expression, loaded when the code runs, not when the module is */
  dynamic: boolean;
}

const parsedImports = new Map<string, Import[]>();

/** Every import, re-export and `import()` of a file, as the TypeScript parser reads them (parsed once). */
export function importsOf(file: SourceFile): Import[] {
  const key = `${file.path}\0${file.source}`;
  const known = parsedImports.get(key);
  if (known) return known;
  const found = parseImports(file);
  parsedImports.set(key, found);
  return found;
}

function parseImports(file: SourceFile): Import[] {
  const resolve = (specifier: string): string =>
    specifier.startsWith('.') ? posix.normalize(posix.join(posix.dirname(file.path), specifier)) : specifier;
  const parsed = ts.createSourceFile(file.path, file.source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: Import[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings : null;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name && !!named && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)));
      found.push({ target: resolve(node.moduleSpecifier.text), typeOnly, dynamic: false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause : null;
      const typeOnly =
        node.isTypeOnly || (!!named && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly));
      found.push({ target: resolve(node.moduleSpecifier.text), typeOnly, dynamic: false });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ target: resolve(node.arguments[0].text), typeOnly: false, dynamic: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(parsed);
  return found;
}

const under = (path: string, folder: string): boolean => path.startsWith(`${folder}/`);

/** The room of a path relative to server/: its first folder, the file itself at the top, `protocol` for src/protocol/. */
export function roomOf(path: string): string {
  if (path.startsWith('../src/protocol/')) return PROTOCOL;
  if (path.startsWith('../')) return path.split('/').slice(0, 3).join('/');
  return path.includes('/') ? path.slice(0, path.indexOf('/')) : path;
}

const isFastify = (target: string): boolean => target === 'fastify' || target.startsWith('@fastify/');
const STORE_INTERFACE = 'store/store.ts';
/** What outside store/ may import from it: the interface, the opener and the wrapper over any store. */
const STORE_AGNOSTIC = [STORE_INTERFACE, 'store/open.ts', 'store/sealed.ts', 'store/restored.ts'];
/** What may load sandbox/ only with a dynamic import(), in sandbox mode: the app wiring. */
const APP_WIRING = ['app.ts', 'boot.ts'];
const STORE_CALL = /\bdeps\.store\.\w+\s*\(/;
/** Every room calls domain/ through its face only (domain/index.ts): the use cases, never their inside. */
const DOMAIN_FACE = 'domain/index.ts';
/** Packages that are one room's job, and that room: no other imports them. */
const PACKAGE_HOMES: ReadonlyArray<readonly [prefix: string, room: string]> = [
  ['@opentelemetry/', 'telemetry'],
  ['qrcode-generator', 'rules'],
];
/** Rooms that may know the store's record types but never call it: routes answer, the wallet verifies. */
const TYPES_OF_STORE_ONLY = ['routes', 'wallet'];

/** Every import against the house, one line each. */
export function findLayerViolations(files: readonly SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    const say = (what: string): number => violations.push(`${file.path}: ${what}`);
    const room = roomOf(file.path);
    const allowed = ROOMS[room];
    if (!allowed) {
      say(`room ${room} has no rule in ROOMS`);
      continue;
    }
    const walletRoom = room === 'wallet' ? walletRoomOf(file.path) : null;
    const walletAllowed = walletRoom === null ? [] : WALLET_ROOMS[walletRoom];
    if (walletAllowed === undefined) say(`wallet room ${walletRoom} has no rule in WALLET_ROOMS`);
    for (const { target, typeOnly, dynamic } of importsOf(file)) {
      if (isFastify(target)) {
        if (room === 'domain') say(`domain/ imports ${target}`);
        continue;
      }
      for (const [prefix, home] of PACKAGE_HOMES)
        if (target.startsWith(prefix) && room !== home) say(`${target} is ${home}/'s job, not ${room}'s`);
      if (!isLocal(target)) continue;
      const to = roomOf(target);
      if (to !== room && !allowed.includes(to)) say(`${room} may not import ${to} (${target})`);
      if (walletRoom !== null && walletAllowed && to === 'wallet') {
        const inner = walletRoomOf(target);
        if (inner !== walletRoom && !walletAllowed.includes(inner))
          say(`wallet/${walletRoom} may not import wallet/${inner} (${target})`);
      }
      if (
        to === 'wallet' &&
        room !== 'wallet' &&
        target !== WALLET_FACE &&
        !PAST_WALLET_FACE.some((p) => file.path.startsWith(p))
      )
        say(`reaches inside wallet/ (${target}): import it through ${WALLET_FACE}`);
      if (to === 'sandbox' && APP_WIRING.includes(file.path) && !dynamic)
        say(`imports ${target} statically (load sandbox/ with import() in sandbox mode only)`);
      if (TYPES_OF_STORE_ONLY.includes(room) && under(target, 'store') && !(target === STORE_INTERFACE && typeOnly))
        say(`${room === 'routes' ? 'a route' : `${room}/`} imports ${target} (only types from ${STORE_INTERFACE})`);
      if (room !== 'domain' && under(target, 'domain') && target !== DOMAIN_FACE)
        say(`${room} reaches inside domain/ (${target}): call its use cases through ${DOMAIN_FACE}`);
      if ((room === 'domain' || room === 'http') && under(target, 'store') && target !== STORE_INTERFACE)
        say(`${room}/ imports ${target} (only ${STORE_INTERFACE})`);
      if (room !== 'store' && under(target, 'store') && !STORE_AGNOSTIC.includes(target))
        say(`imports the store implementation ${target} (open stores through store/open.ts)`);
    }
    if (room === 'routes' && STORE_CALL.test(file.source))
      say('a route calls the store itself (move it into a domain/ use case)');
  }
  return violations;
}

/** A file of this repository (server/, src/, fixtures/), not a package: local specifiers name their extension. */
function isLocal(target: string): boolean {
  return target.endsWith('.ts') || target.endsWith('.tsx') || target.endsWith('.json') || target.startsWith('../');
}

/** Import cycles among the files, type-only imports included, each as the files around it. */
export function findImportCycles(files: readonly SourceFile[]): string[][] {
  const paths = new Set(files.map((f) => f.path));
  const edges = new Map(
    files.map((f) => [
      f.path,
      importsOf(f)
        .filter((i) => !i.dynamic && paths.has(i.target))
        .map((i) => i.target),
    ]),
  );
  const cycles: string[][] = [];
  const done = new Set<string>();
  function visit(path: string, trail: string[]): void {
    const start = trail.indexOf(path);
    if (start !== -1) return void cycles.push(trail.slice(start));
    if (done.has(path)) return;
    for (const next of edges.get(path) ?? []) visit(next, [...trail, path]);
    done.add(path);
  }
  for (const file of files) visit(file.path, []);
  return cycles;
}

/** src/'s files (the browser side), tests aside, paths relative to the repository: "src/widget/main.ts". */
function readBrowserSources(dir: string = join(SERVER_DIR, '..', 'src')): SourceFile[] {
  const files: SourceFile[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...readBrowserSources(full));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
      files.push({
        path: relative(join(SERVER_DIR, '..'), full).split('\\').join('/'),
        source: readFileSync(full, 'utf8'),
      });
  }
  return files;
}

/** A locale's copy imports the Copy type from the index that lists every locale: the one circle allowed. */
const isLocaleCopyCycle = (cycle: readonly string[]): boolean =>
  cycle.every((path) => /\/copy\/[a-z-]+\.ts$/.test(path));

export function readSources(dir: string = SERVER_DIR): SourceFile[] {
  const files: SourceFile[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'public') files.push(...readSources(full));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.contract.ts')) {
      files.push({ path: relative(SERVER_DIR, full).split('\\').join('/'), source: readFileSync(full, 'utf8') });
    }
  }
  return files.filter((f) => !TEST_SUPPORT.some((support) => f.path === support || f.path.startsWith(support)));
}

describe('the house (server/)', () => {
  it('every room imports only the rooms its rule lists, and every room has a rule', () => {
    const files = readSources();
    expect(files.filter((f) => under(f.path, 'routes')).length).toBeGreaterThan(5);
    expect(new Set(files.map((f) => roomOf(f.path)))).toEqual(
      new Set(Object.keys(ROOMS).filter((room) => room !== PROTOCOL)),
    );
    expect(findLayerViolations(files)).toEqual([]);
  });

  it('wallet/ is in rooms by what an answer goes through, every room with a rule, each entry importing few', () => {
    const wallet = readSources().filter((f) => under(f.path, 'wallet'));
    expect(new Set(wallet.map((f) => walletRoomOf(f.path)))).toEqual(new Set(Object.keys(WALLET_ROOMS)));
    // one entry per answer path, in answer/, behind the two entries of verify.ts
    const verify = wallet.find((f) => f.path === 'wallet/verify.ts')!;
    expect(
      importsOf(verify)
        .filter((i) => i.target.startsWith('wallet/'))
        .map((i) => i.target)
        .sort(),
    ).toEqual([
      'wallet/answer/dc-api.ts',
      'wallet/answer/direct-post.ts',
      'wallet/answer/presentation.ts',
      'wallet/answer/verdict.ts',
    ]);
  });

  it('has no import cycle, type-only imports included; src/ none outside the locale copies', () => {
    expect(findImportCycles(readSources())).toEqual([]);
    const browserSources = readBrowserSources();
    expect(browserSources.length).toBeGreaterThan(50); // the browser files were read
    expect(findImportCycles(browserSources).filter((cycle) => !isLocaleCopyCycle(cycle))).toEqual([]);
    const cycle = findImportCycles([
      { path: 'config.ts', source: "import { parseMasterKey } from './crypto/master-key.ts';" },
      { path: 'crypto/master-key.ts', source: "import type { Config } from '../config.ts';" },
      { path: 'domain/a.ts', source: "const b = await import('./b.ts');" },
      { path: 'domain/b.ts', source: "import { a } from './a.ts';" },
    ]);
    expect(cycle).toEqual([['config.ts', 'crypto/master-key.ts']]);
  });

  it('names each breach: an arrow up, a route in the store, domain/ or wallet/ past its face, a package astray', () => {
    const violations = findLayerViolations([
      { path: 'routes/a.ts', source: "import { openSqliteStore } from '../store/sqlite.ts';" },
      {
        path: 'routes/b.ts',
        source: "import { getThing } from '../store/store.ts';\nawait deps.store.getPartner(id);",
      },
      {
        path: 'routes/ok.ts',
        source:
          "import type { PartnerRecord } from '../store/store.ts';\nimport { type Store } from '../store/store.ts';",
      },
      {
        path: 'domain/c.ts',
        source: "import type { FastifyRequest } from 'fastify';\nimport {\n  x,\n} from '../routes/widget.ts';",
      },
      { path: 'domain/d.ts', source: "import { openConfiguredStore } from '../store/open.ts';" },
      { path: 'store/e.ts', source: "import type { WalletRequestMaterial } from '../wallet/index.ts';" },
      { path: 'crypto/f.ts', source: "import type { Store } from '../store/store.ts';" },
      { path: 'wallet/formats/g.ts', source: "import { readFacts } from '../../providers/relying-party.ts';" },
      { path: 'wallet/formats/n.ts', source: "import { refuse } from '../answer/verdict.ts';" },
      {
        path: 'wallet/trust/o.ts',
        source: "import type { AccessCertificate } from '../request/access-certificate.ts';",
      },
      { path: 'wallet/verify.ts', source: "import { verifyPidSdJwt } from './formats/sd-jwt.ts';" },
      { path: 'wallet/answer/p.ts', source: "import { createWalletRequest } from '../request/wallet-request.ts';" },
      { path: 'wallet/q.ts', source: "import { AV_CLAIM } from './profile.ts';" },
      { path: 'domain/r.ts', source: "import { verifyDcApiAnswer } from '../wallet/answer/dc-api.ts';" },
      { path: 'sandbox/wallet/s.ts', source: "import { sealDcResponse } from '../../wallet/answer/hpke.ts';" },
      { path: 'sandbox/t.ts', source: "import { createEcJwk } from '../wallet/keys.ts';" },
      { path: 'rules/h.ts', source: "import { ServiceError } from '../errors.ts';" },
      { path: 'providers/i.ts', source: "import { startExampleProvider } from '../sandbox/example-idp/provider.ts';" },
      { path: 'app.ts', source: "import { registerSandboxPhoneRoutes } from './sandbox/phone-routes.ts';" },
      { path: 'boot.ts', source: "const { loadPersonas } = await import('./sandbox/personas.ts');" },
      { path: 'cli/j.ts', source: "import { createDirectPost } from '../sandbox/wallet/sandbox-wallet.ts';" },
      { path: 'jobs/k.ts', source: "import { x } from '../domain/exchange.ts';" },
      { path: 'routes/l.ts', source: "import { settle } from '../domain/verify-requests.ts';" },
      { path: 'routes/m.ts', source: "import { exchangeGrant } from '../domain/index.ts';" },
      { path: 'boot.ts', source: "import { loadPartnerFixtures } from './domain/partners.ts';" },
      { path: 'sandbox/n.ts', source: "import { settle } from '../domain/verify-requests.ts';" },
      { path: 'cli/o.ts', source: "import { loadProviderFixtures } from '../domain/index.ts';" },
      { path: 'domain/p.ts', source: "import { trace } from '@opentelemetry/api';\nimport { x } from './q.ts';" },
      { path: 'routes/r.ts', source: "import qrcode from 'qrcode-generator';" },
      { path: 'telemetry/s.ts', source: "import { trace } from '@opentelemetry/api';" },
    ]);
    expect(violations).toEqual([
      'routes/a.ts: a route imports store/sqlite.ts (only types from store/store.ts)',
      'routes/a.ts: imports the store implementation store/sqlite.ts (open stores through store/open.ts)',
      'routes/b.ts: a route imports store/store.ts (only types from store/store.ts)',
      'routes/b.ts: a route calls the store itself (move it into a domain/ use case)',
      'domain/c.ts: domain/ imports fastify',
      'domain/c.ts: domain may not import routes (routes/widget.ts)',
      'domain/d.ts: domain/ imports store/open.ts (only store/store.ts)',
      'store/e.ts: store may not import wallet (wallet/index.ts)',
      'crypto/f.ts: crypto may not import store (store/store.ts)',
      'wallet/formats/g.ts: wallet may not import providers (providers/relying-party.ts)',
      'wallet/formats/n.ts: wallet/formats may not import wallet/answer (wallet/answer/verdict.ts)',
      'wallet/trust/o.ts: wallet/trust may not import wallet/request (wallet/request/access-certificate.ts)',
      'wallet/verify.ts: wallet/verify.ts may not import wallet/formats (wallet/formats/sd-jwt.ts)',
      'wallet/q.ts: wallet room q.ts has no rule in WALLET_ROOMS',
      'domain/r.ts: reaches inside wallet/ (wallet/answer/dc-api.ts): import it through wallet/index.ts',
      'sandbox/t.ts: reaches inside wallet/ (wallet/keys.ts): import it through wallet/index.ts',
      'rules/h.ts: rules may not import errors.ts (errors.ts)',
      'providers/i.ts: providers may not import sandbox (sandbox/example-idp/provider.ts)',
      'app.ts: imports sandbox/phone-routes.ts statically (load sandbox/ with import() in sandbox mode only)',
      'jobs/k.ts: room jobs has no rule in ROOMS',
      'routes/l.ts: routes reaches inside domain/ (domain/verify-requests.ts): call its use cases through domain/index.ts',
      'boot.ts: boot.ts reaches inside domain/ (domain/partners.ts): call its use cases through domain/index.ts',
      'sandbox/n.ts: sandbox reaches inside domain/ (domain/verify-requests.ts): call its use cases through domain/index.ts',
      "domain/p.ts: @opentelemetry/api is telemetry/'s job, not domain's",
      "routes/r.ts: qrcode-generator is rules/'s job, not routes's",
    ]);
  });
});
