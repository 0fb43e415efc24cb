import qrcode from 'qrcode-generator';
import { describe, expect, it } from 'vitest';
import { qrBitsOf, readQrBits, svgPathOf } from '../../src/protocol/qr.ts';
import { encodeQr } from './qr.ts';

const LINK = 'http://localhost:8787/m/v/vr_3q2-7wAAAAAAAAAAAAAAAA#h=h_' + 'x'.repeat(43);

describe('the precomputed QR code', () => {
  it('carries exactly the modules the widget would encode itself', () => {
    const reference = qrcode(0, 'M');
    reference.addData(LINK);
    reference.make();
    const wire = readQrBits(encodeQr(LINK))!;
    expect(wire.size).toBe(reference.getModuleCount());
    for (let y = 0; y < wire.size; y++)
      for (let x = 0; x < wire.size; x++) expect(wire.isDark(y, x)).toBe(reference.isDark(y, x));
    expect(svgPathOf(wire.size, wire.isDark)).toBe(
      svgPathOf(reference.getModuleCount(), (r, c) => reference.isDark(r, c)),
    );
  });

  it('is a few hundred characters on the wire', () => {
    expect(encodeQr(LINK).bits.length).toBeLessThan(400);
  });

  it.each([
    ['nothing', undefined],
    ['a size out of range', { size: 20, bits: '' }],
    ['a size that is not an integer', { size: 21.5, bits: 'AA==' }],
    ['bits that are not base64', { size: 21, bits: '!!!' }],
    ['too few bits', { size: 21, bits: btoa('\u0000') }],
    ['bits that are not a string', { size: 21, bits: 42 }],
  ])('is refused when malformed (%s), so the widget encodes the link itself', (_name, value) => {
    expect(readQrBits(value)).toBeNull();
  });

  it('round-trips any grid through bits', () => {
    const dark = (y: number, x: number) => (y * 31 + x * 17) % 3 === 0;
    const back = readQrBits(qrBitsOf(21, dark))!;
    for (let y = 0; y < 21; y++) for (let x = 0; x < 21; x++) expect(back.isDark(y, x)).toBe(dark(y, x));
  });

  it('draws one subpath per horizontal run of dark modules', () => {
    expect(svgPathOf(21, (y, x) => y === 0 && x < 3)).toBe('M0 0h3v1h-3z');
  });
});
