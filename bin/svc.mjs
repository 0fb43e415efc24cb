#!/usr/bin/env node
// The `svc` command. Runs the compiled CLI (dist/node/, made by `npm run build`) when it exists, as
// production does; otherwise the TypeScript sources through tsx, a development dependency.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/node/server/cli.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    console.error(
      'svc: the dependencies are not installed: run `npm ci` first (or `npm run build` for the compiled CLI)',
    );
    process.exit(1);
  }
  register();
  await import('../server/cli.ts');
}
