/** The deep link's QR code, precomputed for the widget (see src/protocol/qr.ts for why). */
import qrcode from 'qrcode-generator';
import { qrBitsOf, type QrModules } from '../../src/protocol/qr.ts';

/**
 * Error correction M, as the widget's own fallback encoder uses, so both draw the same code.
 *
 * @example encodeQr('https://svc.example/m/v/vr_…#h=h_…') // { size: 41, bits: '/sF…' }
 */
export function encodeQr(text: string): QrModules {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  return qrBitsOf(qr.getModuleCount(), (y, x) => qr.isDark(y, x));
}
