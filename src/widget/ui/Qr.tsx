/**
 * @jsxRuntime classic
 * @jsx h
 */
import { h } from 'preact';
import { readQrBits, svgPathOf } from '../../protocol/qr.ts';

/** A QR code ready to draw: one SVG path over a `size`×`size` grid of modules. */
export interface QrDrawing {
  path: string;
  size: number;
}

let cached: { qr: unknown; drawn: QrDrawing | null } | undefined;

/**
 * The modules the service sent with the request, as one SVG path; null when they are absent or
 * malformed. The widget carries no encoder (the service encodes, the UI only draws:
 * docs/development.md#building-the-widget).
 *
 * @example qrDrawing(created.qr)?.size // 41
 */
export function qrDrawing(qr: unknown): QrDrawing | null {
  if (!cached || cached.qr !== qr) {
    const reader = readQrBits(qr);
    cached = { qr, drawn: reader && { size: reader.size, path: svgPathOf(reader.size, reader.isDark) } };
  }
  return cached!.drawn;
}

/**
 * The QR code of the deep link: dark modules on a light tile in every theme, with the
 * four-module quiet zone inside the viewBox so the tile itself carries it. Its side in CSS pixels
 * is `least` (200, or 160 in the compact card), or 3 a module for a denser code, such as the
 * wallet link's (about 100 modules, docs/embedding.md#client-proof-mode-eudi-wallets), so that
 * a phone's camera still reads it; the stylesheet shrinks it to a narrower card.
 */
export function Qr({ drawing: { path, size }, label, least }: { drawing: QrDrawing; label: string; least: number }) {
  const side = Math.max(least, 3 * (size + 8));
  return (
    <svg
      class="qr"
      width={side}
      height={side}
      viewBox={`-4 -4 ${size + 8} ${size + 8}`}
      role="img"
      aria-label={label}
      data-testid="svc-qr"
      shape-rendering="crispEdges"
    >
      <path d={path} />
    </svg>
  );
}
