/**
 * Test support: the sandbox personas (fixtures/personas.json) as the sandbox wing loads them
 * (sandbox/deps.ts). AppDeps names no persona: a test that needs one, or calls the wing's
 * functions directly, takes them from here.
 */
import type { Persona } from '../../src/protocol/sandbox.ts';
import type { SandboxDeps } from '../sandbox/deps.ts';
import { findPersona, loadPersonas } from '../sandbox/personas.ts';

export const PERSONAS: readonly Persona[] = loadPersonas();

/**
 * The persona of that id; throws for one the fixtures do not have.
 *
 * @example personaOf('fr-adult-f').birth_date // '1998-07-02'
 */
export function personaOf(id: string): Persona {
  const persona = findPersona(PERSONAS, id);
  if (!persona) throw new Error(`no persona "${id}" in fixtures/personas.json`);
  return persona;
}

/**
 * `deps` with the sandbox wing's own (the personas), as app.ts gives them to the persona picker.
 *
 * @example await completeRequest(withSandbox(t.deps), record, { outcome: 'approved', method: 'face_check', personaId: 'fr-adult-m' })
 */
export function withSandbox<D extends object>(deps: D): D & SandboxDeps {
  return { ...deps, personas: PERSONAS };
}
