import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createVerifyRequest } from '../domain/verify-requests.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import { makeTestApp, makeTestDeps, PARTNERS, signedInject, type TestApp } from '../test/helpers.ts';
import { completeOnPhone, openOnPhone } from '../test/verify-flow.ts';
import { createResultReaderKeys, loadResultReaderKeys, RESULT_READER_SECRET } from './result-reader.ts';

describe('result-reader keys', () => {
  it('gives each partner its own stable key, 32 bytes in base64url', () => {
    const keys = createResultReaderKeys(randomBytes(32));
    expect(keys.keyFor('pk_test_demo')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(keys.keyFor('pk_test_demo')).toBe(keys.keyFor('pk_test_demo'));
    expect(keys.keyFor('pk_test_demo')).not.toBe(keys.keyFor('pk_test_other'));
    expect(keys.keysFor('pk_test_demo')).toEqual([keys.keyFor('pk_test_demo')]);
  });

  it('opens with the legacy key second, and never seals with it', () => {
    const legacySecret = randomBytes(32);
    const keys = createResultReaderKeys(randomBytes(32), { legacySecret });
    const legacy = createResultReaderKeys(legacySecret).keyFor('pk_test_demo');
    expect(keys.keysFor('pk_test_demo')).toEqual([keys.keyFor('pk_test_demo'), legacy]);
    expect(keys.keyFor('pk_test_demo')).not.toBe(legacy);
  });

  it('derives from the store secret result_reader_key, created once and kept, not from the nullifier key', async () => {
    const store = openSqliteStore(':memory:');
    try {
      const first = await loadResultReaderKeys(store);
      const again = await loadResultReaderKeys(store);
      expect(again.keyFor('pk_test_demo')).toBe(first.keyFor('pk_test_demo'));
      const secret = await store.getOrCreateSecret(RESULT_READER_SECRET, 'unused');
      expect(Buffer.from(secret, 'base64')).toHaveLength(32);
      expect(createResultReaderKeys(Buffer.from(secret, 'base64')).keyFor('pk_test_demo')).toBe(
        first.keyFor('pk_test_demo'),
      );

      const t = await makeTestDeps({ store });
      expect(t.deps.resultReader.keyFor('pk_test_demo')).toBe(first.keyFor('pk_test_demo'));
      expect(t.deps.resultReader.keyFor('pk_test_demo')).not.toBe(
        createResultReaderKeys(t.deps.nullifierKey).keyFor('pk_test_demo'),
      );
    } finally {
      await store.close();
    }
  });
});

describe('a store made before result_reader_key', () => {
  let t: TestApp;
  afterEach(async () => t?.close());

  it('still hands over a partner result sealed with the key derived from the nullifier key', async () => {
    t = await makeTestApp();
    const legacyKey = createResultReaderKeys(t.deps.nullifierKey).keyFor(PARTNERS.demo.id);
    const { record, handoffToken } = await createVerifyRequest(
      t.deps,
      {
        rail: 'standard',
        partnerId: PARTNERS.demo.id,
        scopes: ['isAdult'],
        clientProofMode: false,
        methods: ['sandbox'],
        locale: 'fr',
        audienceLabel: 'Demo Shop',
      },
      { channel: 'partner', readerKey: legacyKey },
    );
    const flow = { requestId: record.id, handoff: handoffToken };
    await openOnPhone(t, flow);
    await completeOnPhone(t, flow);
    const done = await signedInject(t, { method: 'GET', url: `/api/partner/verify-status/${record.id}` });
    expect(done.statusCode).toBe(200);
    expect(done.json().result.grant_code).toMatch(/^g_/);
  });
});
