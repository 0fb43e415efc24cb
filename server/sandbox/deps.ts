/**
 * What the sandbox wing needs beyond AppDeps: the personas (fixtures/personas.json). Built by the
 * composition root (app.ts) in sandbox mode only, through a dynamic import(), so a production
 * process never reads the personas and AppDeps names none (docs/design.md §4).
 */
import type { Persona } from '../../src/protocol/sandbox.ts';
import type { AppDeps } from '../deps.ts';
import { loadPersonas } from './personas.ts';

export interface SandboxDeps {
  personas: readonly Persona[];
}

/** The app's dependencies with the sandbox wing's: what the persona picker's routes are given. */
export type SandboxAppDeps = AppDeps & SandboxDeps;

/** @example registerSandboxPhoneRoutes(app, deps, loadSandboxDeps()) */
export function loadSandboxDeps(): SandboxDeps {
  return { personas: loadPersonas() };
}
