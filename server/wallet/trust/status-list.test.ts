import { StatusList } from '@sd-jwt/jwt-status-list';
import { SubjectAlternativeNameExtension, X509CertificateGenerator } from '@peculiar/x509';
import { createPrivateKey, webcrypto } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import draft from '../../../fixtures/status-list/draft-examples.json' with { type: 'json' };
import { createIssuerCertificates } from '../../sandbox/wallet/sandbox-issuer.ts';
import {
  createStatusListToken,
  SANDBOX_REVOKED_INDEX,
  SANDBOX_SUSPENDED_INDEX,
} from '../../sandbox/wallet/sandbox-status-list.ts';
import {
  createStatusChecker,
  createStatusFetcher,
  inflateList,
  isPublicAddress,
  readStatus,
  type StatusFetcher,
  type StatusPolicy,
  StatusUnreachableError,
  STATUS_MAX_BYTES,
  verifyStatusListToken,
} from './status-list.ts';
import { readCertificate, spkiSha256 } from './certificates.ts';
import { createEcJwk, toPublicEcJwk } from '../keys.ts';
import { decodeDeviceResponse, readMsoStatus } from '../formats/device-response.ts';
import replayVector from '../../../fixtures/wallet/replay-vector.json' with { type: 'json' };
import { MobileSecurityObject } from '@owf/mdoc';
import { MINUTE_MS, NOW, sandboxIssuer, sandboxTrust } from '../test-helpers.ts';

const anchors = sandboxTrust.anchors.map((anchor) => anchor.certificate);
type Bits = 1 | 2 | 4 | 8;

describe('the Token Status List draft’s examples (known answers)', () => {
  it('inflates the two short examples to the byte arrays the draft shows, and reads every entry', () => {
    for (const example of draft.short) {
      const bytes = inflateList(example.lst)!;
      expect(Buffer.from(bytes).toString('hex'), example.name).toBe(example.bytes);
      for (const [idx, value] of example.entries)
        expect(readStatus(bytes, example.bits as Bits, idx!), `${example.name} [${idx}]`).toBe(value);
      expect(readStatus(bytes, example.bits as Bits, example.size), 'past the end').toBeNull();
    }
  });

  it('encodes the short examples to the draft’s lst with @sd-jwt/jwt-status-list (the sandbox’s encoder)', () => {
    for (const example of draft.short) {
      const values = Array.from({ length: example.size }, (_, i) => example.entries.find(([j]) => j === i)?.[1] ?? 0);
      expect(new StatusList(values, example.bits as Bits).compressStatusList(), example.name).toBe(example.lst);
    }
  });

  for (const vector of draft.long) {
    it(`reads the ${vector.name} (2^20 entries): every listed value, and 0 beside each`, () => {
      const bits = vector.bits as Bits;
      const bytes = inflateList(vector.lst)!;
      expect(bytes.length).toBe((vector.size * bits) / 8);
      const listed = new Map(vector.entries.map(([idx, value]) => [idx!, value!]));
      for (const [idx, value] of listed) {
        expect(readStatus(bytes, bits, idx), `[${idx}]`).toBe(value);
        for (const beside of [idx - 1, idx + 1])
          if (beside >= 0 && beside < vector.size && !listed.has(beside))
            expect(readStatus(bytes, bits, beside), `[${beside}]`).toBe(0);
      }
      expect(readStatus(bytes, bits, vector.size)).toBeNull();
    });
  }

  // The library decodes all 2^20 entries through strings (about 1.3 s each here): one vector is enough.
  it('agrees with @sd-jwt/jwt-status-list’s decoder on the 1-bit test vector (gap 23)', () => {
    for (const vector of draft.long.filter((v) => v.bits === 1)) {
      const library = StatusList.decompressStatusList(vector.lst, vector.bits as Bits);
      const bytes = inflateList(vector.lst)!;
      for (const [idx] of vector.entries)
        expect(readStatus(bytes, vector.bits as Bits, idx!)).toBe(library.getStatus(idx!));
    }
  });

  it('reads the draft’s Status List Token example: bits 1 and the 16-entry list', () => {
    const payload = JSON.parse(Buffer.from(draft.jwt.raw.split('.')[1]!, 'base64url').toString()) as {
      status_list: { bits: number; lst: string };
      sub: string;
    };
    expect(payload.sub).toBe('https://example.com/statuslists/1');
    expect(payload.status_list).toEqual({ bits: 1, lst: draft.short[0]!.lst });
  });

  it('gap 23: the library’s StatusList lets a value of 2^bits through its range check', () => {
    expect(() => new StatusList([2], 1)).not.toThrow();
    expect(() => new StatusList([3], 1)).toThrow();
  });

  it('refuses a list that inflates past the limit instead of inflating it (gap 23)', async () => {
    const { deflateSync } = await import('node:zlib');
    const bomb = deflateSync(Buffer.alloc(17 * 1024 * 1024), { level: 9 }).toString('base64url');
    expect(bomb.length).toBeLessThan(STATUS_MAX_BYTES);
    expect(inflateList(bomb)).toBeNull();
  });
});

