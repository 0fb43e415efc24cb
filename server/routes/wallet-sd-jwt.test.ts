/**
 * The SD-JWT VC PID and status lists through the HTTP surface (design.md §15), on a real app that
 * listens (the verifier fetches the sandbox's status list from it over HTTP): an [isAdult, isFrench]
 * request completes with the SD-JWT PID through the openid4vp:// link and the Digital Credentials
 * API; each forged input is refused with 400 and the request still waiting; revoked and suspended
 * credentials (SD-JWT and mdoc) are refused; SVC_WALLET_STATUS decides what an unreachable list
 * means. The birth date never reaches the store, a log line or an answer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeClock } from '../clock.ts';
import { createIssuerCertificates, loadSandboxIssuer } from '../sandbox/wallet/sandbox-issuer.ts';
import { issuePidSdJwt, personaPidClaims, presentPidSdJwt } from '../sandbox/wallet/sandbox-sd-jwt.ts';
import {
  createStatusListToken,
  SANDBOX_STATUS_LIST_PATH,
  SANDBOX_SUSPENDED_INDEX,
} from '../sandbox/wallet/sandbox-status-list.ts';
import { createDcApiCredential, createDirectPost, type PresentOptions } from '../sandbox/wallet/sandbox-wallet.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { Store } from '../store/store.ts';
import { createEcJwk } from '../wallet/keys.ts';
import { STATUS_MEDIA_TYPE } from '../wallet/trust/status-list.ts';
import { makeTempDir, makeTestApp, signedInject, type TestApp } from '../test/helpers.ts';
import { personaOf } from '../test/personas.ts';
import { PARTNER_ORIGIN, pollStatus, startStandardFlow, type Flow } from '../test/verify-flow.ts';
import { freePort } from '../test/free-port.ts';

const issuer = loadSandboxIssuer();
// fr-adult-f's birth date: what must never leave the verifier.
const BIRTH_DATE = '1998-07-02';

let t: TestApp | undefined;
let logLines: string[] = [];
let side: Server | undefined;
const temp = makeTempDir('svc-sd-jwt-');

afterEach(async () => {
  vi.restoreAllMocks();
  await t?.close();
  t = undefined;
  logLines = [];
  await new Promise<void>((resolve) => (side ? side.close(() => resolve()) : resolve()));
  side = undefined;
});
afterAll(() => temp.remove());

/** A port free a moment ago, for an app that must know its URL before it listens. */

/**
 * A sandbox app listening on loopback at its SVC_APP_URL, so that it fetches its own status list
 * (the one loopback list a sandbox reaches: createStatusFetcher's `ownLists`); `statusList` its
 * URI. `appUrl` puts the service's URL elsewhere (a list beside it then stands in for its own).
 */
