/**
 * The wire form of a QR code (`VerifyRequestCreated.qr`): its modules as bits, row-major, most
 * significant bit first, base64. The service sends it precomputed with the verify-request
 * answer because encoding a QR code (which tries eight masks) costs tens of milliseconds in a
 * browser's cold JavaScript engine, on the path to the first paint; the widget only draws it,
 * and shows the deep link as a link when the field is absent or malformed. Imports nothing:
 * each side passes in its encoder's module reader.
 */
export interface QrModules {
  /** modules per side: 21 (version 1) to 177 (version 40) */
  size: number;
  /** size×size bits, row-major, MSB first, base64 (with padding) */
  bits: string;
}

type IsDark = (row: number, col: number) => boolean;

/** @example qrBitsOf(qr.getModuleCount(), (y, x) => qr.isDark(y, x)) */
export function qrBitsOf(size: number, isDark: IsDark): QrModules {
  const bytes = new Uint8Array(Math.ceil((size * size) / 8));
  for (let i = 0; i < size * size; i++) if (isDark(Math.floor(i / size), i % size)) bytes[i >> 3]! |= 0x80 >> (i & 7);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return { size, bits: btoa(binary) };
}

/** The module reader of a wire QR code, or null when it is malformed. */
export function readQrBits(qr: unknown): { size: number; isDark: IsDark } | null {
  // what the checks below make true: Number.isInteger is false for anything but a number
  const { size, bits } = (qr ?? {}) as QrModules;
  if (!Number.isInteger(size) || size < 21 || size > 177 || typeof bits !== 'string') return null;
  let binary: string;
  try {
    binary = atob(bits);
  } catch {
    return null;
  }
  if (binary.length !== Math.ceil((size * size) / 8)) return null;
  return { size, isDark: (y, x) => ((binary.charCodeAt((y * size + x) >> 3) << ((y * size + x) & 7)) & 0x80) !== 0 };
}

/**
 * One SVG path for all dark modules, a horizontal run per subpath (small and crisp).
 *
 * @example svgPathOf(21, isDark) // "M0 0h7v1h-7zM8 0h1v1h-1z…"
 */
export function svgPathOf(size: number, isDark: IsDark): string {
  let path = '';
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size;) {
      let run = 0;
      while (x + run < size && isDark(y, x + run)) run++;
      if (run) path += `M${x} ${y}h${run}v1h-${run}z`;
      x += run || 1;
    }
  }
  return path;
}
