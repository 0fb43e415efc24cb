import { describe, expect, it, vi } from 'vitest';
import { rememberArrival, wayBack } from './way-back.ts';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const items = new Map<string, string>();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

describe('the way back to the page that asked', () => {
  it('goes back to the site that opened the page in this tab, past a sign-in at a provider', () => {
    const storage = memoryStorage();
    // the shop's page, then the phone page: two entries
    rememberArrival(storage, 'vr_a', 'https://shop.example/checkout', 'https://verify.example', 2);
    // back from the provider: the provider's pages and the return added three
    rememberArrival(storage, 'vr_a', 'https://id.example/login', 'https://verify.example', 5);
    const history = { length: 5, go: vi.fn() };
    wayBack(storage, 'vr_a', history)!();
    expect(history.go).toHaveBeenCalledWith(-4);
  });

  it('offers nothing to a page scanned from another device, opened from itself or without storage', () => {
    const history = { length: 1, go: vi.fn() };
    const storage = memoryStorage();
    rememberArrival(storage, 'vr_b', '', 'https://verify.example', 1);
    expect(wayBack(storage, 'vr_b', history)).toBeNull();
    rememberArrival(storage, 'vr_c', 'https://verify.example/m/v/vr_x', 'https://verify.example', 2);
    expect(wayBack(storage, 'vr_c', { length: 2, go: vi.fn() })).toBeNull();
    rememberArrival(null, 'vr_d', 'https://shop.example/', 'https://verify.example', 2);
    expect(wayBack(null, 'vr_d', { length: 2, go: vi.fn() })).toBeNull();
  });

  it('keeps no more than the history’s length: never the site’s address', () => {
    const storage = memoryStorage();
    rememberArrival(storage, 'vr_e', 'https://shop.example/secret-path?cart=1', 'https://verify.example', 3);
    expect(storage.getItem('svc-phone-back:vr_e')).toBe('3');
  });
});
