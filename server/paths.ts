/**
 * Where the project's own files are, whether the service runs from its TypeScript sources
 * (`server/…`, through tsx) or compiled (`dist/node/server/…`, `npm run build`): the nearest
 * folder above this module that holds package.json.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The project's root folder (the one holding package.json, fixtures/ and dist/). */
export const PROJECT_ROOT = findProjectRoot(dirname(fileURLToPath(import.meta.url)));
