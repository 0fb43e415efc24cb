import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPhoneApi } from './api.ts';
import { createPhoneModel } from './model.ts';
import { BASE, createFakePhoneApi, fakeRequest, type FakeRequest } from './test-support/fake-phone-api.ts';

const request: { current: FakeRequest } = { current: fakeRequest() };
const server = createFakePhoneApi(request);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  request.current = fakeRequest();
});

const api = createPhoneApi(undefined, BASE);
const open = async (h: string | null = 'h_good') => {
  const model = createPhoneModel(api, { requestId: 'vr_1', h });
  await model.load();
  return model;
};

describe('phone model', () => {
  it('opens the request and offers the personas, the first one picked', async () => {
    const model = await open();
    const view = model.view.value;
    expect(view.kind).toBe('asking');
    expect(view.kind === 'asking' && view.request.audience_label).toBe('Demo Shop');
    expect(model.personas.value.map((p) => p.id)).toEqual(['fr-adult-m', 'fr-minor']);
    expect(model.persona.value).toBe('fr-adult-m');
    expect(request.current.opened.status).toBe('in_progress');
  });

  it('sends the picked persona with face check when the request is not in wallet mode', async () => {
    const model = await open();
    model.persona.value = 'fr-minor';
    await model.submit('approved');
    expect(request.current.completions).toEqual([
      { h: 'h_good', persona: 'fr-minor', method: 'face_check', outcome: 'approved' },
    ]);
    expect(model.view.value).toEqual({ kind: 'done', outcome: 'approved' });
  });

  it('offers only the EUDI wallet when the request is in client proof mode', async () => {
    request.current = fakeRequest({ client_proof_mode: true });
    const model = await open();
    expect(model.method.value).toBe('eudi_wallet');
    await model.submit('failed');
    expect(request.current.completions[0]).toMatchObject({ method: 'eudi_wallet', outcome: 'failed' });
    expect(model.view.value).toEqual({ kind: 'done', outcome: 'failed' });
  });

  it('explains a link without its handoff token without calling the service', async () => {
    const model = await open(null);
    expect(model.view.value).toEqual({ kind: 'problem', problem: 'MISSING_LINK', retryable: false });
  });

  it('turns 404, 409 and 410 into their own explanations', async () => {
    expect((await open('h_wrong')).view.value).toMatchObject({ kind: 'problem', problem: 'NOT_FOUND' });
    for (const [status, error] of [
      [409, 'ALREADY_FINISHED'],
      [410, 'REQUEST_EXPIRED'],
    ] as const) {
      request.current.failNext = { status, error };
      expect((await open()).view.value).toEqual({ kind: 'problem', problem: error, retryable: false });
    }
  });

  it('shows a request that finished elsewhere as finished', async () => {
    request.current = fakeRequest({ status: 'completed' });
    expect((await open()).view.value).toMatchObject({ kind: 'problem', problem: 'ALREADY_FINISHED' });
  });

  it('moves to the explanation when the request expired before the answer was sent', async () => {
    const model = await open();
    request.current.failNext = { status: 410, error: 'REQUEST_EXPIRED' };
    await model.submit('approved');
    expect(model.view.value).toEqual({ kind: 'problem', problem: 'REQUEST_EXPIRED', retryable: false });
  });

  it('keeps the form and shows an error the tester can retry after a server error', async () => {
    const model = await open();
    request.current.failNext = { status: 500, error: 'INTERNAL_ERROR' };
    await model.submit('approved');
    expect(model.view.value).toMatchObject({ kind: 'asking', sending: null, error: 'OTHER' });
    await model.submit('approved');
    expect(model.view.value).toEqual({ kind: 'done', outcome: 'approved' });
  });

  it('sends one answer even when the tester presses twice', async () => {
    const model = await open();
    await Promise.all([model.submit('approved'), model.submit('cancelled')]);
    expect(request.current.completions).toHaveLength(1);
  });

  it('reports an unreachable service as retryable', async () => {
    const offline = createPhoneModel(
      createPhoneApi(() => Promise.reject(new TypeError('Failed to fetch'))),
      { requestId: 'vr_1', h: 'h_good' },
    );
    await offline.load();
    expect(offline.view.value).toEqual({ kind: 'problem', problem: 'NETWORK_ERROR', retryable: true });
  });
});
