import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DcApiRequest, FailReason, LoginResult, PhoneMethod } from '../protocol/wire.ts';
import { createPhoneApi } from './phone-client.ts';
import { createPhoneModel, type PhoneEnvironment, type PhoneEntry } from './model.ts';
import { credentialsOfLink } from './sandbox/model.ts';
import { SANDBOX_COPY } from './sandbox/copy/all.ts';
import { openSandboxWing } from './sandbox/wing.tsx';
import {
  AUTHORIZATION_URL,
  BASE,
  createFakePhoneApi,
  DC_REQUEST,
  OID4VP_DC_REQUEST,
  fakeRequest,
  PROVIDER_METHOD,
  WALLET_METHOD,
  type FakeRequest,
} from './test-support/fake-phone-api.ts';
import { sandboxEnvironment, sandboxOf } from './test-support/sandbox.ts';

const request: { current: FakeRequest } = { current: fakeRequest() };
const server = createFakePhoneApi(request);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  request.current = fakeRequest();
});

const api = createPhoneApi(undefined, BASE);
const entryOf = (h: string | null = 'h_good', login: LoginResult | null = null): PhoneEntry => ({
  requestId: 'vr_1',
  h,
  login,
});
const open = async (h: string | null = 'h_good', login: LoginResult | null = null, env?: PhoneEnvironment) => {
  const model = createPhoneModel(api, entryOf(h, login), sandboxEnvironment('en', env));
  await model.load();
  return model;
};
/** A production request: the wallet on this phone and one identity provider, no persona picker. */
const production = () => fakeRequest({ scopes: ['isAdult'], methods: [WALLET_METHOD, PROVIDER_METHOD] });

/** What navigator.credentials.get resolves to: a DigitalCredential, its fields getters on the prototype. */
class FakeDigitalCredential {
  get protocol() {
    return 'org-iso-mdoc';
  }
  get data() {
    return { response: 'b64-device-response' };
  }
}

function environment(answer: () => Promise<unknown> = async () => new FakeDigitalCredential()) {
  const navigate = vi.fn<(url: string) => void>();
  const requestCredential = vi.fn<(requests: DcApiRequest[]) => Promise<unknown>>(answer);
  return { navigate, requestCredential };
}

describe('phone model: the request’s language (design.md §20)', () => {
  it('switches to the request’s language once open tells it, before anything of the request shows', async () => {
    request.current = fakeRequest({ locale: 'pl' });
    const seen: string[] = [];
    let model: ReturnType<typeof createPhoneModel> | null = null;
    const adoptLocale = vi.fn(async (locale: string) => {
      seen.push(`${locale} while ${model!.view.peek().kind}`);
    });
    model = createPhoneModel(api, entryOf(), sandboxEnvironment('en', { adoptLocale }));
    await model.load();
    expect(seen).toEqual(['pl while loading']);
    expect(model.view.value.kind).toBe('asking');
  });

  it('keeps its own language when the request’s copy cannot be fetched', async () => {
    request.current = fakeRequest({ locale: 'fi' });
    const adoptLocale = vi.fn(() => Promise.reject(new Error('offline')));
    const model = await open('h_good', null, { navigate: () => {}, requestCredential: null, adoptLocale });
    expect(adoptLocale).toHaveBeenCalledWith('fi');
    expect(model.view.value.kind).toBe('asking');
  });
});

