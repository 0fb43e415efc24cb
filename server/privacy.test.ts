/**
 * design.md §8 on the ADULT_BLIND rail, end to end through the real routes: the verifier path (the
 * loader's endpoints, the phone's, the verification request and its log lines) never learns the
 * partner, and the nullifier depends on the person and the blind app only.
 */
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import { verifyAttestation } from './sdk/attestation.ts';
import { openSqliteStore } from './store/sqlite.ts';
import { runBlindFlow } from './test/blind-flow.ts';
import {
  PARTNERS,
  makeTempDir,
  makeTestDeps,
  type FakeClock,
  type TestDeps,
  type TestPartner,
} from './test/helpers.ts';

const SHOP = { ...PARTNERS.blindShop, name: 'Blind Shop', origin: 'http://localhost:8788', appId: 'app_blind_shop' };
const CLUB = { ...PARTNERS.blindClub, name: 'Blind Club', origin: 'http://127.0.0.1:8788', appId: 'app_blind_club' };
/** Tables the billing route writes (it authenticates the partner there, which is its job). */
const BILLING_SIDE_TABLES = new Set(['partners', 'nonces', 'counters']);

let dir: ReturnType<typeof makeTempDir>;
let t: TestDeps;
let app: FastifyInstance;
const logLines: string[] = [];

interface Observed {
  attestation: string;
  sessionToken: string;
  /** every answer the browser or the phone got on the verifier path, headers and body */
  verifierAnswers: string[];
  /** X-SVC-CID (= the log's reqId) of every verifier-path request */
  verifierRequestIds: string[];
}

async function blindFlow(partner: TestPartner & { origin: string }, persona: string): Promise<Observed> {
  const flow = await runBlindFlow({ app, clock: t.clock }, { partner, origin: partner.origin, persona });
  return {
    attestation: flow.attestation,
    sessionToken: flow.sessionToken,
    verifierAnswers: flow.verifierAnswers.map((res) => JSON.stringify(res.headers) + res.body),
    verifierRequestIds: flow.verifierAnswers.map((res) => String(res.headers['x-svc-cid'])),
  };
}

function decodedParts(jws: string): string {
  const [h, p] = jws.split('.');
  return Buffer.from(h!, 'base64url').toString('utf8') + Buffer.from(p!, 'base64url').toString('utf8');
}

function nullifierOf(jws: string): string {
  return JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString('utf8')).nullifier;
}

let shopFirst: Observed;
let shopAgain: Observed;
let club: Observed;
let shopOtherPerson: Observed;

beforeAll(async () => {
  dir = makeTempDir();
  t = await makeTestDeps({ store: openSqliteStore(`${dir.path}/svc.sqlite`) });
  app = await createApp(t.deps, {
    logger: { level: 'trace', stream: { write: (line: string) => void logLines.push(line) } },
  });
  await app.ready();
  shopFirst = await blindFlow(SHOP, 'fr-adult-m');
  (t.clock as FakeClock).advance(1000);
  shopAgain = await blindFlow(SHOP, 'fr-adult-m');
  club = await blindFlow(CLUB, 'fr-adult-m');
  shopOtherPerson = await blindFlow(SHOP, 'de-adult');
});

afterAll(async () => {
  await app.close();
  await t.store.close();
  dir.remove();
});

describe('ADULT_BLIND privacy', () => {
  it('never shows the partner ID or name in an answer of the loader or phone endpoints', () => {
    for (const [observed, partner] of [
      [shopFirst, SHOP],
      [club, CLUB],
    ] as const) {
      expect(observed.verifierAnswers.length).toBeGreaterThanOrEqual(6);
      for (const answer of observed.verifierAnswers) {
        expect(answer).not.toContain(partner.id);
        expect(answer).not.toContain(partner.name);
      }
    }
  });

  it('names the blind app, not the partner, to the phone', () => {
    const opened = shopFirst.verifierAnswers.find((a) => a.includes('audience_label'))!;
    expect(opened).toContain('"audience_label":"app_blind_shop"');
  });

  it('never puts the partner ID into a session token or an attestation', () => {
    for (const observed of [shopFirst, shopAgain, club, shopOtherPerson]) {
      for (const jws of [observed.sessionToken, observed.attestation]) {
        const text = decodedParts(jws);
        expect(text).not.toContain('pk_test_');
        expect(text).not.toMatch(/Blind (Shop|Club)/);
      }
    }
  });

  it('stores no verification-request row that holds the partner ID', () => {
    const db = new Database(`${dir.path}/svc.sqlite`, { readonly: true });
    try {
      const requests = db.prepare('SELECT * FROM requests').all() as Array<Record<string, unknown>>;
      expect(requests).toHaveLength(4);
      for (const row of requests) {
        const text = JSON.stringify(row);
        expect(text).not.toContain(SHOP.id);
        expect(text).not.toContain(CLUB.id);
        expect(JSON.parse(String(row.data)).partnerId).toBeNull();
      }
      // Nothing else the verifier path wrote holds it either (grants, pass tokens, …).
      const tables = (
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
      ).map((r) => r.name);
      for (const table of tables.filter((name) => !BILLING_SIDE_TABLES.has(name))) {
        const text = JSON.stringify(db.prepare(`SELECT * FROM "${table}"`).all());
        expect(text, table).not.toContain(SHOP.id);
        expect(text, table).not.toContain(CLUB.id);
      }
    } finally {
      db.close();
    }
  });

  it('never writes the partner ID into a log line of the verifier path', () => {
    const ids = new Set([shopFirst, shopAgain, club, shopOtherPerson].flatMap((o) => o.verifierRequestIds));
    const verifierLines = logLines.filter((line) => ids.has(JSON.parse(line).reqId));
    expect(verifierLines.length).toBeGreaterThan(ids.size);
    for (const line of verifierLines) {
      expect(line).not.toContain(SHOP.id);
      expect(line).not.toContain(CLUB.id);
    }
  });

  it('never logs a nullifier beside the app or origin', () => {
    for (const observed of [shopFirst, club]) {
      const nullifier = nullifierOf(observed.attestation);
      for (const line of logLines) expect(line).not.toContain(nullifier);
    }
  });

  it('gives the same person the same nullifier on one blind app and another on a different app', () => {
    expect(nullifierOf(shopFirst.attestation)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(nullifierOf(shopAgain.attestation)).toBe(nullifierOf(shopFirst.attestation));
    expect(nullifierOf(club.attestation)).not.toBe(nullifierOf(shopFirst.attestation));
    expect(nullifierOf(shopOtherPerson.attestation)).not.toBe(nullifierOf(shopFirst.attestation));
  });

  it('delivers attestations each partner verifies offline for its own app and origin only', async () => {
    const keys = await t.deps.blind.jwks();
    const now = t.clock.now();
    await expect(
      verifyAttestation(shopFirst.attestation, { appId: SHOP.appId, origin: SHOP.origin, keys, now }),
    ).resolves.toMatchObject({ adult: true, unique: true });
    await expect(
      verifyAttestation(club.attestation, { appId: CLUB.appId, origin: CLUB.origin, keys, now }),
    ).resolves.toMatchObject({ adult: true, unique: true });
    await expect(
      verifyAttestation(club.attestation, { appId: SHOP.appId, origin: SHOP.origin, keys, now }),
    ).rejects.toMatchObject({ code: 'WRONG_APP' });
  });
});
