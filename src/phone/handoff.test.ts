import { describe, expect, it } from 'vitest';
import { isCallbackPage, readHandoff, takeHandoff } from './handoff.ts';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('phone handoff', () => {
  it('reads the request ID from the path and h from the fragment', () => {
    expect(readHandoff('/m/v/vr_abc-123', '#h=h_xyz')).toEqual({ requestId: 'vr_abc-123', h: 'h_xyz', login: null });
  });

  it('refuses paths that are not a phone link', () => {
    for (const path of ['/m/v/', '/m/v/abc', '/m/v/vr_a/b', '/x/v/vr_a', '/m/v/vr_%3Cscript%3E'])
      expect(readHandoff(path, '#h=h_x'), path).toBeNull();
  });

  it('reports a link without h as missing its token', () => {
    expect(readHandoff('/m/v/vr_a', '')).toEqual({ requestId: 'vr_a', h: null, login: null });
    expect(readHandoff('/m/v/vr_a', '#other=1')).toEqual({ requestId: 'vr_a', h: null, login: null });
  });

  it('reads how an identity provider’s sign-in ended from ?login=, ignoring anything else', () => {
    for (const login of ['approved', 'failed', 'refused', 'finished'] as const)
      expect(readHandoff('/m/v/vr_a', '', `?login=${login}`)?.login).toBe(login);
    for (const search of ['?login=hacked', '?login=', '?x=approved', ''])
      expect(readHandoff('/m/v/vr_a', '', search)?.login, search).toBeNull();
  });

  it('knows the callback page, where the service found no sign-in of ours', () => {
    expect(isCallbackPage('/m/callback')).toBe(true);
    expect(isCallbackPage('/m/v/vr_a')).toBe(false);
  });

  it('clears ?login= from the address bar once read, keeping the rest of the query', () => {
    const calls: string[] = [];
    const history = {
      state: null,
      replaceState: (_s: unknown, _t: string, url?: string | URL | null) => void calls.push(String(url)),
    };
    const storage = memoryStorage();
    storage.setItem('svc-phone-h:vr_a', 'h_1');
    const handoff = takeHandoff({ pathname: '/m/v/vr_a', search: '?login=refused&x=1', hash: '' }, history, storage);
    expect(handoff).toEqual({ requestId: 'vr_a', h: 'h_1', login: 'refused' });
    takeHandoff({ pathname: '/m/v/vr_a', search: '?login=approved', hash: '' }, history, storage);
    takeHandoff({ pathname: '/m/v/vr_a', search: '?x=1', hash: '' }, history, storage);
    expect(calls).toEqual(['/m/v/vr_a?x=1', '/m/v/vr_a']);
  });

  it('clears the fragment from the address bar, keeping path and query', () => {
    const calls: string[] = [];
    const history = {
      state: null,
      replaceState: (_s: unknown, _t: string, url?: string | URL | null) => void calls.push(String(url)),
    };
    takeHandoff({ pathname: '/m/v/vr_a', search: '?x=1', hash: '#h=h_1' }, history, memoryStorage());
    expect(calls).toEqual(['/m/v/vr_a?x=1']);
  });

  it('remembers h for this tab so a reload after clearing still works', () => {
    const storage = memoryStorage();
    const history = { state: null, replaceState: () => {} };
    expect(takeHandoff({ pathname: '/m/v/vr_a', search: '', hash: '#h=h_1' }, history, storage)?.h).toBe('h_1');
    expect(takeHandoff({ pathname: '/m/v/vr_a', search: '', hash: '' }, history, storage)?.h).toBe('h_1');
    expect(takeHandoff({ pathname: '/m/v/vr_b', search: '', hash: '' }, history, storage)?.h).toBeNull();
  });

  it('works when storage is unavailable', () => {
    const throwing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(
      takeHandoff(
        { pathname: '/m/v/vr_a', search: '', hash: '#h=h_1' },
        { state: null, replaceState: () => {} },
        throwing,
      )?.h,
    ).toBe('h_1');
  });
});
