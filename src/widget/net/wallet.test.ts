import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VerifyRequestCreated } from '../../protocol/wire.ts';
import { postWalletResponse } from './wallet.ts';

const created: VerifyRequestCreated = {
  request_id: 'vr_1',
  poll_token: 'pt_1',
  deep_link: 'https://svc.test/m/v/vr_1#h=h_1',
  expires_at: 0,
  poll_after_ms: 1000,
  wallet_link: 'av://?x',
  dc_request: { protocol: 'org-iso-mdoc', data: { deviceRequest: 'dr', encryptionInfo: 'ei' } },
};

afterEach(() => vi.unstubAllGlobals());

describe('postWalletResponse (design.md §11)', () => {
  it('posts the credential as text/plain JSON with the poll token, and is true when accepted', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const credential = { protocol: 'org-iso-mdoc', data: { response: 'abc' } };
    expect(await postWalletResponse('https://svc.test', created, Promise.resolve(credential))).toBe(true);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://svc.test/api/w/wallet-response/vr_1?pt=pt_1');
    // what goes on the wire: a simple request (no preflight), text/plain by the Fetch standard's default
    const sent = new Request(url, init);
    expect(sent.method).toBe('POST');
    expect(sent.headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    expect(await sent.json()).toEqual(credential);
  });

  it('is false, without posting, when the wallet declines (the promise rejects)', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    expect(
      await postWalletResponse(
        'https://svc.test',
        created,
        Promise.reject(new DOMException('declined', 'NotAllowedError')),
      ),
    ).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('is false when the service refuses the answer', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"error":"invalid_request"}', { status: 400 })),
    );
    expect(
      await postWalletResponse('https://svc.test', created, Promise.resolve({ protocol: 'org-iso-mdoc', data: {} })),
    ).toBe(false);
  });
});
