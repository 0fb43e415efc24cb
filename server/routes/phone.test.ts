import { afterEach, describe, expect, it } from 'vitest';
import { EXPIRED_GRACE_MS } from '../domain/verify-requests.ts';
import { makeTestApp, PARTNERS, type TestApp } from '../test/helpers.ts';
import { completeOnPhone, openOnPhone, startBlindFlow, startStandardFlow } from '../test/verify-flow.ts';

describe('phone API', () => {
  let t: TestApp;
  afterEach(async () => t?.close());

  describe('open', () => {
    it('moves a pending request to in_progress and tells the phone what is asked, idempotently', async () => {
      t = await makeTestApp();
      const flow = await startStandardFlow(t, { scopes: ['isAdult', 'isFrench'] });
      const expected = {
        scopes: ['isAdult', 'isFrench'],
        rail: 'standard',
        client_proof_mode: false,
        audience_label: 'Demo Shop',
        locale: 'fr',
        expires_at: flow.created.expires_at,
        status: 'in_progress',
        methods: [{ id: 'idp_example', name: 'Example ID', method: 'face_check' }, { id: 'sandbox' }],
        sandbox: true,
      };
      const first = await openOnPhone(t, flow);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual(expected);
      const stored = (await t.store.getRequest(flow.requestId, t.clock.now()))!;
      expect((await openOnPhone(t, flow)).json()).toEqual(expected);
      expect((await t.store.getRequest(flow.requestId, t.clock.now()))!.version).toBe(stored.version);
    });

    it('tells the phone the language the widget asked in, so the page speaks it (design.md §20)', async () => {
      t = await makeTestApp();
      const flow = await startStandardFlow(t, { locale: 'pl' });
      expect((await openOnPhone(t, flow)).json()).toMatchObject({ locale: 'pl' });
    });

    it('names only the blind app on an ADULT_BLIND request, never the partner', async () => {
      t = await makeTestApp();
      const flow = await startBlindFlow(t, { scopes: ['isAdult', 'isUnique'], clientProofMode: true });
      const res = await openOnPhone(t, flow);
      expect(res.json()).toMatchObject({
        rail: 'adult_blind',
        audience_label: 'app_blind_shop',
        scopes: ['isAdult', 'isUnique'],
        client_proof_mode: true,
      });
      expect(res.body).not.toContain(PARTNERS.blindShop.id);
      expect(res.body).not.toContain('Blind Shop');
    });

    it('answers 404 NOT_FOUND for a wrong handoff token or an unknown request', async () => {
      t = await makeTestApp();
      const flow = await startStandardFlow(t);
      const other = await startStandardFlow(t);
      for (const attempt of [
        { requestId: flow.requestId, handoff: other.handoff },
        { requestId: flow.requestId, handoff: 'h_short' },
        { requestId: 'vr_AAAAAAAAAAAAAAAAAAAAAA', handoff: flow.handoff },
        { requestId: 'nonsense', handoff: flow.handoff },
      ]) {
        const res = await openOnPhone(t, attempt);
        expect(res.statusCode).toBe(404);
        expect(res.json().error).toBe('NOT_FOUND');
      }
      expect((await t.store.getRequest(flow.requestId, t.clock.now()))!.status).toBe('pending');
    });

    it('answers 410 REQUEST_EXPIRED past the deadline and 404 after the grace period', async () => {
      t = await makeTestApp();
      const flow = await startStandardFlow(t);
      t.clock.advance(300_000);
      const res = await openOnPhone(t, flow);
      expect(res.statusCode).toBe(410);
      expect(res.json().error).toBe('REQUEST_EXPIRED');
      t.clock.advance(EXPIRED_GRACE_MS);
      expect((await openOnPhone(t, flow)).statusCode).toBe(404);
    });

    it('shows a finished request as it is', async () => {
      t = await makeTestApp();
      const flow = await startStandardFlow(t);
      await completeOnPhone(t, flow, { outcome: 'failed' });
      expect((await openOnPhone(t, flow)).json()).toMatchObject({ status: 'failed' });
    });

    it('refuses a body without h with 400 INVALID_REQUEST', async () => {
      t = await makeTestApp();
      const flow = await startStandardFlow(t);
      for (const payload of ['{}', '{"h":1}', 'nope', '[]']) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/m/requests/${flow.requestId}/open`,
          headers: { 'content-type': 'application/json' },
          payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe('INVALID_REQUEST');
      }
    });
  });
});
