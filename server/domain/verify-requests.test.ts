import { afterEach, describe, expect, it } from 'vitest';
import { makeTestDeps, PARTNERS, type TestDeps } from '../test/helpers.ts';
import { withSandbox } from '../test/personas.ts';
import { ServiceError } from '../errors.ts';
import { completeRequest } from '../sandbox/persona-approval.ts';
import { effectiveStatus } from '../rules/effective-status.ts';
import {
  createVerifyRequest,
  EXPIRED_GRACE_MS,
  findRequestForPartner,
  findRequestForPhone,
  findRequestForPoller,
  openRequest,
  statusView,
  type NewRequest,
} from './verify-requests.ts';

const STANDARD: NewRequest = {
  rail: 'standard',
  partnerId: PARTNERS.demo.id,
  scopes: ['isAdult'],
  clientProofMode: false,
  locale: 'fr',
  methods: ['sandbox'],
  audienceLabel: 'Demo Shop',
};

describe('verification request lifecycle', () => {
  let t: TestDeps;
  afterEach(async () => t?.store.close());

  it('lives requestTtlMs, then reads expired until the grace period ends', async () => {
    t = await makeTestDeps({ env: { SVC_REQUEST_TTL_MS: '5000' } });
    const { record } = await createVerifyRequest(t.deps, STANDARD, { channel: 'widget' });
    expect(record.deadlineAt).toBe(t.clock.now() + 5_000);
    expect(record.expiresAt).toBe(record.deadlineAt + EXPIRED_GRACE_MS);
    expect(effectiveStatus(record, record.deadlineAt - 1)).toBe('pending');
    expect(effectiveStatus(record, record.deadlineAt)).toBe('expired');
    expect(await t.store.getRequest(record.id, record.expiresAt)).toBeNull();
  });

  it('finds a request only with its own token, and a partner request only for its partner', async () => {
    t = await makeTestDeps();
    const now = t.clock.now();
    const widget = await createVerifyRequest(t.deps, STANDARD, { channel: 'widget' });
    const partner = await createVerifyRequest(t.deps, STANDARD, {
      channel: 'partner',
      readerKey: PARTNERS.demo.secret,
    });
    expect(await findRequestForPoller(t.store, widget.record.id, widget.pollToken, now)).toEqual(widget.record);
    expect(await findRequestForPoller(t.store, widget.record.id, partner.pollToken, now)).toBeNull();
    expect(await findRequestForPoller(t.store, partner.record.id, partner.pollToken, now)).toBeNull();
    expect(await findRequestForPhone(t.store, widget.record.id, widget.handoffToken, now)).toEqual(widget.record);
    expect(await findRequestForPhone(t.store, widget.record.id, widget.pollToken, now)).toBeNull();
    expect(await findRequestForPartner(t.store, partner.record.id, PARTNERS.demo.id, now)).toEqual(partner.record);
    expect(await findRequestForPartner(t.store, partner.record.id, PARTNERS.other.id, now)).toBeNull();
    expect(await findRequestForPartner(t.store, widget.record.id, PARTNERS.demo.id, now)).toBeNull();
  });

  it('completes a request that the phone opens at the same moment', async () => {
    t = await makeTestDeps();
    const { record, pollToken } = await createVerifyRequest(t.deps, STANDARD, { channel: 'widget' });
    const [opened, completed] = await Promise.all([
      openRequest(t.deps, record),
      completeRequest(withSandbox(t.deps), record, {
        outcome: 'approved',
        method: 'face_check',
        personaId: 'fr-adult-m',
      }),
    ]);
    expect(opened.status).toMatch(/in_progress|completed/);
    expect(completed.status).toBe('completed');
    const view = statusView((await t.store.getRequest(record.id, t.clock.now()))!, t.clock.now(), pollToken);
    expect(view.result).toEqual({ grant_code: expect.stringMatching(/^g_/) });
  });

  it('opens a partner request result with the partner secret only', async () => {
    t = await makeTestDeps();
    const { record } = await createVerifyRequest(t.deps, STANDARD, {
      channel: 'partner',
      readerKey: PARTNERS.demo.secret,
    });
    const done = await completeRequest(withSandbox(t.deps), record, {
      outcome: 'approved',
      method: 'face_check',
      personaId: 'fr-adult-m',
    });
    expect(statusView(done, t.clock.now(), PARTNERS.demo.secret).result).toEqual({
      grant_code: expect.stringMatching(/^g_/),
    });
    expect(() => statusView(done, t.clock.now(), PARTNERS.other.secret)).toThrow(ServiceError);
  });
});
