/**
 * Vite settings shared by every widget build (scripts/build.ts runs the builds: loader, UI
 * bundle, phone and demo pages), and the dev server for designers: `npx vite` serves src/, so
 * http://localhost:5173/demo/ is the demo page with hot reload.
 */
import { defineConfig, type UserConfig } from 'vite';

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

export default defineConfig({
  root: 'src',
  oxc,
  build: { rolldownOptions: { treeshake: { moduleSideEffects } } },
});
