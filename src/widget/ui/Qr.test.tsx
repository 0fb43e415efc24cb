import { render } from 'preact';
import { describe, expect, it } from 'vitest';
import { qrBitsOf } from '../../protocol/qr.ts';
import { Qr, qrDrawing } from './Qr.tsx';

function drawn(precomputed: unknown): { d: string | null; viewBox: string | null } | null {
  const drawing = qrDrawing(precomputed);
  if (!drawing) return null;
  const host = document.createElement('div');
  render(<Qr drawing={drawing} label="QR" least={200} />, host);
  const svg = host.querySelector('svg');
  return { d: svg?.querySelector('path')?.getAttribute('d') ?? null, viewBox: svg?.getAttribute('viewBox') ?? null };
}

describe('Qr', () => {
  it('draws what the service sent, with the quiet zone inside the viewBox', () => {
    const square = qrBitsOf(21, (y, x) => y < 2 && x < 2);
    expect(drawn(square)).toEqual({ d: 'M0 0h2v1h-2zM0 1h2v1h-2z', viewBox: '-4 -4 29 29' });
  });

  it('has nothing to draw when the modules are absent or malformed (the widget carries no encoder)', () => {
    expect(qrDrawing(undefined)).toBeNull();
    expect(qrDrawing({ size: 9999, bits: 'x' })).toBeNull();
    expect(qrDrawing({ size: 21, bits: '!!' })).toBeNull();
  });

  it('draws the same modules once, not on every countdown tick', () => {
    const modules = qrBitsOf(21, (y, x) => (x + y) % 3 === 0);
    expect(qrDrawing(modules)).toBe(qrDrawing(modules));
  });
});
