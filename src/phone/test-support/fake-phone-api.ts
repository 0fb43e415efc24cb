/**
 * Test support, never built into the page: an msw stand-in for the phone API (design.md §4, §12)
 * for the phone page's tests. It keeps one request's state and answers open, the persona picker
 * (personas, complete: sandbox only, 404 otherwise), an identity provider's start and the wallet's
 * answer the way the service does.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type {
  DcRequest,
  Oid4vpDcRequest,
  PhoneMethod,
  PhoneOpened,
  PhoneWalletAnswered,
  PhoneWalletResponseBody,
} from '../../protocol/wire.ts';
import type { PhoneCompleteBody } from '../../protocol/sandbox.ts';

export const BASE = 'http://phone.test';

/** Where the fake start sends the visitor: the provider's authorization endpoint. */
export const AUTHORIZATION_URL = 'https://id.example/authorize?state=s_1';

export const DC_REQUEST: DcRequest = { protocol: 'org-iso-mdoc', data: { deviceRequest: 'dr', encryptionInfo: 'ei' } };
export const OID4VP_DC_REQUEST: Oid4vpDcRequest = {
  protocol: 'openid4vp-v1-unsigned',
  data: {
    response_type: 'vp_token',
    response_mode: 'dc_api.jwt',
    nonce: 'n_1',
    dcql_query: { credentials: [] },
    client_metadata: {
      jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', use: 'enc', alg: 'ECDH-ES', kid: 'k' }] },
      encrypted_response_enc_values_supported: ['A128GCM'],
      vp_formats_supported: { mso_mdoc: {} },
    },
  },
};
export const WALLET_LINK = 'av://?response_type=vp_token&state=st_1';
export const WALLET_METHOD: PhoneMethod = {
  id: 'eudi_wallet',
  wallet_link: WALLET_LINK,
  dc_request: DC_REQUEST,
  dc_requests: [DC_REQUEST, OID4VP_DC_REQUEST],
};
export const PROVIDER_METHOD: PhoneMethod = { id: 'idp_example', name: 'Example ID', method: 'face_check' };

export interface FakeRequest {
  opened: PhoneOpened;
  h: string;
  completions: PhoneCompleteBody[];
  /** the providers started, in order */
  starts: string[];
  walletResponses: PhoneWalletResponseBody[];
  /** what the verifier makes of the next wallet answer */
  walletVerdict: PhoneWalletAnswered | 'refused';
  personaCalls: number;
  /** forces the next answer of open, complete, start or wallet-response to this error */
  failNext: { status: number; error: string } | null;
}

export function fakeRequest(overrides: Partial<PhoneOpened> = {}): FakeRequest {
  return {
    opened: {
      scopes: ['isAdult', 'isFrench'],
      rail: 'standard',
      client_proof_mode: false,
      audience_label: 'Demo Shop',
      locale: 'en',
      expires_at: Date.now() + 300_000,
      status: 'pending',
      methods: [{ id: 'sandbox' }],
      ...overrides,
      sandbox: overrides.sandbox ?? (overrides.methods ?? [{ id: 'sandbox' }]).some((m) => m.id === 'sandbox'),
    },
    h: 'h_good',
    completions: [],
    starts: [],
    walletResponses: [],
    walletVerdict: { status: 'completed' },
    personaCalls: 0,
    failNext: null,
  };
}

const isOpen = (r: FakeRequest) => r.opened.status === 'pending' || r.opened.status === 'in_progress';

export function createFakePhoneApi(request: { current: FakeRequest }) {
  const error = (status: number, code: string) => HttpResponse.json({ error: code, message: code }, { status });
  /** The forced error, or a check of h and of the request's state, as the service orders them. */
  async function check(req: Request, finishedIs409 = true): Promise<{ body: Record<string, unknown> } | Response> {
    const r = request.current;
    if (r.failNext) {
      const { status, error: code } = r.failNext;
      r.failNext = null;
      return error(status, code);
    }
    const body = (await req.json()) as Record<string, unknown>;
    if (body.h !== r.h) return error(404, 'NOT_FOUND');
    if (finishedIs409 && !isOpen(r)) return error(409, 'ALREADY_FINISHED');
    return { body };
  }
  const sandbox = () => request.current.opened.methods.some((m) => m.id === 'sandbox');
  return setupServer(
    http.get(`${BASE}/api/m/personas`, () => {
      request.current.personaCalls++;
      if (!sandbox()) return error(404, 'NOT_FOUND');
      return HttpResponse.json([
        { id: 'fr-adult-m', label: 'Lucas Martin — French, 34, male' },
        { id: 'fr-minor', label: 'Léa Petit — French, 16, female' },
      ]);
    }),
    http.post(`${BASE}/api/m/requests/:id/open`, async ({ request: req }) => {
      const checked = await check(req, false);
      if (checked instanceof Response) return checked;
      const r = request.current;
      if (r.opened.status === 'pending') r.opened = { ...r.opened, status: 'in_progress' };
      return HttpResponse.json(isOpen(r) ? r.opened : { ...r.opened, methods: [] });
    }),
    http.post(`${BASE}/api/m/requests/:id/complete`, async ({ request: req }) => {
      if (!sandbox()) return error(404, 'NOT_FOUND');
      const checked = await check(req);
      if (checked instanceof Response) return checked;
      const body = checked.body as unknown as PhoneCompleteBody;
      const r = request.current;
      r.completions.push(body);
      r.opened = {
        ...r.opened,
        status: body.outcome === 'approved' ? 'completed' : 'failed',
        ...(body.outcome === 'approved' ? {} : { reason: body.outcome }),
      };
      return HttpResponse.json({ status: r.opened.status });
    }),
    http.post(`${BASE}/api/m/requests/:id/providers/:providerId/start`, async ({ request: req, params }) => {
      const checked = await check(req);
      if (checked instanceof Response) return checked;
      const r = request.current;
      if (!r.opened.methods.some((m) => m.id === params.providerId)) return error(400, 'INVALID_REQUEST');
      r.starts.push(String(params.providerId));
      return HttpResponse.json({ authorization_url: AUTHORIZATION_URL });
    }),
    http.post(`${BASE}/api/m/requests/:id/wallet-response`, async ({ request: req }) => {
      const checked = await check(req, false);
      if (checked instanceof Response) return checked;
      const r = request.current;
      r.walletResponses.push(checked.body as unknown as PhoneWalletResponseBody);
      if (r.walletVerdict === 'refused' || !isOpen(r))
        return HttpResponse.json(
          { error: 'invalid_request', error_description: 'the device signature does not verify' },
          { status: 400 },
        );
      const verdict = r.walletVerdict;
      r.opened = { ...r.opened, status: verdict.status, ...(verdict.reason ? { reason: verdict.reason } : {}) };
      return HttpResponse.json(verdict);
    }),
  );
}
