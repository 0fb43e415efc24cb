#!/usr/bin/env node
// The `svc` command. Runs the compiled CLI (dist/node/, made by `npm run build`) when it exists, as
// production does; otherwise the TypeScript sources through tsx, a development dependency.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/node/server/cli.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../server/cli.ts');
}