describe('phone model: the persona picker (sandbox)', () => {
  it('opens the request and offers the personas, the first one picked', async () => {
    const model = await open();
    const view = model.view.value;
    expect(view.kind).toBe('asking');
    expect(view.kind === 'asking' && view.request.audience_label).toBe('Demo Shop');
    expect(model.sandbox.value).toBe(true);
    expect(sandboxOf(model).personas.value.map((p) => p.id)).toEqual(['fr-adult-m', 'fr-minor']);
    expect(sandboxOf(model).persona.value).toBe('fr-adult-m');
    expect(request.current.opened.status).toBe('in_progress');
  });

  it('sends the picked persona with face check when the request is not in wallet mode', async () => {
    const model = await open();
    sandboxOf(model).persona.value = 'fr-minor';
    await sandboxOf(model).submit('approved');
    expect(request.current.completions).toEqual([
      { h: 'h_good', persona: 'fr-minor', method: 'face_check', outcome: 'approved' },
    ]);
    expect(model.view.value).toEqual({ kind: 'done', outcome: 'approved' });
  });

  it('offers only the EUDI wallet when the request is in client proof mode', async () => {
    request.current = fakeRequest({ client_proof_mode: true });
    const model = await open();
    expect(sandboxOf(model).method.value).toBe('eudi_wallet');
    await sandboxOf(model).submit('failed');
    expect(request.current.completions[0]).toMatchObject({ method: 'eudi_wallet', outcome: 'failed' });
    expect(model.view.value).toEqual({ kind: 'done', outcome: 'failed' });
  });

  it('lets the tester choose the credential the sandbox wallet presents when the link accepts several', async () => {
    const dcql = { credentials: [{ id: 'pid' }, { id: 'mdl' }], credential_sets: [{ options: [['pid'], ['mdl']] }] };
    const link = `openid4vp://?response_type=vp_token&dcql_query=${encodeURIComponent(JSON.stringify(dcql))}&state=s`;
    request.current = fakeRequest({
      client_proof_mode: true,
      scopes: ['isAdult', 'isFrench'],
      methods: [
        { ...(WALLET_METHOD as Extract<PhoneMethod, { id: 'eudi_wallet' }>), wallet_link: link },
        { id: 'sandbox' },
      ],
    });
    const model = await open();
    expect(sandboxOf(model).credentials.value).toEqual(['pid', 'mdl']);
    sandboxOf(model).credential.value = 'mdl';
    await sandboxOf(model).submit('approved');
    expect(request.current.completions[0]).toMatchObject({ method: 'eudi_wallet', credential: 'mdl' });
  });

  it('offers the PID without age_over_18 after the PID when the link accepts a birth date instead (design.md §15)', async () => {
    const pid = {
      id: 'pid',
      claim_sets: [
        ['age', 'nat'],
        ['bd', 'nat'],
      ],
    };
    const dcql = {
      credentials: [pid, { id: 'mdl', claim_sets: pid.claim_sets }, { id: 'pid_sd', claim_sets: pid.claim_sets }],
      credential_sets: [],
    };
    const link = `openid4vp://?response_type=vp_token&dcql_query=${encodeURIComponent(JSON.stringify(dcql))}&state=s`;
    request.current = fakeRequest({
      client_proof_mode: true,
      scopes: ['isAdult', 'isFrench'],
      methods: [
        { ...(WALLET_METHOD as Extract<PhoneMethod, { id: 'eudi_wallet' }>), wallet_link: link },
        { id: 'sandbox' },
      ],
    });
    const model = await open();
    // …and the SD-JWT VC PID after the mDL, valid or revoked on the sandbox's status list.
    expect(sandboxOf(model).credentials.value).toEqual([
      'pid',
      'pid-no-age',
      'mdl',
      'pid-sd-jwt',
      'pid-sd-jwt-revoked',
    ]);
    sandboxOf(model).credential.value = 'pid-no-age';
    await sandboxOf(model).submit('approved');
    expect(request.current.completions[0]).toMatchObject({ method: 'eudi_wallet', credential: 'pid-no-age' });
  });

  it('sends no credential when the tester chose none, or the link accepts one only', async () => {
    request.current = fakeRequest({ client_proof_mode: true, methods: [WALLET_METHOD, { id: 'sandbox' }] });
    const model = await open();
    expect(sandboxOf(model).credentials.value).toEqual([]);
    sandboxOf(model).credential.value = 'pid';
    await sandboxOf(model).submit('approved');
    expect(request.current.completions[0]).not.toHaveProperty('credential');
    expect(credentialsOfLink('not a link')).toEqual([]);
    expect(
      credentialsOfLink(`av://?dcql_query=${encodeURIComponent('{"credentials":[{"id":"proof_of_age"}]}')}`),
    ).toEqual(['av']);
  });

  it('explains a link without its handoff token without calling the service', async () => {
    const model = await open(null);
    expect(model.view.value).toEqual({ kind: 'problem', problem: 'MISSING_LINK', retryable: false });
    expect(request.current.opened.status).toBe('pending');
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
    await sandboxOf(model).submit('approved');
    expect(model.view.value).toEqual({ kind: 'problem', problem: 'REQUEST_EXPIRED', retryable: false });
  });

  it('keeps the form and shows an error the tester can retry after a server error', async () => {
    const model = await open();
    request.current.failNext = { status: 500, error: 'INTERNAL_ERROR' };
    await sandboxOf(model).submit('approved');
    expect(model.view.value).toMatchObject({ kind: 'asking', sending: null, error: 'OTHER' });
    await sandboxOf(model).submit('approved');
    expect(model.view.value).toEqual({ kind: 'done', outcome: 'approved' });
  });

  it('sends one answer even when the tester presses twice', async () => {
    const model = await open();
    await Promise.all([sandboxOf(model).submit('approved'), sandboxOf(model).submit('cancelled')]);
    expect(request.current.completions).toHaveLength(1);
  });

  it('reports an unreachable service as retryable', async () => {
    const offline = createPhoneModel(
      createPhoneApi(() => Promise.reject(new TypeError('Failed to fetch'))),
      entryOf(),
    );
    await offline.load();
    expect(offline.view.value).toEqual({ kind: 'problem', problem: 'NETWORK_ERROR', retryable: true });
  });

  it('loads the persona picker once, and offers a retry when its script cannot be fetched', async () => {
    const loadSandbox = vi
      .fn<NonNullable<PhoneEnvironment['loadSandbox']>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockImplementation(async (port) => openSandboxWing(port, SANDBOX_COPY.en));
    const model = createPhoneModel(api, entryOf(), sandboxEnvironment('en', { loadSandbox }));
    await model.load();
    expect(model.view.value).toEqual({ kind: 'problem', problem: 'NETWORK_ERROR', retryable: true });
    await model.load();
    await model.load();
    expect(model.view.value.kind).toBe('asking');
    expect(loadSandbox).toHaveBeenCalledTimes(2);
    expect(request.current.personaCalls).toBe(2);
  });
});