async function walletApp(options: { env?: Record<string, string>; store?: Store; appUrl?: string } = {}) {
  const port = await freePort();
  const appUrl = options.appUrl ?? `http://127.0.0.1:${port}`;
  t = await makeTestApp({
    clock: createFakeClock(Date.now()),
    ...(options.store ? { store: options.store } : {}),
    env: { SVC_APP_URL: appUrl, ...options.env },
    log: { lines: logLines, level: 'debug' },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { statusList: `${appUrl}${SANDBOX_STATUS_LIST_PATH}` };
}

/** A status list server beside the app at the sandbox list's path, answering `token(uri)`; counts its fetches. */
async function startSideList(token: (uri: string) => Promise<string>): Promise<{ uri: string; hits: () => number }> {
  let hits = 0;
  side = createServer((request, response) => {
    hits++;
    const { port } = side!.address() as AddressInfo;
    void token(`http://127.0.0.1:${port}${request.url}`).then((body) =>
      response.writeHead(200, { 'content-type': STATUS_MEDIA_TYPE }).end(body),
    );
  });
  await new Promise<void>((resolve) => side!.listen(0, '127.0.0.1', resolve));
  const { port } = side.address() as AddressInfo;
  return { uri: `http://127.0.0.1:${port}${SANDBOX_STATUS_LIST_PATH}`, hits: () => hits };
}

function persona(id = 'fr-adult-f') {
  return personaOf(id);
}

async function frenchFlow(): Promise<Flow> {
  return startStandardFlow(t!, { scopes: ['isAdult', 'isFrench'], client_proof_mode: true });
}

type Options = Partial<Pick<PresentOptions, 'credential' | 'tamper' | 'revoked' | 'statusList'>>;

function presentOptions(options: Options): PresentOptions {
  return { issuer, persona: persona(), now: t!.clock.now(), credential: 'pid-sd-jwt', ...options };
}

function postForm(responseUri: string, body: string) {
  return t!.app.inject({
    method: 'POST',
    url: new URL(responseUri).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: body,
  });
}

async function presentByLink(flow: Flow, options: Options = {}) {
  const { responseUri, body } = await createDirectPost({ link: flow.created.wallet_link!, ...presentOptions(options) });
  return postForm(responseUri, body);
}

async function presentByDcApi(flow: Flow, options: Options = {}) {
  const dcRequest = flow.created.dc_requests!.find((request) => request.protocol === 'openid4vp-v1-unsigned')!;
  const credential = await createDcApiCredential({ dcRequest, origin: PARTNER_ORIGIN, ...presentOptions(options) });
  return t!.app.inject({
    method: 'POST',
    url: `/api/w/wallet-response/${flow.requestId}?pt=${flow.pollToken}`,
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_ORIGIN },
    payload: JSON.stringify(credential),
  });
}

/** An SD-JWT PID at `status` presented over the link with `audience` (default: the link's client id). */
async function presentHandMade(flow: Flow, input: { status?: { idx: number; uri: string }; audience?: string }) {
  const link = new URLSearchParams(flow.created.wallet_link!.split('?')[1]);
  const holderKey = createEcJwk();
  const now = t!.clock.now();
  const credential = await issuePidSdJwt({
    issuer,
    holderKey,
    claims: personaPidClaims(persona(), now),
    now,
    ...(input.status ? { status: input.status } : {}),
  });
  const presentation = await presentPidSdJwt({
    credential,
    holderKey,
    disclose: ['birthdate', 'nationalities'],
    nonce: link.get('nonce')!,
    audience: input.audience ?? link.get('client_id')!,
    now,
  });
  const body = new URLSearchParams({ vp_token: JSON.stringify({ pid_sd: [presentation] }), state: link.get('state')! });
  return postForm(link.get('response_uri')!, body.toString());
}

function refusal(): Record<string, unknown> | undefined {
  const refused = logLines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === 'wallet response refused');
  return refused[refused.length - 1];
}

async function expectRefused(
  flow: Flow,
  res: { statusCode: number; json(): unknown },
  check: string,
  description?: string,
): Promise<void> {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({
    error: 'invalid_request',
    ...(description ? { error_description: description } : {}),
  });
  expect(refusal()).toMatchObject({ requestId: flow.requestId, check });
  expect((await pollStatus(t!, flow)).status).toBe('pending');
}

async function exchanged(flow: Flow): Promise<Record<string, unknown>> {
  const status = await pollStatus(t!, flow);
  expect(status.status).toBe('completed');
  const { grant_code } = status.result as { grant_code: string };
  return (await signedInject(t!, { url: '/v1/exchange', body: { grant_code } })).json();
}

describe('the SD-JWT VC PID completes [isAdult, isFrench] (design.md §15)', () => {
  it('offers it in the link and over the DC API after the mdoc PID and the mDL, with its algorithms', async () => {
    await walletApp();
    const flow = await frenchFlow();
    const query = JSON.parse(new URLSearchParams(flow.created.wallet_link!.split('?')[1]).get('dcql_query')!);
    expect(query.credential_sets).toEqual([{ options: [['pid'], ['mdl'], ['pid_sd']] }]);
    expect(query.credentials[2]).toMatchObject({
      id: 'pid_sd',
      format: 'dc+sd-jwt',
      meta: { vct_values: ['urn:eudi:pid:1'] },
    });
    const oid4vp = flow.created.dc_requests!.find((r) => r.protocol === 'openid4vp-v1-unsigned')!;
    expect(oid4vp.data).toMatchObject({
      dcql_query: query,
      client_metadata: {
        vp_formats_supported: { 'dc+sd-jwt': { 'sd-jwt_alg_values': ['ES256'], 'kb-jwt_alg_values': ['ES256'] } },
      },
    });
  });

  it.each([
    ['the openid4vp:// link', presentByLink],
    ['the DC API (openid4vp-v1-unsigned)', presentByDcApi],
  ])('completes through %s, its status fetched from the sandbox list', async (_label, present) => {
    const { statusList } = await walletApp();
    const flow = await frenchFlow();
    const res = await present(flow, { statusList });
    expect(res.statusCode, res.body).toBe(200);
    const exchange = await exchanged(flow);
    expect(exchange.attributes).toEqual({ age_over_18: true, is_french: true });
  });

  it('serves the sandbox status list as application/statuslist+jwt, its sub the URL fetched', async () => {
    const { statusList } = await walletApp();
    const res = await fetch(statusList);
    expect(res.headers.get('content-type')).toBe(STATUS_MEDIA_TYPE);
    const payload = JSON.parse(Buffer.from((await res.text()).split('.')[1]!, 'base64url').toString('utf8'));
    expect(payload).toMatchObject({ sub: statusList, status_list: { bits: 2 } });
  });
});