const URI_PATH = '/sandbox/status/1';

/** A real HTTP server on 127.0.0.1 whose answer each test sets; it counts the requests. */
let server: Server;
let base: string;
let answer: (response: ServerResponse) => void;
let hits = 0;
let acceptHeaders: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    hits++;
    acceptHeaders.push(request.headers.accept);
    answer(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  hits = 0;
  acceptHeaders = [];
  vi.useRealTimers();
  server.closeAllConnections();
});

const serve = (token: string) => (response: ServerResponse) => {
  response.writeHead(200, { 'content-type': 'application/statuslist+jwt' });
  response.end(token);
};

function checker(policy: StatusPolicy, options: { fetch?: StatusFetcher; clock?: () => number } = {}) {
  const lines: string[] = [];
  const status = createStatusChecker({
    policy,
    anchors,
    fetch: options.fetch ?? createStatusFetcher({ ownLists: [`${base}${URI_PATH}`] }),
    clock: options.clock ?? (() => NOW),
    log: (line) => lines.push(line),
  });
  return { status, lines };
}

describe('createStatusChecker against a real HTTP server (a sandbox’s own list)', () => {
  let uri: string;
  beforeAll(async () => {
    uri = `${base}${URI_PATH}`;
    answer = serve(await createStatusListToken({ issuer: sandboxIssuer, uri, now: NOW }));
  });

  it('accepts a valid entry, fetching with Accept: application/statuslist+jwt', async () => {
    const { status } = checker('prefer');
    expect(await status.check({ idx: 0, uri })).toEqual({ ok: true, value: 0 });
    expect(acceptHeaders).toEqual(['application/statuslist+jwt']);
  });

  it('refuses a revoked and a suspended entry under every policy but off', async () => {
    for (const policy of ['prefer', 'require'] as const) {
      const { status } = checker(policy);
      expect(await status.check({ idx: SANDBOX_REVOKED_INDEX, uri })).toEqual({
        ok: false,
        detail: 'credential revoked',
        cause: null,
      });
      expect(await status.check({ idx: SANDBOX_SUSPENDED_INDEX, uri })).toEqual({
        ok: false,
        detail: 'credential suspended',
        cause: null,
      });
    }
    const { status } = checker('off');
    expect(await status.check({ idx: SANDBOX_REVOKED_INDEX, uri })).toEqual({ ok: true, value: null });
  });

  it('refuses an index past the end of the list', async () => {
    expect(await checker('prefer').status.check({ idx: 1_000_000, uri })).toEqual({
      ok: false,
      detail: 'credential status is not valid',
      cause: 'the index is outside the status list',
    });
  });

  it('makes one fetch for concurrent checks of one URI, then serves from the cache until iat + ttl', async () => {
    let now = NOW;
    const { status } = checker('require', { clock: () => now });
    const results = await Promise.all([0, SANDBOX_REVOKED_INDEX, 0, 3].map((idx) => status.check({ idx, uri })));
    expect(results.map((r) => r.ok)).toEqual([true, false, true, true]);
    expect(hits).toBe(1);
    now += 4 * MINUTE_MS; // the sandbox list's ttl is 5 minutes
    await status.check({ idx: 0, uri });
    expect(hits).toBe(1);
    now += 2 * MINUTE_MS;
    await status.check({ idx: 0, uri });
    expect(hits).toBe(2);
  });

  it('keeps a list at most one hour whatever its ttl says', async () => {
    const token = await createStatusListToken({ issuer: sandboxIssuer, uri, now: NOW, ttlSeconds: 86_400 });
    const verified = verifyStatusListToken(token, uri, anchors, NOW);
    expect(verified).toMatchObject({ keepUntil: NOW + 60 * MINUTE_MS });
  });
});

