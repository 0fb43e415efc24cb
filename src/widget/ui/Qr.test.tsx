import qrcode from 'qrcode-generator';
import { render } from 'preact';
import { describe, expect, it } from 'vitest';
import { qrBitsOf } from '../../protocol/qr.ts';
import { Qr } from './Qr.tsx';

const LINK = 'http://localhost:8787/m/v/vr_AAAAAAAAAAAAAAAAAAAAAA#h=h_' + 'y'.repeat(43);

function drawn(precomputed?: unknown): { d: string | null; viewBox: string | null } {
  const host = document.createElement('div');
  render(<Qr text={LINK} label="QR" precomputed={precomputed} />, host);
  const svg = host.querySelector('svg');
  return { d: svg?.querySelector('path')?.getAttribute('d') ?? null, viewBox: svg?.getAttribute('viewBox') ?? null };
}

describe('Qr', () => {
  it('draws the precomputed modules exactly as it would have encoded them itself', () => {
    const qr = qrcode(0, 'M');
    qr.addData(LINK);
    qr.make();
    const precomputed = qrBitsOf(qr.getModuleCount(), (y, x) => qr.isDark(y, x));
    expect(drawn(precomputed)).toEqual(drawn(undefined));
    expect(drawn(precomputed).viewBox).toBe(`-4 -4 ${qr.getModuleCount() + 8} ${qr.getModuleCount() + 8}`);
  });

  it('draws what the service sent, not a re-encoding', () => {
    const square = qrBitsOf(21, (y, x) => y < 2 && x < 2);
    expect(drawn(square).d).toBe('M0 0h2v1h-2zM0 1h2v1h-2z');
  });

  it('encodes the link itself when the precomputed code is malformed', () => {
    expect(drawn({ size: 9999, bits: 'x' })).toEqual(drawn(undefined));
  });
});