describe('forged SD-JWT PIDs are refused, the request still waiting', () => {
  it('refuses a KB-JWT for another audience (client id) over the link', async () => {
    const { statusList } = await walletApp();
    const flow = await frenchFlow();
    await expectRefused(flow, await presentByLink(flow, { statusList, tamper: 'client-id' }), 'key_binding');
    expect(refusal()).toMatchObject({ detail: 'the key binding JWT is for another audience' });
    expect((await presentByLink(flow, { statusList })).statusCode).toBe(200);
  });

  it('refuses a KB-JWT for another origin over the DC API', async () => {
    const { statusList } = await walletApp();
    const flow = await frenchFlow();
    await expectRefused(flow, await presentByDcApi(flow, { statusList, tamper: 'origin' }), 'key_binding');
  });

  it('refuses over the link a presentation made for the DC API (aud origin:<page origin>)', async () => {
    await walletApp();
    const flow = await frenchFlow();
    await expectRefused(flow, await presentHandMade(flow, { audience: `origin:${PARTNER_ORIGIN}` }), 'key_binding');
  });

  it('refuses a KB-JWT over another nonce', async () => {
    const { statusList } = await walletApp();
    const flow = await frenchFlow();
    await expectRefused(flow, await presentByLink(flow, { statusList, tamper: 'nonce' }), 'key_binding');
    expect(refusal()).toMatchObject({ detail: 'the key binding JWT is for another nonce' });
  });

  it('refuses a PID issued under a key no trusted root signs', async () => {
    const { statusList } = await walletApp();
    const flow = await frenchFlow();
    await expectRefused(flow, await presentByLink(flow, { statusList, tamper: 'untrusted-issuer' }), 'trust_chain');
  });
});

