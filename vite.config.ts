/**
 * Vite settings shared by every widget build (scripts/build.ts runs the builds: loader, UI
 * bundle, phone and demo pages), and the dev server for designers: `npx vite` serves src/, so
 * http://localhost:5173/demo/ is the demo page with hot reload.
 */
import { defineConfig, type UserConfig } from 'vite';

/** Preact's automatic JSX runtime (Vite 8 transforms with Oxc). */
export const oxc: UserConfig['oxc'] = { jsx: { runtime: 'automatic', importSource: 'preact' } };

export default defineConfig({
  root: 'src',
  oxc,
});
