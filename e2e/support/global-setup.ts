/** The journeys test what ships: refuse to run against a missing build rather than time out. */
import { existsSync } from 'node:fs';

export default function globalSetup(): void {
  if (!existsSync(new URL('../../dist/v4/loader.min.js', import.meta.url))) {
    throw new Error('dist/v4/loader.min.js is missing: run `npm run build` before `npm run test:e2e`.');
  }
}
