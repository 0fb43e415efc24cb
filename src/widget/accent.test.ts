import { describe, expect, it } from 'vitest';
import {
  BACKGROUNDS,
  MIN_CONTRAST,
  accentCss,
  contrast,
  linearChannel,
  luminance,
  readableOn,
  textOnLuminance,
} from './accent.ts';

const hex = (r: number, g: number, b: number): string =>
  '#' + [r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('');

/** Every #rgb colour (4,096) and a deterministic spread of #rrggbb ones. */
function* sweep(): Generator<string> {
  for (let r = 0; r < 16; r++) {
    for (let g = 0; g < 16; g++) for (let b = 0; b < 16; b++) yield '#' + [r, g, b].map((c) => c.toString(16)).join('');
  }
  for (let r = 0; r < 256; r += 15)
    for (let g = 0; g < 256; g += 15) for (let b = 0; b < 256; b += 15) yield hex(r, g, b);
}

describe('accent contrast', () => {
  it('computes WCAG relative luminance and contrast (known values)', () => {
    expect(luminance('#000')).toBe(0);
    expect(luminance('#ffffff')).toBeCloseTo(1, 10);
    expect(contrast(luminance('#000'), luminance('#fff'))).toBeCloseTo(21, 10);
    // #777 on white is the classic 4.48:1 near miss
    expect(contrast(luminance('#777'), 1)).toBeCloseTo(4.48, 2);
    expect(luminance('#0a7d4f')).toBeCloseTo(0.153, 3);
    expect(contrast(luminance('#0a7d4f'), 1)).toBeCloseTo(5.17, 2);
    expect(luminance('#abc')).toBe(luminance('#aabbcc'));
  });

  it('finds black or white text at 4.5:1 or better on every one of the 16,777,216 sRGB colours', () => {
    // Luminance is a weighted sum of three per-channel terms: tabulate them, then walk every colour.
    const lin = Array.from({ length: 256 }, (_, c) => linearChannel(c));
    let worst = Infinity;
    let worstColour = '';
    for (let r = 0; r < 256; r++) {
      for (let g = 0; g < 256; g++) {
        const rg = 0.2126 * lin[r]! + 0.7152 * lin[g]!;
        for (let b = 0; b < 256; b++) {
          const l = rg + 0.0722 * lin[b]!;
          const ratio = contrast(l, textOnLuminance(l) === '#000' ? 0 : 1);
          if (ratio < worst) [worst, worstColour] = [ratio, hex(r, g, b)];
        }
      }
    }
    expect(worst).toBeGreaterThanOrEqual(MIN_CONTRAST);
    // the analytic floor: black and white tie at (l + 0.05)² = 0.05 × 1.05, i.e. √21 / 1 ≈ 4.58:1
    expect(worst).toBeCloseTo(Math.sqrt(21), 1);
    expect(luminance(worstColour)).toBeCloseTo(0.179, 2);
  });

  it('picks whichever of black and white contrasts more', () => {
    for (const colour of sweep()) {
      const l = luminance(colour);
      const chosen = contrast(l, textOnLuminance(l) === '#000' ? 0 : 1);
      expect(chosen, colour).toBe(Math.max(contrast(l, 0), contrast(l, 1)));
    }
    expect(textOnLuminance(luminance('#0a7d4f'))).toBe('#fff');
    expect(textOnLuminance(luminance('#ffc72c'))).toBe('#000');
  });

  it('keeps link and focus colours at 4.5:1 on both card backgrounds, and the accent itself when it already reads', () => {
    for (const colour of sweep()) {
      const dark = readableOn(colour, BACKGROUNDS.dark, '#fff');
      const light = readableOn(colour, BACKGROUNDS.light, '#000');
      const onDark = contrast(luminance(dark), luminance(BACKGROUNDS.dark));
      const onLight = contrast(luminance(light), luminance(BACKGROUNDS.light));
      expect(onDark, `${colour} on dark → ${dark}`).toBeGreaterThanOrEqual(MIN_CONTRAST);
      expect(onLight, `${colour} on light → ${light}`).toBeGreaterThanOrEqual(MIN_CONTRAST);
      if (contrast(luminance(colour), luminance(BACKGROUNDS.light)) >= MIN_CONTRAST)
        expect(light).toBe(hex(...rgbOf(colour)));
    }
    expect(readableOn('#0a7d4f', BACKGROUNDS.light, '#000')).toBe('#0a7d4f');
    expect(readableOn('#0a7d4f', BACKGROUNDS.dark, '#fff')).not.toBe('#0a7d4f');
  });

  it('writes one small stylesheet: button colours and a link colour per theme, the auto theme following the system', () => {
    const css = accentCss('#0a7d4f');
    expect(css).toContain('.card{--a:#0a7d4f;--on:#fff}');
    expect(css).toMatch(/^[^<>"'\\]*$/);
    expect(css).toMatch(
      /\.dark,\.auto\{--lk:#[\da-f]{6}\}\.light\{--lk:#0a7d4f\}@media\(prefers-color-scheme:light\)\{\.auto\{--lk:#0a7d4f\}\}$/,
    );
  });
});

/** `#rgb` or `#rrggbb` as [r, g, b]. */
function rgbOf(colour: string): [number, number, number] {
  const digits = colour.length === 4 ? colour.slice(1).replace(/./g, '$&$&') : colour.slice(1);
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as [number, number, number];
}
