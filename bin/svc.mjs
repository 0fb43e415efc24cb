#!/usr/bin/env node
// The `svc` command: runs the TypeScript CLI through tsx's loader (Node 20 has no type stripping).
import { register } from 'tsx/esm/api';

register();
await import('../server/cli.ts');