describe('status lists (SVC_WALLET_STATUS, design.md §15)', () => {
  it('refuses a revoked SD-JWT PID with "credential revoked", over the link and the DC API', async () => {
    const { statusList } = await walletApp();
    const flow = await frenchFlow();
    const revoked = await presentByLink(flow, { statusList, credential: 'pid-sd-jwt-revoked' });
    await expectRefused(flow, revoked, 'status', 'credential revoked');
    await expectRefused(
      flow,
      await presentByDcApi(flow, { statusList, revoked: true }),
      'status',
      'credential revoked',
    );
    expect((await presentByLink(flow, { statusList })).statusCode).toBe(200);
  });

  it('refuses a suspended SD-JWT PID with "credential suspended"', async () => {
    const { statusList } = await walletApp();
    const flow = await frenchFlow();
    const res = await presentHandMade(flow, { status: { idx: SANDBOX_SUSPENDED_INDEX, uri: statusList } });
    await expectRefused(flow, res, 'status', 'credential suspended');
  });

  it('refuses a revoked mdoc PID (its MSO status) through the link and the DC API', async () => {
    const { statusList } = await walletApp();
    const flow = await frenchFlow();
    const options = { statusList, credential: 'pid-no-age', revoked: true } as const;
    await expectRefused(flow, await presentByLink(flow, options), 'status', 'credential revoked');
    await expectRefused(flow, await presentByDcApi(flow, options), 'status', 'credential revoked');
    const valid = await presentByLink(flow, { ...options, revoked: false });
    expect(valid.statusCode, valid.body).toBe(200);
  });

  it('refuses a credential whose status list token is signed by an untrusted key, under prefer too', async () => {
    const stranger = await createIssuerCertificates({
      name: 'Stranger',
      country: 'XX',
      notBefore: new Date(Date.now() - 86_400_000),
      notAfter: new Date(Date.now() + 86_400_000),
    });
    const list = await startSideList((uri) => createStatusListToken({ issuer: stranger, uri, now: Date.now() }));
    await walletApp({ appUrl: new URL(list.uri).origin });
    const flow = await frenchFlow();
    await expectRefused(
      flow,
      await presentByLink(flow, { statusList: list.uri }),
      'status',
      'credential status is not valid',
    );
    expect(refusal()).toMatchObject({ detail: 'the DS certificate does not chain to a trusted IACA' });
  });

  it('require: an unreachable list refuses with "status unavailable"; prefer accepts with one log line', async () => {
    // The service's own list, on a port where nothing listens.
    const closed = `http://127.0.0.1:9${SANDBOX_STATUS_LIST_PATH}`;
    await walletApp({ env: { SVC_WALLET_STATUS: 'require' }, appUrl: 'http://127.0.0.1:9' });
    const flow = await frenchFlow();
    await expectRefused(flow, await presentByLink(flow, { statusList: closed }), 'status', 'status unavailable');
    await t!.close();
    t = undefined;

    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await walletApp({ appUrl: 'http://127.0.0.1:9' });
    const preferred = await frenchFlow();
    expect((await presentByLink(preferred, { statusList: closed })).statusCode).toBe(200);
    expect(warnings.mock.calls.map(([line]) => String(line))).toEqual([
      'svc: status list at http://127.0.0.1:9 unreachable (the status list could not be reached); accepted under the prefer policy',
    ]);
  });

  it('off: never fetches, so even a revoked entry is accepted', async () => {
    await walletApp({ env: { SVC_WALLET_STATUS: 'off' } });
    const list = await startSideList((uri) => createStatusListToken({ issuer, uri, now: Date.now() }));
    const flow = await frenchFlow();
    expect((await presentByLink(flow, { statusList: list.uri, revoked: true })).statusCode).toBe(200);
    expect(list.hits()).toBe(0);
  });

  it('never fetches a status URI on its own host but its own list: a forged one is unreachable, not probed', async () => {
    // A list beside the service on loopback (another of its host's ports) that would say revoked.
    const list = await startSideList((uri) => createStatusListToken({ issuer, uri, now: Date.now() }));
    await walletApp({ env: { SVC_WALLET_STATUS: 'require' } });
    const flow = await frenchFlow();
    const forged = await presentByLink(flow, { statusList: list.uri, revoked: true });
    await expectRefused(flow, forged, 'status', 'status unavailable');
    expect(refusal()).toMatchObject({ detail: 'the status list URI is not a public https address' });
    expect(list.hits()).toBe(0);
    expect(
      (await presentByLink(flow, { statusList: `http://127.0.0.1:6379${SANDBOX_STATUS_LIST_PATH}` })).statusCode,
    ).toBe(400);
    expect(list.hits()).toBe(0);
  });

  it('refuses an unknown SVC_WALLET_STATUS at boot', async () => {
    await expect(walletApp({ env: { SVC_WALLET_STATUS: 'sometimes' } })).rejects.toThrow(
      'SVC_WALLET_STATUS must be one of prefer, require, off, got "sometimes"',
    );
  });
});

describe('the SD-JWT PID’s birth date is never stored, logged or returned (design.md §8, §15)', () => {
  it('in a SQLite file, the logs and every answer', async () => {
    const file = join(temp.path, 'store.sqlite');
    const { statusList } = await walletApp({ store: openSqliteStore(file) });
    const answers: string[] = [];
    for (const present of [presentByLink, presentByDcApi]) {
      const flow = await frenchFlow();
      const res = await present(flow, { statusList });
      expect(res.statusCode).toBe(200);
      const exchange = await exchanged(flow);
      answers.push(res.body, JSON.stringify(exchange));
      const { pass_token } = exchange as { pass_token: string };
      answers.push((await signedInject(t!, { url: '/v1/introspect', body: { pass_token } })).body);
    }
    // The presentations carry it: the search would find it there.
    const { body } = await createDirectPost({
      link: (await frenchFlow()).created.wallet_link!,
      ...presentOptions({ statusList }),
    });
    const vp = (JSON.parse(new URLSearchParams(body).get('vp_token')!) as { pid_sd: [string] }).pid_sd[0];
    expect(vp.split('~').some((d) => Buffer.from(d, 'base64url').toString('utf8').includes(BIRTH_DATE))).toBe(true);
    await t!.close();
    t = undefined;
    expect(logLines.length).toBeGreaterThan(10);
    const files = readdirSync(temp.path).filter((name) => name.startsWith('store.sqlite'));
    expect(files).toContain('store.sqlite');
    for (const haystack of [
      ...answers,
      logLines.join('\n'),
      ...files.map((name) => readFileSync(join(temp.path, name))),
    ])
      for (const needle of [BIRTH_DATE, '19980702', 'birthdate'])
        expect(Buffer.from(haystack).includes(needle), needle).toBe(false);
  });
});