describe('phone model: identity providers (design.md §12)', () => {
  it('offers the methods in the service’s order, and neither loads the persona picker nor asks for personas in production', async () => {
    request.current = production();
    const loadSandbox = vi.fn<NonNullable<PhoneEnvironment['loadSandbox']>>();
    const model = await open('h_good', null, sandboxEnvironment('en', { loadSandbox }));
    const view = model.view.value;
    expect(view.kind === 'asking' && view.request.methods.map((m) => m.id)).toEqual(['eudi_wallet', 'idp_example']);
    expect(model.sandbox.value).toBe(false);
    expect(loadSandbox).not.toHaveBeenCalled();
    expect(model.wing.value).toBeNull();
    expect(request.current.personaCalls).toBe(0);
  });

  it('starts the provider with the handoff token and leaves for its authorization URL, staying busy', async () => {
    request.current = production();
    const env = environment();
    const model = await open('h_good', null, env);
    await model.startProvider('idp_example');
    expect(request.current.starts).toEqual(['idp_example']);
    expect(env.navigate).toHaveBeenCalledExactlyOnceWith(AUTHORIZATION_URL);
    expect(model.view.value).toMatchObject({ kind: 'asking', busy: 'idp_example' });
  });

  it('starts once even when the visitor presses twice, and blocks the persona picker meanwhile', async () => {
    request.current = fakeRequest({ methods: [PROVIDER_METHOD, { id: 'sandbox' }] });
    const env = environment();
    const model = await open('h_good', null, env);
    await Promise.all([
      model.startProvider('idp_example'),
      model.startProvider('idp_example'),
      sandboxOf(model).submit('approved'),
    ]);
    expect(request.current.starts).toHaveLength(1);
    expect(request.current.completions).toEqual([]);
    expect(env.navigate).toHaveBeenCalledTimes(1);
  });

  it('explains a request that finished before the provider opened, and keeps the methods after a server error', async () => {
    request.current = production();
    const env = environment();
    let model = await open('h_good', null, env);
    request.current.failNext = { status: 503, error: 'SERVICE_UNAVAILABLE' };
    await model.startProvider('idp_example');
    expect(model.view.value).toMatchObject({ kind: 'asking', busy: null, error: 'OTHER' });
    expect(env.navigate).not.toHaveBeenCalled();
    model = await open('h_good', null, env);
    request.current.failNext = { status: 409, error: 'ALREADY_FINISHED' };
    await model.startProvider('idp_example');
    expect(model.view.value).toEqual({ kind: 'problem', problem: 'ALREADY_FINISHED', retryable: false });
  });

  it('back with login=approved: the finished state, read through open', async () => {
    request.current = fakeRequest({ status: 'completed', methods: [PROVIDER_METHOD] });
    expect((await open('h_good', 'approved')).view.value).toEqual({ kind: 'finished', ending: 'approved' });
  });

  it.each(['cancelled', 'claims_missing', 'provider_error'] as const satisfies readonly FailReason[])(
    'back with login=failed: reads the request’s reason through open (%s)',
    async (reason) => {
      request.current = fakeRequest({ status: 'failed', reason, methods: [PROVIDER_METHOD] });
      expect((await open('h_good', 'failed')).view.value).toEqual({ kind: 'finished', ending: reason });
    },
  );

  it('back with login=refused: the request still waits, the methods are offered again under a notice', async () => {
    request.current = fakeRequest({ status: 'in_progress', methods: [PROVIDER_METHOD] });
    const model = await open('h_good', 'refused');
    expect(model.view.value).toMatchObject({ kind: 'asking', notice: 'refused', busy: null });
  });

  it('back with login=finished: the request ended meanwhile', async () => {
    request.current = fakeRequest({ status: 'completed', methods: [PROVIDER_METHOD] });
    expect((await open('h_good', 'finished')).view.value).toEqual({ kind: 'finished', ending: 'ended' });
  });

  it('reads the result once: loading again shows the request’s status, not the sign-in’s', async () => {
    request.current = fakeRequest({ status: 'completed', methods: [PROVIDER_METHOD] });
    const model = await open('h_good', 'approved');
    await model.load();
    expect(model.view.value).toMatchObject({ kind: 'problem', problem: 'ALREADY_FINISHED' });
  });

  it('without its handoff token (another tab), shows what the result says and asks the service nothing', async () => {
    expect((await open(null, 'approved')).view.value).toEqual({ kind: 'finished', ending: 'approved' });
    expect((await open(null, 'failed')).view.value).toEqual({ kind: 'finished', ending: 'failed' });
    expect((await open(null, 'finished')).view.value).toEqual({ kind: 'finished', ending: 'ended' });
    expect((await open(null, 'refused')).view.value).toMatchObject({ kind: 'problem', problem: 'MISSING_LINK' });
    expect(request.current.opened.status).toBe('pending');
  });

  it('explains a sign-in link the service did not know (/m/callback) without calling it', async () => {
    const model = createPhoneModel(api, 'unknown_sign_in');
    await model.load();
    expect(model.view.value).toEqual({ kind: 'finished', ending: 'link_expired' });
    expect(request.current.opened.status).toBe('pending');
  });
});

