/**
 * Test support, never built into the page: an msw stand-in for the sandbox phone API (DESIGN §4)
 * for the phone page's tests. It keeps one request's state and answers open/complete the way the
 * service does.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { PhoneCompleteBody, PhoneOpened } from '../../protocol/api.ts';

export const BASE = 'http://phone.test';

export interface FakeRequest {
  opened: PhoneOpened;
  h: string;
  completions: PhoneCompleteBody[];
  /** forces the next answer of open or complete to this error */
  failNext: { status: number; error: string } | null;
}

export function fakeRequest(overrides: Partial<PhoneOpened> = {}): FakeRequest {
  return {
    opened: {
      scopes: ['isAdult', 'isFrench'],
      rail: 'standard',
      client_proof_mode: false,
      audience_label: 'Demo Shop',
      expires_at: Date.now() + 300_000,
      status: 'pending',
      methods: [{ id: 'sandbox' }],
      ...overrides,
    },
    h: 'h_good',
    completions: [],
    failNext: null,
  };
}

export function createFakePhoneApi(request: { current: FakeRequest }) {
  const error = (status: number, code: string) => HttpResponse.json({ error: code, message: code }, { status });
  return setupServer(
    http.get(`${BASE}/api/m/personas`, () =>
      HttpResponse.json([
        { id: 'fr-adult-m', label: 'Lucas Martin — French, 34, male' },
        { id: 'fr-minor', label: 'Léa Petit — French, 16, female' },
      ]),
    ),
    http.post(`${BASE}/api/m/requests/:id/open`, async ({ request: req }) => {
      const r = request.current;
      if (r.failNext) {
        const { status, error: code } = r.failNext;
        r.failNext = null;
        return error(status, code);
      }
      const body = (await req.json()) as { h?: string };
      if (body.h !== r.h) return error(404, 'NOT_FOUND');
      if (r.opened.status === 'pending') r.opened = { ...r.opened, status: 'in_progress' };
      return HttpResponse.json(r.opened);
    }),
    http.post(`${BASE}/api/m/requests/:id/complete`, async ({ request: req }) => {
      const r = request.current;
      if (r.failNext) {
        const { status, error: code } = r.failNext;
        r.failNext = null;
        return error(status, code);
      }
      const body = (await req.json()) as PhoneCompleteBody;
      if (body.h !== r.h) return error(404, 'NOT_FOUND');
      if (r.opened.status === 'completed' || r.opened.status === 'failed') return error(409, 'ALREADY_FINISHED');
      r.completions.push(body);
      r.opened = { ...r.opened, status: body.outcome === 'approved' ? 'completed' : 'failed' };
      return HttpResponse.json({ status: r.opened.status });
    }),
  );
}
