import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
afterAll(() => server.close());

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
});