describe('phone model: the wallet on this phone (Digital Credentials API)', () => {
  it('asks the wallet first thing in the click, posts its credential with h, and shows the finished state', async () => {
    request.current = production();
    const env = environment();
    const model = await open('h_good', null, env);
    expect(model.canUseWalletHere).toBe(true);
    const done = model.useWallet();
    // synchronously, before any await: the browser requires the click's user activation
    expect(env.requestCredential).toHaveBeenCalledExactlyOnceWith([DC_REQUEST, OID4VP_DC_REQUEST]);
    expect(model.view.value).toMatchObject({ kind: 'asking', busy: 'eudi_wallet' });
    await done;
    expect(request.current.walletResponses).toEqual([
      { h: 'h_good', credential: { protocol: 'org-iso-mdoc', data: { response: 'b64-device-response' } } },
    ]);
    expect(model.view.value).toEqual({ kind: 'finished', ending: 'approved' });
  });

  it('a wallet that declines posts nothing and offers the methods again under a notice', async () => {
    request.current = production();
    const env = environment(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    const model = await open('h_good', null, env);
    await model.useWallet();
    expect(request.current.walletResponses).toEqual([]);
    expect(model.view.value).toMatchObject({ kind: 'asking', busy: null, notice: 'wallet_declined' });
  });

  it('a presentation the service refuses leaves the request waiting, the methods offered under a notice', async () => {
    request.current = production();
    request.current.walletVerdict = 'refused';
    const model = await open('h_good', null, environment());
    await model.useWallet();
    expect(model.view.value).toMatchObject({ kind: 'asking', busy: null, notice: 'wallet_refused' });
    request.current.walletVerdict = { status: 'completed' };
    await model.useWallet();
    expect(model.view.value).toEqual({ kind: 'finished', ending: 'approved' });
  });

  it('a minor’s proof ends the request as failed', async () => {
    request.current = production();
    request.current.walletVerdict = { status: 'failed', reason: 'failed' };
    const model = await open('h_good', null, environment());
    await model.useWallet();
    expect(model.view.value).toEqual({ kind: 'finished', ending: 'failed' });
  });

  it('offers no such button where the browser has no Digital Credentials API', async () => {
    request.current = production();
    const model = await open();
    expect(model.canUseWalletHere).toBe(false);
    await model.useWallet();
    expect(request.current.walletResponses).toEqual([]);
  });
});