describe('Status List Tokens that do not verify, each refused with its reason', () => {
  const uri = 'https://issuer.example/status/1';
  const check = (token: string, now = NOW) => verifyStatusListToken(token, uri, anchors, now);

  it('refuses a token signed under a root outside the trust bundle', async () => {
    const stranger = await createIssuerCertificates({
      name: 'Stranger',
      country: 'XX',
      notBefore: new Date(NOW - 60 * MINUTE_MS),
      notAfter: new Date(NOW + 60 * MINUTE_MS),
    });
    expect(check(await createStatusListToken({ issuer: stranger, uri, now: NOW }))).toBe(
      'the DS certificate does not chain to a trusted IACA',
    );
  });

  it('refuses in production a token signed by a key whose private half is public (the sandbox DS)', async () => {
    const token = await createStatusListToken({ issuer: sandboxIssuer, uri, now: NOW });
    const refusedKeys = [spkiSha256(readCertificate(sandboxIssuer.x5chain[0]!)!)];
    expect(verifyStatusListToken(token, uri, anchors, NOW, refusedKeys)).toBe(
      'a certificate on the path carries a key whose private half is public',
    );
  });

  it('refuses a token for another sub', async () => {
    const token = await createStatusListToken({ issuer: sandboxIssuer, uri, now: NOW, sub: `${uri}0` });
    expect(check(token)).toBe('the status list token is for another sub');
  });

  it('refuses another typ, an expired token and a changed payload', async () => {
    expect(check(await createStatusListToken({ issuer: sandboxIssuer, uri, now: NOW, typ: 'JWT' }))).toBe(
      'the status list token typ is not statuslist+jwt',
    );
    const token = await createStatusListToken({ issuer: sandboxIssuer, uri, now: NOW, validitySeconds: 60 });
    expect(check(token, NOW + 7 * MINUTE_MS)).toBe('the status list token has expired');
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const changed = Buffer.from(JSON.stringify({ ...payload, exp: 9_999_999_999 })).toString('base64url');
    expect(check(`${h}.${changed}.${s}`)).toBe('the status list token signature does not verify');
  });

  it('refuses a served token for another sub under prefer too: a list that answers is never skipped', async () => {
    const served = `${base}${URI_PATH}`;
    answer = serve(await createStatusListToken({ issuer: sandboxIssuer, uri: served, now: NOW, sub: 'https://x/1' }));
    expect(await checker('prefer').status.check({ idx: 0, uri: served })).toEqual({
      ok: false,
      detail: 'credential status is not valid',
      cause: 'the status list token is for another sub',
    });
  });
});

describe('an unreachable status list, by policy', () => {
  it('prefer: accepts with one log line that names neither the index nor the path; require: refuses', async () => {
    answer = (response) => {
      response.writeHead(503);
      response.end();
    };
    const uri = `${base}${URI_PATH}?credential=42`;
    const { status, lines } = checker('prefer');
    expect(await status.check({ idx: 4242, uri })).toEqual({ ok: true, value: null });
    expect(lines).toEqual([
      `status list at ${base} unreachable (the status list answered with an HTTP error); accepted under the prefer policy`,
    ]);
    expect(lines.join()).not.toMatch(/4242|credential=|sandbox\/status/);
    expect(await checker('require').status.check({ idx: 4242, uri })).toEqual({
      ok: false,
      detail: 'status unavailable',
      cause: 'the status list answered with an HTTP error',
    });
  });
});

