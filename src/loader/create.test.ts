import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from './config.ts';
import { createVerifyRequest } from './create.ts';

const API = 'https://svc.example';
const seen: Array<{ contentType: string | null; credentials: string; body: unknown }> = [];
const server = setupServer(
  http.post(`${API}/api/w/verify-request`, async ({ request }) => {
    seen.push({
      contentType: request.headers.get('content-type'),
      credentials: request.credentials,
      body: await request.json(),
    });
    return HttpResponse.json(
      {
        request_id: 'vr_1',
        poll_token: 'pt_1',
        deep_link: `${API}/m/v/vr_1#h=h_1`,
        expires_at: Date.now() + 300_000,
        poll_after_ms: 1000,
      },
      { status: 201 },
    );
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const STANDARD = { partnerId: 'pk_test_demo', successPath: '/done' };

describe('createVerifyRequest', () => {
  it('sends a preflight-free text/plain JSON body without credentials', async () => {
    const { config } = parseConfig(
      { partnerId: 'pk_test_demo', successPath: '/done', scopes: 'isAdult,isFrench', locale: 'en' },
      API,
    );
    const created = await createVerifyRequest(config, new AbortController().signal);
    expect(created.request_id).toBe('vr_1');
    expect(seen.at(-1)).toEqual({
      contentType: 'text/plain;charset=UTF-8',
      credentials: 'omit',
      body: { partner_id: 'pk_test_demo', scopes: ['isAdult', 'isFrench'], client_proof_mode: false, locale: 'en' },
    });
  });

  it.each([
    [
      'the catalogue code the service sent',
      HttpResponse.json({ error: 'INVALID_PARTNER' }, { status: 403 }),
      'INVALID_PARTNER',
      false,
    ],
    ['the status for a body that is not JSON', new HttpResponse('Bad gateway', { status: 502 }), 'HTTP_502', true],
    ['the status for JSON without an error code', HttpResponse.json(null, { status: 400 }), 'HTTP_400', false],
    ['the status for a JSON error that is not an object', HttpResponse.json('no', { status: 404 }), 'HTTP_404', false],
    ['a rate limit as retryable', HttpResponse.json({ error: 'RATE_LIMITED' }, { status: 429 }), 'RATE_LIMITED', true],
  ])('rejects with %s', async (_name, response, code, retryable) => {
    server.use(http.post(`${API}/api/w/verify-request`, () => response));
    const { config } = parseConfig(STANDARD, API);
    await expect(createVerifyRequest(config, new AbortController().signal)).rejects.toMatchObject({
      message: code,
      retryable,
    });
  });

  it('rejects with a retryable NETWORK error when the request cannot be sent', async () => {
    server.use(http.post(`${API}/api/w/verify-request`, () => HttpResponse.error()));
    const { config } = parseConfig(STANDARD, API);
    await expect(createVerifyRequest(config, new AbortController().signal)).rejects.toMatchObject({
      message: 'NETWORK',
      retryable: true,
    });
  });
});
