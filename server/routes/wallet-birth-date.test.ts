/**
 * isAdult from a birth date through the HTTP surface (design.md §15): a PID as rulebook 1.1 issues
 * it (birth_date and nationality, no age_over_18) answers an [isAdult, isFrench] request through
 * the link and both Digital Credentials API protocols, and the date never leaves the verifier —
 * not into the store (a SQLite file, a Redis append-only file: every write it ever took), not into
 * a log line, not into an answer. Forged birth dates are refused with the request still waiting.
 */
import { DateOnly } from '@owf/mdoc';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../clock.ts';
import { loadSandboxIssuer } from '../sandbox/wallet/sandbox-issuer.ts';
import { createDcApiCredential, createDirectPost, type PresentOptions } from '../sandbox/wallet/sandbox-wallet.ts';
import { openRedisStore } from '../store/redis.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { Store } from '../store/store.ts';
import { makeTempDir, makeTestApp, signedInject, type TestApp } from '../test/helpers.ts';
import { personaOf } from '../test/personas.ts';
import { startRedisServer, type RedisServer } from '../test/redis-server.ts';
import { PARTNER_ORIGIN, pollStatus, startStandardFlow, type Flow } from '../test/verify-flow.ts';

const issuer = loadSandboxIssuer();
// fr-adult-f's birth date, and how else it could be written down.
const BIRTH_DATE = '1998-07-02';
const SPELLINGS = ['1998-07-02', '19980702', '02/07/1998', '07/02/1998', '1998-7-2', '2.7.1998', 'Jul 02 1998'];
// The CBOR of the issued element value: tag 1004 (d9 03ec), a 10-byte text (6a), the date.
const CBOR_HEX = 'd903ec6a' + Buffer.from(BIRTH_DATE).toString('hex');

let t: TestApp | undefined;
let logLines: string[] = [];
const temp = makeTempDir('svc-birth-date-');
let redis: RedisServer | undefined;

afterEach(async () => {
  await t?.close();
  t = undefined;
  logLines = [];
});
afterAll(async () => {
  await redis?.remove();
  temp.remove();
});

async function walletApp(store?: Store): Promise<TestApp> {
  return makeTestApp({
    clock: createFakeClock(Date.now()),
    ...(store ? { store } : {}),
    log: { lines: logLines, level: 'debug' },
  });
}

async function frenchFlow(): Promise<Flow> {
  return startStandardFlow(t!, { scopes: ['isAdult', 'isFrench'], client_proof_mode: true });
}

type Options = Partial<Pick<PresentOptions, 'credential' | 'elements' | 'discloseAll'>> & { persona?: string };

function presentOptions(options: Options): PresentOptions {
  return {
    issuer,
    persona: personaOf(options.persona ?? 'fr-adult-f'),
    now: t!.clock.now(),
    credential: options.credential ?? 'pid-no-age',
    ...(options.elements ? { elements: options.elements } : {}),
    ...(options.discloseAll ? { discloseAll: true } : {}),
  };
}

async function presentByLink(flow: Flow, options: Options = {}) {
  const { responseUri, body } = await createDirectPost({ link: flow.created.wallet_link!, ...presentOptions(options) });
  return t!.app.inject({
    method: 'POST',
    url: new URL(responseUri).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: body,
  });
}

async function presentByDcApi(flow: Flow, protocol: 'org-iso-mdoc' | 'openid4vp-v1-unsigned', options: Options = {}) {
  const dcRequest = flow.created.dc_requests!.find((request) => request.protocol === protocol)!;
  const credential = await createDcApiCredential({ dcRequest, origin: PARTNER_ORIGIN, ...presentOptions(options) });
  return t!.app.inject({
    method: 'POST',
    url: `/api/w/wallet-response/${flow.requestId}?pt=${flow.pollToken}`,
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_ORIGIN },
    payload: JSON.stringify(credential),
  });
}

async function exchanged(flow: Flow): Promise<{ statusAnswer: unknown; exchange: Record<string, unknown> }> {
  const status = await pollStatus(t!, flow);
  expect(status.status).toBe('completed');
  const { grant_code } = status.result as { grant_code: string };
  const exchange = (await signedInject(t!, { url: '/v1/exchange', body: { grant_code } })).json();
  return { statusAnswer: status, exchange };
}

function refusal(): Record<string, unknown> | undefined {
  return logLines.map((line) => JSON.parse(line)).find((line) => line.msg === 'wallet response refused');
}

/** Every file under a folder, as bytes. */
function filesUnder(dir: string): Buffer[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [readFileSync(path)];
  });
}

