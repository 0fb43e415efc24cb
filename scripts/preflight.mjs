/**
 * What `npm start`, `npm run svc`, `npm run build` and `npm run start:production` load before
 * anything else (`node --import ./scripts/preflight.mjs …`, docs/development.md): plain Node, no
 * dependency, so that a command run before `npm ci` or before the build ends in one line naming
 * the missing step instead of a stack trace.
 *
 * - The compiled service (an entry under dist/): it needs `npm run build`.
 * - Anything else runs TypeScript through tsx: it needs `npm ci`.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
const entry = process.argv[1] ?? '';
const inside = relative(fileURLToPath(root), entry);

/** The one line for the missing step, or null when nothing is missing. */
function missingStep() {
  if (inside.startsWith(`dist${sep}`)) {
    return existsSync(entry) ? null : `${inside} is not built yet: run \`npm run build\` first`;
  }
  try {
    createRequire(root).resolve('tsx');
    return null;
  } catch {
    return 'the dependencies are not installed: run `npm ci` first';
  }
}

const missing = missingStep();
if (missing) {
  console.error(`svc: ${missing}`);
  process.exit(1);
}
