/** The journeys test what ships: refuse to run against a missing build rather than time out. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export default function globalSetup(): void {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const loader = join(resolve(root, process.env.SVC_DIST_DIR || 'dist'), 'v4', 'loader.min.js');
  if (!existsSync(loader)) throw new Error(`${loader} is missing: run \`npm run build\` before \`npm run test:e2e\`.`);
}
