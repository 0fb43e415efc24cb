import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from './config.ts';
import { sendCreateRequest } from './create.ts';

const API = 'https://svc.example';
const CREATED = {
  request_id: 'vr_1',
  poll_token: 'pt_1',
  deep_link: `${API}/m/v/vr_1#h=h_1`,
  expires_at: 0,
  poll_after_ms: 1000,
};
const seen: Array<{ contentType: string | null; credentials: string; body: unknown }> = [];
const server = setupServer(
  http.post(`${API}/api/w/verify-request`, async ({ request }) => {
    seen.push({
      contentType: request.headers.get('content-type'),
      credentials: request.credentials,
      body: await request.json(),
    });
    return HttpResponse.json(CREATED, { status: 201 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const STANDARD = { partnerId: 'pk_test_demo', successPath: '/done' };

describe('sendCreateRequest', () => {
  it('sends a preflight-free text/plain JSON body without credentials', async () => {
    const { config } = parseConfig(
      { partnerId: 'pk_test_demo', successPath: '/done', scopes: 'isAdult,isFrench', locale: 'en' },
      API,
    );
    await expect(sendCreateRequest(config, new AbortController().signal)).resolves.toEqual([201, CREATED]);
    expect(seen.at(-1)).toEqual({
      contentType: 'text/plain;charset=UTF-8',
      credentials: 'omit',
      body: { partner_id: 'pk_test_demo', scopes: ['isAdult', 'isFrench'], client_proof_mode: false, locale: 'en' },
    });
  });

  it('sends the session token alone, without scopes, for ADULT_BLIND', async () => {
    const { config } = parseConfig({ sessionToken: 'a.b.c', successPath: '/done', scopes: 'isFrench' }, API);
    await sendCreateRequest(config, new AbortController().signal);
    expect(seen.at(-1)?.body).toEqual({ session_token: 'a.b.c', client_proof_mode: false, locale: 'fr' });
  });

  it('hands over the status and the JSON body of an error, and only the status of a body that is not JSON', async () => {
    const { config } = parseConfig(STANDARD, API);
    server.use(http.post(`${API}/api/w/verify-request`, () => HttpResponse.json({ error: 'X' }, { status: 403 })));
    await expect(sendCreateRequest(config, new AbortController().signal)).resolves.toEqual([403, { error: 'X' }]);
    server.use(http.post(`${API}/api/w/verify-request`, () => new HttpResponse('Bad gateway', { status: 502 })));
    await expect(sendCreateRequest(config, new AbortController().signal)).resolves.toEqual([502]);
  });

  it('rejects when no answer comes (network error)', async () => {
    server.use(http.post(`${API}/api/w/verify-request`, () => HttpResponse.error()));
    const { config } = parseConfig(STANDARD, API);
    await expect(sendCreateRequest(config, new AbortController().signal)).rejects.toBeInstanceOf(Error);
  });
});
