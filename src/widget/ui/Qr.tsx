import qrcode from 'qrcode-generator';
import { readQrBits, svgPathOf } from '../../protocol/qr.ts';

let cached: { text: string; precomputed: unknown; path: string; size: number } | undefined;

/** The deep link's modules: as the service precomputed them, else encoded here (error correction M). */
function modules(text: string, precomputed: unknown): { path: string; size: number } {
  if (cached?.text === text && cached.precomputed === precomputed) return cached;
  let reader = readQrBits(precomputed);
  if (!reader) {
    const qr = qrcode(0, 'M');
    qr.addData(text);
    qr.make();
    reader = { size: qr.getModuleCount(), isDark: (y, x) => qr.isDark(y, x) };
  }
  cached = { text, precomputed, size: reader.size, path: svgPathOf(reader.size, reader.isDark) };
  return cached;
}

/**
 * The QR code of the deep link: dark modules on a light tile in every theme, with the
 * four-module quiet zone inside the viewBox so the tile itself carries it.
 */
export function Qr({ text, label, precomputed }: { text: string; label: string; precomputed?: unknown }) {
  const { path, size } = modules(text, precomputed);
  return (
    <svg class="qr" viewBox={`-4 -4 ${size + 8} ${size + 8}`} role="img" aria-label={label} data-testid="svc-qr" shape-rendering="crispEdges">
      <path d={path} />
    </svg>
  );
}
