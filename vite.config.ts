/**
 * Vite settings shared by every widget build (scripts/build.ts runs the builds: loader, UI
 * bundle, phone and demo pages), and the dev server for designers: `npx vite` serves src/, so
 * http://localhost:5173/demo/ is the demo page with hot reload.
 */
import { defineConfig, parseAst, type Plugin, type UserConfig } from 'vite';

/** Preact's automatic JSX runtime (Vite 8 transforms with Oxc). */
export const oxc: UserConfig['oxc'] = { jsx: { runtime: 'automatic', importSource: 'preact' } };

/**
 * The widget imports only the core primitives from @preact/signals (signal, computed, effect,
 * batch): its views re-render from one effect, so the Preact integration (options hooks,
 * useSignal) is dead weight. The package is not marked side-effect free, so say it here: its
 * module is then dropped and only @preact/signals-core remains (−2 KB gzip).
 */
export function moduleSideEffects(id: string): boolean {
  return !/[\\/]@preact[\\/]signals[\\/]dist[\\/]/.test(id);
}

/** The qrcode-generator methods the widget never calls (it draws its own SVG from isDark). */
export const QRCODE_UNUSED = ['createTableTag', 'createSvgTag', 'createDataURL', 'createImgTag', 'createASCII', 'renderTo2dContext', 'createStringToBytes'];

/**
 * qrcode-generator is one factory that attaches every output format (table, SVG, GIF data URL,
 * ASCII, canvas) to the object it returns, so no bundler can drop the ones never called. This
 * plugin deletes those assignments from the module's syntax tree; the GIF encoder, base64
 * streams and SJIS table they alone used then fall out as dead code (about 3 KB gzip of the
 * UI bundle's 18 KB budget). If the library changes shape, the build fails here rather than
 * shipping the dead weight silently.
 */
export function trimQrcode(): Plugin {
  return {
    name: 'svc:trim-qrcode',
    transform(code, id) {
      if (!/[\\/]qrcode-generator[\\/]dist[\\/]qrcode\.mjs$/.test(id)) return null;
      const cuts: Array<[number, number]> = [];
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        const n = node as { type?: string; expression?: { type?: string; left?: { type?: string; property?: { name?: string } } }; start: number; end: number };
        const left = n.expression?.left;
        if (n.type === 'ExpressionStatement' && n.expression?.type === 'AssignmentExpression' && left?.type === 'MemberExpression' && QRCODE_UNUSED.includes(left.property?.name ?? '')) {
          cuts.push([n.start, n.end]);
          return;
        }
        for (const value of Object.values(node)) {
          if (Array.isArray(value)) value.forEach(visit);
          else if (value && typeof value === 'object') visit(value);
        }
      };
      visit(parseAst(code));
      if (cuts.length !== QRCODE_UNUSED.length) {
        this.error(`svc:trim-qrcode: expected ${QRCODE_UNUSED.length} unused methods in qrcode-generator, found ${cuts.length}; check QRCODE_UNUSED against the installed version`);
      }
      let trimmed = code;
      for (const [start, end] of cuts.sort((a, b) => b[0] - a[0])) trimmed = trimmed.slice(0, start) + trimmed.slice(end);
      return { code: trimmed, map: null };
    },
  };
}

export default defineConfig({
  root: 'src',
  oxc,
  plugins: [trimQrcode()],
  build: { rolldownOptions: { treeshake: { moduleSideEffects } } },
});
