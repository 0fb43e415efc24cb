import { describe, expect, it } from 'vitest';
import { seal, unseal } from './seal.ts';

describe('seal', () => {
  it('opens with the token it was sealed with', () => {
    const box = seal('pt_secret', 'result', '{"grant_code":"g_x"}');
    expect(unseal('pt_secret', 'result', box)).toBe('{"grant_code":"g_x"}');
  });

  it('does not contain the plaintext', () => {
    expect(seal('pt_secret', 'result', 'g_visible_grant')).not.toContain('g_visible_grant');
  });

  it('refuses another token, another purpose and a tampered box', () => {
    const box = seal('pt_secret', 'result', 'hello');
    expect(unseal('pt_other', 'result', box)).toBeNull();
    expect(unseal('pt_secret', 'replay', box)).toBeNull();
    const [v, iv, body, tag] = box.split('.');
    const flipped = body!.startsWith('A') ? `B${body!.slice(1)}` : `A${body!.slice(1)}`;
    expect(unseal('pt_secret', 'result', [v, iv, flipped, tag].join('.'))).toBeNull();
    expect(unseal('pt_secret', 'result', 'garbage')).toBeNull();
  });

  it('uses a fresh nonce every time', () => {
    expect(seal('t', 'p', 'same')).not.toBe(seal('t', 'p', 'same'));
  });
});
