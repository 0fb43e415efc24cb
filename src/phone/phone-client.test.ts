import { describe, expect, it } from 'vitest';
import { createPhoneApi } from './phone-client.ts';

/** A fetch that answers 200 `{}` and keeps each call's credentials mode. */
function recordingFetch() {
  const modes: Array<[string, RequestCredentials | undefined]> = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    modes.push([String(input), init?.credentials]);
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { modes, fetchImpl };
}

describe('the phone page API', () => {
  it('sends and keeps cookies only on a provider start, where the login cookie is set (docs/providers.md, "One browser")', async () => {
    const { modes, fetchImpl } = recordingFetch();
    const api = createPhoneApi(fetchImpl);
    await api.open('vr_1', 'h_1');
    await api.startProvider('vr_1', 'idp_example', 'h_1');
    await api.sendWalletResponse('vr_1', { h: 'h_1', credential: {} });
    expect(modes).toEqual([
      ['/api/m/requests/vr_1/open', 'omit'],
      ['/api/m/requests/vr_1/providers/idp_example/start', 'same-origin'],
      ['/api/m/requests/vr_1/wallet-response', 'omit'],
    ]);
  });
});
