import qrcode from 'qrcode-generator';

let cached: { text: string; path: string; size: number } | undefined;

/** One SVG path for all dark modules, a horizontal run per subpath (small and crisp). */
function modules(text: string): { path: string; size: number } {
  if (cached?.text === text) return cached;
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const size = qr.getModuleCount();
  let path = '';
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; ) {
      let run = 0;
      while (x + run < size && qr.isDark(y, x + run)) run++;
      if (run) path += `M${x} ${y}h${run}v1h-${run}z`;
      x += run || 1;
    }
  }
  cached = { text, path, size };
  return cached;
}

/**
 * The QR code of the deep link: dark modules on a light tile in every theme, with the
 * four-module quiet zone inside the viewBox so the tile itself carries it.
 */
export function Qr({ text, label }: { text: string; label: string }) {
  const { path, size } = modules(text);
  return (
    <svg class="qr" viewBox={`-4 -4 ${size + 8} ${size + 8}`} role="img" aria-label={label} data-testid="svc-qr" shape-rendering="crispEdges">
      <path d={path} />
    </svg>
  );
}