/** The date in every spelling and as CBOR; with `names`, not even the element's name. */
function expectNoBirthDate(haystacks: readonly (string | Buffer)[], where: string, names = true) {
  for (const haystack of haystacks) {
    const bytes = Buffer.isBuffer(haystack) ? haystack : Buffer.from(haystack);
    for (const spelling of SPELLINGS) expect(bytes.includes(spelling), `${where}: ${spelling}`).toBe(false);
    expect(bytes.includes(Buffer.from(CBOR_HEX, 'hex')), `${where}: CBOR`).toBe(false);
    expect(bytes.toString('latin1').toLowerCase().includes(CBOR_HEX), `${where}: CBOR hex`).toBe(false);
    if (names) expect(bytes.includes('birth_date'), `${where}: birth_date`).toBe(false);
  }
}

describe('an mdoc PID without age_over_18 proves isAdult from its birth date (design.md §15)', () => {
  it('issues the sandbox PID without age_over_18: birth date as a full-date, nationality, and nothing about age', async () => {
    t = await walletApp();
    const { personaElements, SANDBOX_CREDENTIALS } = await import('../sandbox/wallet/sandbox-wallet.ts');
    const elements = personaElements(
      'pid',
      personaOf('fr-adult-f'),
      t.clock.now(),
      SANDBOX_CREDENTIALS['pid-no-age'].elements,
    );
    expect(Object.keys(elements).sort()).toEqual(['birth_date', 'nationality']);
    expect(elements.birth_date).toBeInstanceOf(DateOnly);
    expect(String(elements.birth_date)).toBe(BIRTH_DATE);
  });

  it.each([
    ['the openid4vp:// link', (flow: Flow) => presentByLink(flow)],
    ['the DC API (openid4vp-v1-unsigned)', (flow: Flow) => presentByDcApi(flow, 'openid4vp-v1-unsigned')],
    ['the DC API (org-iso-mdoc, alternativeDataElements)', (flow: Flow) => presentByDcApi(flow, 'org-iso-mdoc')],
  ])('completes [isAdult, isFrench] through %s with age_over_18 and is_french true', async (_label, present) => {
    t = await walletApp();
    const flow = await frenchFlow();
    const res = await present(flow);
    expect(res.statusCode, res.body).toBe(200);
    const { exchange } = await exchanged(flow);
    expect(exchange).toMatchObject({
      scopes: ['isAdult', 'isFrench'],
      attributes: { age_over_18: true, is_french: true },
    });
    expect(Object.keys(exchange.attributes as object).sort()).toEqual(['age_over_18', 'is_french']);
  });

  it('completes an mDL answering with its birth date alone (its age_over_18 left out by the issuer)', async () => {
    t = await walletApp();
    const flow = await frenchFlow();
    const res = await presentByLink(flow, { credential: 'mdl', elements: { age_over_18: undefined } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await exchanged(flow)).exchange.attributes).toEqual({ age_over_18: true, is_french: true });
  });

  it('still prefers age_over_18: a PID holding both discloses only age_over_18 and nationality', async () => {
    t = await walletApp();
    const flow = await frenchFlow();
    const { body } = await createDirectPost({
      link: flow.created.wallet_link!,
      ...presentOptions({ credential: 'pid' }),
    });
    const vpToken = JSON.parse(new URLSearchParams(body).get('vp_token')!) as { pid: [string] };
    const bytes = Buffer.from(vpToken.pid[0], 'base64url');
    expect(bytes.includes('age_over_18')).toBe(true);
    expect(bytes.includes('birth_date')).toBe(false);
  });

  it('fails a minor’s PID as not adult (never age_over_18 true), turns-18-today passes, turns-18-tomorrow does not', async () => {
    t = await walletApp();
    for (const [persona, status] of [
      ['fr-minor', 'failed'],
      ['turns-18-tomorrow', 'failed'],
      ['turns-18-today', 'completed'],
    ] as const) {
      const flow = await frenchFlow();
      expect((await presentByLink(flow, { persona })).statusCode).toBe(200);
      expect(await pollStatus(t, flow), persona).toMatchObject({
        status,
        ...(status === 'failed' ? { reason: 'failed' } : {}),
      });
    }
  });

  it.each([
    ['a birth_date that is not a date (29 February of a common year, as text)', { birth_date: '2007-02-29' }, false],
    ['a birth_date that is a number', { birth_date: 19980702 }, false],
    ['a birth_date that is a date-time in the afternoon', { birth_date: new Date('1998-07-02T15:00:00Z') }, false],
    ['age_over_18 false beside an adult birth date', { age_over_18: false }, true],
  ] as const)('refuses %s with 400 (elements), the request still waiting', async (_label, elements, discloseAll) => {
    t = await walletApp();
    const flow = await frenchFlow();
    const res = await presentByLink(flow, {
      credential: 'pid',
      elements: { ...elements, ...(discloseAll ? {} : { age_over_18: undefined }) },
      discloseAll,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request' });
    expect(refusal()).toMatchObject({ requestId: flow.requestId, check: 'elements' });
    expect((await pollStatus(t, flow)).status).toBe('pending');
    expect((await presentByLink(flow)).statusCode).toBe(200);
  });

  it('refuses a full-date that is no date (tag 1004 over 2007-02-29) with 400, the request still waiting', async () => {
    t = await walletApp();
    const flow = await frenchFlow();
    // The library's DateOnly cannot hold 2007-02-29 (it rolls over to 1 March): an issuer's encoder could.
    const forged = Object.assign(new DateOnly(), { date: { toISOString: () => '2007-02-29T00:00:00.000Z' } });
    const res = await presentByLink(flow, { elements: { birth_date: forged } });
    expect(res.statusCode).toBe(400);
    // Decoded, it reads as 2007-03-01 and re-encodes so: the digest no longer matches (docs/wallets.md#where-the-libraries-stop, gap 12).
    expect(refusal()).toMatchObject({ requestId: flow.requestId, check: 'digests' });
    expect((await pollStatus(t, flow)).status).toBe('pending');
  });
});

describe('the birth date is never stored, logged or returned (design.md §8, §15)', () => {
  it('looks for what a presentation really carries: the CBOR full-date of the birth date', async () => {
    t = await walletApp();
    const flow = await frenchFlow();
    const { body } = await createDirectPost({ link: flow.created.wallet_link!, ...presentOptions({}) });
    const vpToken = JSON.parse(new URLSearchParams(body).get('vp_token')!) as { pid: [string] };
    const presented = Buffer.from(vpToken.pid[0], 'base64url');
    expect(presented.includes(Buffer.from(CBOR_HEX, 'hex'))).toBe(true);
    expect(() => expectNoBirthDate([presented], 'presentation')).toThrow();
  });

  async function completeAll(): Promise<string[]> {
    const answers: string[] = [];
    for (const present of [
      (flow: Flow) => presentByLink(flow),
      (flow: Flow) => presentByDcApi(flow, 'openid4vp-v1-unsigned'),
      (flow: Flow) => presentByDcApi(flow, 'org-iso-mdoc'),
      // a wallet that over-shares: the birth date beside age_over_18
      (flow: Flow) => presentByLink(flow, { credential: 'pid', discloseAll: true }),
    ]) {
      const flow = await frenchFlow();
      const res = await present(flow);
      expect(res.statusCode).toBe(200);
      answers.push(res.body, JSON.stringify(flow.created));
      const { statusAnswer, exchange } = await exchanged(flow);
      answers.push(JSON.stringify(statusAnswer), JSON.stringify(exchange));
      const { pass_token } = exchange as { pass_token: string };
      answers.push((await signedInject(t!, { url: '/v1/introspect', body: { pass_token } })).body);
    }
    return answers;
  }

  it('in a SQLite file, the logs and every answer', async () => {
    const file = join(temp.path, 'store.sqlite');
    t = await walletApp(openSqliteStore(file));
    const answers = await completeAll();
    await t.close();
    t = undefined;
    expect(logLines.length).toBeGreaterThan(10);
    // The create answer names birth_date in its DCQL query: the answers are searched for the date only.
    expectNoBirthDate(answers, 'answers', false);
    expectNoBirthDate([logLines.join('\n')], 'logs');
    const files = readdirSync(temp.path).filter((name) => name.startsWith('store.sqlite'));
    expect(files).toContain('store.sqlite');
    expectNoBirthDate(
      files.map((name) => readFileSync(join(temp.path, name))),
      'SQLite',
    );
  });

  it('in Redis: its append-only file holds every write the store made', async () => {
    redis = await startRedisServer({ appendOnly: true });
    t = await walletApp(await openRedisStore({ url: redis.url, prefix: 'bd:', notice: () => {} }));
    const answers = await completeAll();
    await t.close();
    t = undefined;
    const aof = filesUnder(redis.dir);
    expect(Buffer.concat(aof).includes('bd:')).toBe(true);
    expectNoBirthDate(aof, 'Redis AOF');
    expectNoBirthDate(answers, 'answers', false);
    expectNoBirthDate([logLines.join('\n')], 'logs');
  });
});