describe('createStatusFetcher: the hardened fetch', () => {
  const reasonOf = async (promise: Promise<string>): Promise<string> => {
    try {
      await promise;
      return 'fetched';
    } catch (error) {
      return error instanceof StatusUnreachableError ? error.reason : `threw ${String(error)}`;
    }
  };

  it('gives up on a status list that does not answer within 3 s', async () => {
    answer = () => {}; // never answers
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const pending = reasonOf(createStatusFetcher({ ownLists: [`${base}${URI_PATH}`] })(`${base}${URI_PATH}`));
    await vi.advanceTimersByTimeAsync(2999);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toBe('the status list did not answer within 3 s');
  });

  it('refuses an answer over 1 MB, with or without a Content-Length', async () => {
    const fetchList = createStatusFetcher({ ownLists: [`${base}${URI_PATH}`] });
    answer = (response) => {
      response.writeHead(200, { 'content-length': String(STATUS_MAX_BYTES + 1) });
      response.end(Buffer.alloc(STATUS_MAX_BYTES + 1, 0x61));
    };
    expect(await reasonOf(fetchList(`${base}${URI_PATH}`))).toBe('the status list answer is larger than 1 MB');
    answer = (response) => {
      response.writeHead(200); // chunked
      for (let i = 0; i < 17; i++) response.write(Buffer.alloc(64 * 1024, 0x61));
      response.end();
    };
    expect(await reasonOf(fetchList(`${base}${URI_PATH}`))).toBe('the status list answer is larger than 1 MB');
  });

  it('refuses in production a URI on a loopback, private or plain-http address, without connecting', async () => {
    answer = serve('never read');
    const production = createStatusFetcher();
    for (const uri of [
      `${base}${URI_PATH}`,
      'https://127.0.0.1/status/1',
      'https://10.0.0.8/status/1',
      'https://[::1]/status/1',
      'https://[::ffff:192.168.1.1]/status/1',
      'https://[fd00::1]/status/1',
      'http://93.184.215.14/status/1',
    ])
      expect(await reasonOf(production(uri)), uri).toBe('the status list URI is not a public https address');
    expect(hits).toBe(0);
  });

  it('refuses in production a name that resolves to a private address, even beside a public one', async () => {
    const resolving =
      (...addresses: string[]) =>
      () =>
        Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
    for (const addresses of [['10.1.2.3'], ['93.184.215.14', '169.254.169.254'], ['fe80::1'], ['::ffff:127.0.0.1']]) {
      const production = createStatusFetcher({ resolve: resolving(...addresses) });
      expect(await reasonOf(production('https://status.issuer.example/1')), addresses.join()).toBe(
        'the status list URI is not a public https address',
      );
    }
  });

  it('connects to the address it checked, not to a second resolution (no DNS rebinding)', async () => {
    answer = serve('the token');
    let resolutions = 0;
    // A sandbox's own list may be on loopback: the name resolves once to 127.0.0.1, and the socket goes there.
    const port = new URL(base).port;
    const fetchList = createStatusFetcher({
      ownLists: [`http://status.rebinding.invalid:${port}${URI_PATH}`],
      resolve: () => {
        resolutions++;
        return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
      },
    });
    expect(await fetchList(`http://status.rebinding.invalid:${port}${URI_PATH}`)).toBe('the token');
    expect(resolutions).toBe(1);
  });

  it('speaks TLS to the checked address with the certificate checked against the host name', async () => {
    const key = createEcJwk();
    const keys = {
      privateKey: await webcrypto.subtle.importKey('jwk', { ...key }, { name: 'ECDSA', namedCurve: 'P-256' }, true, [
        'sign',
      ]),
      publicKey: await webcrypto.subtle.importKey(
        'jwk',
        toPublicEcJwk(key),
        { name: 'ECDSA', namedCurve: 'P-256' },
        true,
        ['verify'],
      ),
    };
    const certificate = await X509CertificateGenerator.createSelfSigned({
      serialNumber: '01',
      name: 'CN=status.test',
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + 3_600_000),
      keys,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      extensions: [new SubjectAlternativeNameExtension([{ type: 'dns', value: 'status.test' }])],
    });
    const pem = certificate.toString('pem');
    const tlsServer = createHttpsServer(
      { cert: pem, key: createPrivateKey({ key: { ...key }, format: 'jwk' }).export({ type: 'pkcs8', format: 'pem' }) },
      (_request, response) => response.end('the token over TLS'),
    );
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    const port = (tlsServer.address() as AddressInfo).port;
    try {
      const resolve = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
      const ownLists = [`https://status.test:${port}/1`, `https://other.test:${port}/1`];
      const fetchList = createStatusFetcher({ ownLists, resolve, ca: pem });
      expect(await fetchList(`https://status.test:${port}/1`)).toBe('the token over TLS');
      // The same server under another name: the certificate does not match, the fetch fails.
      expect(await reasonOf(fetchList(`https://other.test:${port}/1`))).toBe('the status list could not be reached');
    } finally {
      tlsServer.closeAllConnections();
      await new Promise((resolve) => tlsServer.close(resolve));
    }
  });

  it('judges addresses as public or not', () => {
    for (const address of [
      '93.184.215.14',
      '2606:2800:21f:cb07:6820:80da:af6b:8b2c',
      '::ffff:93.184.215.14',
      '::ffff:5db8:d70e',
      '3fff:1000::1',
    ])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.0.1',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fc00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      // IPv4-compatible (::/96), in each spelling, and IPv4-mapped ones in hex
      '::127.0.0.1',
      '::7f00:1',
      '0:0:0:0:0:0:7f00:1',
      '::a00:1',
      '::5db8:d70e',
      '::ffff:7f00:1',
      '0:0:0:0:0:FFFF:7F00:1',
      // documentation (RFC 9637) and SRv6 SIDs (RFC 9602)
      '3fff::1',
      '3fff:fff:ffff::1',
      '5f00::1',
      'not an address',
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it('refuses IPv4-compatible (::/96) and 3fff::/20 addresses, named or resolved, without connecting', async () => {
    answer = serve('never read');
    const port = new URL(base).port;
    // The test server listens on 127.0.0.1: each URI below is an attempt to reach it or a neighbour.
    for (const uri of [
      `https://[::127.0.0.1]:${port}${URI_PATH}`,
      `https://[::7f00:1]:${port}${URI_PATH}`,
      `https://[0:0:0:0:0:0:127.0.0.1]:${port}${URI_PATH}`,
      `https://[::ffff:7f00:1]:${port}${URI_PATH}`,
      'https://[::10.0.0.8]/status/1',
      'https://[3fff::1]/status/1',
      'https://[3fff:abc::5]/status/1',
    ])
      expect(await reasonOf(createStatusFetcher()(uri)), uri).toBe('the status list URI is not a public https address');
    for (const address of ['::127.0.0.1', '::7f00:1', '3fff::443']) {
      const resolve = () => Promise.resolve([{ address, family: 6 }]);
      expect(await reasonOf(createStatusFetcher({ resolve })('https://status.issuer.example/1')), address).toBe(
        'the status list URI is not a public https address',
      );
    }
    expect(hits).toBe(0);
  });

  it('reaches in sandbox its own list on loopback, and no other loopback URI (a credential cannot make it probe its host)', async () => {
    answer = serve('the own list');
    const own = `${base}${URI_PATH}`;
    const fetchList = createStatusFetcher({ ownLists: [own] });
    expect(await fetchList(`${own}?idx=3`)).toBe('the own list');
    expect(hits).toBe(1);
    const port = new URL(base).port;
    for (const uri of [
      `${base}/sandbox/status/2`,
      `${base}/`,
      `https://127.0.0.1:${port}${URI_PATH}`,
      `http://127.0.0.2:${port}${URI_PATH}`,
      `http://[::1]:${port}${URI_PATH}`,
      `http://[::ffff:127.0.0.1]:${port}${URI_PATH}`,
      `http://127.0.0.1:6379${URI_PATH}`,
      `http://localhost:${port}${URI_PATH}`,
    ])
      expect(await reasonOf(fetchList(uri)), uri).toBe('the status list URI is not a public https address');
    // A name that resolves to loopback is no way round it.
    const resolving = createStatusFetcher({
      ownLists: [own],
      resolve: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
    });
    expect(await reasonOf(resolving(`http://status.issuer.example:${port}${URI_PATH}`))).toBe(
      'the status list URI is not a public https address',
    );
    expect(hits).toBe(1);
  });
});

describe('an mdoc MSO’s status (ISO/IEC 18013-5 second edition; library gap 25)', () => {
  const mso = decodeDeviceResponse(new Uint8Array(Buffer.from(replayVector.device_response, 'base64url')))
    .documents![0]!.issuerSigned.issuerAuth.mobileSecurityObject;
  const withStatus = (status: unknown) =>
    MobileSecurityObject.fromEncodedStructure(
      new Map([...(mso.encodedStructure as Map<unknown, unknown>), ['status', status]]),
    );

  it('reads status.status_list {idx, uri} from the MSO, null when it has none', () => {
    expect(readMsoStatus(mso)).toBeNull();
    const list = new Map<string, unknown>([
      ['idx', 412],
      ['uri', 'https://pid.example/status/3'],
    ]);
    expect(readMsoStatus(withStatus(new Map([['status_list', list]])))).toEqual({
      idx: 412,
      uri: 'https://pid.example/status/3',
    });
  });

  it('calls a status_list without a whole-number idx or a string uri malformed', () => {
    for (const list of [
      new Map<string, unknown>([
        ['idx', -1],
        ['uri', 'https://x/1'],
      ]),
      new Map<string, unknown>([
        ['idx', 1.5],
        ['uri', 'https://x/1'],
      ]),
      new Map<string, unknown>([['idx', 1]]),
    ])
      expect(readMsoStatus(withStatus(new Map([['status_list', list]])))).toBe('malformed');
    expect(readMsoStatus(withStatus('revoked'))).toBe('malformed');
  });
});
